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
#include <capsicum/pins.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capsicum.h>
#include <sys/prctl.h>
#include <sys/procdesc.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
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
 * Prompt kill on last close (doc/daemon.md, "Process descriptors"): a
 * child asleep in pause() or read() passes no hook, so only capsicumd's
 * SIGKILL, sent when the BPF side reports that the last descriptor went,
 * ends it. The bound is guest time; the test fails past it and waits for
 * nothing else (a separate pidfd_open() descriptor turns readable when
 * the child dies).
 */
#define KILL_BOUND_MS 3000

/*
 * How the last descriptor goes, with the child asleep all along: the
 * parent closes it, or the parent closes its own and a forked holder,
 * with the last one, exits or execs (PD_CLOEXEC) a program that lives on.
 */
enum last_ref { BY_CLOSE, BY_HOLDER_EXIT, BY_EXEC };

/* Skips unless capsicumd runs (any uid): it is what sends the kill. */
static bool need_daemon(void)
{
	if (!fixture_loaded())
		return false;
	if (!fixture_daemon_pid())
		selftest_skip("capsicumd is not running (boot with run-vm.sh "
			      "--daemon): without it a sleeping child dies "
			      "only at its next checked operation");
	return true;
}

/* Says it is about to sleep, then sleeps until killed (or the alarm). */
static void sleeper(int ack, int in, bool in_read)
{
	char c;

	alarm(30);
	if (write(ack, "s", 1) != 1)
		_exit(100);
	if (in_read)
		_exit(read(in, &c, 1) < 0 ? 101 : 102);
	pause();
	_exit(103);
}

/*
 * True once pid sleeps (state S): after its byte on the ack pipe that is
 * in pause() or read(), past every hook. Polls /proc, bounded.
 */
static bool asleep(pid_t pid)
{
	char path[64], buf[512], *end;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	for (int i = 0; i < 10000; i++) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return false;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n <= 0)
			return false;
		buf[n] = '\0';
		end = strrchr(buf, ')');
		if (end && end[1] == ' ' && end[2] == 'S')
			return true;
		usleep(1000);
	}
	return false;
}

/* True if the process of pidfd w has exited within ms milliseconds. */
static bool dies_within(int w, int ms)
{
	struct pollfd p = { .fd = w, .events = POLLIN };

	return poll(&p, 1, ms) == 1;
}

/* A pdfork child asleep; *w a pidfd_open() of it, which does not count. */
static pid_t pdfork_asleep(int *pd, int flags, bool in_read, int *w)
{
	int ack[2], in[2];
	pid_t pid;
	char c;

	*w = -1;
	if (pipe(ack) || pipe(in))
		return -1;
	pid = pdfork(pd, flags);
	if (pid == 0)
		sleeper(ack[1], in[0], in_read);
	close(ack[1]);
	close(in[0]);
	if (pid < 0)
		return -1;
	*w = (int)syscall(SYS_pidfd_open, pid, 0);
	if (*w < 0 || read(ack[0], &c, 1) != 1 || !asleep(pid))
		pid = -1;
	close(ack[0]);
	/* The child's own copy of in[1] keeps its read() from seeing EOF. */
	close(in[1]);
	return pid;
}

static double ms_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) * 1e3 +
	       (double)(t1.tv_nsec - t0->tv_nsec) / 1e6;
}

static void last_ref_kills(enum last_ref how, bool in_read)
{
	static const char *const hows[] = { "close", "holder exit", "exec" };
	int pd, w, go[2] = { -1, -1 }, status = -1;
	pid_t child, holder = -1;
	struct timespec t0;
	char c;

	child = pdfork_asleep(&pd, how == BY_EXEC ? PD_CLOEXEC : 0, in_read,
			      &w);
	if (!ASSERT_OK(child, "pdfork a child asleep"))
		return;
	if (how != BY_CLOSE) {
		if (!ASSERT_OK(pipe(go), "pipe"))
			return;
		holder = fork();
		if (holder == 0) {
			/* After the parent's close, told by one byte. */
			close(go[1]);
			if (read(go[0], &c, 1) != 1)
				_exit(1);
			if (how == BY_EXEC) {
				/* cat holds on until the test closes go. */
				dup2(go[0], 0);
				execl("/bin/cat", "cat", (char *)NULL);
				_exit(127);
			}
			_exit(0);
		}
		close(go[0]);
		if (!ASSERT_OK(holder, "fork the holder"))
			return;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ASSERT_OK(close(pd), "close the parent's descriptor");
	if (how != BY_CLOSE) {
		ASSERT_TRUE(!dies_within(w, 0),
			    "alive while the holder has a descriptor");
		clock_gettime(CLOCK_MONOTONIC, &t0);
		/* The holder exits, or execs with close-on-exec. */
		ASSERT_EQ(write(go[1], "x", 1), 1, "tell the holder");
	}
	if (ASSERT_TRUE(
		    dies_within(w, KILL_BOUND_MS),
		    "the sleeping child dies once its last descriptor went"))
		printf("    %s, child in %s: dead after %.1f ms\n", hows[how],
		       in_read ? "read" : "pause", ms_since(&t0));
	if (how == BY_EXEC)
		ASSERT_EQ(waitpid(holder, NULL, WNOHANG), 0,
			  "the holder lives on after its exec");
	if (holder > 0) {
		close(go[1]); /* cat sees end of file */
		ASSERT_EQ(selftest_wait(holder), 0, "the holder");
	}
	if (!dies_within(w, 0))
		syscall(SYS_pidfd_send_signal, w, SIGKILL, NULL, 0);
	ASSERT_EQ(waitpid(child, &status, __WALL), child, "reap the child");
	ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
		    "killed by SIGKILL");
	close(w);
}

