// SPDX-License-Identifier: GPL-2.0
/*
 * Capability mode reaches no other process: not by a descriptor's owner
 * (F_SETOWN, F_SETOWN_EX, F_SETSIG, O_ASYNC, FIOSETOWN, SIOCSPGRP,
 * FIOASYNC, F_NOTIFY), nor by the calls that name a pid (limits,
 * priorities, affinity, scheduler, I/O priority, queued signals, memory
 * of another process, kcmp), nor by a process descriptor without
 * CAP_PDKILL, nor by a terminal's ioctls (TIOCSIG, TIOCNOTTY,
 * TIOCVHANGUP). Each test has a victim outside capability mode and reads
 * its state from outside, after the sandbox is done: the victim reports
 * the signals pending on it (it blocks them) or is found dead.
 */
#define _GNU_SOURCE
#include "fixture.h"
#include "selftest.h"

#include <capsicum/abi.h>
#include <fcntl.h>
#include <linux/ioprio.h>
#include <linux/kcmp.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/capsicum.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The victim's exit code: one bit per signal found pending on it. */
#define SEEN_SIGIO   1
#define SEEN_SIGURG  2
#define SEEN_SIGUSR1 4
#define SEEN_SIGUSR2 8
#define SEEN_SIGINT  16
#define SEEN_SIGHUP  32

struct victim {
	pid_t pid;
	int go[2];
	int ready[2];
	int sub;   /* >= 0: the victim owns it, with O_ASYNC set */
	int await; /* nonzero: a signal it waits for (bounded) once released */
};

static int seen_bit(int sig)
{
	switch (sig) {
	case SIGIO:
		return SEEN_SIGIO;
	case SIGURG:
		return SEEN_SIGURG;
	case SIGUSR1:
		return SEEN_SIGUSR1;
	case SIGUSR2:
		return SEEN_SIGUSR2;
	case SIGINT:
		return SEEN_SIGINT;
	case SIGHUP:
		return SEEN_SIGHUP;
	default:
		return 0;
	}
}

/*
 * A process outside capability mode, in a process group of its own,
 * blocking the signals a sandbox might aim at it; it waits (bounded)
 * for a byte on go, then exits with the SEEN_ bits of what is pending.
 * It owns sub (if >= 0) with O_ASYNC set; once released, it waits for
 * the signal await (if nonzero) up to 10 s. With a pseudo-terminal
 * master tty (>= 0) it leads a session of its own instead, with the
 * slave as its terminal: the foreground group the terminal signals.
 */
static bool victim_start_tty(struct victim *v, int sub, int await, int tty)
{
	struct timespec bound = { .tv_sec = 10 };
	sigset_t set, one;
	char c;

	v->sub = sub;
	v->await = await;

	if (!ASSERT_OK(pipe(v->go), "victim pipe") ||
	    !ASSERT_OK(pipe(v->ready), "victim pipe"))
		return false;
	v->pid = fork();
	if (v->pid == 0) {
		int seen = 0;

		sigemptyset(&set);
		sigaddset(&set, SIGIO);
		sigaddset(&set, SIGURG);
		sigaddset(&set, SIGUSR1);
		sigaddset(&set, SIGUSR2);
		sigaddset(&set, SIGINT);
		sigaddset(&set, SIGHUP);
		if (sigprocmask(SIG_BLOCK, &set, NULL))
			_exit(100);
		/* A session leader opening a terminal makes it its own. */
		if (tty >= 0 ? setsid() < 0 || open(ptsname(tty), O_RDWR) < 0
			     : setpgid(0, 0) != 0)
			_exit(100);
		if (v->sub >= 0 && (fcntl(v->sub, F_SETOWN, getpid()) ||
				    fcntl(v->sub, F_SETFL, O_ASYNC)))
			_exit(103);
		alarm(60);
		if (write(v->ready[1], "r", 1) != 1 ||
		    read(v->go[0], &c, 1) != 1)
			_exit(101);
		sigemptyset(&one);
		sigaddset(&one, v->await);
		if (v->await && sigtimedwait(&one, NULL, &bound) == v->await)
			seen |= seen_bit(v->await);
		if (sigpending(&set))
			_exit(102);
		for (int sig = 1; sig < NSIG; sig++)
			seen |= sigismember(&set, sig) ? seen_bit(sig) : 0;
		_exit(seen);
	}
	if (!ASSERT_OK(v->pid, "fork the victim"))
		return false;
	/* Its group and signal mask are in place before anything aims at it. */
	return ASSERT_EQ(read(v->ready[0], &c, 1), 1, "victim ready");
}

