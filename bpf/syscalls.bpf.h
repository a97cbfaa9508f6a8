/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which descriptor a hook acts on, derived from the current syscall, and
 * which right the syscall implies where one hook serves several (read vs
 * pread, splice's two ends). x86-64 syscall numbers. Each result is only a
 * candidate: state.bpf.h accepts it only if the fd table maps it to the
 * hook's own struct file, else the file's floor applies.
 */
#ifndef CAPSICUM_SYSCALLS_BPF_H
#define CAPSICUM_SYSCALLS_BPF_H

#include "state.bpf.h"

#define NR_read		     0
#define NR_write	     1
#define NR_fstat	     5
#define NR_mmap		     9
#define NR_ioctl	     16
#define NR_pread64	     17
#define NR_pwrite64	     18
#define NR_readv	     19
#define NR_writev	     20
#define NR_sendfile	     40
#define NR_fcntl	     72
#define NR_flock	     73
#define NR_ftruncate	     77
#define NR_getdents	     78
#define NR_fchmod	     91
#define NR_fchown	     93
#define NR_fstatfs	     138
#define NR_fsetxattr	     190
#define NR_fgetxattr	     193
#define NR_flistxattr	     196
#define NR_fremovexattr	     199
#define NR_getdents64	     217
#define NR_inotify_add_watch 254
#define NR_openat	     257
#define NR_futimesat	     261
#define NR_newfstatat	     262
#define NR_splice	     275
#define NR_utimensat	     280
#define NR_preadv	     295
#define NR_pwritev	     296
#define NR_execveat	     322
#define NR_copy_file_range   326
#define NR_preadv2	     327
#define NR_pwritev2	     328
#define NR_statx	     332
#define NR_openat2	     437

#define MAY_WRITE     0x2
#define MAY_READ      0x4
#define AT_FDCWD      -100
#define AT_EMPTY_PATH 0x1000

/* The fd and rights a read or write (file_permission) is made through. */
struct rw_need {
	int fd;
	__u64 need;
};

/* nr: the call_of the request (NR_UNKNOWN: no fd to trust). */
static __always_inline struct rw_need rw_need_of(const struct pt_regs *regs,
						 long nr, int mask)
{
	bool rd = mask & MAY_READ;
	struct rw_need r = { .fd = (int)regs->di,
			     .need = rd ? CAP_READ : CAP_WRITE };

	switch (nr) {
	case NR_read:
	case NR_readv:
	case NR_write:
	case NR_writev:
	case NR_getdents:
	case NR_getdents64:
		break;
	case NR_pread64:
	case NR_preadv:
		r.need = CAP_PREAD;
		break;
	case NR_pwrite64:
	case NR_pwritev:
		r.need = CAP_PWRITE;
		break;
	case NR_preadv2:
	case NR_pwritev2:
		/* Offset -1 means "at the file position", like readv. */
		if ((long)regs->r10 != -1)
			r.need = rd ? CAP_PREAD : CAP_PWRITE;
		break;
	case NR_sendfile: /* (out_fd, in_fd, *offset, count) */
		if (rd) {
			r.fd = (int)regs->si;
			if (regs->dx)
				r.need |= CAP_SEEK;
		}
		break;
	/*
	 * No tee(2) case: do_tee(), like a pipe-to-pipe splice, calls no LSM
	 * hook at all (doc/enforcement.md).
	 */
	case NR_splice: /* (fd_in, *off_in, fd_out, *off_out, ...) */
	case NR_copy_file_range:
		r.fd = (int)(rd ? regs->di : regs->dx);
		if (rd ? regs->si : regs->r10)
			r.need |= CAP_SEEK;
		break;
	default:
		/*
		 * aio, io_uring, i386, kernel-internal reads: no fd to trust,
		 * the file's floor applies.
		 */
		r.fd = -1;
	}
	return r;
}

#endif
