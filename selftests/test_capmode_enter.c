// SPDX-License-Identifier: GPL-2.0
/*
 * cap_enter() never fails open: whatever RLIMIT_NOFILE is, after chroot()
 * and setuid(), after closefrom(), with a full descriptor table, the call
 * succeeds and the process is in capability mode, as on FreeBSD. A
 * program treating ENOSYS as "no Capsicum here" (caph_enter(), OpenSSH's
 * sandbox) would otherwise run on unsandboxed. Each check runs in a
 * forked child, which reports the first step that failed.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <capsicum_helpers.h>
#include <sys/capsicum.h>

#include "fixture.h"
#include "selftest.h"

/* In a child: the step's number as the exit status, after saying why. */
#define STEP(n, cond)                                                          \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "    step %d: %s: errno %d (%s)\n",    \
				(n), #cond, errno, strerror(errno));           \
			_exit(n);                                              \
		}                                                              \
	} while (0)

static bool set_limit(int resource, rlim_t n)
{
	struct rlimit rl = { n, n };

	return setrlimit(resource, &rl) == 0;
}

/*
 * The checks every entered child makes: in capability mode by the BPF
 * side's account, refused a global namespace by its filter, and the
 * control plane still answers for a descriptor it holds (fd 0, which
 * keeps CAP_READ in every test).
 */
static void check_entered(int base)
{
	unsigned int mode = 0;
	cap_rights_t r;

	STEP(base + 1, cap_getmode(&mode) == 0 && mode == 1);
	STEP(base + 2, cap_sandboxed());
	errno = 0;
	STEP(base + 3, open("/", O_RDONLY) == -1 && errno == ECAPMODE);
	STEP(base + 4,
	     cap_rights_get(0, &r) == 0 && cap_rights_is_set(&r, CAP_READ));
	/* A second cap_enter() succeeds, as FreeBSD's does. */
	STEP(base + 5, cap_enter() == 0);
}

static int run_child(void (*body)(const void *), const void *arg)
{
	pid_t pid = fork();

	if (pid == 0) {
		body(arg);
		_exit(0);
	}
	return selftest_wait(pid);
}

struct nofile_case {
	const char *name;
	rlim_t limit;
};

/*
 * 0 and 3 leave no free descriptor; up to 100 the library once needed a
 * number of 100 or above (F_DUPFD_CLOEXEC); 101 and 1024 always worked.
 */
static const struct nofile_case nofile_cases[] = {
	{ "cap_enter_rlimit_nofile_0", 0 },
	{ "cap_enter_rlimit_nofile_3", 3 },
	{ "cap_enter_rlimit_nofile_16", 16 },
	{ "cap_enter_rlimit_nofile_64", 64 },
	{ "cap_enter_rlimit_nofile_100", 100 },
	{ "cap_enter_rlimit_nofile_101", 101 },
	{ "cap_enter_rlimit_nofile_1024", 1024 },
};

static void body_nofile(const void *arg)
{
	const struct nofile_case *c = arg;

	STEP(1, set_limit(RLIMIT_NOFILE, c->limit));
	STEP(2, cap_enter() == 0);
	check_entered(2);
}

SELFTEST(cap_enter_under_any_rlimit_nofile)
{
	if (!fixture_loaded())
		return;
	for (size_t i = 0; i < sizeof(nofile_cases) / sizeof(nofile_cases[0]);
	     i++) {
		const struct nofile_case *c = &nofile_cases[i];

		if (!ASSERT_EQ(run_child(body_nofile, c), 0, c->name))
			printf("    (RLIMIT_NOFILE %llu)\n",
			       (unsigned long long)c->limit);
	}
}

/* caph_enter() goes on unsandboxed only on ENOSYS: it must not see one. */
static void body_caph(const void *arg)
{
	(void)arg;
	STEP(1, set_limit(RLIMIT_NOFILE, 0));
	STEP(2, caph_enter() == 0);
	check_entered(2);
}

SELFTEST(caph_enter_under_rlimit_nofile_0)
{
	if (fixture_loaded())
		ASSERT_EQ(run_child(body_caph, NULL), 0, "caph_enter");
}

/*
 * An empty directory to chroot into, as OpenSSH's /var/empty. Root
 * chroots as it is; uid 1000 first makes a user and mount namespace of
 * its own, where it may (the same call in "any mount namespace").
 */
static bool chroot_empty(const char *dir)
{
	if (getuid() != 0 && unshare(CLONE_NEWUSER | CLONE_NEWNS))
		return false;
	return chroot(dir) == 0 && chdir("/") == 0;
}

/*
 * OpenSSH's pre-authentication child (sandbox-capsicum.c): chroot to an
 * empty directory, drop to an unprivileged user, no descriptors, no
 * processes, no file size, its descriptors limited, then cap_enter(),
 * treating ENOSYS as "go on unsandboxed".
 */
