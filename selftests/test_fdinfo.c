// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/PID/fdinfo/FD: the patched kernel (kernel/ 0005,
 * bpf/fdinfo.bpf.h) ends it with the descriptor's rights, as the 2014
 * Linux Capsicum series printed them:
 *
 *   rights:\t%#016llx\t%#016llx
 *    fcntls: %#08x              (CAP_FCNTL held, the mask narrowed)
 *    ioctls:\t%#08llx\t...      (CAP_IOCTL held, a list set)
 *
 * (the kernel's printf: "%#08x" of 0 is "0x000000", not glibc's
 * "00000000"; so the test writes "0x%06x" and the like),
 * and nothing for a descriptor nothing narrows. The rights are the
 * shown process's, whoever reads them. Stock kernels cannot print the
 * line: each test pins that it is absent there.
 */
#define _GNU_SOURCE
#include "fixture.h"
#include "selftest.h"

#include <bpf/btf.h>
#include <capsicum/abi.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capsicum.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

/* The kernel asks security_fd_rights() when it prints fdinfo. */
static bool kernel_prints_rights(void)
{
	struct btf *btf = btf__load_vmlinux_btf();
	bool has;

	if (!btf)
		return false;
	has = btf__find_by_name_kind(btf, "bpf_lsm_fd_rights", BTF_KIND_FUNC) >=
	      0;
	btf__free(btf);
	return has;
}

static bool need_loaded(void)
{
	if (!fixture_loaded())
		selftest_skip("capsicum not loaded");
	/* The patched kernel of this tree has the hook: never skip it. */
	if (fixture_patched_kernel())
		return ASSERT_TRUE(kernel_prints_rights(), "fd_rights hook");
	return true;
}

/* The fdinfo text (at dirfd, relative path), NUL-terminated; false if not. */
static bool read_fdinfo_at(int dirfd, const char *path, char *buf, size_t len)
{
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	size_t got = 0;
	ssize_t n;

	if (!ASSERT_OK(fd, path))
		return false;
	while (got < len - 1 && (n = read(fd, buf + got, len - 1 - got)) > 0)
		got += (size_t)n;
	buf[got] = '\0';
	close(fd);
	return ASSERT_TRUE(got > 0, "fdinfo read");
}

static bool read_fdinfo(pid_t pid, int fd, char *buf, size_t len)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%d", (int)pid, fd);
	return read_fdinfo_at(AT_FDCWD, path, buf, len);
}

/* The rights lines of an fdinfo text: from "rights:" to its end. */
static const char *rights_part(const char *text)
{
	const char *r = strstr(text, "\nrights:");

	return r ? r + 1 : "";
}

/* The lines the patched kernel prints for these rights. */
static void expected(char *buf, size_t len, const cap_rights_t *r,
		     const uint32_t *fcntls, const unsigned long *ioctls,
		     int nioctls)
{
	int o = snprintf(buf, len, "rights:\t0x%014llx\t0x%014llx\n",
			 (unsigned long long)r->cr_rights[0],
			 (unsigned long long)r->cr_rights[1]);

	if (fcntls)
		o += snprintf(buf + o, len - o, " fcntls: 0x%06x\n", *fcntls);
	if (nioctls < 0)
		return;
	o += snprintf(buf + o, len - o, " ioctls:");
	for (int i = 0; i < nioctls; i++)
		o += snprintf(buf + o, len - o, "\t0x%06lx", ioctls[i]);
	snprintf(buf + o, len - o, "\n");
}

/*
 * fdinfo of fd in process pid ends with `want` on a kernel that prints
 * rights; on a stock kernel it has no rights line at all. want "":
 * no rights line anywhere.
 */
static void check_fdinfo(pid_t pid, int fd, const char *want, const char *what)
{
	char text[8192];

	if (!read_fdinfo(pid, fd, text, sizeof(text)))
		return;
	if (!kernel_prints_rights() || !*want) {
		if (!ASSERT_TRUE(!strstr(text, "rights:") &&
					 !strstr(text, "fcntls:") &&
					 !strstr(text, "ioctls:"),
				 what))
			fprintf(stderr, "fdinfo:\n%s", text);
		return;
	}
	if (!ASSERT_TRUE(!strcmp(rights_part(text), want), what))
		fprintf(stderr, "fdinfo:\n%s-- expected to end with:\n%s", text,
			want);
}

