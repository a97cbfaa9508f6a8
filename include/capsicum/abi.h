/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Capsicum ABI: the one definition of rights shared by the BPF programs,
 * libcapsicum and the kernel patch.  Bit-exact with FreeBSD's cap_rights_t
 * so a rights value means the same thing on both systems.
 *
 * Must stay includable from BPF C (after vmlinux.h, which already has the
 * __u64 family) and from userspace: no libc headers, no libc types.
 */
#ifndef _CAPSICUM_ABI_H
#define _CAPSICUM_ABI_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

/*
 * Layout of each 64-bit word of cap_rights_t:
 *   bits 63..62  version (word 0 only; 0 elsewhere)
 *   bits 61..57  one-hot index: which word this is, so a single right value
 *                knows where it belongs
 *   bits 56..0   the rights themselves
 * The array holds CAP_RIGHTS_VERSION + 2 words.
 */
#define CAP_RIGHTS_VERSION_00 0
#define CAP_RIGHTS_VERSION    CAP_RIGHTS_VERSION_00

#define CAPRIGHT(idx, bit) ((1ULL << (57 + (idx))) | (bit))

#define CAP_RIGHTS_VERSION_SHIFT 62
#define CAP_RIGHTS_INDEX_SHIFT	 57
#define CAP_RIGHTS_INDEX_MASK	 0x3E00000000000000ULL
#define CAP_RIGHTS_BITS_MASK	 0x01FFFFFFFFFFFFFFULL

/* Index 0: FreeBSD 14 rights, in FreeBSD's order and with its definitions. */

/* General file I/O. */
#define CAP_READ  CAPRIGHT(0, 0x1ULL)
#define CAP_WRITE CAPRIGHT(0, 0x2ULL)
/* Seeking without reading or writing: ftell-style lseek(fd, 0, SEEK_CUR). */
#define CAP_SEEK_TELL CAPRIGHT(0, 0x4ULL)
/* Any lseek; FreeBSD also requires it for the offset-taking calls. */
#define CAP_SEEK   (CAP_SEEK_TELL | 0x8ULL)
#define CAP_PREAD  (CAP_SEEK | CAP_READ)
#define CAP_PWRITE (CAP_SEEK | CAP_WRITE)
/* mmap with no PROT_* bits; the _R/_W/_X forms name what PROT_* needs. */
#define CAP_MMAP     CAPRIGHT(0, 0x10ULL)
#define CAP_MMAP_R   (CAP_MMAP | CAP_SEEK | CAP_READ)
#define CAP_MMAP_W   (CAP_MMAP | CAP_SEEK | CAP_WRITE)
#define CAP_MMAP_X   (CAP_MMAP | CAP_SEEK | 0x20ULL)
#define CAP_MMAP_RW  (CAP_MMAP_R | CAP_MMAP_W)
#define CAP_MMAP_RX  (CAP_MMAP_R | CAP_MMAP_X)
#define CAP_MMAP_WX  (CAP_MMAP_W | CAP_MMAP_X)
#define CAP_MMAP_RWX (CAP_MMAP_R | CAP_MMAP_W | CAP_MMAP_X)
/* openat(O_CREAT). */
#define CAP_CREATE    CAPRIGHT(0, 0x40ULL)
#define CAP_FEXECVE   CAPRIGHT(0, 0x80ULL)
#define CAP_FSYNC     CAPRIGHT(0, 0x100ULL)
#define CAP_FTRUNCATE CAPRIGHT(0, 0x200ULL)
#define CAP_LOOKUP    CAPRIGHT(0, 0x400ULL)
#define CAP_FCHDIR    CAPRIGHT(0, 0x800ULL)
#define CAP_FCHFLAGS  CAPRIGHT(0, 0x1000ULL)
/* The *AT forms: the plain right plus CAP_LOOKUP on the directory fd. */
#define CAP_CHFLAGSAT (CAP_FCHFLAGS | CAP_LOOKUP)
#define CAP_FCHMOD    CAPRIGHT(0, 0x2000ULL)
#define CAP_FCHMODAT  (CAP_FCHMOD | CAP_LOOKUP)
#define CAP_FCHOWN    CAPRIGHT(0, 0x4000ULL)
#define CAP_FCHOWNAT  (CAP_FCHOWN | CAP_LOOKUP)
#define CAP_FCNTL     CAPRIGHT(0, 0x8000ULL)
#define CAP_FLOCK     CAPRIGHT(0, 0x10000ULL)
#define CAP_FPATHCONF CAPRIGHT(0, 0x20000ULL)
#define CAP_FSCK      CAPRIGHT(0, 0x40000ULL)
#define CAP_FSTAT     CAPRIGHT(0, 0x80000ULL)
#define CAP_FSTATAT   (CAP_FSTAT | CAP_LOOKUP)
#define CAP_FSTATFS   CAPRIGHT(0, 0x100000ULL)
#define CAP_FUTIMES   CAPRIGHT(0, 0x200000ULL)
#define CAP_FUTIMESAT (CAP_FUTIMES | CAP_LOOKUP)
/* Directory-fd rights for operations that create or remove names. */
#define CAP_LINKAT_TARGET   (CAP_LOOKUP | 0x400000ULL)
#define CAP_MKDIRAT	    (CAP_LOOKUP | 0x800000ULL)
#define CAP_MKFIFOAT	    (CAP_LOOKUP | 0x1000000ULL)
#define CAP_MKNODAT	    (CAP_LOOKUP | 0x2000000ULL)
#define CAP_RENAMEAT_SOURCE (CAP_LOOKUP | 0x4000000ULL)
#define CAP_SYMLINKAT	    (CAP_LOOKUP | 0x8000000ULL)
#define CAP_UNLINKAT	    (CAP_LOOKUP | 0x10000000ULL)

