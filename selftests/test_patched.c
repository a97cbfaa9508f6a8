// SPDX-License-Identifier: GPL-2.0
/*
 * The patched kernel (kernel/): rights that no stock hook can see, checked
 * at descriptor lookup (bpf/fget.bpf.h). Each test performs the operation
 * with and without the right and expects ENOTCAPABLE, not EBADF, for the
 * refusal; on a stock kernel they skip.
 */
#define _GNU_SOURCE
#include "fixture.h"
#include "selftest.h"

#include <capsicum/abi.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <mqueue.h>
#include <stdio.h>
#include <sys/capsicum.h>
#include <sys/epoll.h>
#include <sys/inotify.h>
#include <sys/prctl.h>
#include <sys/procdesc.h>
#include <sys/select.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef P_PIDFD
#define P_PIDFD 3
#endif

static void need_patched(void)
{
	if (!fixture_patched_kernel())
		selftest_skip("stock kernel: no fget hook (kernel/)");
	if (!fixture_loaded())
		selftest_skip("capsicum not loaded");
}

/* An unlinked scratch file holding "0123456789". */
static int scratch(void)
{
	return fixture_scratch_file("0123456789");
}

SELFTEST(patched_lseek_needs_cap_seek)
{
	int full, tell, none;

	need_patched();
	full = scratch();
	tell = scratch();
	none = scratch();
	if (!ASSERT_OK(fixture_limit(full, CAP_READ, CAP_SEEK, 0),
		       "read,seek") ||
	    !ASSERT_OK(fixture_limit(tell, CAP_READ, CAP_SEEK_TELL, 0),
		       "read,tell") ||
	    !ASSERT_OK(fixture_limit(none, CAP_READ, 0, 0), "read"))
		return;
	ASSERT_EQ(lseek(full, 2, SEEK_SET), 2, "lseek with CAP_SEEK");
	ASSERT_EQ(lseek(tell, 0, SEEK_CUR), 10, "tell with CAP_SEEK_TELL");
	ASSERT_ERRNO(lseek(tell, 2, SEEK_SET), ENOTCAPABLE,
		     "seek with CAP_SEEK_TELL only");
	ASSERT_ERRNO(lseek(none, 0, SEEK_CUR), ENOTCAPABLE,
		     "tell without CAP_SEEK_TELL");
	ASSERT_ERRNO(lseek(none, 0, SEEK_END), ENOTCAPABLE,
		     "seek without CAP_SEEK");
}

SELFTEST(patched_fsync_needs_cap_fsync)
{
	int with = scratch(), without = scratch();

	need_patched();
	if (!ASSERT_OK(fixture_limit(with, CAP_WRITE, CAP_FSYNC, 0),
		       "write,fsync") ||
	    !ASSERT_OK(fixture_limit(without, CAP_WRITE, 0, 0), "write"))
		return;
	ASSERT_OK(fsync(with), "fsync with CAP_FSYNC");
	ASSERT_OK(fdatasync(with), "fdatasync with CAP_FSYNC");
	ASSERT_ERRNO(fsync(without), ENOTCAPABLE, "fsync without");
	ASSERT_ERRNO(fdatasync(without), ENOTCAPABLE, "fdatasync without");
	ASSERT_ERRNO(syncfs(without), ENOTCAPABLE, "syncfs without");
}

SELFTEST(patched_fchdir_needs_cap_fchdir)
{
	int with = open("/tmp", O_RDONLY | O_DIRECTORY);
	int without = open("/tmp", O_RDONLY | O_DIRECTORY);

	need_patched();
	if (!ASSERT_OK(fixture_limit(with, CAP_LOOKUP, CAP_FCHDIR, 0),
		       "fchdir") ||
	    !ASSERT_OK(fixture_limit(without, CAP_LOOKUP, CAP_READ, 0),
		       "lookup"))
		return;
	ASSERT_ERRNO(fchdir(without), ENOTCAPABLE, "fchdir without");
	ASSERT_OK(fchdir(with), "fchdir with CAP_FCHDIR");
}