SELFTEST(fdinfo_rights_line_of_a_limited_descriptor)
{
	int fd = fixture_scratch_file("0123456789");
	cap_rights_t r;
	char want[512];

	if (!need_loaded() || !ASSERT_OK(fd, "scratch"))
		return;
	cap_rights_init(&r, CAP_READ, CAP_SEEK, CAP_FSTAT);
	if (!ASSERT_OK(cap_rights_limit(fd, &r), "limit"))
		return;
	/* No CAP_FCNTL, no CAP_IOCTL: their lists say nothing more. */
	expected(want, sizeof(want), &r, NULL, NULL, -1);
	check_fdinfo(getpid(), fd, want, "read,seek,fstat");
	/* The exact words cap_rights_get() answers, as FreeBSD's layout. */
	ASSERT_OK(cap_rights_get(fd, &r), "cap_rights_get");
	expected(want, sizeof(want), &r, NULL, NULL, -1);
	check_fdinfo(getpid(), fd, want, "as cap_rights_get says");
	ASSERT_EQ(r.cr_rights[0], 0x020000000008000dULL,
		  "CAP_READ|CAP_SEEK|CAP_FSTAT, word 0");
	ASSERT_EQ(r.cr_rights[1], 0x0400000000000000ULL, "word 1");
	/* Narrowed again, the line follows. */
	cap_rights_init(&r, CAP_READ);
	if (!ASSERT_OK(cap_rights_limit(fd, &r), "narrow"))
		return;
	expected(want, sizeof(want), &r, NULL, NULL, -1);
	check_fdinfo(getpid(), fd, want, "read");
}

SELFTEST(fdinfo_fcntls_line_when_narrowed)
{
	int fd = fixture_scratch_file(NULL);
	uint32_t getfl = CAP_FCNTL_GETFL, none = 0;
	cap_rights_t r;
	char want[512];

	if (!need_loaded() || !ASSERT_OK(fd, "scratch"))
		return;
	cap_rights_init(&r, CAP_READ, CAP_FCNTL);
	if (!ASSERT_OK(cap_rights_limit(fd, &r), "limit"))
		return;
	/* Every fcntl command still allowed: no fcntls line. */
	expected(want, sizeof(want), &r, NULL, NULL, -1);
	check_fdinfo(getpid(), fd, want, "read,fcntl");
	if (!ASSERT_OK(cap_fcntls_limit(fd, CAP_FCNTL_GETFL), "fcntls"))
		return;
	expected(want, sizeof(want), &r, &getfl, NULL, -1);
	check_fdinfo(getpid(), fd, want, "fcntls GETFL");
	if (!ASSERT_OK(cap_fcntls_limit(fd, 0), "no fcntls"))
		return;
	expected(want, sizeof(want), &r, &none, NULL, -1);
	check_fdinfo(getpid(), fd, want, "fcntls none");
	/* Without CAP_FCNTL the mask means nothing: the line goes. */
	cap_rights_init(&r, CAP_READ);
	if (!ASSERT_OK(cap_rights_limit(fd, &r), "drop CAP_FCNTL"))
		return;
	expected(want, sizeof(want), &r, NULL, NULL, -1);
	check_fdinfo(getpid(), fd, want, "read only");
}

