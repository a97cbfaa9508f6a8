/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * <linux/capsicum.h> as the 2014 Linux Capsicum series spelled it, so code
 * written for that port builds here. Every value is this project's
 * (<capsicum/abi.h> through <sys/capsicum.h>); this header only adds the
 * 2014 names, it defines no right of its own.
 *
 * Differences from the 2014 header, each for a reason:
 * - The Linux-only rights have new bit values (FreeBSD 15 took 0x200000
 *   and up for inotify; see <capsicum/abi.h>). Code that names them is
 *   unaffected; code that hard-codes 2014 numbers is wrong either way.
 * - CAP_PERFMON is not defined: <linux/capability.h> has it as POSIX
 *   capability 38, so defining it would break or silently change any file
 *   that includes both. Use CAP_PERF_EVENT.
 * - CAP_UNUSED1_27 ... CAP_UNUSED1_57 are not defined: those bits are now
 *   used (FreeBSD 15 and the Linux-only rights).
 * - CAP_FCNTL_* use FreeBSD's F_ numbers (CAP_FCNTL_GETOWN is 1 << 5), as
 *   cap_fcntls_limit() here expects; the 2014 header shifted by Linux's.
 * - No __NR_cap_rights_limit / __NR_cap_rights_get: no kernel this
 *   project runs on has those syscalls; cap_rights_limit() and
 *   cap_rights_get() are libcapsicum functions (FreeBSD's signatures).
 */
#ifndef _LINUX_CAPSICUM_H
#define _LINUX_CAPSICUM_H

#include <sys/capsicum.h>

/* Modify what an inotify (2014: also fanotify) descriptor watches. */
#define CAP_NOTIFY (CAP_INOTIFY_ADD | CAP_INOTIFY_RM)

#define CAP_SET_ALL(rights)  CAP_ALL(rights)
#define CAP_SET_NONE(rights) CAP_NONE(rights)
#define CAP_IS_ALL(rights)                                                     \
	(((rights)->cr_rights[0] ==                                            \
	  (((__u64)CAP_RIGHTS_VERSION << 62) | CAP_ALL0)) &&                   \
	 ((rights)->cr_rights[1] == CAP_ALL1))

#endif /* _LINUX_CAPSICUM_H */