SELFTEST(procdesc_close_kills_sleeping_child)
{
	if (!need_daemon())
		return;
	last_ref_kills(BY_CLOSE, false);
	last_ref_kills(BY_CLOSE, true);
}

SELFTEST(procdesc_holder_exit_kills_sleeping_child)
{
	if (!need_daemon())
		return;
	last_ref_kills(BY_HOLDER_EXIT, false);
	last_ref_kills(BY_HOLDER_EXIT, true);
}

SELFTEST(procdesc_exec_cloexec_kills_sleeping_child)
{
	if (!need_daemon())
		return;
	last_ref_kills(BY_EXEC, false);
	last_ref_kills(BY_EXEC, true);
}

/*
 * A PD_DAEMON child asleep outlives its descriptor. No waiting for a kill
 * that should not come: a second, ordinary child's descriptor is closed
 * after, and capsicumd serves requests in order, so once that child is
 * dead any request about the first one has been served too.
 */
SELFTEST(procdesc_daemon_child_survives_last_close)
{
	int dpd, dw, pd, w, status = -1;
	pid_t daemon_child, child;

	if (!need_daemon())
		return;
	daemon_child = pdfork_asleep(&dpd, PD_DAEMON, false, &dw);
	if (!ASSERT_OK(daemon_child, "pdfork a PD_DAEMON child"))
		return;
	child = pdfork_asleep(&pd, 0, false, &w);
	if (ASSERT_OK(child, "pdfork an ordinary child")) {
		ASSERT_OK(close(dpd), "close the PD_DAEMON child's descriptor");
		ASSERT_OK(close(pd), "close the other one's");
		if (ASSERT_TRUE(dies_within(w, KILL_BOUND_MS),
				"the ordinary child dies"))
			ASSERT_TRUE(!dies_within(dw, 0),
				    "the PD_DAEMON child lives on");
		else
			syscall(SYS_pidfd_send_signal, w, SIGKILL, NULL, 0);
		ASSERT_EQ(waitpid(child, NULL, __WALL), child, "reap it");
		close(w);
	}
	syscall(SYS_pidfd_send_signal, dw, SIGKILL, NULL, 0);
	ASSERT_EQ(waitpid(daemon_child, &status, __WALL), daemon_child,
		  "reap the PD_DAEMON child");
	close(dw);
}

/* capsicumd's SIGKILL for a doomed child, aimed at pidfd w. */
static int marked_kill(int w, __u64 start_boottime)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	si.si_signo = SIGKILL;
	si.si_code = SI_QUEUE;
	si.si_errno = CAPSICUM_PD_KILL_MAGIC;
	si.si_pid = getpid();
	si.si_uid = getuid();
	si.si_value.sival_ptr = (void *)(uintptr_t)start_boottime;
	return (int)syscall(SYS_pidfd_send_signal, w, SIGKILL, &si, 0);
}

/*
 * The kill capsicumd sends is refused (EPERM) by the task_kill hook for
 * any process but a doomed pdfork child with the start time the request
 * named: a pid reused since is never killed. Here, a child whose
 * descriptor is still open, and a plain fork child, both survive it.
 */
