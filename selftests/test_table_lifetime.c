// SPDX-License-Identifier: GPL-2.0
/*
 * How long table state lives across fork, exec from a non-leader thread,
 * CLONE_FILES and process exit: no entry outlives its descriptor, no
 * floor its process, and a pdfork child stays tied to its descriptor.
 * The exec cases re-run this binary with R2_PHASE set; the phase runs
 * from a constructor, before main.
 */
#define _GNU_SOURCE
#include "compat.h"
#include "fixture.h"
#include "selftest.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capsicum.h>
#include <sys/procdesc.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* Phase 2 after exec: runs before main. */
__attribute__((constructor)) static void r2_phase2(void)
{
	const char *ph = getenv("R2_PHASE");
	int got;

	if (!ph)
		return;
	if (!strcmp(ph, "bound")) {
		/* fd 10: stale entry RW; fd 11: entry READ; floor READ */
		close(10);
		got = fixture_pass_to_self(11);
		if (got < 0 || dup2(got, 10) != 10)
			_exit(3);
		_exit(write(10, "x", 1) == 1 ? 1 : 0); /* 1: widened */
	}
	if (!strcmp(ph, "cloexec")) {
		/*
		 * fd 10 (entry: all rights) was closed by exec's O_CLOEXEC,
		 * fd 11 holds READ. The same file comes back at number 10.
		 */
		int sv[2], d = -1;

		/* The pair first, then fds up to 9: 10 is the lowest free. */
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
			_exit(6);
		while ((d = dup(0)) >= 0 && d < 9)
			;
		if (d != 9)
			_exit(7);
		if (fixture_pass_over(sv, 11) != 10)
			_exit(8);
		_exit(write(10, "x", 1) == 1 ? 1 : 0); /* 1: widened */
	}
	if (!strcmp(ph, "pd")) {
		char c;
		/* tell parent we exec'd, then wait for go and do checked ops */
		if (write(21, "e", 1) != 1)
			_exit(100);
		if (read(20, &c, 1) != 1)
			_exit(101);
		/* The first checked operation after the close kills. */
		for (int i = 0; i < 50; i++)
			if (write(21, "w", 1) != 1)
				_exit(102);
		_exit(0); /* survived */
	}
}

static void *exec_thread(void *arg)
{
	char *argv[] = { "capsicum_selftests", "--list", NULL };
	char *envp[] = { (char *)arg, NULL };

	execve("/proc/self/exe", argv, envp);
	_exit(99);
}

static int exec_from(bool nonleader, const char *env)
{
	char *argv[] = { "capsicum_selftests", "--list", NULL };
	char *envp[] = { (char *)env, NULL };
	pthread_t th;

	if (!nonleader) {
		execve("/proc/self/exe", argv, envp);
		_exit(99);
	}
	pthread_create(&th, NULL, exec_thread, (void *)env);
	for (;;)
		pause();
}

static int bound_case(bool nonleader)
{
	cap_rights_t rw, ro;
	pid_t pid = fork();
	int f;

	if (pid == 0) {
		f = fixture_scratch_file(NULL);
		cap_rights_init(&rw, CAP_READ, CAP_WRITE);
		cap_rights_init(&ro, CAP_READ);
		if (f < 0 || dup2(f, 10) != 10 || dup2(f, 11) != 11 ||
		    cap_rights_limit(10, &rw) || cap_rights_limit(11, &ro))
			_exit(4);
		close(f);
		exec_from(nonleader, "R2_PHASE=bound");
	}
	return selftest_wait(pid);
}

/*
 * exec closes O_CLOEXEC descriptors without close(2), so no fexit drops
 * their entries: the same struct file arriving at that number again (here
 * over SCM_RIGHTS, equally pidfd_getfd) must not get the closed fd's rights.
 */
SELFTEST(cloexec_closed_fd_number_does_not_revive_rights)
{
	cap_rights_t ro;
	pid_t pid;
	int f;

	if (!fixture_loaded())
		return;
	pid = fork();
	if (pid == 0) {
		f = fixture_scratch_file(NULL);
		cap_rights_init(&ro, CAP_READ);
		if (f < 0 || dup3(f, 10, O_CLOEXEC) != 10 ||
		    dup2(f, 11) != 11 || cap_rights_limit(11, &ro))
			_exit(4);
		close(f);
		if (write(10, "x", 1) != 1 || write(11, "x", 1) == 1)
			_exit(5);
		syscall(SYS_close_range, 3, 9, 0);
		syscall(SYS_close_range, 12, ~0U, 0);
		exec_from(false, "R2_PHASE=cloexec");
	}
	ASSERT_EQ(selftest_wait(pid), 0,
		  "received descriptor at an exec-closed number stays READ");
}