/* Sockets. */
#define CAP_ACCEPT	CAPRIGHT(0, 0x20000000ULL)
#define CAP_BIND	CAPRIGHT(0, 0x40000000ULL)
#define CAP_CONNECT	CAPRIGHT(0, 0x80000000ULL)
#define CAP_GETPEERNAME CAPRIGHT(0, 0x100000000ULL)
#define CAP_GETSOCKNAME CAPRIGHT(0, 0x200000000ULL)
#define CAP_GETSOCKOPT	CAPRIGHT(0, 0x400000000ULL)
#define CAP_LISTEN	CAPRIGHT(0, 0x800000000ULL)
#define CAP_PEELOFF	CAPRIGHT(0, 0x1000000000ULL)
/* Historical aliases; prefer CAP_READ/CAP_WRITE. */
#define CAP_RECV       (CAP_READ)
#define CAP_SEND       (CAP_WRITE)
#define CAP_SETSOCKOPT CAPRIGHT(0, 0x2000000000ULL)
#define CAP_SHUTDOWN   CAPRIGHT(0, 0x4000000000ULL)
/* Directory-fd rights for bindat/connectat and the two ends of link/rename. */
#define CAP_BINDAT	    (CAP_LOOKUP | 0x8000000000ULL)
#define CAP_CONNECTAT	    (CAP_LOOKUP | 0x10000000000ULL)
#define CAP_LINKAT_SOURCE   (CAP_LOOKUP | 0x20000000000ULL)
#define CAP_RENAMEAT_TARGET (CAP_LOOKUP | 0x40000000000ULL)
/* Convenience sets for the usual client and server socket. */
#define CAP_SOCK_CLIENT                                                        \
	(CAP_CONNECT | CAP_GETPEERNAME | CAP_GETSOCKNAME | CAP_GETSOCKOPT |    \
	 CAP_PEELOFF | CAP_RECV | CAP_SEND | CAP_SETSOCKOPT | CAP_SHUTDOWN)
#define CAP_SOCK_SERVER                                                        \
	(CAP_ACCEPT | CAP_BIND | CAP_GETPEERNAME | CAP_GETSOCKNAME |           \
	 CAP_GETSOCKOPT | CAP_LISTEN | CAP_PEELOFF | CAP_RECV | CAP_SEND |     \
	 CAP_SETSOCKOPT | CAP_SHUTDOWN)

/* FreeBSD 15: fchroot(2).  Linux has no fchroot; kept for ABI parity. */
#define CAP_FCHROOT CAPRIGHT(0, 0x80000000000ULL)

/*
 * Every index-0 right.  This is FreeBSD 15's value (FreeBSD 14 stops at
 * 0x7FFFFFFFFFF): it must cover CAP_FCHROOT or an unrestricted descriptor
 * would lack a right we define.
 */