SELFTEST(fdinfo_ioctls_line_lists_the_commands)
{
	int fd = fixture_scratch_file(NULL);
	unsigned long cmds[] = { FIONREAD, TIOCGWINSZ, FIOCLEX };
	cap_rights_t r;
	char want[512];

	if (!need_loaded() || !ASSERT_OK(fd, "scratch"))
		return;
	cap_rights_init(&r, CAP_READ, CAP_IOCTL);
	if (!ASSERT_OK(cap_rights_limit(fd, &r), "limit"))
		return;
	expected(want, sizeof(want), &r, NULL, NULL, -1);
	check_fdinfo(getpid(), fd, want, "read,ioctl: every ioctl");
	if (!ASSERT_OK(cap_ioctls_limit(fd, cmds, 3), "ioctls"))
		return;
	expected(want, sizeof(want), &r, NULL, cmds, 3);
	check_fdinfo(getpid(), fd, want, "three ioctls");
	if (!ASSERT_OK(cap_ioctls_limit(fd, cmds, 1), "one ioctl"))
		return;
	expected(want, sizeof(want), &r, NULL, cmds, 1);
	check_fdinfo(getpid(), fd, want, "one ioctl");
	/* An empty list allows none: the line stays, with no command. */
	if (!ASSERT_OK(cap_ioctls_limit(fd, NULL, 0), "no ioctl"))
		return;
	expected(want, sizeof(want), &r, NULL, cmds, 0);
	check_fdinfo(getpid(), fd, want, "empty ioctl list");
}

SELFTEST(fdinfo_all_three_lines)
{
	int fd = fixture_scratch_file(NULL);
	unsigned long cmds[] = { FIONREAD };
	uint32_t fc = CAP_FCNTL_GETFL | CAP_FCNTL_SETFL;
	cap_rights_t r;
	char want[512];

	if (!need_loaded() || !ASSERT_OK(fd, "scratch"))
		return;
	cap_rights_init(&r, CAP_READ, CAP_WRITE, CAP_FCNTL, CAP_IOCTL);
	if (!ASSERT_OK(cap_rights_limit(fd, &r), "limit") ||
	    !ASSERT_OK(cap_fcntls_limit(fd, fc), "fcntls") ||
	    !ASSERT_OK(cap_ioctls_limit(fd, cmds, 1), "ioctls"))
		return;
	expected(want, sizeof(want), &r, &fc, cmds, 1);
	check_fdinfo(getpid(), fd, want, "rights, fcntls, ioctls");
	/* A dup has the same rights, and so the same lines. */
	check_fdinfo(getpid(), dup(fd), want, "its dup");
}

SELFTEST(fdinfo_no_line_without_a_limit)
{
	int fd = fixture_scratch_file(NULL), sib;
	cap_rights_t r;
	char want[512];

	if (!need_loaded() || !ASSERT_OK(fd, "scratch"))
		return;
	check_fdinfo(getpid(), fd, "", "never limited");
	/* dup then limit: the original keeps every right, and no line. */
	sib = dup(fd);
	cap_rights_init(&r, CAP_READ);
	if (!ASSERT_OK(sib, "dup") ||
	    !ASSERT_OK(cap_rights_limit(sib, &r), "limit the dup"))
		return;
	check_fdinfo(getpid(), fd, "", "the original of a limited dup");
	expected(want, sizeof(want), &r, NULL, NULL, -1);
	check_fdinfo(getpid(), sib, want, "the limited dup");
	/* Another file of a process with limits: no line either. */
	check_fdinfo(getpid(), fixture_scratch_file(NULL), "",
		     "another file of a limited process");
}

/*
 * A child limits the same descriptor number otherwise than its parent:
 * each fdinfo shows its own process's rights, whoever reads it, a
 * reader with no Capsicum state of its own included.
 */
