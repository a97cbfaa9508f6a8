// SPDX-License-Identifier: GPL-2.0
/*
 * The patched kernel (kernel/): rights that no stock hook can see, checked
 * at descriptor lookup (bpf/fget.bpf.h). The rows (rows.h) run on every
 * kernel: on the stock ones they pin the gap doc/enforcement.md lists
 * (the call goes through without its right), on the patched one the
 * refusal, ENOTCAPABLE and not EBADF. The tests after them skip on stock
 * kernels.
 */
#define _GNU_SOURCE
#include "compat.h"
#include "fixture.h"
#include "rows.h"
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
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/procdesc.h>
#include <sys/select.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
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

/* --- rows: the rights only the fget hook sees --------------------------*/

/* The scratch file of the seek and sync rows. */
static int seek_file(void)
{
	return scratch();
}

/* CAP_SEEK's own bit: CAP_SEEK holds CAP_SEEK_TELL too. */
#define CAP_SEEK_OWN                                                           \
	CAPRIGHT(0, CAP_SEEK &CAP_RIGHTS_BITS_MASK & ~CAP_SEEK_TELL)
/* CAP_MMAP_X's own bit: CAP_MMAP_X holds CAP_MMAP and CAP_SEEK too. */
#define CAP_MMAP_X_OWN                                                         \
	CAPRIGHT(0, CAP_MMAP_X &CAP_RIGHTS_BITS_MASK & ~(CAP_MMAP | CAP_SEEK))

/* The other end of the pipe a row's descriptor is an end of. */
static int pipe_other = -1;

/* A read end holding one byte, its write end open. */
static int pipe_read_end(void)
{
	int p[2];

	if (pipe(p) || write(p[1], "y", 1) != 1)
		return -1;
	pipe_other = p[1];
	return p[0];
}

/* An empty pipe's read end, its write end open (pipe_other). */
static int empty_pipe(void)
{
	int p[2];

	if (pipe(p))
		return -1;
	pipe_other = p[1];
	return p[0];
}

/* A write end, its read end open. */
static int pipe_write_end(void)
{
	int p[2];

	if (pipe(p))
		return -1;
	pipe_other = p[0];
	return p[1];
}

/* A pipe holding one byte: its read end (its write end leaks, open). */
static int full_pipe(void)
{
	return pipe_read_end();
}

static int tmp_dir(void)
{
	return open("/tmp", O_RDONLY | O_DIRECTORY);
}

static int epoll_fd(void)
{
	return epoll_create1(0);
}

/* A process descriptor of a child that exits 3 at once. */
static int pd_child(void)
{
	int pd;
	pid_t pid = pdfork(&pd, 0);

	if (pid == 0)
		_exit(3);
	return pid < 0 ? -1 : pd;
}

static int uts_ns(void)
{
	return open("/proc/self/ns/uts", O_RDONLY);
}

static int signal_fd(void)
{
	sigset_t mask;

	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	return signalfd(-1, &mask, 0);
}

/* An inotify descriptor watching /tmp: watch `wd`. */
static int wd = -1;

static int inotify_watching(void)
{
	int fd = inotify_init1(0);

	wd = fd < 0 ? -1 : inotify_add_watch(fd, "/tmp", IN_CREATE);
	return wd < 0 ? -1 : fd;
}

static int timer_fd(void)
{
	return timerfd_create(CLOCK_MONOTONIC, 0);
}

/* A private POSIX message queue (its name gone) holding one message. */
static int mqueue(void)
{
	struct mq_attr attr = { .mq_maxmsg = 4, .mq_msgsize = 16 };
	char name[64];
	mqd_t q;

	snprintf(name, sizeof(name), "/capsicum-row-%d", (int)getpid());
	q = mq_open(name, O_RDWR | O_CREAT | O_EXCL, 0600, &attr);
	if (q < 0 || mq_unlink(name) || mq_send(q, "m", 1, 0))
		return -1;
	return q;
}

/* A fresh directory holding a file "f"; faccess_file is that file. */
static char faccess_f[64];

static int faccess_dir(void)
{
	char top[] = "/tmp/faccessat.XXXXXX";
	int f;

	if (!mkdtemp(top))
		return -1;
	snprintf(faccess_f, sizeof(faccess_f), "%s/f", top);
	f = open(faccess_f, O_WRONLY | O_CREAT, 0644);
	if (f < 0 || close(f))
		return -1;
	return open(top, O_RDONLY | O_DIRECTORY);
}

static int faccess_file(void)
{
	return faccess_dir() < 0 ? -1 : open(faccess_f, O_RDONLY);
}

static int op_lseek_set(int fd)
{
	return lseek(fd, 2, SEEK_SET) == 2 ? 0 : -1;
}
static int op_lseek_tell(int fd)
{
	return lseek(fd, 0, SEEK_CUR) < 0 ? -1 : 0;
}
static int op_fsync(int fd)
{
	return fsync(fd);
}
static int op_fdatasync(int fd)
{
	return fdatasync(fd);
}
static int op_syncfs(int fd)
{
	return syncfs(fd);
}
static int op_sync_file_range(int fd)
{
	return sync_file_range(fd, 0, 0, 0);
}
static int op_fchdir(int fd)
{
	return fchdir(fd);
}