#define CAP_ALL0 CAPRIGHT(0, 0xFFFFFFFFFFFULL)

/* Index 1. */

/* Mandatory access control labels. */
#define CAP_MAC_GET CAPRIGHT(1, 0x1ULL)
#define CAP_MAC_SET CAPRIGHT(1, 0x2ULL)
/* POSIX semaphores. */
#define CAP_SEM_GETVALUE CAPRIGHT(1, 0x4ULL)
#define CAP_SEM_POST	 CAPRIGHT(1, 0x8ULL)
#define CAP_SEM_WAIT	 CAPRIGHT(1, 0x10ULL)
/* select/poll/epoll readiness. */
#define CAP_EVENT CAPRIGHT(1, 0x20ULL)
/* Receiving events from a kqueue (kevent with an event list). */
#define CAP_KQUEUE_EVENT CAPRIGHT(1, 0x40ULL)
/* Any ioctl, further narrowed by the ioctl allowlist. */
#define CAP_IOCTL CAPRIGHT(1, 0x80ULL)
/* Terminal hooks (TIOCSETD, line disciplines). */
#define CAP_TTYHOOK CAPRIGHT(1, 0x100ULL)
/* Process descriptors (pidfds on Linux). */
#define CAP_PDGETPID CAPRIGHT(1, 0x200ULL)
#define CAP_PDWAIT   CAPRIGHT(1, 0x400ULL)
#define CAP_PDKILL   CAPRIGHT(1, 0x800ULL)
/* Extended attributes and ACLs. */
#define CAP_EXTATTR_DELETE CAPRIGHT(1, 0x1000ULL)
#define CAP_EXTATTR_GET	   CAPRIGHT(1, 0x2000ULL)
#define CAP_EXTATTR_LIST   CAPRIGHT(1, 0x4000ULL)
#define CAP_EXTATTR_SET	   CAPRIGHT(1, 0x8000ULL)
#define CAP_ACL_CHECK	   CAPRIGHT(1, 0x10000ULL)
#define CAP_ACL_DELETE	   CAPRIGHT(1, 0x20000ULL)
#define CAP_ACL_GET	   CAPRIGHT(1, 0x40000ULL)
#define CAP_ACL_SET	   CAPRIGHT(1, 0x80000ULL)
/* Registering events on a kqueue (kevent with a change list). */
#define CAP_KQUEUE_CHANGE CAPRIGHT(1, 0x100000ULL)
#define CAP_KQUEUE	  (CAP_KQUEUE_EVENT | CAP_KQUEUE_CHANGE)
/* Historical alias; prefer CAP_EVENT. */
#define CAP_POLL_EVENT (CAP_EVENT)

/* FreeBSD 15: inotify; Linux inotify_add_watch/inotify_rm_watch map here. */
#define CAP_INOTIFY_ADD CAPRIGHT(1, 0x200000ULL)
#define CAP_INOTIFY_RM	CAPRIGHT(1, 0x400000ULL)

/*
 * Linux-only rights.  FreeBSD allocates new rights from the low bits up, so
 * these are taken from the top of index 1's usable bits (bit 56 down) to stay
 * clear of its future growth.  The 2014 Linux patch used 0x200000 upwards,
 * which FreeBSD 15 has since given to CAP_INOTIFY_*; its values are not kept.
 */
/* Signals delivered through a descriptor: signalfd, pidfd_send_signal. */
#define CAP_FSIGNAL CAPRIGHT(1, 1ULL << 56)
/* epoll_ctl on an epoll descriptor (the kqueue-change analogue). */
#define CAP_EPOLL_CTL CAPRIGHT(1, 1ULL << 55)
/* setns(2) into the namespace a descriptor refers to. */
#define CAP_SETNS CAPRIGHT(1, 1ULL << 54)
/*
 * Reading and controlling a perf_event descriptor.  The 2014 patch called
 * it CAP_PERFMON, and we once CAP_BPF for the next one: both are now
 * POSIX capability numbers in <linux/capability.h> (38, 39), so a file
 * including both headers would fail to build or silently swap values.
 * Neither old name is defined anywhere here.
 */
#define CAP_PERF_EVENT CAPRIGHT(1, 1ULL << 53)
/* bpf(2) commands that take a map, program or link descriptor. */
#define CAP_BPF_OBJ CAPRIGHT(1, 1ULL << 52)