SELFTEST(procdesc_marked_kill_only_reaches_doomed_child)
{
	int pd, w, status = -1;
	pid_t child;

	if (!fixture_loaded())
		return;
	child = pdfork_asleep(&pd, 0, false, &w);
	if (!ASSERT_OK(child, "pdfork a child asleep"))
		return;
	ASSERT_ERRNO(marked_kill(w, 0), EPERM, "not doomed, wrong start");
	ASSERT_TRUE(!dies_within(w, 0), "the watched child lives");
	ASSERT_OK(pdkill(pd, SIGKILL), "pdkill");
	ASSERT_EQ(pdwait4(pd, &status, 0, NULL), child, "pdwait4");
	close(pd);
	close(w);

	child = fork();
	if (child == 0) {
		alarm(30);
		pause();
		_exit(1);
	}
	w = (int)syscall(SYS_pidfd_open, child, 0);
	if (!ASSERT_OK(w, "pidfd_open"))
		return;
	ASSERT_ERRNO(marked_kill(w, 0), EPERM, "a plain child");
	ASSERT_TRUE(!dies_within(w, 0), "the plain child lives");
	ASSERT_OK(kill(child, SIGKILL), "kill");
	ASSERT_EQ(waitpid(child, NULL, 0), child, "reap");
	close(w);
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

/*
 * Who may pdkill. A descriptor received over SCM_RIGHTS by another
 * process of the same uid is authority enough, as on FreeBSD. After the
 * holder changed its uid (root only: to 65534) the kernel's own
 * permission check for signals (kill_ok_by_cred, before any LSM runs)
 * refuses with EPERM, as FreeBSD's pdkill (p_cansignal) does; the 2014
 * Linux series let the descriptor decide. An LSM can only refuse more,
 * so this is the documented deviation from that series, pinned.
 */
SELFTEST(procdesc_pdkill_authority)
{
	int pd, p[2], sv[2], status = 0;
	pid_t child, receiver;

	if (!fixture_loaded() || !ASSERT_OK(pipe(p), "pipe") ||
	    !ASSERT_OK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), "socketpair"))
		return;
	child = pdfork(&pd, 0);
	if (child == 0)
		child_wait_then_exit(p[0], 0);
	if (!ASSERT_OK(child, "pdfork"))
		return;
	receiver = fork();
	if (receiver == 0) {
		int got = fixture_recv_fd(sv[1]);

		_exit(got < 0 ? 2 : pdkill(got, SIGTERM) ? 3 : 0);
	}
	ASSERT_OK(fixture_send_fd(sv[0], pd), "send the descriptor");
	ASSERT_EQ(selftest_wait(receiver), 0,
		  "pdkill through a received descriptor");
	ASSERT_EQ(pdwait4(pd, &status, 0, NULL), child, "pdwait4");
	ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM,
		    "the receiver's pdkill killed the child");
	close(pd);
	close(sv[0]);
	close(sv[1]);

	if (!selftest_is_root())
		return; /* no other uid to become */
	receiver = fork();
	if (receiver == 0) {
		/* The holder: pdfork, become 65534, pdkill. */
		child = pdfork(&pd, 0);
		if (child == 0)
			child_wait_then_exit(p[0], 0);
		if (child < 0 || setresgid(65534, 65534, 65534) ||
		    setresuid(65534, 65534, 65534))
			_exit(2);
		/* Exiting closes pd: the child dies with it. */
		_exit(pdkill(pd, SIGTERM) == -1 && errno == EPERM ? 0 : 3);
	}
	ASSERT_EQ(selftest_wait(receiver), 0,
		  "pdkill after the holder's uid change: EPERM (the kernel's "
		  "check, a documented deviation)");
	close(p[0]);
	close(p[1]);
}

/*
 * poll() on a process descriptor reports POLLHUP once its process has
 * exited, as FreeBSD's does (lib/procdesc_poll.c), even when asked for
 * no events. pd_poll, a FreeBSD-style program built against the installed
 * library with _FORTIFY_SOURCE (so also through glibc's __poll_chk), runs
 * its checks through libcapsicum.so, outside and inside capability mode;
 * then this program checks it through libcapsicum.a.
 */
#define PD_POLL "/usr/libexec/capsicum/pd_poll"

static int run_pd_poll(char *flag)
{
	char *envp[] = { "LD_LIBRARY_PATH=/usr/local/lib", NULL };
	char *argv[] = { "pd_poll", flag, NULL };
	pid_t pid = fork();

	if (pid == 0) {
		execve(PD_POLL, argv, envp);
		_exit(127);
	}
	return selftest_wait(pid);
}

SELFTEST(procdesc_poll_reports_pollhup)
{
	struct pollfd p = { .events = 0 }, *volatile bad_array = (void *)8;
	int pd, go[2], status;
	pid_t pid;

	if (!fixture_loaded())
		return;
	ASSERT_EQ(run_pd_poll(NULL), 0, "pd_poll");
	ASSERT_EQ(run_pd_poll("-c"), 0, "pd_poll -c (in capability mode)");

	if (!ASSERT_OK(pipe(go), "pipe"))
		return;
	pid = pdfork(&pd, 0);
	if (pid == 0)
		child_wait_then_exit(go[0], 0);
	if (!ASSERT_OK(pid, "pdfork"))
		return;
	p.fd = pd;
	ASSERT_EQ(poll(&p, 1, 0), 0, "quiet while the child runs");
	ASSERT_EQ(write(go[1], "x", 1), 1, "release the child");
	ASSERT_EQ(poll(&p, 1, 10000), 1, "the exit wakes a poll of no events");
	ASSERT_EQ(p.revents, POLLHUP, "with POLLHUP alone");
	ASSERT_EQ(p.events, 0, "the caller's events are left as they were");
	ASSERT_ERRNO(poll(bad_array, 1, 0), EFAULT,
		     "a bad array fails as libc's poll() fails it");
	ASSERT_EQ(pdwait4(pd, &status, 0, NULL), pid, "pdwait4");
	p.events = POLLIN;
	ASSERT_EQ(poll(&p, 1, 0), 1, "poll after pdwait4");
	ASSERT_TRUE(p.revents & POLLHUP, "POLLHUP after pdwait4 too");
	close(pd);
	close(go[0]);
	close(go[1]);
}