/* One byte from fd to a fresh pipe, or from a pipe holding one into fd. */
static int op_tee_in(int fd)
{
	int p[2];

	return pipe(p) || tee(fd, p[1], 1, 0) != 1 ? -1 : 0;
}
static int op_tee_out(int fd)
{
	int in = full_pipe();

	return in < 0 || tee(in, fd, 1, 0) != 1 ? -1 : 0;
}
static int op_splice_pipe_in(int fd)
{
	int p[2];

	return pipe(p) || splice(fd, NULL, p[1], NULL, 1, 0) != 1 ? -1 : 0;
}
static int op_splice_pipe_out(int fd)
{
	int in = full_pipe();

	return in < 0 || splice(in, NULL, fd, NULL, 1, 0) != 1 ? -1 : 0;
}
static int op_vmsplice_out(int fd)
{
	char c;
	struct iovec v = { &c, 1 };

	return vmsplice(fd, &v, 1, 0) == 1 ? 0 : -1;
}
static int op_vmsplice_in(int fd)
{
	struct iovec v = { "x", 1 };

	return vmsplice(fd, &v, 1, 0) == 1 ? 0 : -1;
}

/*
 * Readiness of an empty pipe: without CAP_EVENT the patched kernel's
 * refusal shows as POLLNVAL (poll, as FreeBSD), or as the descriptor
 * reported ready in every set although it is not (select, Linux's answer
 * for a descriptor whose lookup fails; FreeBSD fails with ENOTCAPABLE):
 * the row reports either as ENOTCAPABLE, anything else odd as EPROTO.
 * With the right, select then sees the pipe readable once written.
 */
static int polled(long ret, short revents)
{
	if (ret == 1 && revents == POLLNVAL)
		errno = ENOTCAPABLE;
	else if (ret != 0 || revents)
		errno = ret < 0 ? errno : EPROTO;
	else
		return 0;
	return -1;
}
static int op_poll(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	long n = syscall(SYS_poll, &p, 1, 0);

	return polled(n, p.revents);
}
static int op_ppoll(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	struct timespec zero = { 0, 0 };
	long n = syscall(SYS_ppoll, &p, 1, &zero, NULL, 8);

	return polled(n, p.revents);
}
static int selected(int fd, bool p6)
{
	struct timeval tv = { 0, 0 };
	struct timespec ts = { 0, 0 };
	fd_set set;

	FD_ZERO(&set);
	FD_SET(fd, &set);
	return p6 ? syscall(SYS_pselect6, fd + 1, &set, NULL, NULL, &ts, NULL)
		  : syscall(SYS_select, fd + 1, &set, NULL, NULL, &tv);
}
static int op_select_common(int fd, bool p6)
{
	int n = selected(fd, p6);

	if (n != 0) {
		errno = n == 1 ? ENOTCAPABLE : n < 0 ? errno : EPROTO;
		return -1;
	}
	if (write(pipe_other, "x", 1) != 1)
		return -1;
	if (selected(fd, p6) != 1) {
		errno = EPROTO;
		return -1;
	}
	return 0;
}
static int op_select(int fd)
{
	return op_select_common(fd, false);
}
static int op_pselect6(int fd)
{
	return op_select_common(fd, true);
}

/* epoll_ctl on the row's epoll descriptor / adding the row's descriptor. */
static int op_epoll_ctl_on(int fd)
{
	struct epoll_event ev = { .events = EPOLLIN };
	int p[2];

	return pipe(p) ? -1 : epoll_ctl(fd, EPOLL_CTL_ADD, p[0], &ev);
}
static int op_epoll_ctl_add(int fd)
{
	struct epoll_event ev = { .events = EPOLLIN };
	int ep = epoll_create1(0);

	return ep < 0 ? -1 : epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
}
static int op_epoll_wait(int fd)
{
	struct epoll_event ev;

	return syscall(SYS_epoll_wait, fd, &ev, 1, 0) == 0 ? 0 : -1;
}
static int op_epoll_pwait(int fd)
{
	struct epoll_event ev;

	return syscall(SYS_epoll_pwait, fd, &ev, 1, 0, NULL, 8) == 0 ? 0 : -1;
}
static int op_epoll_pwait2(int fd)
{
	struct epoll_event ev;
	struct timespec zero = { 0, 0 };

	return syscall(SYS_epoll_pwait2, fd, &ev, 1, &zero, NULL, 8) == 0 ? 0
									  : -1;
}

/* timerfd: arming, arming asking the old value back, reading. */
static int op_timerfd_settime(int fd)
{
	struct itimerspec its = { .it_value = { 100, 0 } };

	return timerfd_settime(fd, 0, &its, NULL);
}
static int op_timerfd_settime_old(int fd)
{
	struct itimerspec its = { .it_value = { 100, 0 } }, old;

	return timerfd_settime(fd, 0, &its, &old);
}
static int op_timerfd_gettime(int fd)
{
	struct itimerspec its;

	return timerfd_gettime(fd, &its);
}

static int op_mq_send(int fd)
{
	return mq_send(fd, "x", 1, 0);
}
static int op_mq_receive(int fd)
{
	char buf[16];

	return mq_receive(fd, buf, sizeof(buf), NULL) == 1 ? 0 : -1;
}
static int op_mq_getattr(int fd)
{
	struct mq_attr attr;

	return mq_getattr(fd, &attr);
}
static int op_mq_notify(int fd)
{
	return mq_notify(fd, NULL);
}

