/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * FreeBSD's process descriptors on Linux pidfds: pdfork(2), pdgetpid(2),
 * pdkill(2) and pdwait4(2), source-compatible. A process descriptor is a
 * pidfd, so it also works with poll(2) and Linux's pidfd calls. The
 * descriptor's rights CAP_PDGETPID, CAP_PDKILL and CAP_PDWAIT govern the
 * three calls (doc/enforcement.md says how each is enforced).
 */
#ifndef _SYS_PROCDESC_H_
#define _SYS_PROCDESC_H_

#include <sys/resource.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* pdfork() flags, FreeBSD's values. */
#define PD_DAEMON	   0x00000001 /* closing the descriptor does not kill */
#define PD_CLOEXEC	   0x00000002 /* close the descriptor on exec */
#define PD_ALLOWED_AT_FORK (PD_DAEMON | PD_CLOEXEC)

pid_t pdfork(int *fdp, int flags);
int pdgetpid(int fd, pid_t *pidp);
int pdkill(int fd, int signum);
pid_t pdwait4(int fd, int *status, int options, struct rusage *rusage);

#ifdef __cplusplus
}
#endif

#endif