SELFTEST(patched_tee_splice_vmsplice_need_read_and_write)
{
	int a[2], b[2], c[2];
	char buf[4];
	struct iovec v = { buf, sizeof(buf) };

	need_patched();
	if (!ASSERT_OK(pipe(a), "pipe a") || !ASSERT_OK(pipe(b), "pipe b") ||
	    !ASSERT_OK(pipe(c), "pipe c"))
		return;
	ASSERT_EQ(write(a[1], "abcd", 4), 4, "fill a");
	/* a's read end may not be read; b's write end may not be written. */
	if (!ASSERT_OK(fixture_limit_all_but(a[0], CAP_READ), "a[0]") ||
	    !ASSERT_OK(fixture_limit_all_but(b[1], CAP_WRITE), "b[1]"))
		return;
	ASSERT_ERRNO(tee(a[0], c[1], 4, 0), ENOTCAPABLE, "tee from a[0]");
	ASSERT_ERRNO(splice(a[0], NULL, c[1], NULL, 4, 0), ENOTCAPABLE,
		     "splice from a[0]");
	ASSERT_ERRNO(vmsplice(a[0], &v, 1, 0), ENOTCAPABLE,
		     "vmsplice out of a[0]");
	ASSERT_ERRNO(vmsplice(b[1], &v, 1, 0), ENOTCAPABLE,
		     "vmsplice into b[1]");
	ASSERT_EQ(write(c[1], "wxyz", 4), 4, "fill c");
	ASSERT_ERRNO(tee(c[0], b[1], 4, 0), ENOTCAPABLE, "tee into b[1]");
	ASSERT_ERRNO(splice(c[0], NULL, b[1], NULL, 4, 0), ENOTCAPABLE,
		     "splice into b[1]");
	/* The unlimited ends still work. */
	ASSERT_EQ(tee(c[0], a[1], 4, 0), 4, "tee c to a");
	ASSERT_EQ(splice(c[0], NULL, a[1], NULL, 4, 0), 4, "splice c to a");
	ASSERT_EQ(vmsplice(c[1], &v, 1, 0), 4, "vmsplice into c");
}

/*
 * Without CAP_EVENT, poll says POLLNVAL (as FreeBSD) and select reports
 * the descriptor ready in every set it was asked about, whatever its
 * state (Linux's answer for a descriptor whose lookup fails): either way
 * the process learns nothing of its readiness. FreeBSD's select fails
 * with ENOTCAPABLE instead (doc/enforcement.md). Empty pipes, so that a
 * "ready" can only come from the refusal.
 */
SELFTEST(patched_poll_and_select_need_cap_event)
{
	int with[2], without[2];
	struct pollfd p[2];
	fd_set set;
	struct timeval zero = { 0, 0 };

	need_patched();
	if (!ASSERT_OK(pipe(with), "pipe") || !ASSERT_OK(pipe(without), "pipe"))
		return;
	if (!ASSERT_OK(fixture_limit(with[0], CAP_READ, CAP_EVENT, 0),
		       "read,event") ||
	    !ASSERT_OK(fixture_limit(without[0], CAP_READ, 0, 0), "read"))
		return;
	p[0] = (struct pollfd){ .fd = with[0], .events = POLLIN };
	p[1] = (struct pollfd){ .fd = without[0], .events = POLLIN };
	ASSERT_EQ(poll(p, 2, 0), 1, "poll reports one");
	ASSERT_EQ(p[0].revents, 0,
		  "with CAP_EVENT: an empty pipe is not ready");
	ASSERT_EQ(p[1].revents, POLLNVAL, "without: POLLNVAL, as FreeBSD");
	FD_ZERO(&set);
	FD_SET(with[0], &set);
	ASSERT_EQ(select(with[0] + 1, &set, NULL, NULL, &zero), 0,
		  "select with CAP_EVENT: not ready");
	ASSERT_EQ(write(with[1], "x", 1), 1, "make it readable");
	FD_ZERO(&set);
	FD_SET(with[0], &set);
	ASSERT_EQ(select(with[0] + 1, &set, NULL, NULL, &zero), 1,
		  "select with CAP_EVENT: readable");
	FD_ZERO(&set);
	FD_SET(without[0], &set);
	ASSERT_EQ(select(without[0] + 1, &set, NULL, NULL, &zero), 1,
		  "select without: reported ready although empty");
	ASSERT_TRUE(FD_ISSET(without[0], &set), "in the read set");
}