/* waitid(P_PIDFD) of pd_child(): its status must come back. */
static int op_waitid(int fd)
{
	siginfo_t si = { 0 };

	/* __WALL: a pdfork child has no exit signal. */
	if (syscall(SYS_waitid, P_PIDFD, fd, &si, WEXITED | __WALL, NULL))
		return -1;
	if (si.si_status != 3) {
		errno = EPROTO;
		return -1;
	}
	return 0;
}

/*
 * setns into this process's own namespace: root joins it; uid 1000 gets
 * past the right to the kernel's own check, EPERM, which counts as done.
 */
static int op_setns(int fd)
{
	if (setns(fd, CLONE_NEWUTS) == 0)
		return 0;
	if (errno == EPERM && !selftest_is_root())
		return 0;
	return -1;
}

/* A new mask for an existing signalfd, through each syscall. */
static int signalfd_update(int fd, long nr)
{
	sigset_t mask;

	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	sigaddset(&mask, SIGUSR2);
	if (nr == SYS_signalfd4)
		return syscall(nr, fd, &mask, 8, 0) == fd ? 0 : -1;
	return syscall(nr, fd, &mask, 8) == fd ? 0 : -1;
}
static int op_signalfd(int fd)
{
	return signalfd_update(fd, SYS_signalfd);
}
static int op_signalfd4(int fd)
{
	return signalfd_update(fd, SYS_signalfd4);
}

static int op_inotify_rm_watch(int fd)
{
	return inotify_rm_watch(fd, wd);
}

static int op_faccessat(int fd)
{
	return faccessat(fd, "f", R_OK, 0);
}
static int op_faccessat2(int fd)
{
	return syscall(SYS_faccessat2, fd, "f", R_OK, 0);
}
static int op_faccessat2_empty(int fd)
{
	return syscall(SYS_faccessat2, fd, "", R_OK, AT_EMPTY_PATH);
}

/*
 * Stock kernels: `without` goes through (the gap doc/enforcement.md
 * lists: no stock hook sees these descriptors); the patched kernel
 * refuses it (fchdir: every kernel does). Capability mode refuses
 * fchdir, setns and faccessat at their entry, ECAPMODE both times.
 */