/*
 * Every index-1 right: FreeBSD 15's 0x7FFFFF (FreeBSD 14's 0x1FFFFF plus the
 * inotify pair) and the Linux extras, so an unrestricted descriptor has every
 * right we define.
 */
#define CAP_ALL1 CAPRIGHT(1, 0x7FFFFFULL | 0x01F0000000000000ULL) /* 56..52 */

/*
 * Linux's own errno space already uses FreeBSD's 93/94, so these are the
 * values the 2014 Linux patch chose.
 */
#ifndef ECAPMODE
#define ECAPMODE 134
#endif
#ifndef ENOTCAPABLE
#define ENOTCAPABLE 135
#endif

/*
 * fcntl sub-rights, checked when CAP_FCNTL is held.  These are FreeBSD's
 * values, (1 << F_xxx) with FreeBSD's F_ numbers (F_GETFL = 3 ...), not
 * Linux's: a mask means the same on both systems, and the BPF side maps each
 * Linux fcntl command onto one of these bits.
 */
#define CAP_FCNTL_GETFL	 (1U << 3)
#define CAP_FCNTL_SETFL	 (1U << 4)
#define CAP_FCNTL_GETOWN (1U << 5)
#define CAP_FCNTL_SETOWN (1U << 6)
#define CAP_FCNTL_ALL                                                          \
	(CAP_FCNTL_GETFL | CAP_FCNTL_SETFL | CAP_FCNTL_GETOWN |                \
	 CAP_FCNTL_SETOWN)

/*
 * Longest ioctl allowlist per descriptor.  On Linux this is a hard limit of
 * the design: the list lives in a fixed-size BPF map value.  It equals
 * FreeBSD's in-kernel IOCTLS_MAX_COUNT, so longer lists are refused (EINVAL,
 * as on FreeBSD), never truncated.
 */
#define CAP_IOCTLS_MAX 256

/*
 * Control plane on stock kernels (doc/design.md, "Control plane").
 *
 * A BPF-LSM program can veto an operation but not complete one of its own,
 * so requests ride on calls the kernel already makes harmless:
 *
 *   fd operations:      fcntl(fd, F_GETFD, &req)  -> hook file_fcntl, which
 *                       also hands over the struct file the kernel resolved
 *   process operations: prctl(CAPSICUM_PRCTL_OPTION, &req) -> task_prctl
 *
 * The programs recognise a request by its magic and version, and answer
 * with a negative status: -CAPSICUM_STATUS_OK (or _OK_CAPMODE) for success,
 * -errno for failure. Without the programs, F_GETFD succeeds and the private
 * prctl option fails with EINVAL; libcapsicum turns both into ENOSYS, and
 * nothing else: a request of a newer library that these programs do not
 * know fails with EOPNOTSUPP, one of another ABI version with EPROTO.
 *
 * Results that do not fit a status (cap_rights_get and friends) are kept
 * by the BPF side per thread (CAPSICUM_OP_GET, tagged with the request's
 * nonce) and read back CAPSICUM_ANSWER_BITS at a time through statuses
 * (CAPSICUM_OP_ANSWER). So no call needs a descriptor of its own: none can
 * fail for want of a free descriptor, after chroot(), in capability mode
 * or after closefrom() (doc/capmode.md, "The control plane needs no
 * descriptor").
 */
#define CAPSICUM_PRCTL_OPTION 0x43415053 /* "CAPS" */
#define CAPSICUM_REQ_MAGIC    0x4341505349435231ULL
#define CAPSICUM_ABI_VERSION  1

/* Success statuses: inside the errno range, far from any real errno. */
#define CAPSICUM_STATUS_OK	   4000
#define CAPSICUM_STATUS_OK_CAPMODE 4001
/*
 * CAPSICUM_OP_ANSWER's status: CAPSICUM_STATUS_ANSWER + the bits asked for
 * (2048..4095, the top of the errno range a syscall can return).
 */
#define CAPSICUM_STATUS_ANSWER 2048
#define CAPSICUM_ANSWER_BITS   11