SELFTEST(nonleader_exec_keeps_fd_bound)
{
	if (!fixture_loaded())
		return;
	ASSERT_EQ(bound_case(false), 0, "leader exec: no stale entry revives");
	ASSERT_EQ(bound_case(true), 0,
		  "non-leader exec: no stale entry revives");
}

static int pd_case(bool nonleader)
{
	struct fixture_pdchild pc;
	pid_t pid = fixture_pdfork_piped(&pc, 0);
	int status;
	char c;

	if (pid == 0) {
		dup2(pc.go[0], 20);
		dup2(pc.ack[1], 21);
		exec_from(nonleader, "R2_PHASE=pd");
	}
	close(pc.ack[1]);
	if (pid < 0 || read(pc.ack[0], &c, 1) != 1 || c != 'e')
		return -2;
	status = fixture_pdchild_close_release(&pc, pid);
	return status == -1 ? -3 : status;
}

SELFTEST(pd_child_nonleader_exec_still_dies_on_close)
{
	int st;

	if (!fixture_loaded())
		return;
	st = pd_case(false);
	ASSERT_TRUE(st >= 0 && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL,
		    "leader exec: close kills");
	st = pd_case(true);
	if (!(st >= 0 && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL))
		fprintf(stderr, "nonleader status %d exited=%d code=%d\n", st,
			WIFEXITED(st), WEXITSTATUS(st));
	ASSERT_TRUE(st >= 0 && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL,
		    "non-leader exec: close kills");
}

SELFTEST(fork_with_fds_past_the_scan_fails_closed)
{
	struct rlimit rl = { 100000, 100000 };
	cap_rights_t ro;
	pid_t pid;
	int f;

	if (!fixture_loaded())
		return;
	if (setrlimit(RLIMIT_NOFILE, &rl)) {
		selftest_skip("no rlimit");
		return;
	}
	f = fixture_scratch_file(NULL);
	cap_rights_init(&ro, CAP_READ);
	if (!ASSERT_EQ(dup2(f, 70000), 70000, "dup2 high") ||
	    !ASSERT_OK(cap_rights_limit(70000, &ro), "limit"))
		return;
	close(f);
	ASSERT_ERRNO(write(70000, "x", 1), ENOTCAPABLE, "parent limited");
	/* The copy stops at the scan: such a fork fails rather than widen. */
	pid = fork();
	if (pid == 0)
		_exit(write(70000, "x", 1) == 1 ? 1 : 0);
	if (pid < 0)
		ASSERT_EQ(errno, ENOMEM, "fork refused");
	else
		ASSERT_EQ(selftest_wait(pid), 0, "child keeps the limit");
	close(70000);
}

SELFTEST(exited_children_return_their_floors)
{
	struct rlimit rl = { 4096, 4096 };
	struct sockaddr_in a;
	cap_rights_t ro, rd;
	int l, c, s, nf = 0, forks = 0, failed = 0;
	pid_t pid;

	if (!fixture_loaded())
		return;
	pid = fork();
	if (pid) {
		ASSERT_EQ(selftest_wait(pid), 0,
			  "accepted socket stays narrow");
		return;
	}
	setrlimit(RLIMIT_NOFILE, &rl);
	l = fixture_listener(&a);
	cap_rights_init(&ro, CAP_ACCEPT, CAP_READ);
	if (l < 0 || cap_rights_limit(l, &ro))
		_exit(10);
	cap_rights_init(&rd, CAP_READ);
	for (int i = 0; i < 2000; i++) {
		int f = open("/proc/self/exe", O_RDONLY);
		if (f < 0 || cap_rights_limit(f, &rd))
			break;
		nf++;
	}
	for (int i = 0; i < 80; i++) {
		pid_t k = fork();
		if (k == 0)
			_exit(0);
		if (k < 0) {
			failed++;
			continue;
		}
		waitpid(k, NULL, 0);
		forks++;
	}
	fprintf(stderr, "limited %d files, %d forks ok, %d failed\n", nf, forks,
		failed);
	c = socket(AF_INET, SOCK_STREAM, 0);
	if (connect(c, (struct sockaddr *)&a, sizeof(a)))
		_exit(11);
	s = accept(l, NULL, NULL);
	if (s < 0) {
		fprintf(stderr, "accept: %m\n");
		_exit(12);
	}
	if (write(s, "x", 1) == 1) {
		fprintf(stderr, "accepted socket writable: widened\n");
		_exit(1);
	}
	fprintf(stderr, "write: %m\n");
	_exit(0);
}