static const struct rights_row fget_rows[] = {
	{ .name = "lseek",
	  .rights = CAP_SEEK,
	  .make = seek_file,
	  .op = op_lseek_set,
	  .stock = EXPECT(0, 0, 0, 0),
	  .patched = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "lseek SEEK_CUR 0",
	  .rights = CAP_SEEK_TELL,
	  .make = seek_file,
	  .op = op_lseek_tell,
	  .stock = EXPECT(0, 0, 0, 0),
	  .patched = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "lseek SEEK_CUR 0 needs no seek",
	  .rights = CAP_SEEK_OWN,
	  .make = seek_file,
	  .op = op_lseek_tell,
	  .stock = EXPECT(0, 0, 0, 0) },
	{ .name = "fsync",
	  .rights = CAP_FSYNC,
	  .make = seek_file,
	  .op = op_fsync,
	  .stock = EXPECT(0, 0, 0, 0),
	  .patched = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "fdatasync",
	  .rights = CAP_FSYNC,
	  .make = seek_file,
	  .op = op_fdatasync,
	  .stock = EXPECT(0, 0, 0, 0),
	  .patched = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "syncfs",
	  .rights = CAP_FSYNC,
	  .make = seek_file,
	  .op = op_syncfs,
	  .stock = EXPECT(0, 0, 0, 0),
	  .patched = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "sync_file_range",
	  .rights = CAP_FSYNC,
	  .make = seek_file,
	  .op = op_sync_file_range,
	  .stock = EXPECT(0, 0, 0, 0),
	  .patched = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "fchdir",
	  .rights = CAP_FCHDIR,
	  .make = tmp_dir,
	  .op = op_fchdir,
	  /* Every kernel: the stock inode_permission hook checks it. */
	  .stock = EXPECT(0, ENOTCAPABLE, ECAPMODE, ECAPMODE) },
	{ .name = "tee input needs read",
	  .rights = CAP_READ,
	  .make = pipe_read_end,
	  .op = op_tee_in,
	  .stock = EXPECT(0, 0, 0, 0),
	  .patched = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "tee output needs write",
	  .rights = CAP_WRITE,
	  .make = pipe_write_end,
	  .op = op_tee_out,
	  .stock = EXPECT(0, 0, 0, 0),
	  .patched = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "splice pipe to pipe input needs read",
	  .rights = CAP_READ,
	  .make = pipe_read_end,
	  .op = op_splice_pipe_in,
	  .stock = EXPECT(0, 0, 0, 0),
	  .patched = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "splice pipe to pipe output needs write",
	  .rights = CAP_WRITE,
	  .make = pipe_write_end,
	  .op = op_splice_pipe_out,
	  .stock = EXPECT(0, 0, 0, 0),
	  .patched = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "vmsplice out of a read end needs read",
	  .rights = CAP_READ,
	  .make = pipe_read_end,
	  .op = op_vmsplice_out,
	  .stock = EXPECT(0, 0, 0, 0),
	  .patched = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "vmsplice into a write end needs write",
	  .rights = CAP_WRITE,
	  .make = pipe_write_end,
	  .op = op_vmsplice_in,
	  .stock = EXPECT(0, 0, 0, 0),
	  .patched = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "poll",
	  .rights = CAP_EVENT,
	  .make = empty_pipe,
	  .op = op_poll,
	  .stock = EXPECT(0, 0, 0, 0),
	  .patched = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "ppoll",
	  .rights = CAP_EVENT,
	  .make = empty_pipe,
	  .op = op_ppoll,
	  .stock = EXPECT(0, 0, 0, 0),
	  .patched = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "select",
	  .rights = CAP_EVENT,
	  .make = empty_pipe,
	  .op = op_select,
	  .stock = EXPECT(0, 0, 0, 0),
	  .patched = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "pselect6",
	  .rights = CAP_EVENT,
	  .make = empty_pipe,
	  .op = op_pselect6,
	  .stock = EXPECT(0, 0, 0, 0),
	  .patched = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "epoll_ctl on the epoll descriptor",
	  .rights = CAP_EPOLL_CTL,
	  .make = epoll_fd,
	  .op = op_epoll_ctl_on,
	  .stock = EXPECT(0, 0, 0, 0),
	  .patched = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "epoll_ctl adding a descriptor",
	  .rights = CAP_EVENT,
	  .make = empty_pipe,
	  .op = op_epoll_ctl_add,
	  .stock = EXPECT(0, 0, 0, 0),
	  .patched = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "epoll_wait",
	  .rights = CAP_EVENT,
	  .make = epoll_fd,
	  .op = op_epoll_wait,
	  .stock = EXPECT(0, 0, 0, 0),
	  .patched = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "epoll_pwait",
	  .rights = CAP_EVENT,
	  .make = epoll_fd,
	  .op = op_epoll_pwait,
	  .stock = EXPECT(0, 0, 0, 0),
	  .patched = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "epoll_pwait2",
	  .rights = CAP_EVENT,
	  .make = epoll_fd,
	  .op = op_epoll_pwait2,
	  .stock = EXPECT(0, 0, 0, 0),
	  .patched = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "timerfd_settime",
	  .rights = CAP_WRITE,
	  .make = timer_fd,
	  .op = op_timerfd_settime,
	  .stock = EXPECT(0, 0, 0, 0),
	  .patched = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "timerfd_settime asking the old value",
	  .rights = CAP_READ | CAP_WRITE,
	  .make = timer_fd,
	  .op = op_timerfd_settime_old,
	  .stock = EXPECT(0, 0, 0, 0),
	  .patched = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "timerfd_gettime",
	  .rights = CAP_READ,
	  .make = timer_fd,
	  .op = op_timerfd_gettime,
	  .stock = EXPECT(0, 0, 0, 0),
	  .patched = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "mq_timedsend",
	  .rights = CAP_WRITE,
	  .make = mqueue,
	  .op = op_mq_send,
	  .stock = EXPECT(0, 0, 0, 0),
	  .patched = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "mq_timedreceive",
	  .rights = CAP_READ,
	  .make = mqueue,
	  .op = op_mq_receive,
	  .stock = EXPECT(0, 0, 0, 0),
	  .patched = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "mq_getsetattr",
	  .rights = CAP_EVENT,
	  .make = mqueue,
	  .op = op_mq_getattr,
	  .stock = EXPECT(0, 0, 0, 0),
	  .patched = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "mq_notify",
	  .rights = CAP_EVENT,
	  .make = mqueue,
	  .op = op_mq_notify,
	  .stock = EXPECT(0, 0, 0, 0),
	  .patched = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "waitid",
	  .rights = CAP_PDWAIT,
	  .make = pd_child,
	  .op = op_waitid,
	  .stock = EXPECT(0, 0, 0, 0),
	  .patched = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "setns",
	  .rights = CAP_SETNS,
	  .make = uts_ns,
	  .op = op_setns,
	  .stock = EXPECT(0, 0, ECAPMODE, ECAPMODE),
	  .patched = EXPECT(0, ENOTCAPABLE, ECAPMODE, ECAPMODE) },
	{ .name = "signalfd",
	  .rights = CAP_FSIGNAL,
	  .make = signal_fd,
	  .op = op_signalfd,
	  .stock = EXPECT(0, 0, 0, 0),
	  .patched = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "signalfd4",
	  .rights = CAP_FSIGNAL,
	  .make = signal_fd,
	  .op = op_signalfd4,
	  .stock = EXPECT(0, 0, 0, 0),
	  .patched = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "inotify_rm_watch",
	  .rights = CAP_INOTIFY_RM,
	  .make = inotify_watching,
	  .op = op_inotify_rm_watch,
	  .stock = EXPECT(0, 0, 0, 0),
	  .patched = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "faccessat",
	  .rights = CAP_FSTAT,
	  .make = faccess_dir,
	  .op = op_faccessat,
	  .stock = EXPECT(0, 0, ECAPMODE, ECAPMODE),
	  .patched = EXPECT(0, ENOTCAPABLE, ECAPMODE, ECAPMODE) },
	{ .name = "faccessat needs lookup",
	  .rights = CAP_LOOKUP,
	  .make = faccess_dir,
	  .op = op_faccessat,
	  .stock = EXPECT(0, ENOTCAPABLE, ECAPMODE, ECAPMODE) },
	{ .name = "faccessat2",
	  .rights = CAP_FSTAT,
	  .make = faccess_dir,
	  .op = op_faccessat2,
	  .stock = EXPECT(0, 0, ECAPMODE, ECAPMODE),
	  .patched = EXPECT(0, ENOTCAPABLE, ECAPMODE, ECAPMODE) },
	{ .name = "faccessat2 needs lookup",
	  .rights = CAP_LOOKUP,
	  .make = faccess_dir,
	  .op = op_faccessat2,
	  .stock = EXPECT(0, ENOTCAPABLE, ECAPMODE, ECAPMODE) },
	{ .name = "faccessat2 AT_EMPTY_PATH",
	  .rights = CAP_FSTAT,
	  .make = faccess_file,
	  .op = op_faccessat2_empty,
	  .stock = EXPECT(0, 0, ECAPMODE, ECAPMODE),
	  .patched = EXPECT(0, ENOTCAPABLE, ECAPMODE, ECAPMODE) },
};
SELFTEST_RIGHTS_ROWS(fget_rows, "fget_rights_with_and_without")

