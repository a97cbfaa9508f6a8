// SPDX-License-Identifier: GPL-2.0
/*
 * Proves the harness: a BPF-LSM program from bpf/ loads, attaches, denies
 * opening one file with ENOTCAPABLE (for root and for an unprivileged
 * child), leaves other files alone, and stops denying once detached. As an
 * unprivileged user, proves the other half of the threat model: such a
 * process cannot load an LSM program at all.
 */
#define _GNU_SOURCE
#include "selftest.h"

#include "harness_deny.skel.h"

#include <sys/capsicum.h>

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

/* Returns 0 if path opens read-only, else the errno. */
static int try_open(const char *path)
{
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/* Same, from a child that has dropped to uid/gid 1000. */
static int try_open_as_user(const char *path)
{
	pid_t pid = fork();

	if (pid == 0) {
		if (setgid(1000) || setuid(1000))
			_exit(255);
		_exit(try_open(path));
	}
	return selftest_wait(pid);
}

static int make_file(char *path)
{
	int fd = mkstemp(path);

	if (fd < 0)
		return -1;
	/* World-readable so the unprivileged child is only stopped by us. */
	fchmod(fd, 0644);
	close(fd);
	return 0;
}

SELFTEST(harness_lsm_denies_then_detaches)
{
	char target[] = "/tmp/harness-target.XXXXXX";
	char other[] = "/tmp/harness-other.XXXXXX";
	struct harness_deny_bpf *skel = NULL;
	struct stat st;

	if (!selftest_is_root()) {
		/* An unprivileged process must not get an LSM program in. */
		skel = harness_deny_bpf__open_and_load();
		ASSERT_TRUE(skel == NULL, "unprivileged load refused");
		ASSERT_EQ(errno, EPERM, "unprivileged load errno");
		harness_deny_bpf__destroy(skel);
		return;
	}
	if (!ASSERT_OK(make_file(target), "mkstemp target") ||
	    !ASSERT_OK(make_file(other), "mkstemp other") ||
	    !ASSERT_OK(stat(target, &st), "stat target"))
		goto cleanup;

	skel = harness_deny_bpf__open_and_load();
	if (!ASSERT_OK_PTR(skel, "open_and_load"))
		goto cleanup;
	skel->bss->target_ino = st.st_ino;
	/* The kernel's dev_t: major in the top 12 bits, minor in the low 20. */
	skel->bss->target_dev = major(st.st_dev) << 20 | minor(st.st_dev);
	ASSERT_EQ(try_open(target), 0, "open before attach");
	if (!ASSERT_OK(harness_deny_bpf__attach(skel), "attach"))
		goto cleanup;

	ASSERT_EQ(try_open(target), ENOTCAPABLE, "root open while attached");
	ASSERT_EQ(try_open_as_user(target), ENOTCAPABLE,
		  "uid 1000 open while attached");
	ASSERT_EQ(try_open(other), 0, "other file while attached");
	ASSERT_EQ(skel->bss->denials, 2, "denial counter");

	harness_deny_bpf__detach(skel);
	ASSERT_EQ(try_open(target), 0, "open after detach");
	ASSERT_EQ(skel->bss->denials, 2, "no denial after detach");
cleanup:
	harness_deny_bpf__destroy(skel);
	unlink(target);
	unlink(other);
}
