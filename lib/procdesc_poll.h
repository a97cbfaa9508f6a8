/* SPDX-License-Identifier: BSD-2-Clause */
/* poll()'s POLLHUP for process descriptors (lib/procdesc_poll.c). */
#ifndef _CAPSICUM_LIB_PROCDESC_POLL_H
#define _CAPSICUM_LIB_PROCDESC_POLL_H

#include <sys/types.h>

/*
 * The process uses process descriptors: from now on poll() looks for
 * them among the descriptors it is given.
 */
void capsicum_pd_used(void);

/*
 * Without the BPF side: the pid the kernel prints in fd's fdinfo (a
 * pidfd's "Pid:" line). -1 with EBADF if fd is no pidfd, ESRCH if it is
 * one whose process is not there (lib/procdesc.c).
 */
int capsicum_fdinfo_pid(int fd, pid_t *pidp);

#endif
