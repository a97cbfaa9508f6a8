// SPDX-License-Identifier: GPL-2.0
/*
 * Process descriptors (<sys/procdesc.h> on pidfds): pdfork, pdgetpid,
 * pdkill and pdwait4, their rights, no SIGCHLD, the parent-death rule
 * without PD_DAEMON, and all of it inside capability mode, where kill(2)
 * of another pid is refused.
 */
#define _GNU_SOURCE
#include "fixture.h"
#include "selftest.h"

#include <capsicum/abi.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/capsicum.h>
#include <sys/prctl.h>
#include <sys/procdesc.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t sigchld_seen;

static void on_sigchld(int sig)
{
	(void)sig;
	sigchld_seen++;
}

/* A child that waits for a byte on fd (bounded by an alarm), then exits. */
static void child_wait_then_exit(int fd, int code)
{
	char c;

	alarm(30);
	if (read(fd, &c, 1) < 0)
		_exit(100);
	_exit(code);
}

/* pdfork, pdgetpid, pdwait4 of an exit code, pdkill; no SIGCHLD. */
static void exercise(bool in_capmode)
{
	int pd, p[2], status = 0;
	pid_t pid, got = 0;

	signal(SIGCHLD, on_sigchld);
	if (!ASSERT_OK(pipe(p), "pipe"))
		return;
	if (in_capmode && !ASSERT_OK(cap_enter(), "cap_enter"))
		return;
	pid = pdfork(&pd, 0);
	if (pid == 0)
		child_wait_then_exit(p[0], 7);
	if (!ASSERT_OK(pid, "pdfork"))
		return;
	ASSERT_OK(pdgetpid(pd, &got), "pdgetpid");
	ASSERT_EQ(got, pid, "pdgetpid gives the child's pid");
	ASSERT_EQ(write(p[1], "x", 1), 1, "release the child");
	ASSERT_EQ(pdwait4(pd, &status, 0, NULL), pid, "pdwait4");
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 7,
		    "exit status 7 comes back");
	ASSERT_EQ(sigchld_seen, 0, "no SIGCHLD for a pdfork child");
	close(pd);

	pid = pdfork(&pd, PD_CLOEXEC);
	if (pid == 0)
		child_wait_then_exit(p[0], 0);
	if (!ASSERT_OK(pid, "second pdfork"))
		return;
	if (in_capmode)
		ASSERT_ERRNO(kill(pid, SIGTERM), ECAPMODE,
			     "kill(2) of the child by pid");
	ASSERT_ERRNO(waitpid(-1, NULL, WNOHANG), ECHILD,
		     "wait for any child does not see it");
	ASSERT_OK(pdkill(pd, SIGTERM), "pdkill");
	ASSERT_EQ(pdwait4(pd, &status, 0, NULL), pid, "pdwait4 after pdkill");
	ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM,
		    "killed by SIGTERM");
	ASSERT_EQ(sigchld_seen, 0, "still no SIGCHLD");
	ASSERT_ERRNO(pdfork(&pd, 0x100), EINVAL, "unknown flag");
}

SELFTEST(procdesc_pdfork_pdkill_pdwait4)
{
	if (fixture_loaded())
		exercise(false);
}

SELFTEST(procdesc_in_capability_mode)
{
	if (fixture_loaded())
		exercise(true);
}

SELFTEST(procdesc_rights)
{
	int pd, p[2], status;
	pid_t pid, got;

	if (!fixture_loaded() || !ASSERT_OK(pipe(p), "pipe"))
		return;
	pid = pdfork(&pd, 0);
	if (pid == 0)
		child_wait_then_exit(p[0], 0);
	if (!ASSERT_OK(pid, "pdfork"))
		return;
	ASSERT_OK(fixture_limit_all_but(pd, CAP_PDGETPID), "limit");
	ASSERT_ERRNO(pdgetpid(pd, &got), ENOTCAPABLE, "pdgetpid without right");
	ASSERT_OK(fixture_limit_all_but(pd, CAP_PDGETPID | CAP_PDKILL),
		  "limit more");
	ASSERT_ERRNO(pdkill(pd, SIGTERM), ENOTCAPABLE, "pdkill without right");
	ASSERT_OK(fixture_limit_all_but(pd,
					CAP_PDGETPID | CAP_PDKILL | CAP_PDWAIT),
		  "limit even more");
	ASSERT_EQ(write(p[1], "x", 1), 1, "release the child");
	ASSERT_ERRNO(pdwait4(pd, &status, 0, NULL), ENOTCAPABLE,
		     "pdwait4 without right");
	ASSERT_ERRNO(pdgetpid(p[0], &got), EBADF, "not a process descriptor");
}

/*
 * A middle process pdforks a grandchild and exits. Without PD_DAEMON the
 * grandchild dies by SIGKILL; with it, it lives on and exits when told.
 * This process is a subreaper, so the grandchild comes back to it.
 */
static int orphan_fate(int flags)
{
	int p[2], q[2], status = -1, pd;
	pid_t mid, gc = 0;

	/* p releases the grandchild; q carries its pid back. */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) || pipe(p) || pipe(q))
		return -1;
	mid = fork();
	if (mid == 0) {
		gc = pdfork(&pd, flags);
		if (gc == 0)
			child_wait_then_exit(p[0], 0);
		_exit(gc < 0 || write(q[1], &gc, sizeof(gc)) != sizeof(gc));
	}
	if (selftest_wait(mid) != 0 ||
	    read(q[0], &gc, sizeof(gc)) != sizeof(gc))
		return -1;
	if (flags & PD_DAEMON && write(p[1], "x", 1) != 1)
		return -1;
	if (waitpid(gc, &status, __WALL) != gc)
		return -1;
	return status;
}