SELFTEST(patched_epoll_ctl_needs_its_rights)
{
	struct epoll_event ev = { .events = EPOLLIN };
	int ep = epoll_create1(0), ep_no = epoll_create1(0), p[2], q[2];

	need_patched();
	if (!ASSERT_OK(pipe(p), "pipe") || !ASSERT_OK(pipe(q), "pipe"))
		return;
	if (!ASSERT_OK(fixture_limit(ep_no, CAP_EVENT, 0, 0),
		       "epoll fd: event") ||
	    !ASSERT_OK(fixture_limit(q[0], CAP_READ, 0, 0), "q[0]: read") ||
	    !ASSERT_OK(fixture_limit(p[0], CAP_READ, CAP_EVENT, 0),
		       "p[0]: read,event"))
		return;
	ASSERT_ERRNO(epoll_ctl(ep_no, EPOLL_CTL_ADD, p[0], &ev), ENOTCAPABLE,
		     "add on an epoll fd without CAP_EPOLL_CTL");
	ASSERT_ERRNO(epoll_ctl(ep, EPOLL_CTL_ADD, q[0], &ev), ENOTCAPABLE,
		     "add of a descriptor without CAP_EVENT");
	ASSERT_OK(epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &ev), "add with both");
	ASSERT_OK(epoll_ctl(ep, EPOLL_CTL_DEL, p[0], NULL), "delete");
}

SELFTEST(patched_waitid_on_a_process_descriptor_needs_cap_pdwait)
{
	siginfo_t si;
	int pd, pd2, done[2];
	pid_t pid;

	need_patched();
	if (!ASSERT_OK(pipe(done), "pipe"))
		return;
	pid = pdfork(&pd, 0);
	if (pid == 0) {
		char c;

		_exit(read(done[0], &c, 1) == 1 ? 3 : 4);
	}
	if (!ASSERT_OK(pid, "pdfork"))
		return;
	pd2 = dup(pd);
	if (!ASSERT_OK(fixture_limit_all_but(pd2, CAP_PDWAIT), "pd2"))
		return;
	ASSERT_EQ(write(done[1], "x", 1), 1, "release the child");
	memset(&si, 0, sizeof(si));
	/* __WALL: a pdfork child has no exit signal. */
	ASSERT_ERRNO(
		syscall(SYS_waitid, P_PIDFD, pd2, &si, WEXITED | __WALL, NULL),
		ENOTCAPABLE, "waitid(P_PIDFD) without CAP_PDWAIT");
	ASSERT_OK(syscall(SYS_waitid, P_PIDFD, pd, &si, WEXITED | __WALL, NULL),
		  "waitid(P_PIDFD) with it");
	ASSERT_EQ(si.si_status, 3, "the child's exit status");
}

SELFTEST(patched_setns_needs_cap_setns)
{
	int with = open("/proc/self/ns/uts", O_RDONLY);
	int without = open("/proc/self/ns/uts", O_RDONLY);
	int ret;

	need_patched();
	if (!ASSERT_OK(fixture_limit(with, CAP_SETNS, 0, 0), "setns") ||
	    !ASSERT_OK(fixture_limit_all_but(without, CAP_SETNS), "no setns"))
		return;
	ASSERT_ERRNO(setns(without, CLONE_NEWUTS), ENOTCAPABLE,
		     "setns without CAP_SETNS");
	/* Root joins its own namespace; uid 1000 gets past the right to EPERM.
	 */
	ret = setns(with, CLONE_NEWUTS);
	if (selftest_is_root())
		ASSERT_OK(ret, "setns with CAP_SETNS");
	else
		ASSERT_TRUE(ret == -1 && errno == EPERM,
			    "setns with CAP_SETNS: past the right, EPERM");
}

SELFTEST(patched_signalfd_update_needs_cap_fsignal)
{
	sigset_t mask;
	int with, without;

	need_patched();
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	with = signalfd(-1, &mask, 0);
	without = signalfd(-1, &mask, 0);
	if (!ASSERT_OK(fixture_limit(with, CAP_READ, CAP_FSIGNAL, 0),
		       "fsignal") ||
	    !ASSERT_OK(fixture_limit_all_but(without, CAP_FSIGNAL), "none"))
		return;
	sigaddset(&mask, SIGUSR2);
	ASSERT_ERRNO(signalfd(without, &mask, 0), ENOTCAPABLE,
		     "update without CAP_FSIGNAL");
	ASSERT_EQ(signalfd(with, &mask, 0), with, "update with CAP_FSIGNAL");
}