static bool victim_start(struct victim *v, int sub, int await)
{
	return victim_start_tty(v, sub, await, -1);
}

/* Releases the victim: the SEEN_ bits it reports, -1 if it was killed. */
static int victim_finish(struct victim *v)
{
	if (write(v->go[1], "g", 1) != 1)
		return -2;
	return selftest_wait(v->pid);
}

/*
 * Runs fn(victim) in a forked sandbox (fn enters capability mode where it
 * means to), then checks from outside that the sandbox's assertions held
 * and that nothing reached the victim.
 */
static void against_victim(void (*fn)(pid_t victim), const char *what)
{
	struct victim v;
	pid_t pid;

	if (!fixture_loaded() || !victim_start(&v, -1, 0))
		return;
	pid = fork();
	if (pid == 0) {
		alarm(60);
		fn(v.pid);
		_exit(selftest_failed() ? 1 : 0);
	}
	ASSERT_EQ(selftest_wait(pid), 0, what);
	ASSERT_EQ(victim_finish(&v), 0, "the victim is alive, nothing pending");
}

static bool pipe_in_capmode(int p[2])
{
	return ASSERT_OK(cap_enter(), "cap_enter") &&
	       ASSERT_OK(pipe(p), "pipe in capability mode");
}

/* The rest of the attack, whatever the owner calls returned. */
static void arm_and_write(const int p[2], int sig)
{
	fcntl(p[0], F_SETSIG, sig);
	fcntl(p[0], F_SETFL, O_ASYNC | O_NONBLOCK);
	ASSERT_EQ(write(p[1], "x", 1), 1, "write to its own pipe");
}

static void sigkill_by_owner(pid_t victim)
{
	int p[2];

	if (!pipe_in_capmode(p))
		return;
	/* The attack as a compromised sandbox would write it. */
	ASSERT_ERRNO(fcntl(p[0], F_SETOWN, victim), ECAPMODE,
		     "F_SETOWN another process");
	arm_and_write(p, SIGKILL);
}

SELFTEST(capmode_fsetown_cannot_kill_another_process)
{
	against_victim(sigkill_by_owner, "F_SETOWN, F_SETSIG SIGKILL, O_ASYNC");
}

static void group_by_owner(pid_t victim)
{
	struct f_owner_ex pgrp = { F_OWNER_PGRP, victim };
	struct f_owner_ex proc = { F_OWNER_PID, victim };
	struct f_owner_ex self = { F_OWNER_PID, getpid() };
	int p[2];

	if (!pipe_in_capmode(p))
		return;
	ASSERT_ERRNO(fcntl(p[0], F_SETOWN, -victim), ECAPMODE,
		     "F_SETOWN a process group");
	ASSERT_ERRNO(fcntl(p[0], F_SETOWN, -getpgrp()), ECAPMODE,
		     "F_SETOWN its own process group");
	ASSERT_ERRNO(fcntl(p[0], F_SETOWN_EX, &pgrp), ECAPMODE,
		     "F_SETOWN_EX F_OWNER_PGRP");
	ASSERT_ERRNO(fcntl(p[0], F_SETOWN_EX, &proc), ECAPMODE,
		     "F_SETOWN_EX F_OWNER_PID");
	/* Its argument is read by the kernel after the hook: never trusted. */
	ASSERT_ERRNO(fcntl(p[0], F_SETOWN_EX, &self), ECAPMODE,
		     "F_SETOWN_EX of itself");
	arm_and_write(p, SIGUSR1);
}