enum capsicum_op {
	CAPSICUM_OP_PING = 1,	      /* prctl: is the BPF side loaded? */
	CAPSICUM_OP_LIMIT_RIGHTS = 2, /* fcntl: narrow the fd's rights */
	CAPSICUM_OP_LIMIT_FCNTLS = 3, /* fcntl: narrow its fcntl sub-rights */
	CAPSICUM_OP_LIMIT_IOCTLS = 4, /* fcntl: narrow its ioctl allowlist */
	CAPSICUM_OP_GET = 5,	      /* fcntl: answer the fd's rights */
	CAPSICUM_OP_ENTER = 6,	      /* prctl: enter capability mode */
	CAPSICUM_OP_GETMODE = 7,      /* prctl: status tells the mode */
	CAPSICUM_OP_PD_CHILD = 8,     /* prctl: a pdfork child, see below */
	CAPSICUM_OP_PD_WATCH = 9,     /* fcntl: closing this pidfd kills */
	CAPSICUM_OP_ANSWER = 10,      /* prctl: bits of this thread's answer */
	CAPSICUM_OP_SELF = 11,	   /* prctl: status tells the caller's state */
	CAPSICUM_OP_LEARN = 12,	   /* prctl: make the caller's tree learn */
	CAPSICUM_OP_LEARN_ID = 13, /* prctl: bits of the caller's learn id */
};

/*
 * Learning (capctl run --learn, doc/learn.md). CAPSICUM_OP_LEARN marks
 * the calling process as learning, with its tgid as the learn id: every
 * check that would refuse it is recorded (a denial record whose learn_id
 * is that id) and then allowed. Only for a caller with CAP_SYS_ADMIN in
 * the initial user namespace, and only before the process has any
 * restriction of its own (not in capability mode, no descriptor ever
 * limited, no fd table shared with another process that may limit it):
 * EPERM otherwise, so a sandbox cannot switch itself off.
 * Inherited by children, kept over exec, never cleared.
 *
 * CAPSICUM_OP_LEARN_ID answers CAPSICUM_STATUS_ANSWER + bits
 * [answer_bit, answer_bit + CAPSICUM_ANSWER_BITS) of the caller's learn
 * id (0: not learning); libcapsicum's cap_enter() names the supervisor's
 * socket by it.
 */
#define CAPSICUM_LEARN_SOCKET_PREFIX "capsicum-learn-" /* abstract, + id */

/*
 * CAPSICUM_OP_SELF's status: CAPSICUM_STATUS_SELF + the CAPSICUM_SELF_*
 * bits that hold for the calling process. Creates no state: for tests
 * and tools that must tell whether the fast path (no state) or the
 * patched kernel's gate applies to a process.
 */
#define CAPSICUM_STATUS_SELF	 4064
#define CAPSICUM_SELF_STATE	 0x1 /* it has a Capsicum table */
#define CAPSICUM_SELF_CAPMODE	 0x2 /* it is in capability mode */
#define CAPSICUM_SELF_FGET_CHECK 0x4 /* the kernel's fget check is on */
#define CAPSICUM_SELF_LEARNING	 0x8 /* it learns (CAPSICUM_OP_LEARN) */

struct capsicum_req {
	__u64 magic;
	__u32 version;
	__u32 op;
	__u64 nonce; /* echoed in the answer; ANSWER: the GET's */
	union {
		__u64 rights[2]; /* LIMIT_RIGHTS */
		/*
		 * ANSWER: the first bit to read, counted from the start of
		 * struct capsicum_answer, bit i of byte k being bit 8k + i.
		 */
		__u64 answer_bit;
	};
	__u32 fcntls;  /* LIMIT_FCNTLS */
	__s32 nioctls; /* LIMIT_IOCTLS: count, or -1 for all */
	__u64 ioctls;  /* LIMIT_IOCTLS: user pointer to __u64[nioctls] */
};

/* A thread's answer, as CAPSICUM_OP_ANSWER reads it back. */
struct capsicum_answer {
	__u64 nonce;
	__u64 rights[2];
	__u32 fcntls;
	__s32 nioctls; /* -1: all ioctls allowed */
	__u64 ioctls[CAP_IOCTLS_MAX];
	/*
	 * For a process descriptor (a pidfd): its pid in the caller's pid
	 * namespace, or -1 if the descriptor lacks CAP_PDGETPID (or the
	 * process is not visible there). 0: not a process descriptor.
	 */
	__s32 pid;
	__u32 reserved;
};

