/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every map and global of the BPF side, in one place: no hook header owns
 * state another reads. Map layouts are ABI where a pin exposes them
 * (include/capsicum/abi.h, pins.h); the loader sets the const volatile
 * globals and the capacities before load, and reads the counters through
 * the bss (admin/counters.c).
 */
#ifndef CAPSICUM_MAPS_BPF_H
#define CAPSICUM_MAPS_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <capsicum/abi.h>
#include <capsicum/pins.h>

/* ---- the rights tables (doc/design.md, "Where rights live") ---- */

/*
 * Default capacity of the tables, shared by every process (doc/design.md);
 * the loader sizes cap_fds, cap_floors, cap_files and cap_ioctls from
 * capsicumd's options before load.
 */
#define CAPSICUM_MAX_FDS	 65536
#define CAPSICUM_MAX_FLOORS	 65536
#define CAPSICUM_MAX_FILES	 65536
#define CAPSICUM_MAX_IOCTL_LISTS 4096
#define CAPSICUM_MAX_ANSWERS	 16384
/* Tables shared by CLONE_FILES at once; uids holding entries at once. */
#define CAPSICUM_MAX_SHARES 32768
#define CAPSICUM_MAX_UIDS   16384
/* Longest fd table a limit scans for siblings of the limited file. */
#define CAPSICUM_SCAN_FDS 65536

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct capsicum_proc);
} cap_procs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, CAPSICUM_MAX_FDS);
	__type(key, struct capsicum_fd_key);
	__type(value, struct capsicum_fd_rights);
} cap_fds SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, CAPSICUM_MAX_FLOORS);
	__type(key, struct capsicum_floor_key);
	__type(value, struct capsicum_fd_rights);
} cap_floors SEC(".maps");

/*
 * Floors file_free cannot drop: a third table's, left to go stale (its
 * generation ends with the file). Two owner slots cover a file limited
 * in one process and a forked child.
 */
__u64 floors_unowned;

/* struct file address -> generation and low, dropped when it is freed. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, CAPSICUM_MAX_FILES);
	__type(key, __u64);
	__type(value, struct capsicum_file);
} cap_files SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, CAPSICUM_MAX_IOCTL_LISTS);
	__type(key, struct capsicum_fd_key);
	__type(value, struct capsicum_ioctls);
} cap_ioctls SEC(".maps");

/*
 * Per-uid quota (doc/design.md, "Quota"), set by the loader before load:
 * entries of cap_fds, cap_floors and cap_files together, and ioctl lists,
 * that the tables of one uid may hold. uid 0 is exempt while root_quota
 * is < 0.
 */
const volatile __s64 uid_quota = 16384;
const volatile __s64 uid_ioctl_quota = 1024;
const volatile __s64 root_quota = -1;

/* What each uid holds now; a uid's record stays once made. */
struct capsicum_usage {
	__s64 entries; /* in cap_fds, cap_floors and cap_files */
	__s64 ioctls;  /* lists in cap_ioctls */
};
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, CAPSICUM_MAX_UIDS);
	__type(key, __u32);
	__type(value, struct capsicum_usage);
} cap_usage SEC(".maps");
/* Stores refused by a quota. */
__u64 quota_refusals;

/*
 * A table used by several processes (CLONE_FILES): how many are counted
 * (CAPSICUM_PROC_SHARE_REF), and the union of their fd_bound, which each
 * ORs in when it goes; the last one drops the table's entries.
 */
struct capsicum_share {
	__s64 users;
	__u64 fd_bound;
};
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, CAPSICUM_MAX_SHARES);
	__type(key, __u64);
	__type(value, struct capsicum_share);
} cap_shares SEC(".maps");

/* Answers to CAPSICUM_OP_GET, keyed by thread id; readable by anyone. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, CAPSICUM_MAX_ANSWERS);
	__type(key, __u32);
	__type(value, struct capsicum_answer);
} answers SEC(".maps");

/* Scratch space too large for the 512-byte BPF stack. */
struct scratch {
	struct capsicum_answer answer;
	struct capsicum_ioctls ioctls;
};
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct scratch);
} scratch SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 256 * 1024);
} denials SEC(".maps");

/* Monotonic counters; table ids and generations are never reused. */
__u64 next_table_id;
__u64 next_gen;
/* Files in cap_files: lets file_free skip its lookup when zero. */
__s64 tracked_files;
/* Processes with a table: lets exit paths skip lookups when zero. */
__s64 live_tables;
/*
 * pdfork children marked PD_DOOMED and not yet freed (never less than
 * that): while any exists, hooks skip the fast allow of file_allows_all
 * so the doomed child meets pd_doom_check.
 */
__s64 pd_doomed;
/* Set once any answer was written: task_free then cleans answers up. */
bool answers_used;
__u64 denial_count;
__u64 denials_dropped;

/* The rights a hook compares against. */
struct held {
	__u64 rights[2];
	__u32 fcntls;
	__s32 nioctls;
	__s32 fd;     /* the descriptor they belong to, -1 for a floor */
	bool limited; /* false: the file is unrestricted here */
};

/* ---- process descriptors ---- */

/*
 * pdfork children watched through their descriptor, by global tgid, with
 * their leader's task address, so a reused number is told apart: PD_WATCHED
 * while the descriptor is open, PD_DOOMED once its last reference went.
 */