SELFTEST(capmode_fsetown_refuses_a_process_group)
{
	against_victim(group_by_owner, "negative owner, F_SETOWN_EX");
}

/* An owner set before cap_enter() is not armed inside. */
static void armed_inside(pid_t victim)
{
	int p[2], flags;

	if (!ASSERT_OK(pipe(p), "pipe") ||
	    !ASSERT_OK(fcntl(p[0], F_SETOWN, victim), "F_SETOWN outside") ||
	    !ASSERT_OK(cap_enter(), "cap_enter"))
		return;
	ASSERT_EQ(fcntl(p[0], F_GETOWN), victim, "F_GETOWN");
	ASSERT_ERRNO(fcntl(p[0], F_SETSIG, SIGUSR1), ECAPMODE,
		     "F_SETSIG, owner another process");
	flags = fcntl(p[0], F_GETFL);
	ASSERT_ERRNO(fcntl(p[0], F_SETFL, flags | O_ASYNC), ECAPMODE,
		     "O_ASYNC, owner another process");
	ASSERT_OK(fcntl(p[0], F_SETFL, flags | O_NONBLOCK),
		  "F_SETFL without O_ASYNC");
	ASSERT_EQ(write(p[1], "x", 1), 1, "write to its own pipe");
}

SELFTEST(capmode_owner_set_before_is_not_armed_inside)
{
	against_victim(armed_inside, "owner from before, armed inside");
}

/*
 * Owner, signal and O_ASYNC all set before cap_enter(): a write inside,
 * then one after handing the armed end to a forked child, so the writer
 * no longer holds it.
 */
static void armed_before(pid_t victim)
{
	int p[2], hold[2];
	pid_t child;
	char c;

	if (!ASSERT_OK(pipe(p), "pipe") || !ASSERT_OK(pipe(hold), "pipe") ||
	    !ASSERT_OK(fcntl(p[0], F_SETOWN, victim), "F_SETOWN outside") ||
	    !ASSERT_OK(fcntl(p[0], F_SETSIG, SIGUSR1), "F_SETSIG outside") ||
	    !ASSERT_OK(fcntl(p[0], F_SETFL, O_ASYNC | O_NONBLOCK),
		       "O_ASYNC outside") ||
	    !ASSERT_OK(cap_enter(), "cap_enter"))
		return;
	ASSERT_EQ(write(p[1], "x", 1), 1, "write to its own pipe");
	child = fork();
	if (child == 0)
		_exit(read(hold[0], &c, 1) == 1 ? 0 : 1);
	if (!ASSERT_OK(child, "fork in capability mode"))
		return;
	close(p[0]);
	ASSERT_EQ(write(p[1], "x", 1), 1, "write, the armed end in a child");
	ASSERT_EQ(write(hold[1], "x", 1), 1, "release the child");
	ASSERT_EQ(selftest_wait(child), 0, "the child");
}

SELFTEST(capmode_owner_armed_before_gets_no_signal_from_inside)
{
	against_victim(armed_before, "armed before, written inside");
}

/* FIOSETOWN, SIOCSPGRP (pointer arguments) and FIOASYNC on a socket. */
static void socket_ioctls(pid_t victim)
{
	int sv[2], other[2], on = 1;

	if (!ASSERT_OK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), "socketpair") ||
	    !ASSERT_OK(socketpair(AF_UNIX, SOCK_STREAM, 0, other),
		       "socketpair") ||
	    !ASSERT_OK(fcntl(other[0], F_SETOWN, victim), "F_SETOWN outside") ||
	    !ASSERT_OK(cap_enter(), "cap_enter"))
		return;
	ASSERT_ERRNO(ioctl(sv[0], FIOSETOWN, &victim), ECAPMODE, "FIOSETOWN");
	ASSERT_ERRNO(ioctl(sv[0], SIOCSPGRP, &victim), ECAPMODE, "SIOCSPGRP");
	ASSERT_ERRNO(ioctl(other[0], FIOASYNC, &on), ECAPMODE,
		     "FIOASYNC, owner another process");
	ASSERT_EQ(write(other[1], "x", 1), 1, "write to its own socket");
	ASSERT_EQ(write(sv[1], "x", 1), 1, "write to its own socket");
}

