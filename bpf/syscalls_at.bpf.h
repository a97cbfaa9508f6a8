/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Path syscalls: which directory descriptor a lookup starts from and which
 * right FreeBSD requires of it. x86-64 numbers. The plain forms (mkdir,
 * open, ...) start from the working directory: AT_FDCWD, which capability
 * mode forbids. doc/enforcement.md and doc/capmode.md list the rows.
 */
#ifndef CAPSICUM_SYSCALLS_AT_BPF_H
#define CAPSICUM_SYSCALLS_AT_BPF_H

#include "syscalls.bpf.h"

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
#define NR_clone3	     435

#define O_ACCMODE   00000003
#define O_WRONLY    00000001
#define O_RDWR	    00000002
#define O_CREAT	    00000100
#define O_TRUNC	    00001000
#define O_APPEND    00002000
#define O_DSYNC	    00010000
#define O_PATH	    010000000
#define __O_TMPFILE 020000000
#define S_IFMT	    00170000
#define S_IFIFO	    0010000

/* The lookup a path syscall makes, as its hook sees it. */
struct at_lookup {
	int dirfd;  /* AT_FDCWD for the plain forms */
	__u64 need; /* CAP_* of index 0 on dirfd, CAP_LOOKUP included */
};

static __always_inline struct at_lookup at_arg(int n, __u64 need)
{
	struct at_lookup l = { .dirfd = (int)syscall_arg(n), .need = need };

	return l;
}

static __always_inline struct at_lookup at_cwd(__u64 need)
{
	struct at_lookup l = { .dirfd = AT_FDCWD, .need = need };

	return l;
}

/* Rights FreeBSD's openat requires of the directory for these flags. */
static __always_inline __u64 open_need(__u64 flags)
{
	__u64 need = CAP_LOOKUP;

	if (flags & O_PATH)
		return need;
	if ((flags & O_ACCMODE) != O_WRONLY)
		need |= CAP_READ;
	if ((flags & O_ACCMODE) == O_WRONLY || (flags & O_ACCMODE) == O_RDWR) {
		need |= CAP_WRITE;
		/*
		 * FreeBSD: writing at the file position is seeking too,
		 * unless O_APPEND or O_TRUNC says where the writes go.
		 */
		if (!(flags & (O_APPEND | O_TRUNC)))
			need |= CAP_SEEK;
	}
	if (flags & (O_CREAT | __O_TMPFILE))
		need |= CAP_CREATE;
	if (flags & O_TRUNC)
		need |= CAP_FTRUNCATE;
	if (flags & O_DSYNC) /* O_SYNC includes O_DSYNC */
		need |= CAP_FSYNC;
	return need;
}

/* The open flags of the current openat/openat2, false for other calls. */
static __always_inline bool open_flags(long nr, __u64 *flags)
{
	*flags = 0;
	if (nr == NR_openat) {
		*flags = syscall_arg(2);
		return true;
	}
	if (nr == NR_openat2) {
		/* struct open_how starts with the flags. */
		bpf_probe_read_user(flags, sizeof(*flags),
				    (const void *)syscall_arg(2));
		return true;
	}
	return false;
}

#endif