SELFTEST(fget_rights_with_and_without)
{
	if (!fixture_loaded())
		return;
	rows_run(fget_rows, sizeof(fget_rows) / sizeof(fget_rows[0]));
}

/* --- compat rows: the same syscalls as i386 and x32 calls --------------*/

/* i386 numbers (arch/x86/entry/syscalls/syscall_32.tbl). */
#define I386_LSEEK	       19
#define I386_READDIR	       89
#define I386_FSYNC	       118
#define I386_FCHDIR	       133
#define I386_LLSEEK	       140
#define I386_POLL	       168
#define I386_EPOLL_WAIT	       256
#define I386_TIMERFD_GETTIME64 410
#define I386_IOCTL	       54
#define I386_SOCKETCALL	       102
#define I386_FLOCK	       143
#define I386_OLD_MMAP	       90
#define SOCKETCALL_RECV	       10 /* linux/net.h's SYS_RECV */
#define SOCKETCALL_GETSOCKOPT  15 /* SYS_GETSOCKOPT */

static int op_i386_lseek(int fd)
{
	return compat_result(int80(I386_LSEEK, fd, 0, SEEK_SET));
}
static int op_i386_llseek(int fd)
{
	char *low = compat_low_page();

	if (!low)
		return -1;
	/* (fd, offset high, offset low, loff_t *result, whence) */
	return compat_result(
		i386_syscall(I386_LLSEEK, fd, 0, 0, (long)low, SEEK_SET));
}
/* old_readdir(fd, struct old_linux_dirent *, 1): one entry. */
static int op_i386_readdir(int fd)
{
	char *low = compat_low_page();

	return low ? compat_result(int80(I386_READDIR, fd, (long)low, 1)) : -1;
}
static int op_i386_fsync(int fd)
{
	return compat_result(int80(I386_FSYNC, fd, 0, 0));
}
static int op_i386_fchdir(int fd)
{
	return compat_result(int80(I386_FCHDIR, fd, 0, 0));
}
static int op_i386_poll(int fd)
{
	struct pollfd *p = compat_low_page();
	long n;

	if (!p)
		return -1;
	*p = (struct pollfd){ .fd = fd, .events = POLLIN };
	n = int80(I386_POLL, (long)p, 1, 0);
	if (n < 0)
		return compat_result(n);
	return polled(n, p->revents);
}
static int op_i386_epoll_wait(int fd)
{
	char *low = compat_low_page();

	if (!low)
		return -1;
	return compat_result(
		i386_syscall(I386_EPOLL_WAIT, fd, (long)low, 1, 0, 0));
}
static int op_i386_timerfd_gettime64(int fd)
{
	char *low = compat_low_page();

	return low ? compat_result(
			     int80(I386_TIMERFD_GETTIME64, fd, (long)low, 0))
		   : -1;
}
/* ioctl(fd, FIONREAD, int *) as an i386 call. */
static int op_i386_fionread(int fd)
{
	int *n = compat_low_page();

	return n ? compat_result(int80(I386_IOCTL, fd, FIONREAD, (long)n)) : -1;
}
/* socketcall(SYS_RECV, {fd, buf, 1, MSG_DONTWAIT}): one byte. */
static int op_i386_socketcall_recv(int fd)
{
	uint32_t *args = compat_low_page();
	long n;

	if (!args)
		return -1;
	args[0] = (uint32_t)fd;
	args[1] = (uint32_t)(uintptr_t)(args + 16);
	args[2] = 1;
	args[3] = MSG_DONTWAIT;
	n = int80(I386_SOCKETCALL, SOCKETCALL_RECV, (long)args, 0);
	return compat_result(n == 1 ? 0 : n < 0 ? n : -EIO);
}
/* socketcall(SYS_GETSOCKOPT, {fd, SOL_SOCKET, SO_TYPE, &type, &len}). */
static int op_i386_socketcall_getsockopt(int fd)
{
	uint32_t *args = compat_low_page();

	if (!args)
		return -1;
	args[0] = (uint32_t)fd;
	args[1] = SOL_SOCKET;
	args[2] = SO_TYPE;
	args[3] = (uint32_t)(uintptr_t)(args + 16);
	args[4] = (uint32_t)(uintptr_t)(args + 17);
	args[17] = sizeof(int);
	return compat_result(
		int80(I386_SOCKETCALL, SOCKETCALL_GETSOCKOPT, (long)args, 0));
}
/* x32's own getsockopt (542). */
static int op_x32_getsockopt(int fd)
{
	int type;
	socklen_t len = sizeof(type);

	return syscall(X32_BIT | 542, fd, SOL_SOCKET, SO_TYPE, &type, &len) ? -1
									    : 0;
}
static int op_i386_flock(int fd)
{
	return compat_result(int80(I386_FLOCK, fd, LOCK_SH, 0));
}
/*
 * old_mmap({NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0}), then unmapped:
 * its arguments in memory, as mmap2's sixth would be in ebp, which
 * int80() does not set.
 */