SELFTEST(capmode_socket_owner_ioctls_refused)
{
	against_victim(socket_ioctls, "FIOSETOWN, SIOCSPGRP, FIOASYNC");
}

/*
 * dnotify signals the directory descriptor's owner; a lease's break
 * signals the leased file's owner.
 */
static void dnotify_and_lease(pid_t victim)
{
	struct fixture_box b;
	int fd, leased;

	if (!ASSERT_TRUE(fixture_make_box(&b), "box") ||
	    !ASSERT_OK(leased = openat(b.dfd, "f", O_RDONLY), "open f") ||
	    !ASSERT_OK(fcntl(b.dfd, F_SETOWN, victim), "F_SETOWN outside") ||
	    !ASSERT_OK(fcntl(b.dfd, F_SETSIG, SIGUSR1), "F_SETSIG outside") ||
	    !ASSERT_OK(fcntl(leased, F_SETOWN, victim), "F_SETOWN outside") ||
	    !ASSERT_OK(cap_enter(), "cap_enter"))
		return;
	ASSERT_ERRNO(fcntl(b.dfd, F_NOTIFY, DN_CREATE | DN_MULTISHOT), ECAPMODE,
		     "F_NOTIFY, owner another process");
	ASSERT_ERRNO(fcntl(leased, F_SETLEASE, F_RDLCK), ECAPMODE,
		     "F_SETLEASE, owner another process");
	fd = openat(b.dfd, "new", O_WRONLY | O_CREAT, 0600);
	ASSERT_OK(fd, "create in the directory");
	fd = openat(b.dfd, "f", O_WRONLY | O_NONBLOCK);
	ASSERT_OK(fd, "open the file for writing");
}

SELFTEST(capmode_fnotify_with_another_owner_refused)
{
	against_victim(dnotify_and_lease, "F_NOTIFY, F_SETLEASE");
}

/* A socket's owner gets SIGURG for urgent data, no O_ASYNC needed. */
static void sigurg(pid_t victim)
{
	int sv[2];

	if (!ASSERT_OK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), "socketpair") ||
	    !ASSERT_OK(fcntl(sv[0], F_SETOWN, victim), "F_SETOWN outside") ||
	    !ASSERT_OK(cap_enter(), "cap_enter"))
		return;
	/* AF_UNIX urgent data (CONFIG_AF_UNIX_OOB): in the sender's context. */
	ASSERT_EQ(send(sv[1], "x", 1, MSG_OOB), 1, "urgent data to itself");
}

SELFTEST(capmode_sigurg_to_an_owner_set_before_refused)
{
	against_victim(sigurg, "MSG_OOB");
}