static int clone_child(void *arg)
{
	int got;

	(void)arg;
	close(10); /* shared fd table: closes the parent's fd 10 too */
	got = fixture_pass_to_self(11);
	if (got < 0 || dup2(got, 10) != 10)
		return 3;
	return write(10, "x", 1) == 1 ? 1 : 0;
}

SELFTEST(clone_files_child_close_forgets_entries)
{
	static char stack[65536];
	cap_rights_t rw, ro;
	pid_t pid;
	int f;

	if (!fixture_loaded())
		return;
	f = fixture_scratch_file(NULL);
	cap_rights_init(&rw, CAP_READ, CAP_WRITE);
	cap_rights_init(&ro, CAP_READ);
	if (!ASSERT_EQ(dup2(f, 10), 10, "10") ||
	    !ASSERT_EQ(dup2(f, 11), 11, "11") ||
	    !ASSERT_OK(cap_rights_limit(10, &rw), "limit 10") ||
	    !ASSERT_OK(cap_rights_limit(11, &ro), "limit 11"))
		return;
	close(f);
	pid = clone(clone_child, stack + sizeof(stack), CLONE_FILES | SIGCHLD,
		    NULL);
	ASSERT_EQ(selftest_wait(pid), 0,
		  "no stale entry revives in a CLONE_FILES child");
}

static int limit_fd_10_read(void *arg)
{
	cap_rights_t ro;

	(void)arg;
	cap_rights_init(&ro, CAP_READ);
	return cap_rights_limit(10, &ro) ? 1 : 0;
}

/*
 * A process whose table never limited anything (here a pdfork child:
 * its table only marks it) shares its fd table with a CLONE_FILES child
 * that limits fd 10: the limit binds the parent too, as both use the
 * one descriptor.
 */
SELFTEST(clone_files_sharer_limit_binds_the_other)
{
	static char stack[65536];
	int pd, f, status = -1;
	pid_t pid, c;

	if (!fixture_loaded())
		return;
	pid = pdfork(&pd, 0);
	if (pid == 0) {
		f = fixture_scratch_file(NULL);
		if (f < 0 || dup2(f, 10) != 10)
			_exit(2);
		c = clone(limit_fd_10_read, stack + sizeof(stack),
			  CLONE_FILES | SIGCHLD, NULL);
		if (c < 0 || selftest_wait(c) != 0)
			_exit(3);
		_exit(write(10, "x", 1) == 1 ? 1 : 0); /* 1: not bound */
	}
	if (!ASSERT_OK(pid, "pdfork"))
		return;
	ASSERT_EQ(pdwait4(pd, &status, 0, NULL), pid, "pdwait4");
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		    "the sharer's limit binds the pdfork child");
}

SELFTEST(x32_lookups_refused)
{
	cap_rights_t r;
	int d, f, g;
	pid_t pid;

	if (!fixture_loaded())
		return;
	d = open("/tmp", O_RDONLY | O_DIRECTORY);
	cap_rights_init(&r, CAP_LOOKUP, CAP_READ, CAP_FSTAT);
	if (!ASSERT_OK(cap_rights_limit(d, &r), "limit dir"))
		return;
	ASSERT_ERRNO(openat(d, "../etc/passwd", O_RDONLY), ENOTCAPABLE,
		     "x86-64 openat escape refused");
	f = syscall(X32_BIT | __NR_openat, d, "../etc/passwd", O_RDONLY);
	if (f < 0 && errno == ENOSYS) {
		selftest_skip("x32 disabled");
		return;
	}
	g = syscall(X32_BIT | __NR_openat, d, "x32probe", O_RDWR | O_CREAT,
		    0600);
	fprintf(stderr,
		"x32 openat escape: %d (%m); O_RDWR|O_CREAT via ro dir: %d\n",
		f, g);
	ASSERT_TRUE(f < 0, "x32 openat escape refused");
	ASSERT_TRUE(g < 0,
		    "x32 openat create through a read-only dirfd refused");
	/* In a child: a successful one would move the test's directory. */
	pid = fork();
	if (pid == 0)
		_exit(syscall(X32_BIT | __NR_fchdir, d) < 0 ? 0 : 1);
	ASSERT_EQ(selftest_wait(pid), 0,
		  "x32 fchdir through a dirfd without CAP_FCHDIR refused");
}