static void body_openssh(const void *arg)
{
	const char *dir = arg;
	cap_rights_t rin, rout;

	STEP(1, chroot_empty(dir));
	if (getuid() == 0)
		STEP(2, setgid(65534) == 0 && setuid(65534) == 0);
	STEP(3, set_limit(RLIMIT_FSIZE, 0));
	STEP(4, set_limit(RLIMIT_NOFILE, 0));
	STEP(5, set_limit(RLIMIT_NPROC, 0));
	cap_rights_init(&rin, CAP_READ, CAP_EVENT);
	cap_rights_init(&rout, CAP_WRITE, CAP_EVENT);
	STEP(6, cap_rights_limit(0, &rin) == 0);
	STEP(7, cap_rights_limit(1, &rout) == 0);
	STEP(8, cap_enter() == 0);
	check_entered(8);
	errno = 0;
	STEP(20, openat(AT_FDCWD, "x", O_RDONLY) == -1 && errno == ECAPMODE);
	STEP(21, cap_rights_get(1, &rout) == 0 &&
			 !cap_rights_is_set(&rout, CAP_READ));
}

SELFTEST(cap_enter_after_chroot_setuid_and_zero_limits)
{
	char dir[] = "/tmp/capsicum-empty-XXXXXX";
	int status;

	if (!fixture_loaded() || !ASSERT_OK_PTR(mkdtemp(dir), "mkdtemp"))
		return;
	status = run_child(body_openssh, dir);
	ASSERT_EQ(status, 0, "OpenSSH's sandbox sequence enters");
	rmdir(dir);
}

/* Fills the table up to the limit, then enters. */
static void body_full_table(const void *arg)
{
	(void)arg;
	STEP(1, set_limit(RLIMIT_NOFILE, 64));
	while (dup(0) >= 0)
		;
	STEP(2, errno == EMFILE);
	STEP(3, cap_enter() == 0);
	check_entered(3);
	/* A limit needs no descriptor either. */
	cap_rights_t r;

	cap_rights_init(&r, CAP_READ);
	STEP(10, cap_rights_limit(63, &r) == 0);
	STEP(11,
	     cap_rights_get(63, &r) == 0 && !cap_rights_is_set(&r, CAP_WRITE));
}

SELFTEST(cap_enter_with_a_full_descriptor_table)
{
	if (fixture_loaded())
		ASSERT_EQ(run_child(body_full_table, NULL), 0, "full table");
}

static void body_closefrom_before(const void *arg)
{
	(void)arg;
	STEP(1, syscall(SYS_close_range, 3, ~0U, 0) == 0);
	STEP(2, cap_enter() == 0);
	check_entered(2);
}

SELFTEST(cap_enter_after_closefrom)
{
	if (fixture_loaded())
		ASSERT_EQ(run_child(body_closefrom_before, NULL), 0,
			  "closefrom(3), then cap_enter");
}

/*
 * Daemons close every descriptor above 2 after entering too, and may
 * then exec with a low limit: the control plane keeps answering, here
 * and in the program exec'd (capinfo, static: capability mode runs no
 * dynamic loader).
 */
SELFTEST(closefrom_after_cap_enter_keeps_the_control_plane)
{
	char out[256] = "", want[160];
	cap_rights_t r;
	int p[2], status;
	ssize_t n;
	pid_t pid;

	if (!fixture_loaded() || !ASSERT_OK(pipe(p), "pipe"))
		return;
	pid = fork();
	if (pid == 0) {
		char *argv[] = { "capinfo", "1", NULL };
		char *envp[] = { NULL };
		int bin = open("/bin/capinfo", O_RDONLY);

		cap_rights_init(&r, CAP_WRITE, CAP_FSTAT);
		STEP(1, bin >= 0 && dup2(bin, 3) == 3);
		STEP(2, dup2(p[1], 1) == 1 && cap_rights_limit(1, &r) == 0);
		STEP(3, cap_enter() == 0);
		STEP(4, syscall(SYS_close_range, 4, ~0U, 0) == 0);
		check_entered(4);
		STEP(10, cap_rights_get(1, &r) == 0 &&
				 !cap_rights_is_set(&r, CAP_READ));
		STEP(11, set_limit(RLIMIT_NOFILE, 4));
		/* An empty environment: nothing may be handed down. */
		fexecve(3, argv, envp);
		STEP(12, false);
	}
	close(p[1]);
	n = read(p[0], out, sizeof(out) - 1);
	close(p[0]);
	status = selftest_wait(pid);
	ASSERT_EQ(status, 0, "child");
	ASSERT_TRUE(n > 0, "capinfo's output");
	cap_rights_init(&r, CAP_WRITE, CAP_FSTAT);
	snprintf(want, sizeof(want), "mode 1\n1 %#llx %#llx\n",
		 (unsigned long long)r.cr_rights[0],
		 (unsigned long long)r.cr_rights[1]);
	if (!ASSERT_TRUE(!strcmp(out, want), "mode and rights after exec"))
		printf("    got '%s'\n", out);
}