/* Signals to its own process through the same paths keep working. */
SELFTEST(capmode_sigio_to_own_process_delivered)
{
	struct timespec bound = { .tv_sec = 10 };
	sigset_t set;
	int p[2], q[2], sv[2], on = 1;
	char c;

	sigemptyset(&set);
	sigaddset(&set, SIGIO);
	sigaddset(&set, SIGUSR1);
	if (!fixture_loaded() || !ASSERT_OK(pipe(q), "pipe") ||
	    !ASSERT_OK(fcntl(q[0], F_SETOWN, getpid()), "F_SETOWN outside") ||
	    !ASSERT_OK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), "socketpair") ||
	    !ASSERT_OK(sigprocmask(SIG_BLOCK, &set, NULL), "block") ||
	    !ASSERT_OK(cap_enter(), "cap_enter") ||
	    !ASSERT_OK(pipe(p), "pipe inside"))
		return;
	ASSERT_OK(fcntl(p[0], F_SETOWN, 0), "F_SETOWN 0");
	ASSERT_OK(fcntl(p[0], F_SETOWN, getpid()), "F_SETOWN itself");
	ASSERT_OK(fcntl(p[0], F_SETFL, O_ASYNC | O_NONBLOCK), "O_ASYNC");
	ASSERT_EQ(write(p[1], "x", 1), 1, "write");
	ASSERT_EQ(sigtimedwait(&set, NULL, &bound), SIGIO, "SIGIO arrived");
	ASSERT_EQ(read(p[0], &c, 1), 1, "drain");
	ASSERT_OK(fcntl(p[0], F_SETSIG, SIGUSR1), "F_SETSIG, owner itself");
	ASSERT_EQ(write(p[1], "x", 1), 1, "write");
	ASSERT_EQ(sigtimedwait(&set, NULL, &bound), SIGUSR1, "SIGUSR1 arrived");
	/* An owner set before cap_enter(), itself, armed inside. */
	ASSERT_OK(fcntl(q[0], F_SETFL, O_ASYNC), "O_ASYNC, owner from before");
	ASSERT_EQ(write(q[1], "x", 1), 1, "write");
	ASSERT_EQ(sigtimedwait(&set, NULL, &bound), SIGIO, "SIGIO arrived");
	/* A socket: F_SETOWN of itself, then FIOASYNC. */
	ASSERT_OK(fcntl(sv[0], F_SETOWN, getpid()), "F_SETOWN a socket");
	ASSERT_OK(ioctl(sv[0], FIOASYNC, &on), "FIOASYNC, owner itself");
	ASSERT_EQ(write(sv[1], "x", 1), 1, "write");
	ASSERT_EQ(sigtimedwait(&set, NULL, &bound), SIGIO, "SIGIO arrived");
}

/*
 * Another process that asked for SIGIO on its own end of a pipe gets it
 * when the sandbox writes to the other end, as on FreeBSD: the sandbox
 * did not choose the owner, and holds no descriptor of that end.
 */
SELFTEST(capmode_write_signals_a_reader_that_owns_its_end)
{
	struct victim v;
	int p[2];
	pid_t pid;

	if (!fixture_loaded() || !ASSERT_OK(pipe(p), "pipe") ||
	    !victim_start(&v, p[0], 0))
		return;
	close(p[0]);
	pid = fork();
	if (pid == 0) {
		alarm(60);
		if (!ASSERT_OK(cap_enter(), "cap_enter"))
			_exit(1);
		ASSERT_EQ(write(p[1], "x", 1), 1, "write to the pipe");
		_exit(selftest_failed() ? 1 : 0);
	}
	ASSERT_EQ(selftest_wait(pid), 0, "the sandbox wrote");
	ASSERT_EQ(victim_finish(&v), SEEN_SIGIO, "the reader got its SIGIO");
}

/*
 * Not covered (doc/capmode.md): an owner set before cap_enter() on a TCP
 * socket is signalled when data arrive, in a softirq, even from the
 * sandbox's own send over loopback. current there is whoever was
 * interrupted: refusing by it would drop other processes' signals.
 */