/*
 * The rights tables (doc/design.md, "Where rights live"). One table per
 * process (per fd table), identified by a table id that is never reused.
 * The same layout serves the stock BPF-LSM mode and the kernel patch.
 */

/* Task storage of the thread-group leader. */
struct capsicum_proc {
	__u64 table_id;
	__u32 flags;	/* CAPSICUM_PROC_* */
	__u32 fd_bound; /* every fd with an entry is below this */
	/*
	 * Who the table's entries are charged to (doc/design.md, "Quota"):
	 * the real uid of the process that made the table, or, inside a
	 * user namespace a user other than root made, that user (of the
	 * outermost one). Every process using the table has the same.
	 */
	__u32 uid;
	__u32 learn_id; /* with CAPSICUM_PROC_LEARNING: its learn id */
};
#define CAPSICUM_PROC_CAPMODE	 (1U << 0)
#define CAPSICUM_PROC_SHARED_FDS (1U << 1) /* fd table shared (CLONE_FILES) */
/* A pdfork() child: dies when its last process descriptor is closed. */
#define CAPSICUM_PROC_PD_CHILD (1U << 2)
/* Some descriptor or file of this table was ever limited. */
#define CAPSICUM_PROC_LIMITED (1U << 3)
/* Some descriptor of this table was ever given an ioctl list. */
#define CAPSICUM_PROC_IOCTLS (1U << 4)
/*
 * With SHARED_FDS: this process is counted among the table's sharers
 * (the last one to exit drops the table's entries). A CLONE_FILES child
 * is counted once its fork has succeeded.
 */
#define CAPSICUM_PROC_SHARE_REF (1U << 5)
/* Its entries were dropped when its last thread exited. */
#define CAPSICUM_PROC_DROPPED (1U << 6)
/*
 * The copy of the parent's table at fork could not be completed: a
 * limited file this table has no floor of holds its low (state.bpf.h).
 */
#define CAPSICUM_PROC_INCOMPLETE (1U << 7)
/*
 * The patched kernel (kernel/) checks its descriptor lookups: it has
 * called bpf_task_fget_check_enable() for this process (bpf/fget.bpf.h).
 */
#define CAPSICUM_PROC_FGET_CHECK (1U << 8)
/*
 * live_tables no longer counts this table: its last thread exited
 * (track.bpf.h, capsicum_process_exit).
 */
#define CAPSICUM_PROC_UNCOUNTED (1U << 9)
/* Refusals are recorded, then allowed (CAPSICUM_OP_LEARN). */
#define CAPSICUM_PROC_LEARNING (1U << 10)
/*
 * An AIO fsync refusal found no memory for its thread's note: every AIO
 * fsync of the process is refused from then on (bpf/aio.bpf.h).
 */
#define CAPSICUM_PROC_AIO_UNNOTED (1U << 11)

/* Per-descriptor rights: key (table, fd). */
struct capsicum_fd_key {
	__u64 table_id;
	__s32 fd;
	__u32 pad;
};

/*
 * Rights of one descriptor, valid only while the fd still maps to `file`
 * and `gen` matches the file's generation (so a freed struct file whose
 * address is reused never inherits them).
 */
struct capsicum_fd_rights {
	__u64 file;
	__u64 gen;
	__u64 rights[2];
	__u32 fcntls;
	__s32 nioctls; /* -1: every ioctl; else entries in the ioctl map */
};

/*
 * Per-file state, key the struct file's address: its generation; the
 * rights no descriptor of it has less of, in any table (the intersection
 * of every entry and floor stored for this generation; it never widens,
 * so a hook whose need it covers allows without finding the descriptor);
 * and up to two tables holding a floor of it, which the file's free
 * drops (a third table's floor goes stale with the generation).
 */
struct capsicum_file {
	__u64 gen;
	__u64 low[2];
	__u64 owners[2];
	__u32 owner_uids[2]; /* the uid each owner's floor is charged to */
	__u32 uid;	     /* the uid this record is charged to */
	__u32 reserved;
};

/*
 * Per-file floor: key (table, file). The intersection of every limit this
 * process set on a descriptor of the file; what a descriptor of it gets
 * when it has no valid entry of its own.
 */
struct capsicum_floor_key {
	__u64 table_id;
	__u64 file;
};