SELFTEST(patched_inotify_rm_watch_needs_cap_inotify_rm)
{
	int with = inotify_init1(0), without = inotify_init1(0), w1, w2;

	need_patched();
	w1 = inotify_add_watch(with, "/tmp", IN_CREATE);
	w2 = inotify_add_watch(without, "/tmp", IN_CREATE);
	if (!ASSERT_OK(w1, "watch") || !ASSERT_OK(w2, "watch") ||
	    !ASSERT_OK(fixture_limit(with, CAP_READ, CAP_INOTIFY_RM, 0),
		       "rm") ||
	    !ASSERT_OK(fixture_limit_all_but(without, CAP_INOTIFY_RM), "no rm"))
		return;
	ASSERT_ERRNO(inotify_rm_watch(without, w2), ENOTCAPABLE,
		     "rm without CAP_INOTIFY_RM");
	ASSERT_OK(inotify_rm_watch(with, w1), "rm with CAP_INOTIFY_RM");
}

/* A process with no Capsicum state sees stock behaviour, EBADF included. */
/*
 * The BPF side's view of the calling process (CAPSICUM_OP_SELF): the
 * CAPSICUM_SELF_* bits, or -1.
 */
static int self_bits(void)
{
	struct capsicum_req req = { .magic = CAPSICUM_REQ_MAGIC,
				    .version = CAPSICUM_ABI_VERSION,
				    .op = CAPSICUM_OP_SELF };

	if (prctl(CAPSICUM_PRCTL_OPTION, &req, 0, 0, 0) >= 0 ||
	    errno < CAPSICUM_STATUS_SELF || errno >= CAPSICUM_STATUS_SELF + 8)
		return -1;
	return errno - CAPSICUM_STATUS_SELF;
}

/*
 * A process without state: the kernel's gate is off (the flag read by
 * the BPF side, so this fails if any state leaked into it, e.g. from
 * the test runner), nothing is checked, EBADF stays EBADF. The same
 * process gets the gate on with its first limit.
 */
SELFTEST(patched_process_without_state_is_unchanged)
{
	pid_t pid;

	need_patched();
	pid = fork();
	if (pid == 0) {
		int fd = open("/tmp", O_RDONLY | O_DIRECTORY), p[2];
		cap_rights_t r;
		char c;

		if (self_bits() != 0)
			_exit(5);
		if (cap_rights_get(fd, &r) ||
		    !cap_rights_is_set(&r, CAP_FCHDIR))
			_exit(1);
		if (fchdir(fd) || lseek(fd, 0, SEEK_CUR) < 0 || pipe(p))
			_exit(2);
		if (close(p[0]) || read(p[0], &c, 1) != -1 || errno != EBADF)
			_exit(3);
		if (lseek(p[0], 0, SEEK_CUR) != -1 || errno != EBADF)
			_exit(4);
		if (self_bits() != 0)
			_exit(6);
		if (fixture_limit(p[1], CAP_WRITE, 0, 0) ||
		    self_bits() !=
			    (CAPSICUM_SELF_STATE | CAPSICUM_SELF_FGET_CHECK))
			_exit(7);
		_exit(0);
	}
	ASSERT_EQ(selftest_wait(pid), 0,
		  "child: gate off (5, 6), fchdir, lseek, EBADF (1-4); gate "
		  "on after a limit (7)");
}

/* A limited process still gets EBADF for a descriptor that is not open. */
SELFTEST(patched_closed_descriptor_is_still_ebadf)
{
	int fd = scratch(), gone = scratch();

	need_patched();
	if (!ASSERT_OK(fixture_limit(fd, CAP_READ, 0, 0), "read"))
		return;
	close(gone);
	ASSERT_ERRNO(lseek(gone, 0, SEEK_SET), EBADF, "lseek of a closed fd");
	ASSERT_ERRNO(fsync(gone), EBADF, "fsync of a closed fd");
	ASSERT_ERRNO(lseek(fd, 0, SEEK_SET), ENOTCAPABLE, "lseek limited");
	ASSERT_ERRNO(fsync(-1), EBADF, "fsync(-1) right after");
}

/* Far above what the test opens, so dup2 never clobbers its own files. */
#define RACE_FD 200