SELFTEST(capmode_softirq_delivery_is_left_alone)
{
	struct sockaddr_in a;
	struct victim v;
	int l, c, s;
	pid_t pid;

	if (!fixture_loaded() || !victim_start(&v, -1, SIGIO))
		return;
	pid = fork();
	if (pid == 0) {
		alarm(60);
		l = fixture_listener(&a);
		c = socket(AF_INET, SOCK_STREAM, 0);
		if (!ASSERT_OK(l, "listener") || !ASSERT_OK(c, "socket") ||
		    !ASSERT_OK(connect(c, (struct sockaddr *)&a, sizeof(a)),
			       "connect") ||
		    !ASSERT_OK(s = accept(l, NULL, NULL), "accept") ||
		    !ASSERT_OK(fcntl(s, F_SETOWN, v.pid), "F_SETOWN outside") ||
		    !ASSERT_OK(fcntl(s, F_SETFL, O_ASYNC), "O_ASYNC outside") ||
		    !ASSERT_OK(cap_enter(), "cap_enter"))
			_exit(1);
		ASSERT_EQ(write(c, "x", 1), 1, "send over loopback");
		_exit(selftest_failed() ? 1 : 0);
	}
	ASSERT_EQ(selftest_wait(pid), 0, "the sandbox sent");
	ASSERT_EQ(victim_finish(&v), SEEN_SIGIO, "SIGIO from the softirq");
}

/* Outside, the parent reads the victim's state before and after. */
struct task_state {
	struct rlimit nofile;
	int nice, policy, ioprio;
	cpu_set_t cpus;
};

static bool task_state_of(pid_t pid, struct task_state *s)
{
	memset(s, 0, sizeof(*s));
	errno = 0;
	s->nice = getpriority(PRIO_PROCESS, pid);
	if (errno)
		return false;
	s->policy = sched_getscheduler(pid);
	s->ioprio = (int)syscall(SYS_ioprio_get, IOPRIO_WHO_PROCESS, pid);
	/* No block layer (the patched kernel's config): no I/O priority. */
	if (s->ioprio < 0 && errno == ENOSYS)
		s->ioprio = -ENOSYS;
	return !prlimit(pid, RLIMIT_NOFILE, NULL, &s->nofile) &&
	       s->policy >= 0 && s->ioprio != -1 &&
	       !sched_getaffinity(pid, sizeof(s->cpus), &s->cpus);
}

static void cross_process_calls(pid_t victim)
{
	struct rlimit lower = { .rlim_cur = 16, .rlim_max = 16 };
	struct sched_param param = { 0 };
	siginfo_t si = { .si_signo = SIGUSR1, .si_code = SI_QUEUE };
	unsigned long nodes = 1;
	void *page = &nodes;
	int status;
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(0, &one);
	si.si_pid = getpid();
	si.si_uid = getuid();
	if (!ASSERT_OK(cap_enter(), "cap_enter"))
		return;
	ASSERT_ERRNO(prlimit(victim, RLIMIT_NOFILE, &lower, NULL), ECAPMODE,
		     "prlimit64");
	ASSERT_ERRNO(setpriority(PRIO_PROCESS, victim, 10), ECAPMODE,
		     "setpriority PRIO_PROCESS");
	ASSERT_ERRNO(setpriority(PRIO_PGRP, victim, 10), ECAPMODE,
		     "setpriority PRIO_PGRP");
	ASSERT_ERRNO(setpriority(PRIO_PGRP, 0, 10), ECAPMODE,
		     "setpriority its own group");
	ASSERT_ERRNO(setpriority(PRIO_USER, getuid(), 10), ECAPMODE,
		     "setpriority PRIO_USER");
	ASSERT_ERRNO(sched_setaffinity(victim, sizeof(one), &one), ECAPMODE,
		     "sched_setaffinity");
	ASSERT_ERRNO(sched_setparam(victim, &param), ECAPMODE,
		     "sched_setparam");
	ASSERT_ERRNO(sched_setscheduler(victim, SCHED_BATCH, &param), ECAPMODE,
		     "sched_setscheduler");
	ASSERT_ERRNO(syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, victim,
			     IOPRIO_PRIO_VALUE(IOPRIO_CLASS_IDLE, 0)),
		     ECAPMODE, "ioprio_set");
	ASSERT_ERRNO(syscall(SYS_ioprio_set, IOPRIO_WHO_PGRP, victim,
			     IOPRIO_PRIO_VALUE(IOPRIO_CLASS_IDLE, 0)),
		     ECAPMODE, "ioprio_set of a group");
	ASSERT_ERRNO(syscall(SYS_rt_sigqueueinfo, victim, SIGUSR1, &si),
		     ECAPMODE, "rt_sigqueueinfo");
	ASSERT_ERRNO(
		syscall(SYS_rt_tgsigqueueinfo, victim, victim, SIGUSR1, &si),
		ECAPMODE, "rt_tgsigqueueinfo");
	ASSERT_ERRNO(syscall(SYS_tkill, victim, SIGUSR2), ECAPMODE, "tkill");
	ASSERT_ERRNO(syscall(SYS_tgkill, victim, victim, SIGUSR2), ECAPMODE,
		     "tgkill");
	ASSERT_ERRNO(syscall(SYS_process_madvise, -1, NULL, 0, 0, 0), ECAPMODE,
		     "process_madvise");
	ASSERT_ERRNO(syscall(SYS_migrate_pages, victim, 8 * sizeof(nodes),
			     &nodes, &nodes),
		     ECAPMODE, "migrate_pages");
	ASSERT_ERRNO(
		syscall(SYS_move_pages, victim, 1, &page, NULL, &status, 0),
		ECAPMODE, "move_pages");
	ASSERT_ERRNO(syscall(SYS_kcmp, getpid(), victim, KCMP_VM, 0, 0),
		     ECAPMODE, "kcmp");
}