/* An ioctl allowlist, beside a capsicum_fd_rights with nioctls >= 0. */
struct capsicum_ioctls {
	__u64 cmds[CAP_IOCTLS_MAX];
};

/*
 * Which hook denied, in capsicum_denial.hook: X(ENUM_SUFFIX, "name") per
 * hook, in value order from 1. The one list both the enum and the audit
 * line's names (admin/audit_line.c) are made from, so a new hook cannot
 * be logged as "?".
 */
#define CAPSICUM_HOOKS(X)                                                      \
	X(FILE_PERMISSION, "file_permission")                                  \
	X(MMAP_FILE, "mmap_file")                                              \
	X(FILE_MPROTECT, "file_mprotect")                                      \
	X(FILE_IOCTL, "file_ioctl")                                            \
	X(FILE_FCNTL, "file_fcntl")                                            \
	X(FILE_LOCK, "file_lock")                                              \
	X(INODE_GETATTR, "inode_getattr")                                      \
	X(INODE_SETATTR, "inode_setattr")                                      \
	X(XATTR, "xattr")                                                      \
	X(SB_STATFS, "sb_statfs")                                              \
	X(EXEC, "exec")                                                        \
	X(FILE_OPEN, "file_open")                                              \
	X(SOCKET, "socket")                                                    \
	X(PATH_NOTIFY, "path_notify")                                          \
	/* *at() lookups through a dirfd */                                    \
	X(LOOKUP, "lookup")                                                    \
	/* signals, process descriptors */                                     \
	X(TASK_KILL, "task_kill")                                              \
	/* a uid's share of the tables is used up */                           \
	X(QUOTA, "quota")                                                      \
	/* getsid, getpgid of another process */                               \
	X(TASK_QUERY, "task_query")                                            \
	/* patched kernel: a lookup by descriptor number (fget) */             \
	X(FGET, "fget")                                                        \
	/* a descriptor owner's signal to another process */                   \
	X(FILE_SEND_SIGIOTASK, "file_send_sigiotask")                          \
	/* fchdir: the kernel's MAY_CHDIR check of its directory */            \
	X(INODE_PERMISSION, "inode_permission")                                \
	/*                                                                     \
	 * capability mode's seccomp filter: no BPF program reports it; capctl \
	 * run --learn makes such records from the filter's notifications      \
	 */                                                                    \
	X(SECCOMP, "seccomp")                                                  \
	/*                                                                     \
	 * stock kernels: io_submit's IOCB_CMD_FSYNC/FDSYNC, refused at the    \
	 * prepare_creds() inside aio_fsync() (the caller sees ENOMEM)         \
	 */                                                                    \
	X(AIO_FSYNC, "aio_fsync")

#define CAPSICUM_HOOK_ENUM_(suffix, name) CAPSICUM_HOOK_##suffix,
enum capsicum_hook {
	/* 0 is no hook: a zeroed denial names none. */
	CAPSICUM_HOOK_NONE,
	CAPSICUM_HOOKS(CAPSICUM_HOOK_ENUM_) CAPSICUM_HOOK_MAX,
};
#undef CAPSICUM_HOOK_ENUM_

/* A denial, streamed to capsicumd through a ring buffer. */
struct capsicum_denial {
	__u64 time_ns;
	__u32 pid;
	__u32 tid;
	__s32 fd;
	__s32 syscall_nr;
	__u32 hook;  /* CAPSICUM_HOOK_* */
	__u32 error; /* ENOTCAPABLE, ECAPMODE; EDQUOT, ENOMEM: no room */
	__u64 needed[2];
	__u64 held[2];
	char comm[16];
	/*
	 * The denied task's real uid, which capsicumd shows a user the
	 * denial by; CAPSICUM_DENIAL_NO_UID in a log line without one.
	 */
	__u32 uid;
	/*
	 * 0: refused. Else the learn id of a learning tree
	 * (CAPSICUM_OP_LEARN): the operation was recorded, then allowed.
	 */
	__u32 learn_id;
};

#define CAPSICUM_DENIAL_NO_UID 0xffffffffu

#define CAPSICUM_PIN_DIR     "/sys/fs/bpf/capsicum"
#define CAPSICUM_PIN_ANSWERS CAPSICUM_PIN_DIR "/answers"

#endif /* _CAPSICUM_ABI_H */