SELFTEST(fdinfo_of_another_process_shows_its_table)
{
	int fd = fixture_scratch_file(NULL), go[2], ready[2], done[2];
	char want_mine[512], want_its[512], c;
	cap_rights_t mine, its;
	pid_t child = -1, reader;

	if (!need_loaded() || !ASSERT_OK(fd, "scratch") ||
	    !ASSERT_OK(pipe(go), "pipe") || !ASSERT_OK(pipe(ready), "pipe") ||
	    !ASSERT_OK(pipe(done), "pipe"))
		return;
	cap_rights_init(&mine, CAP_WRITE, CAP_SEEK);
	cap_rights_init(&its, CAP_READ, CAP_FSTAT);
	expected(want_mine, sizeof(want_mine), &mine, NULL, NULL, -1);
	expected(want_its, sizeof(want_its), &its, NULL, NULL, -1);
	/* Forked before any limit: a reader with no table. */
	reader = fork();
	if (reader == 0) {
		pid_t pid;

		alarm(30);
		if (read(ready[0], &pid, sizeof(pid)) != sizeof(pid))
			_exit(100);
		check_fdinfo(getppid(), fd, want_mine, "parent's, by a reader");
		check_fdinfo(pid, fd, want_its, "child's, by a reader");
		_exit(selftest_failed());
	}
	if (!ASSERT_OK(reader, "fork reader"))
		return;
	child = fork();
	if (child == 0) {
		alarm(30);
		if (cap_rights_limit(fd, &its) || write(go[1], "", 1) != 1 ||
		    read(done[0], &c, 1) < 0)
			_exit(100);
		_exit(0);
	}
	if (!ASSERT_OK(child, "fork") ||
	    !ASSERT_EQ(read(go[0], &c, 1), 1, "child limited") ||
	    !ASSERT_OK(cap_rights_limit(fd, &mine), "limit mine"))
		goto out;
	check_fdinfo(child, fd, want_its, "child's, by its parent");
	check_fdinfo(getpid(), fd, want_mine, "mine, by me");
	if (!ASSERT_EQ(write(ready[1], &child, sizeof(child)), sizeof(child),
		       "start reader"))
		kill(reader, SIGKILL);
out:
	ASSERT_EQ(selftest_wait(reader), 0, "reader");
	if (child > 0 && write(done[1], "", 1) != 1)
		kill(child, SIGKILL);
	if (child > 0)
		ASSERT_EQ(selftest_wait(child), 0, "child");
}

/*
 * In capability mode the lines stay: read by the process itself through
 * a /proc/PID/fdinfo directory it opened before, and by its parent.
 */
SELFTEST(fdinfo_in_capability_mode)
{
	int fd = fixture_scratch_file(NULL), plain = fixture_scratch_file(NULL);
	int go[2], done[2];
	char want[512], c;
	unsigned long cmds[] = { FIONREAD };
	bool prints = kernel_prints_rights(); /* no /sys in the sandbox */
	cap_rights_t r;
	pid_t child;

	if (!need_loaded() || !ASSERT_OK(fd, "scratch") ||
	    !ASSERT_OK(plain, "scratch") || !ASSERT_OK(pipe(go), "pipe") ||
	    !ASSERT_OK(pipe(done), "pipe"))
		return;
	cap_rights_init(&r, CAP_READ, CAP_IOCTL);
	expected(want, sizeof(want), &r, NULL, cmds, 1);
	child = fork();
	if (child == 0) {
		char text[8192], name[16];
		int dir = open("/proc/self/fdinfo", O_RDONLY | O_DIRECTORY);

		alarm(30);
		if (!ASSERT_OK(dir, "fdinfo dir") ||
		    !ASSERT_OK(cap_rights_limit(fd, &r), "limit") ||
		    !ASSERT_OK(cap_ioctls_limit(fd, cmds, 1), "ioctls") ||
		    !ASSERT_OK(cap_enter(), "cap_enter"))
			_exit(1);
		snprintf(name, sizeof(name), "%d", fd);
		if (read_fdinfo_at(dir, name, text, sizeof(text))) {
			if (prints)
				ASSERT_TRUE(!strcmp(rights_part(text), want),
					    "own, in capability mode");
			else
				ASSERT_TRUE(!strstr(text, "rights:"),
					    "own, stock kernel");
		}
		snprintf(name, sizeof(name), "%d", plain);
		if (read_fdinfo_at(dir, name, text, sizeof(text)))
			ASSERT_TRUE(!strstr(text, "rights:"),
				    "unlimited, in capability mode");
		if (write(go[1], "", 1) != 1 || read(done[0], &c, 1) < 0)
			_exit(100);
		_exit(selftest_failed());
	}
	if (!ASSERT_OK(child, "fork") ||
	    !ASSERT_EQ(read(go[0], &c, 1), 1, "child in capability mode"))
		goto out;
	check_fdinfo(child, fd, want, "child's, in capability mode");
	check_fdinfo(child, plain, "", "child's unlimited, in capability mode");
out:
	if (child > 0 && write(done[1], "", 1) != 1)
		kill(child, SIGKILL);
	if (child > 0)
		ASSERT_EQ(selftest_wait(child), 0, "child");
}