SELFTEST(capmode_cannot_change_another_process)
{
	struct task_state before, after;
	struct victim v;
	pid_t pid;

	if (!fixture_loaded() || !victim_start(&v, -1, 0))
		return;
	if (!ASSERT_TRUE(task_state_of(v.pid, &before), "victim's state"))
		goto out;
	pid = fork();
	if (pid == 0) {
		alarm(60);
		cross_process_calls(v.pid);
		_exit(selftest_failed() ? 1 : 0);
	}
	ASSERT_EQ(selftest_wait(pid), 0, "cross-process calls refused");
	if (ASSERT_TRUE(task_state_of(v.pid, &after), "victim's state after")) {
		ASSERT_EQ(after.nice, before.nice, "nice value unchanged");
		ASSERT_EQ(after.policy, before.policy, "policy unchanged");
		ASSERT_EQ(after.ioprio, before.ioprio,
			  "I/O priority unchanged");
		ASSERT_EQ(after.nofile.rlim_cur, before.nofile.rlim_cur,
			  "RLIMIT_NOFILE unchanged");
		ASSERT_TRUE(CPU_EQUAL(&after.cpus, &before.cpus),
			    "affinity unchanged");
	}
out:
	ASSERT_EQ(victim_finish(&v), 0, "the victim is alive, nothing pending");
}

/* A pidfd held from before cap_enter() is a process descriptor. */
static void pidfd_without_pdkill(pid_t victim)
{
	int pfd = (int)syscall(SYS_pidfd_open, victim, 0);

	if (!ASSERT_OK(pfd, "pidfd_open outside") ||
	    !ASSERT_OK(fixture_limit_all_but(pfd, CAP_PDKILL), "limit") ||
	    !ASSERT_OK(cap_enter(), "cap_enter"))
		return;
	ASSERT_ERRNO(syscall(SYS_pidfd_send_signal, pfd, SIGUSR1, NULL, 0),
		     ENOTCAPABLE, "pidfd_send_signal without CAP_PDKILL");
	ASSERT_ERRNO(kill(victim, SIGUSR1), ECAPMODE, "kill by pid");
}

SELFTEST(capmode_pidfd_send_signal_needs_pdkill)
{
	against_victim(pidfd_without_pdkill, "pidfd without CAP_PDKILL");
}

/*
 * A terminal signals process groups for the ioctls that act on it: a
 * pseudo-terminal master's TIOCSIG sends SIGINT, SIGQUIT or SIGTSTP to
 * the foreground group of its slave, in raw mode too, and with no
 * permission check and no task_kill hook (kill_pgrp(..., priv)); a
 * session leader's TIOCNOTTY sends SIGHUP and SIGCONT to its terminal's
 * foreground group; TIOCVHANGUP hangs a terminal up. The filter refuses
 * the three in capability mode (ECAPMODE). The victim leads a session
 * on the slave (victim_start_tty).
 */
