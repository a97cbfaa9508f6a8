/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's constants the BPF side uses, defined once. vmlinux.h has
 * the kernel's types but none of its macros: these come from the uapi
 * headers that hold nothing but macros, and the rest are written out here
 * with the header they come from (the uapi headers that define them also
 * define structs vmlinux.h already has, or need the host's asm/ directory,
 * which a BPF build does not see). Syscall numbers of the table's rows are
 * its NR_ enum (optable.bpf.h); the others a hook tells apart are here.
 */
#ifndef CAPSICUM_UAPI_BPF_H
#define CAPSICUM_UAPI_BPF_H

#include "vmlinux.h"
#include <asm-generic/errno.h>
#include <asm-generic/mman-common.h>
#include <asm-generic/sockios.h>
#include <linux/close_range.h>

/* uapi/linux/mman.h */
#define MAP_PRIVATE 0x02

/* uapi/asm-generic/ioctls.h */
#define FIONCLEX 0x5450
#define FIOCLEX	 0x5451
#define FIOASYNC 0x5452

/* uapi/asm-generic/fcntl.h, uapi/linux/fcntl.h */
#define O_ACCMODE	00000003
#define O_WRONLY	00000001
#define O_RDWR		00000002
#define O_CREAT		00000100
#define O_TRUNC		00001000
#define O_APPEND	00002000
#define O_DSYNC		00010000
#define O_ASYNC		00020000 /* FASYNC in f_flags */
#define O_PATH		010000000
#define __O_TMPFILE	020000000
#define F_DUPFD		0
#define F_GETFD		1
#define F_SETFD		2
#define F_GETFL		3
#define F_SETFL		4
#define F_GETLK		5
#define F_SETLK		6
#define F_SETLKW	7
#define F_SETOWN	8
#define F_GETOWN	9
#define F_SETSIG	10
#define F_SETOWN_EX	15
#define F_GETOWN_EX	16
#define F_OFD_GETLK	36
#define F_OFD_SETLK	37
#define F_OFD_SETLKW	38
#define F_SETLEASE	1024
#define F_GETLEASE	1025
#define F_NOTIFY	1026
#define F_DUPFD_CLOEXEC 1030
#define F_ADD_SEALS	1033
#define F_GET_SEALS	1034
#define F_UNLCK		2
#define AT_FDCWD	-100
#define AT_EMPTY_PATH	0x1000

/* uapi/linux/stat.h */
#define S_IFMT	00170000
#define S_IFIFO 0010000
#define S_IFCHR 0020000
#define S_IFBLK 0060000
#define S_IFSOCK 0140000

/* uapi/linux/fs.h, uapi/linux/eventpoll.h */
#define SEEK_CUR      1
#define EPOLL_CTL_DEL 2

/* uapi/linux/mount.h */
#define MS_REMOUNT    32
#define MS_MOVE	      8192
#define MS_UNBINDABLE (1 << 17)
#define MS_PRIVATE    (1 << 18)
#define MS_SLAVE      (1 << 19)
#define MS_SHARED     (1 << 20)

/* uapi/asm-generic/socket.h; linux/socket.h, net/scm.h */
#define SOL_SOCKET 1
#define SCM_RIGHTS 1
#define SCM_MAX_FD 253

/* uapi/asm-generic/signal.h, siginfo.h */
#define SIGKILL	 9
#define SI_QUEUE (-1)

/* uapi/linux/magic.h (6.9 on; the host's may be older) */
#define PIDFS_MAGIC 0x50494446

/*
 * Kernel-internal: linux/fs.h (MAY_*, ATTR_*, FMODE_*), linux/mm.h,
 * linux/sched.h, linux/pid.h, linux/preempt.h, asm/thread_info.h,
 * asm/unistd.h.
 */
#define MAY_EXEC	0x1
#define MAY_WRITE	0x2
#define MAY_READ	0x4
#define MAY_CHDIR	0x40
#define MAY_NOT_BLOCK	0x80
#define ATTR_MODE	(1 << 0)
#define ATTR_UID	(1 << 1)
#define ATTR_GID	(1 << 2)
#define ATTR_SIZE	(1 << 3)
#define ATTR_ATIME	(1 << 4)
#define ATTR_MTIME	(1 << 5)
#define ATTR_KILL_SUID	(1 << 11)
#define ATTR_KILL_SGID	(1 << 12)
#define ATTR_FILE	(1 << 13)
#define FMODE_READ	0x1
#define FMODE_WRITE	0x2
#define FMODE_PATH	0x4000
#define VM_SHARED	0x08
#define PF_IO_WORKER	0x00000010
#define PF_DUMPCORE	0x00000200
#define PFA_FGET_CHECK	8 /* the patched kernel's, kernel/patches/0002 */
#define PID_MAX_LEVELS	32
#define HARDIRQ_MASK	0x000f0000
#define NMI_MASK	0x00f00000
#define SOFTIRQ_OFFSET	0x00000100
#define TS_COMPAT	0x0002
#define X32_SYSCALL_BIT 0x40000000

/* x86-64 numbers of syscalls with no row in the table. */
#define NR_open		     2
#define NR_stat		     4
#define NR_lstat	     6
#define NR_clone	     56
#define NR_execve	     59
#define NR_kill		     62
#define NR_rename	     82
#define NR_mkdir	     83
#define NR_rmdir	     84
#define NR_creat	     85
#define NR_link		     86
#define NR_unlink	     87
#define NR_symlink	     88
#define NR_readlink	     89
#define NR_chmod	     90
#define NR_chown	     92
#define NR_lchown	     94
#define NR_rt_sigqueueinfo   129
#define NR_utime	     132
#define NR_mknod	     133
#define NR_tkill	     200
#define NR_tgkill	     234
#define NR_utimes	     235
#define NR_rt_tgsigqueueinfo 297
#define NR_io_uring_enter    426
#define NR_io_uring_register 427
/* i386's number of socketcall(2), which has no x86-64 one. */
#define NR32_socketcall 102
/* io_uring_enter's flag: its first argument indexes registered rings. */
#define IORING_ENTER_REGISTERED_RING (1U << 4)
/* The ioctls that read another descriptor's file (linux/fs.h). */
#define FICLONE	     0x40049409U /* _IOW(0x94, 9, int) */
#define FICLONERANGE 0x4020940dU /* _IOW(0x94, 13, struct file_clone_range) */
#define FIDEDUPERANGE                                                          \
	0xc0189436U /* _IOWR(0x94, 54, struct file_dedupe_range) */
#define NR_clone3 435

#endif
