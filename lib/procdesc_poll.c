// SPDX-License-Identifier: BSD-2-Clause
/*
 * poll(2) on process descriptors, as FreeBSD answers it: POLLHUP once the
 * process has exited. A Linux pidfd says POLLIN then (and POLLHUP only
 * once the child is reaped, on 6.9 and later), so a FreeBSD program that
 * waits for POLLHUP, or polls with no events at all, would wait for ever.
 *
 * libcapsicum therefore provides poll() (and glibc's fortified
 * __poll_chk()) for the programs that link it, under glibc's own symbol
 * versions so that they take the place of libc's (lib/libcapsicum.map).
 * Both call glibc's __poll(): the call, its cancellation point and its
 * errors are libc's. The extra work is only for a process that has used
 * process descriptors (pd_used, set by <sys/procdesc.h>'s calls): a first
 * poll without waiting; if nothing is ready, a process descriptor polled
 * without POLLIN gets POLLIN for the kernel to report the exit with, for
 * the wait; then each descriptor that reported POLLIN and is a process
 * descriptor reports POLLHUP as well (POLLIN stays where it was asked
 * for). ppoll(), select() and epoll are libc's and the kernel's: select()
 * reports an exited process readable, as FreeBSD's does; ppoll() and
 * epoll say POLLIN (doc/enforcement.md).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdbool.h>

#include "control.h"
#include "procdesc_poll.h"

/* glibc's poll() itself (poll is its weak alias) and its overflow abort. */
extern int __poll(struct pollfd *fds, nfds_t nfds, int timeout);
extern void __chk_fail(void) __attribute__((noreturn));

/* Set by pdfork() and the calls on a descriptor; never cleared. */
static volatile bool pd_used;

void capsicum_pd_used(void)
{
	if (!pd_used)
		pd_used = true;
}

/* True if fd is a process descriptor (a pidfd); errno is left alone. */
static bool is_procdesc(int fd)
{
	struct capsicum_answer a;
	int saved = errno;
	bool yes = false;
	pid_t pid;

	if (capsicum_fd_query(fd, &a, CAPSICUM_QUERY_PID) == 0)
		yes = a.pid != 0; /* < 0: a pidfd whose pid is withheld */
	else if (errno == ENOSYS)
		/* Capsicum is not loaded, so neither is capability mode. */
		yes = capsicum_fdinfo_pid(fd, &pid) == 0 || errno == ESRCH;
	errno = saved;
	return yes;
}

/*
 * What the caller asked of each descriptor, kept while POLLIN is added
 * for the kernel: the first ones on the stack, a poll of more descriptors
 * than that checks only those (the rest are answered as Linux answers).
 */
#define ADDED_MAX 64

/*
 * Asks the kernel for POLLIN where a process descriptor lacks it, then
 * polls with the caller's timeout (again, if it is 0: an exited process
 * polled for no events is POLLHUP at once). Only called once the array
 * was shown to be the caller's to read and write.
 */
static int poll_adding_pollin(struct pollfd *fds, nfds_t nfds, int timeout)
{
	nfds_t added[ADDED_MAX];
	unsigned nadded = 0;
	int ready, saved;

	for (nfds_t i = 0; i < nfds && nadded < ADDED_MAX; i++)
		if (fds[i].fd >= 0 && !(fds[i].events & POLLIN) &&
		    is_procdesc(fds[i].fd)) {
			fds[i].events |= POLLIN;
			added[nadded++] = i;
		}
	if (nadded == 0 && timeout == 0)
		return 0; /* the first look was the whole answer */
	ready = __poll(fds, nfds, timeout);
	saved = errno;
	for (unsigned k = 0; k < nadded; k++) {
		struct pollfd *p = &fds[added[k]];

		p->events &= ~POLLIN;
		if (ready > 0 && (p->revents & POLLIN))
			p->revents =
				(p->revents & ~(POLLIN | POLLRDNORM)) | POLLHUP;
	}
	errno = saved;
	return ready;
}

int poll(struct pollfd *fds, nfds_t nfds, int timeout)
{
	int ready, saved;

	if (!pd_used)
		return __poll(fds, nfds, timeout);
	/*
	 * A first look, without waiting: what is ready now is the answer,
	 * and a bad array fails here with the kernel's EFAULT (or EINVAL)
	 * before this code reads it.
	 */
	ready = __poll(fds, nfds, 0);
	if (ready == 0)
		ready = poll_adding_pollin(fds, nfds, timeout);
	saved = errno;
	for (nfds_t i = 0; ready > 0 && i < nfds; i++)
		if ((fds[i].revents & (POLLIN | POLLHUP | POLLNVAL)) ==
			    POLLIN &&
		    is_procdesc(fds[i].fd))
			fds[i].revents |= POLLHUP;
	errno = saved;
	return ready;
}

/* _FORTIFY_SOURCE's poll(): glibc's checks the array's size, then polls. */
int __poll_chk(struct pollfd *fds, nfds_t nfds, int timeout, size_t fdslen)
{
	if (fdslen / sizeof(*fds) < nfds)
		__chk_fail();
	return poll(fds, nfds, timeout);
}