/*
 * One thread keeps dup2()ing a descriptor without CAP_SEEK (a 10-byte
 * file) and an unrestricted one (20 bytes) over RACE_FD while another
 * seeks to the end through it. The size lseek returns names the file it
 * reached: it must never be the limited one. The hook sees the file the
 * number maps to at lookup, and the entry of exactly that number, so no
 * interleaving widens. Bounded: 20 s.
 */
SELFTEST(patched_race_dup2_never_widens_lseek)
{
	struct fixture_dup2_race r = { .fd = RACE_FD };
	struct timespec t0, t;
	long full = 0, refused = 0, widened = 0;

	need_patched();
	r.limited = scratch();
	r.full = scratch();
	if (!ASSERT_OK(r.limited, "scratch") || !ASSERT_OK(r.full, "scratch") ||
	    !ASSERT_EQ(write(r.full, "0123456789", 10), 10, "20 bytes") ||
	    !ASSERT_OK(fixture_limit(r.limited, CAP_READ, CAP_FSTAT, 0),
		       "no seek"))
		return;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (!ASSERT_OK(fixture_dup2_race_start(&r), "dup2 thread"))
		return;
	/*
	 * At least 20,000 attempts, and on until both files were reached: on
	 * one loaded vCPU the two threads may alternate only a few times.
	 */
	for (int i = 0; i < 20000 || !full || !refused; i++) {
		off_t end = lseek(RACE_FD, 0, SEEK_END);

		if (end == 20)
			full++;
		else if (end == 10)
			widened++;
		else if (errno == ENOTCAPABLE)
			refused++;
		if (i % 1024 == 0)
			sched_yield();
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec > 20)
			break;
	}
	fixture_dup2_race_stop(&r);
	ASSERT_EQ(widened, 0, "lseek never reached the file without CAP_SEEK");
	ASSERT_TRUE(full > 0, "the unrestricted file was reached");
	ASSERT_TRUE(refused > 0, "the limited one was refused");
}

/*
 * timerfd: arming needs CAP_WRITE (and CAP_READ to get the old value
 * back), reading the timer CAP_READ; the 2014 series' mapping.
 */
SELFTEST(patched_timerfd_needs_read_and_write)
{
	struct itimerspec its = { .it_value = { 100, 0 } }, old;
	int t = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC), w, r;

	need_patched();
	if (!ASSERT_OK(t, "timerfd"))
		return;
	w = dup(t);
	r = dup(t);
	if (!ASSERT_OK(fixture_limit(w, CAP_WRITE, 0, 0), "write only") ||
	    !ASSERT_OK(fixture_limit(r, CAP_READ, 0, 0), "read only"))
		return;
	ASSERT_OK(timerfd_settime(w, 0, &its, NULL), "settime with write");
	ASSERT_ERRNO(timerfd_settime(w, 0, &its, &old), ENOTCAPABLE,
		     "settime asking the old value, without read");
	ASSERT_ERRNO(timerfd_settime(r, 0, &its, NULL), ENOTCAPABLE,
		     "settime without write");
	ASSERT_ERRNO(timerfd_gettime(w, &old), ENOTCAPABLE,
		     "gettime without read");
	ASSERT_OK(timerfd_gettime(r, &old), "gettime with read");
	ASSERT_OK(timerfd_settime(t, 0, &its, &old), "all rights");
}

/*
 * POSIX message queues: sending needs CAP_WRITE, receiving CAP_READ,
 * mq_getattr/mq_setattr/mq_notify CAP_EVENT (the 2014 series' mapping).
 */
SELFTEST(patched_mq_needs_its_rights)
{
	struct mq_attr attr = { .mq_maxmsg = 4, .mq_msgsize = 16 };
	char name[64], buf[16];
	mqd_t q, w, r;

	need_patched();
	snprintf(name, sizeof(name), "/capsicum-selftest-%d", (int)getpid());
	q = mq_open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600, &attr);
	if (!ASSERT_OK(q, "mq_open"))
		return;
	mq_unlink(name);
	w = dup(q);
	r = dup(q);
	if (!ASSERT_OK(fixture_limit(w, CAP_WRITE, 0, 0), "write only") ||
	    !ASSERT_OK(fixture_limit(r, CAP_READ, CAP_EVENT, 0), "read, event"))
		return;
	ASSERT_OK(mq_send(w, "x", 1, 0), "send with write");
	ASSERT_ERRNO(mq_send(r, "y", 1, 0), ENOTCAPABLE, "send without write");
	ASSERT_ERRNO(mq_receive(w, buf, sizeof(buf), NULL), ENOTCAPABLE,
		     "receive without read");
	ASSERT_EQ(mq_receive(r, buf, sizeof(buf), NULL), 1,
		  "receive with read");
	ASSERT_ERRNO(mq_getattr(w, &attr), ENOTCAPABLE,
		     "getattr without event");
	ASSERT_OK(mq_getattr(r, &attr), "getattr with event");
	ASSERT_ERRNO(mq_notify(w, NULL), ENOTCAPABLE, "notify without event");
	mq_close(q);
}