SELFTEST(capmode_tty_ioctls_signal_no_one)
{
	struct victim v;
	pid_t sandbox;
	int master;

	if (!fixture_loaded())
		return;
	master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (!ASSERT_OK(master, "posix_openpt") ||
	    !ASSERT_OK(grantpt(master), "grantpt") ||
	    !ASSERT_OK(unlockpt(master), "unlockpt"))
		return;

	/* Without capability mode: TIOCSIG reaches the victim. */
	if (!victim_start_tty(&v, -1, 0, master))
		return;
	ASSERT_OK(ioctl(master, TIOCSIG, SIGINT), "TIOCSIG outside");
	ASSERT_ERRNO(ioctl(master, TIOCNOTTY), ENOTTY,
		     "TIOCNOTTY outside (not this process's terminal)");
	ASSERT_EQ(victim_finish(&v), SEEN_SIGINT,
		  "SIGINT reached the victim from outside");

	/* In capability mode: refused, and nothing reaches it. */
	if (!victim_start_tty(&v, -1, 0, master))
		return;
	sandbox = fork();
	if (sandbox == 0) {
		if (cap_enter())
			_exit(1);
		if (ioctl(master, TIOCSIG, SIGINT) != -1 || errno != ECAPMODE)
			_exit(2);
		if (ioctl(master, TIOCNOTTY) != -1 || errno != ECAPMODE)
			_exit(3);
		if (ioctl(master, TIOCVHANGUP) != -1 || errno != ECAPMODE)
			_exit(4);
		_exit(0);
	}
	ASSERT_EQ(selftest_wait(sandbox), 0,
		  "TIOCSIG, TIOCNOTTY, TIOCVHANGUP: ECAPMODE");
	ASSERT_EQ(victim_finish(&v), 0,
		  "no signal reached the victim from capability mode");
	close(master);
}

/*
 * clone(CLONE_PARENT) makes the new process a child of the caller's
 * parent, which gets its exit signal and has to reap it: capability mode
 * refuses the flag (ECAPMODE). Outside, the test process (the caller's
 * parent) reaps the sibling it was given.
 */
static int clone_parent(void)
{
	long pid = syscall(SYS_clone, CLONE_PARENT | SIGCHLD, NULL, NULL, NULL,
			   NULL);

	if (pid == 0)
		_exit(0);
	return pid < 0 ? -errno : (int)pid;
}

SELFTEST(capmode_clone_parent_refused)
{
	int p[2], outside = 0, inside = 0;
	pid_t caller;

	if (!fixture_loaded() || !ASSERT_OK(pipe(p), "pipe"))
		return;
	caller = fork();
	if (caller == 0) {
		outside = clone_parent();
		if (write(p[1], &outside, sizeof(outside)) != sizeof(outside) ||
		    cap_enter())
			_exit(1);
		inside = clone_parent();
		_exit(write(p[1], &inside, sizeof(inside)) == sizeof(inside)
			      ? 0
			      : 1);
	}
	if (!ASSERT_OK(caller, "fork"))
		return;
	ASSERT_EQ(read(p[0], &outside, sizeof(outside)), sizeof(outside),
		  "outside's answer");
	if (ASSERT_TRUE(outside > 0, "CLONE_PARENT outside capability mode"))
		ASSERT_EQ(waitpid(outside, NULL, 0), outside,
			  "its child is this process's to reap");
	ASSERT_EQ(read(p[0], &inside, sizeof(inside)), sizeof(inside),
		  "inside's answer");
	ASSERT_EQ(inside, -ECAPMODE, "CLONE_PARENT in capability mode");
	ASSERT_EQ(selftest_wait(caller), 0, "the caller");
	close(p[0]);
	close(p[1]);
}