static int op_i386_old_mmap(int fd)
{
	uint32_t *args = compat_low_page();
	long p;

	if (!args)
		return -1;
	args[0] = 0;
	args[1] = 4096;
	args[2] = PROT_READ;
	args[3] = MAP_PRIVATE;
	args[4] = (uint32_t)fd;
	args[5] = 0;
	p = int80(I386_OLD_MMAP, (long)args, 0, 0);
	if (p < 0 && p > -4096)
		return compat_result(p);
	return munmap((void *)(uintptr_t)(uint32_t)p, 4096);
}
/* x32's own recvfrom (517): one byte. */
static int op_x32_recvfrom(int fd)
{
	char c;

	return syscall(X32_BIT | 517, fd, &c, 1, MSG_DONTWAIT, NULL, NULL) == 1
		       ? 0
		       : -1;
}
/* A stream socket holding one byte (its peer leaks, open). */
static int socket_with_a_byte(void)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) ||
	    write(sv[1], "y", 1) != 1)
		return -1;
	return sv[0];
}

/* x32 calls (libc sets errno); lseek to 0 returns 0. */
static int op_x32_lseek(int fd)
{
	return syscall(X32_BIT | SYS_lseek, fd, 0, SEEK_SET) ? -1 : 0;
}
static int op_x32_fsync(int fd)
{
	return syscall(X32_BIT | SYS_fsync, fd) ? -1 : 0;
}
/*
 * x32's own readv and writev (its struct iovec is compat's: two 32-bit
 * words, in the low page): one byte.
 */
static int x32_rw(int fd, long nr)
{
	uint32_t *iov = compat_low_page();

	if (!iov)
		return -1;
	iov[0] = (uint32_t)(uintptr_t)(iov + 16);
	iov[1] = 1;
	return syscall(X32_BIT | nr, fd, iov, 1) < 0 ? -1 : 0;
}
static int op_x32_readv(int fd)
{
	return x32_rw(fd, 515);
}
static int op_x32_writev(int fd)
{
	return x32_rw(fd, 516);
}
/* x32's own number of mq_notify (its struct sigevent is compat's). */
static int op_x32_mq_notify(int fd)
{
	return syscall(X32_BIT | 527, fd, NULL) ? -1 : 0;
}

/*
 * The rows the fget hook decides, called as i386 and x32 calls. Stock
 * kernels: the rows whose stock hook sees the call by the file's floor
 * (here the descriptor's limit) exactly, none of the others but fchdir,
 * whose check cannot read i386 registers and so refuses the call with
 * any limit; x32 is off in Debian's kernels (ENOSYS). The patched
 * kernel: x32 exactly, i386 by each row's widest rights (exactly for a
 * row without a rule; mmap's asks every mapping right). In capability
 * mode the seccomp filter refuses every compat call.
 */