SELFTEST(procdesc_parent_exit_kills_unless_daemon)
{
	int status;

	if (!fixture_loaded())
		return;
	status = orphan_fate(0);
	ASSERT_TRUE(status >= 0 && WIFSIGNALED(status) &&
			    WTERMSIG(status) == SIGKILL,
		    "without PD_DAEMON the child is killed");
	status = orphan_fate(PD_DAEMON);
	ASSERT_TRUE(status >= 0 && WIFEXITED(status) &&
			    WEXITSTATUS(status) == 0,
		    "with PD_DAEMON the child lives on");
}

/*
 * Closing the last descriptor: without PD_DAEMON the child dies at its
 * next checked operation (here the write after it is released); with
 * PD_DAEMON it lives on. Either way its parent reaps it by pid.
 */
static int close_fate(int flags)
{
	struct fixture_pdchild pc;
	pid_t pid = fixture_pdfork_piped(&pc, flags);
	char c;

	if (pid == 0) {
		if (read(pc.go[0], &c, 1) != 1 || write(pc.ack[1], "w", 1) != 1)
			_exit(100);
		_exit(0);
	}
	return fixture_pdchild_close_release(&pc, pid);
}

SELFTEST(procdesc_close_kills_unless_daemon)
{
	int status;

	if (!fixture_loaded())
		return;
	status = close_fate(0);
	ASSERT_TRUE(status >= 0 && WIFSIGNALED(status) &&
			    WTERMSIG(status) == SIGKILL,
		    "closing the descriptor killed the child");
	status = close_fate(PD_DAEMON);
	ASSERT_TRUE(status >= 0 && WIFEXITED(status) &&
			    WEXITSTATUS(status) == 0,
		    "a PD_DAEMON child outlives its descriptor");
}

/*
 * Only the parent may tie its child's life to a descriptor: another
 * process's pidfd_open() of the child and a watch request through it
 * fail with EPERM, and closing that pidfd leaves the child alive.
 */
SELFTEST(procdesc_watch_only_by_the_parent)
{
	int p[2], q[2], pd, status = -1;
	pid_t child, stranger;

	if (!fixture_loaded() || !ASSERT_OK(pipe(p), "pipe") ||
	    !ASSERT_OK(pipe(q), "pipe"))
		return;
	child = pdfork(&pd, 0);
	if (child == 0) {
		char c;

		alarm(30);
		/* Released by the parent, then one more checked op. */
		_exit(read(p[0], &c, 1) == 1 && write(q[1], "w", 1) == 1 ? 0
									 : 1);
	}
	if (!ASSERT_OK(child, "pdfork"))
		return;
	stranger = fork();
	if (stranger == 0) {
		struct capsicum_req req = { .magic = CAPSICUM_REQ_MAGIC,
					    .version = CAPSICUM_ABI_VERSION,
					    .op = CAPSICUM_OP_PD_WATCH };
		int pfd = (int)syscall(SYS_pidfd_open, child, 0);

		if (pfd < 0)
			_exit(3);
		errno = 0;
		if (fcntl(pfd, F_GETFD, &req) != -1 || errno != EPERM)
			_exit(4);
		close(pfd);
		_exit(0);
	}
	ASSERT_EQ(selftest_wait(stranger), 0, "the stranger's watch: EPERM");
	ASSERT_EQ(write(p[1], "x", 1), 1, "release the child");
	ASSERT_EQ(pdwait4(pd, &status, 0, NULL), child, "pdwait4");
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		    "the child lived");
}

/*
 * In a child of its own PID namespace (uid 1000 with a user namespace
 * too): pdfork works, pdgetpid answers the namespace's pid, pdkill and
 * pdwait4 reach the child, inside capability mode as well. The first
 * failing step is the exit status; every process is bounded by alarm().
 */
static int pidns_body(void)
{
	int pd, p[2], status = 0;
	pid_t pid, got = 0;

	alarm(30);
	if (pipe(p))
		return 2;
	pid = pdfork(&pd, 0);
	if (pid == 0)
		child_wait_then_exit(p[0], 7);
	if (pid <= 1)
		return 3; /* pid 1 is this process, the namespace's init */
	if (pdgetpid(pd, &got) || got != pid)
		return 4;
	if (write(p[1], "x", 1) != 1 || pdwait4(pd, &status, 0, NULL) != pid ||
	    !WIFEXITED(status) || WEXITSTATUS(status) != 7)
		return 5;
	close(pd);
	if (cap_enter())
		return 6;
	pid = pdfork(&pd, 0);
	if (pid == 0)
		child_wait_then_exit(p[0], 0);
	if (pid <= 1 || pdgetpid(pd, &got) || got != pid)
		return 7;
	if (pdkill(pd, SIGKILL) || pdwait4(pd, &status, 0, NULL) != pid ||
	    !WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL)
		return 8;
	return 0;
}

SELFTEST(procdesc_in_a_pid_namespace)
{
	pid_t pid;

	if (!fixture_loaded())
		return;
	pid = fork();
	if (pid == 0) {
		int flags = CLONE_NEWPID | (getuid() ? CLONE_NEWUSER : 0);
		pid_t init;

		alarm(60);
		if (unshare(flags))
			_exit(1);
		init = fork();
		if (init == 0)
			_exit(pidns_body());
		_exit(selftest_wait(init));
	}
	ASSERT_EQ(selftest_wait(pid), 0, "pdfork in a new PID namespace");
}
