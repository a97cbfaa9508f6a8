// SPDX-License-Identifier: BSD-2-Clause
/*
 * Process descriptors on pidfds. pdfork() is clone(CLONE_PIDFD) with no
 * exit signal, so, as on FreeBSD, the parent gets no SIGCHLD and wait(2)
 * for any child does not reap it: only pdwait4() on its descriptor (or
 * waitid with __WALL) does. Everything here works in capability mode.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sys/capsicum.h>
#include <sys/procdesc.h>

#include <capsicum/optable.h>

#include "control.h"
#include "procdesc_poll.h"

#ifndef P_PIDFD
#define P_PIDFD 3
#endif

/*
 * Every function here puts the caller's errno back on success: the
 * unloaded fallbacks (ENOSYS) and the control plane's status must not
 * show through a call that worked.
 */
pid_t pdfork(int *fdp, int flags)
{
	pid_t parent = getpid();
	int pidfd = -1, saved = errno;
	long pid;

	if (!fdp) {
		errno = EFAULT;
		return -1;
	}
	if (flags & ~PD_ALLOWED_AT_FORK) {
		errno = EINVAL;
		return -1;
	}
	capsicum_pd_used();
	/* Exit signal 0: no SIGCHLD, not reaped by wait(-1). */
	pid = syscall(SYS_clone, CLONE_PIDFD, NULL, &pidfd, NULL, NULL);
	if (pid < 0)
		return -1;
	if (pid == 0) {
		/*
		 * Without PD_DAEMON the child dies with its parent, and
		 * (with the BPF side loaded) when its last descriptor is
		 * closed: see doc/enforcement.md, process descriptors.
		 */
		if (!(flags & PD_DAEMON) &&
		    (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent ||
		     (capsicum_pd_child() && errno != ENOSYS)))
			syscall(SYS_kill, getpid(), SIGKILL);
		errno = saved;
		return 0;
	}
	if (!(flags & PD_DAEMON) && capsicum_pd_watch(pidfd) &&
	    errno != ENOSYS) {
		int saved = errno;

		syscall(SYS_pidfd_send_signal, pidfd, SIGKILL, NULL, 0);
		close(pidfd);
		errno = saved;
		return -1;
	}
	/* CLONE_PIDFD always sets close-on-exec; FreeBSD's default is not. */
	if (!(flags & PD_CLOEXEC) && fcntl(pidfd, F_SETFD, 0)) {
		int saved = errno;

		syscall(SYS_pidfd_send_signal, pidfd, SIGKILL, NULL, 0);
		close(pidfd);
		errno = saved;
		return -1;
	}
	*fdp = pidfd;
	errno = saved;
	return (pid_t)pid;
}

int capsicum_fdinfo_pid(int fd, pid_t *pidp)
{
	char path[64], line[128];
	FILE *f;
	int pid = 0, found = 0;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "re");
	if (!f) {
		errno = EBADF;
		return -1;
	}
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Pid: %d", &pid) == 1)
			found = 1;
	fclose(f);
	if (!found || pid <= 0) {
		errno = found ? ESRCH : EBADF;
		return -1;
	}
	*pidp = pid;
	return 0;
}

int pdgetpid(int fd, pid_t *pidp)
{
	struct capsicum_answer a;
	int saved = errno;

	capsicum_pd_used();
	if (!pidp) {
		errno = EFAULT;
		return -1;
	}
	if (capsicum_fd_query(fd, &a,
			      CAPSICUM_QUERY_RIGHTS | CAPSICUM_QUERY_PID)) {
		if (errno != ENOSYS || capsicum_fdinfo_pid(fd, pidp))
			return -1;
		errno = saved;
		return 0;
	}
	if (a.pid == 0) {
		errno = EBADF; /* not a process descriptor */
		return -1;
	}
	if (a.pid < 0) {
		/* The BPF side withholds the pid without CAP_PDGETPID. */
		errno = (a.rights[1] & CAP_PDGETPID) == CAP_PDGETPID
				? ESRCH
				: ENOTCAPABLE;
		return -1;
	}
	*pidp = a.pid;
	return 0;
}

int pdkill(int fd, int signum)
{
	capsicum_pd_used();
	/* The BPF side's task_kill hook requires CAP_PDKILL. */
	return (int)syscall(SYS_pidfd_send_signal, fd, signum, NULL, 0);
}

/* A wait(2) status from waitid's siginfo. */
static int wait_status(const siginfo_t *si)
{
	switch (si->si_code) {
	case CLD_EXITED:
		return (si->si_status & 0xff) << 8;
	case CLD_KILLED:
		return si->si_status & 0x7f;
	case CLD_DUMPED:
		return (si->si_status & 0x7f) | 0x80;
	case CLD_STOPPED:
	case CLD_TRAPPED:
		return ((si->si_status & 0xff) << 8) | 0x7f;
	default: /* CLD_CONTINUED */
		return 0xffff;
	}
}

/* The rights waitid's row in include/capsicum/optable.h names. */
static uint64_t waitid_need(void)
{
#define WAITID_RIGHTS(name, nr64, nr32, fds, rights, rule, stock, stock_why,   \
		      patched, patched_why)                                    \
	if ((nr64) == SYS_waitid)                                              \
		return (rights);
	CAPSICUM_OPS_PROC(WAITID_RIGHTS)
#undef WAITID_RIGHTS
	return 0;
}

pid_t pdwait4(int fd, int *status, int options, struct rusage *rusage)
{
	struct capsicum_answer a;
	siginfo_t si;
	int wopts = WEXITED | __WALL, saved = errno;

	capsicum_pd_used();
	if (options & ~(WNOHANG | WUNTRACED | WCONTINUED)) {
		errno = EINVAL;
		return -1;
	}
	/*
	 * No hook sees waitid's descriptor: the right its row in the table
	 * names is checked here.
	 */
	if (capsicum_fd_query(
		    fd, &a, CAPSICUM_QUERY_RIGHTS | CAPSICUM_QUERY_PID) == 0) {
		if (a.pid == 0) {
			errno = EBADF;
			return -1;
		}
		if ((a.rights[1] & waitid_need()) != waitid_need()) {
			errno = ENOTCAPABLE;
			return -1;
		}
	} else if (errno != ENOSYS) {
		return -1;
	}
	if (options & WNOHANG)
		wopts |= WNOHANG;
	if (options & WUNTRACED)
		wopts |= WSTOPPED;
	if (options & WCONTINUED)
		wopts |= WCONTINUED;
	memset(&si, 0, sizeof(si));
	if (syscall(SYS_waitid, P_PIDFD, fd, &si, wopts, rusage))
		return -1;
	errno = saved;
	if (si.si_pid == 0)
		return 0; /* WNOHANG and nothing to report */
	if (status)
		*status = wait_status(&si);
	return si.si_pid;
}