#define COMPAT_STOCK EXPECT(0, 0, ECAPMODE, ECAPMODE)
#define COMPAT_EXACT EXPECT(0, ENOTCAPABLE, ECAPMODE, ECAPMODE)
#define X32_STOCK    EXPECT(ENOSYS, ENOSYS, ECAPMODE, ECAPMODE)
static const struct rights_row compat_rows[] = {
	{ .name = "lseek i386",
	  .rights = CAP_SEEK,
	  .make = seek_file,
	  .op = op_i386_lseek,
	  .stock = COMPAT_STOCK,
	  .patched = COMPAT_EXACT },
	{ .name = "lseek i386 _llseek",
	  .rights = CAP_SEEK,
	  .make = seek_file,
	  .op = op_i386_llseek,
	  .stock = COMPAT_STOCK,
	  .patched = COMPAT_EXACT },
	{ .name = "fsync i386",
	  .rights = CAP_FSYNC,
	  .make = seek_file,
	  .op = op_i386_fsync,
	  .stock = COMPAT_STOCK,
	  .patched = COMPAT_EXACT },
	{ .name = "fchdir i386",
	  .rights = CAP_FCHDIR,
	  .make = tmp_dir,
	  .op = op_i386_fchdir,
	  .stock = EXPECT(ENOTCAPABLE, ENOTCAPABLE, ECAPMODE, ECAPMODE),
	  .patched = COMPAT_EXACT },
	{ .name = "poll i386",
	  .rights = CAP_EVENT,
	  .make = empty_pipe,
	  .op = op_i386_poll,
	  .stock = COMPAT_STOCK,
	  .patched = COMPAT_EXACT },
	{ .name = "epoll_wait i386",
	  .rights = CAP_EVENT,
	  .make = epoll_fd,
	  .op = op_i386_epoll_wait,
	  .stock = COMPAT_STOCK,
	  .patched = COMPAT_EXACT },
	{ .name = "timerfd_gettime i386 timerfd_gettime64",
	  .rights = CAP_READ,
	  .make = timer_fd,
	  .op = op_i386_timerfd_gettime64,
	  .stock = COMPAT_STOCK,
	  .patched = COMPAT_EXACT },
	{ .name = "lseek x32",
	  .rights = CAP_SEEK,
	  .make = seek_file,
	  .op = op_x32_lseek,
	  .stock = X32_STOCK,
	  .patched = COMPAT_EXACT },
	{ .name = "fsync x32",
	  .rights = CAP_FSYNC,
	  .make = seek_file,
	  .op = op_x32_fsync,
	  .stock = X32_STOCK,
	  .patched = COMPAT_EXACT },
	{ .name = "getdents i386 readdir",
	  .rights = CAP_READ,
	  .make = tmp_dir,
	  .op = op_i386_readdir,
	  .stock = COMPAT_EXACT,
	  .patched = COMPAT_EXACT },
	{ .name = "readv x32 own number",
	  .rights = CAP_READ,
	  .make = seek_file,
	  .op = op_x32_readv,
	  .stock = X32_STOCK,
	  .patched = COMPAT_EXACT },
	{ .name = "writev x32 own number",
	  .rights = CAP_WRITE,
	  .make = seek_file,
	  .op = op_x32_writev,
	  .stock = X32_STOCK,
	  .patched = COMPAT_EXACT },
	{ .name = "mq_notify x32 own number",
	  .rights = CAP_EVENT,
	  .make = mqueue,
	  .op = op_x32_mq_notify,
	  .stock = X32_STOCK,
	  .patched = COMPAT_EXACT },
	{ .name = "ioctl i386",
	  .rights = CAP_IOCTL,
	  .make = pipe_read_end,
	  .op = op_i386_fionread,
	  .stock = COMPAT_EXACT,
	  .patched = COMPAT_EXACT },
	{ .name = "recvfrom i386 socketcall recv",
	  .rights = CAP_RECV,
	  .make = socket_with_a_byte,
	  .op = op_i386_socketcall_recv,
	  .stock = COMPAT_EXACT,
	  .patched = COMPAT_EXACT },
	{ .name = "getsockopt i386 socketcall",
	  .rights = CAP_GETSOCKOPT,
	  .make = socket_with_a_byte,
	  .op = op_i386_socketcall_getsockopt,
	  .stock = COMPAT_EXACT,
	  .patched = COMPAT_EXACT },
	{ .name = "getsockopt x32 own number",
	  .rights = CAP_GETSOCKOPT,
	  .make = socket_with_a_byte,
	  .op = op_x32_getsockopt,
	  .stock = X32_STOCK,
	  .patched = COMPAT_EXACT },
	{ .name = "recvfrom x32 own number",
	  .rights = CAP_RECV,
	  .make = socket_with_a_byte,
	  .op = op_x32_recvfrom,
	  .stock = X32_STOCK,
	  .patched = COMPAT_EXACT },
	{ .name = "flock i386",
	  .rights = CAP_FLOCK,
	  .make = seek_file,
	  .op = op_i386_flock,
	  .stock = COMPAT_EXACT,
	  .patched = COMPAT_EXACT },
	{ .name = "mmap i386 old_mmap",
	  .rights = CAP_MMAP_R,
	  .make = seek_file,
	  .op = op_i386_old_mmap,
	  .stock = COMPAT_EXACT,
	  .patched = COMPAT_EXACT },
	{ .name = "mmap i386 old_mmap asks every mapping right",
	  .rights = CAP_MMAP_X_OWN,
	  .make = seek_file,
	  .op = op_i386_old_mmap,
	  .stock = COMPAT_STOCK,
	  .patched = COMPAT_EXACT },
};
SELFTEST_RIGHTS_ROWS(compat_rows, "compat_rights_with_and_without")

SELFTEST(compat_rights_with_and_without)
{
	if (!fixture_loaded())
		return;
	if (int80(I386_FSYNC, -1, 0, 0) == -ENOSYS) {
		selftest_skip("no i386 emulation");
		return;
	}
	rows_run(compat_rows, sizeof(compat_rows) / sizeof(compat_rows[0]));
}

/* An i386 ioctl(fd, cmd, int *) with its int in the low page. */
static long i386_ioctl_int(int fd, unsigned int cmd, int value)
{
	int *arg = compat_low_page();

	if (!arg)
		return -ENOMEM;
	*arg = value;
	return int80(I386_IOCTL, fd, cmd, (long)arg);
}

/*
 * An i386 ioctl through a descriptor with an ioctl list: the patched
 * kernel checks the command against the list (the lookup reads it from
 * the i386 register), as for an x86-64 call; the stock kernels cannot
 * tell the descriptor (their compat hook sees the file) and judge by the
 * file's floor, which allows no ioctl once any of its descriptors has a
 * list. FIOCLEX needs nothing on either.
 */