#define PD_WATCHED 1
#define PD_DOOMED  2
struct pd_proc {
	__u64 task; /* the child's leader: task_free of this task drops it */
	__u64 pid;  /* its struct pid, which the watched pidfd names */
	__u32 state;
	__u32 pad;
};
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, struct pd_proc);
} pd_procs SEC(".maps");

/* Watched pidfd files (pdfork without PD_DAEMON) -> their child. */
struct pd_file {
	__u64 pid; /* the child's struct pid: it stays across exec */
	__u32 tgid;
	__u32 pad;
};
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 16384);
	__type(key, __u64);
	__type(value, struct pd_file);
} pd_files SEC(".maps");

__s64 pd_files_live;
/* Set once a descriptor was watched: task_free then drops pd_procs. */
bool pd_used;

/*
 * Kill requests for capsicumd (struct capsicum_pd_kill), apart from the
 * denials: a flood of denials, or a daemon that rate-limits and falls
 * behind on them, must not delay or crowd out a kill. Small: a request
 * lives only until capsicumd's next poll; the self-kill at the child's
 * next hook stays the fallback when the ring is full or nobody reads it.
 */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 16 * 1024);
} pd_kills SEC(".maps");
__u64 pd_kill_requests; /* requests written to pd_kills */
__u64 pd_kill_dropped;	/* of which the ring had no room for */

/* ---- lookups, opens and execs ---- */

/*
 * An openat through a directory whose descriptor has an ioctl list:
 * file_open records it, the openat's exit copies the list
 * (track.bpf.h: ioctls_inherit) if the dirfd still holds that directory.
 */
struct ioctls_pending {
	__u64 file; /* the file being opened; 0: nothing pending */
	__u64 dir;  /* the struct file the dirfd held at file_open */
	__s32 dirfd;
	__u32 pad;
};
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct ioctls_pending);
} ioctls_pending SEC(".maps");

/*
 * An exec in capability mode, per thread: the program bprm_check_security
 * let through, and how many times the ELF loader has read it since.
 */
struct exec_state {
	__u64 file; /* bprm->file; 0 outside the ELF loader */
	__u32 reads;
	__u32 pad;
};
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct exec_state);
} exec_states SEC(".maps");

/*
 * The patched kernel: the io_uring request whose descriptor this thread
 * is looking up right now, set on entry to io_file_get_normal() and
 * cleared on its return, so that the fget hook inside it asks that
 * request's opcode of its descriptor (uring.bpf.h). Outside that call
 * the note is clear, and nothing else reads it.
 */
struct uring_note {
	__s32 fd;    /* the descriptor io_uring is looking up */
	__u8 opcode; /* enum io_uring_op */
	__u8 active; /* inside io_file_get_normal() */
	__u8 ends;   /* SPLICE/TEE: URING_END_IN, URING_END_OUT */
	__u8 seek;   /* an offset given (for each end of a splice: ends) */
};
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct uring_note);
} uring_notes SEC(".maps");

/*
 * The stock kernels: an AIO fsync (IOCB_CMD_FSYNC/FDSYNC) this thread
 * is submitting right now whose file lacks CAP_FSYNC, set on entry to
 * aio_fsync() and cleared on its return, so that the cred_prepare hook
 * of the prepare_creds() inside it refuses (aio.bpf.h). Outside that
 * call the note is clear, and nothing else reads it.
 */
struct aio_note {
	struct held held; /* what the file holds here: the record's */
	__s64 nr;	  /* the syscall aio_fsync() runs in (orig_ax) */
	__u8 active;	  /* inside aio_fsync(), with a refusal to make */
};
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct aio_note);
} aio_notes SEC(".maps");

/* ---- sockets ---- */

/* Rights of descriptors in flight over SCM_RIGHTS, by struct file. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 16384);
	__type(key, __u64);
	__type(value, struct capsicum_fd_rights);
} inflight SEC(".maps");

/*
 * The listener's rights as socket_accept saw them, and the new socket
 * they are for, by thread (track.bpf.h).
 */
struct accepting {
	struct held held;
	__u64 newsock; /* struct socket * */
};
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, struct accepting);
} accepting SEC(".maps");

/* ---- the loader's own objects (protect.bpf.h) ---- */

/* Directories from the pin directory up to / (five for the default). */
#define PROTECT_PATH_MAX 8

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 256);
	__type(key, struct capsicum_protected_key);
	__type(value, __u8);
} cap_protected SEC(".maps");

/*
 * [0] the build that runs, [1] the build a live upgrade took over from
 * (magic 0 after a plain load). A reader of [0] alone (an older capctl)
 * still reads the stamp it knows.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, struct capsicum_state_version);
} version SEC(".maps");

/* Written by the loader through the mmapped bss before attach. */
bool protect_on;
__u64 protect_exe_ino;
__u32 protect_exe_dev;
__u64 protect_dir_ino;
__u32 protect_dir_dev;
/* The pin path, [0] the pin directory itself; the loader's mount ns. */
__u64 protect_path_ino[PROTECT_PATH_MAX];
__u32 protect_path_dev[PROTECT_PATH_MAX];
__u32 protect_path_len;
__u32 protect_mnt_ns;
__u64 protect_denied;

/* ---- kernel differences the loader detects ---- */

/* Set by the loader: inode_setattr gained an idmap argument in 6.3. */
const volatile bool setattr_has_idmap;

#endif