/* epoll_wait on an epoll descriptor asks its readiness: CAP_EVENT. */
SELFTEST(patched_epoll_wait_needs_cap_event)
{
	struct epoll_event ev;
	int ep = epoll_create1(EPOLL_CLOEXEC), no;

	need_patched();
	if (!ASSERT_OK(ep, "epoll"))
		return;
	no = dup(ep);
	if (!ASSERT_OK(fixture_limit(no, CAP_EPOLL_CTL, 0, 0),
		       "epoll_ctl only"))
		return;
	ASSERT_EQ(epoll_wait(ep, &ev, 1, 0), 0, "epoll_wait with CAP_EVENT");
	ASSERT_ERRNO(epoll_wait(no, &ev, 1, 0), ENOTCAPABLE,
		     "epoll_wait without");
	ASSERT_ERRNO(epoll_pwait(no, &ev, 1, 0, NULL), ENOTCAPABLE,
		     "epoll_pwait without");
}

/*
 * faccessat through a dirfd: the kernel keeps its walk beneath the
 * descriptor (kernel/ 0004) and the access check needs CAP_FSTATAT of
 * it, asked at the walk's own lookup of the dirfd (before any name, so
 * a missing name answers like an existing one); an empty path
 * (faccessat2's AT_EMPTY_PATH) acts on the descriptor: CAP_FSTAT.
 */
SELFTEST(patched_faccessat_needs_cap_fstatat)
{
	char top[] = "/tmp/faccessat.XXXXXX", f[64];
	int with, without, file, bare;

	need_patched();
	if (!ASSERT_OK_PTR(mkdtemp(top), "dir"))
		return;
	snprintf(f, sizeof(f), "%s/f", top);
	file = open(f, O_WRONLY | O_CREAT, 0644);
	with = open(top, O_RDONLY | O_DIRECTORY);
	without = open(top, O_RDONLY | O_DIRECTORY);
	bare = open(f, O_RDONLY);
	if (!ASSERT_TRUE(file >= 0 && with >= 0 && without >= 0 && bare >= 0,
			 "open") ||
	    !ASSERT_OK(fixture_limit(with, CAP_FSTATAT, 0, 0), "fstatat") ||
	    !ASSERT_OK(fixture_limit(without, CAP_LOOKUP, CAP_READ, 0),
		       "lookup,read") ||
	    !ASSERT_OK(fixture_limit(file, CAP_FSTAT, 0, 0), "fstat") ||
	    !ASSERT_OK(fixture_limit(bare, CAP_READ, 0, 0), "read"))
		return;
	ASSERT_OK(faccessat(with, "f", R_OK, 0), "with CAP_FSTATAT");
	ASSERT_ERRNO(faccessat(with, "missing", F_OK, 0), ENOENT,
		     "a missing name, with CAP_FSTATAT");
	ASSERT_ERRNO(faccessat(without, "f", R_OK, 0), ENOTCAPABLE,
		     "without CAP_FSTATAT");
	ASSERT_ERRNO(faccessat(without, "missing", F_OK, 0), ENOTCAPABLE,
		     "a missing name, without CAP_FSTATAT");
	ASSERT_ERRNO(faccessat(with, "../x", F_OK, 0), ENOTCAPABLE,
		     "a name above the dirfd");
	ASSERT_OK(syscall(SYS_faccessat2, file, "", W_OK, AT_EMPTY_PATH),
		  "the descriptor itself with CAP_FSTAT");
	ASSERT_ERRNO(syscall(SYS_faccessat2, bare, "", R_OK, AT_EMPTY_PATH),
		     ENOTCAPABLE, "the descriptor itself without CAP_FSTAT");
	close(with);
	close(without);
	close(file);
	close(bare);
	unlink(f);
	rmdir(top);
}