SELFTEST(i386_ioctl_obeys_the_ioctl_list)
{
	cap_ioctl_t cmds[1] = { FIONREAD };
	int sv[2];

	if (!fixture_loaded())
		return;
	if (int80(I386_FSYNC, -1, 0, 0) == -ENOSYS) {
		selftest_skip("no i386 emulation");
		return;
	}
	if (!ASSERT_OK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), "socketpair") ||
	    !ASSERT_OK(cap_ioctls_limit(sv[0], cmds, 1), "FIONREAD only"))
		return;
	ASSERT_EQ(i386_ioctl_int(sv[0], FIONREAD, 0),
		  fixture_patched_kernel() ? 0 : -ENOTCAPABLE,
		  "FIONREAD, listed: patched by the list, stock by the floor");
	ASSERT_EQ(i386_ioctl_int(sv[0], FIONBIO, 1), -ENOTCAPABLE,
		  "FIONBIO, not listed");
	ASSERT_EQ(i386_ioctl_int(sv[0], FIOCLEX, 0), 0, "FIOCLEX");
	close(sv[0]);
	close(sv[1]);
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

		if (fixture_self_bits() != 0)
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
		if (fixture_self_bits() != 0)
			_exit(6);
		if (fixture_limit(p[1], CAP_WRITE, 0, 0) ||
		    fixture_self_bits() !=
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

/*
 * A tracer may rewrite a tracee's registers at its syscall-entry stop.
 * Rewriting ax (which the entry code sets to -ENOSYS and the hooks read
 * to tell a running syscall from its exit work) must not hide the
 * syscall from the fget hook: the tracee, limited without CAP_SEEK (its
 * table inherited from this process), still gets ENOTCAPABLE from lseek.
 * The tracer is this process, which holds the same limits: a sandbox
 * helping itself. Bounded: at most 64 syscall stops.
 */
SELFTEST(patched_ptrace_rewriting_ax_hides_no_syscall)
{
	struct __ptrace_syscall_info info;
	int fd = scratch(), status, stops;
	pid_t pid;

	need_patched();
	if (!ASSERT_OK(fixture_limit_all_but(fd, CAP_SEEK), "limit"))
		return;
	pid = fork();
	if (pid == 0) {
		off_t r;

		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) || raise(SIGSTOP))
			_exit(3);
		r = lseek(fd, 1, SEEK_SET);
		_exit(r < 0 && errno == ENOTCAPABLE ? 0 : r < 0 ? 2 : 1);
	}
	if (!ASSERT_OK(pid, "fork") ||
	    !ASSERT_EQ(waitpid(pid, &status, 0), pid, "the tracee stops") ||
	    !ASSERT_OK(ptrace(PTRACE_SETOPTIONS, pid, NULL,
			      (void *)PTRACE_O_TRACESYSGOOD),
		       "options"))
		return;
	for (stops = 0; stops < 64; stops++) {
		if (ptrace(PTRACE_SYSCALL, pid, NULL, NULL) ||
		    waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status))
			break;
		if (WSTOPSIG(status) != (SIGTRAP | 0x80) ||
		    ptrace(PTRACE_GET_SYSCALL_INFO, pid, (void *)sizeof(info),
			   &info) <= 0 ||
		    info.op != PTRACE_SYSCALL_INFO_ENTRY ||
		    info.entry.nr != SYS_lseek)
			continue;
		/* The syscall still runs; only ax no longer says so. */
		ptrace(PTRACE_POKEUSER, pid,
		       (void *)offsetof(struct user_regs_struct, rax), 0);
	}
	ASSERT_TRUE(WIFEXITED(status), "the tracee exited");
	ASSERT_EQ(WEXITSTATUS(status), 0,
		  "lseek without CAP_SEEK, its ax rewritten: ENOTCAPABLE "
		  "(1: it worked, 2: another errno, 3: no trace)");
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
 * faccessat through a dirfd: the kernel keeps its walk beneath the
 * descriptor (kernel/ 0004) and the access check needs CAP_FSTATAT of
 * it (rows faccessat, faccessat2), asked at the walk's own lookup of the
 * dirfd, before any name: a missing name answers like an existing one.
 */
SELFTEST(patched_faccessat_asks_before_any_name)
{
	char top[] = "/tmp/faccessat.XXXXXX", f[64];
	int with, without, file;

	need_patched();
	if (!ASSERT_OK_PTR(mkdtemp(top), "dir"))
		return;
	snprintf(f, sizeof(f), "%s/f", top);
	file = open(f, O_WRONLY | O_CREAT, 0644);
	with = open(top, O_RDONLY | O_DIRECTORY);
	without = open(top, O_RDONLY | O_DIRECTORY);
	if (!ASSERT_TRUE(file >= 0 && with >= 0 && without >= 0, "open") ||
	    !ASSERT_OK(fixture_limit(with, CAP_FSTATAT, 0, 0), "fstatat") ||
	    !ASSERT_OK(fixture_limit(without, CAP_LOOKUP, CAP_READ, 0),
		       "lookup,read"))
		return;
	ASSERT_ERRNO(faccessat(with, "missing", F_OK, 0), ENOENT,
		     "a missing name, with CAP_FSTATAT");
	ASSERT_ERRNO(faccessat(without, "missing", F_OK, 0), ENOTCAPABLE,
		     "a missing name, without CAP_FSTATAT");
	ASSERT_ERRNO(faccessat(with, "../x", F_OK, 0), ENOTCAPABLE,
		     "a name above the dirfd");
	close(with);
	close(without);
	close(file);
	unlink(f);
	rmdir(top);
}
