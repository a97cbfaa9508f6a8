/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rights tables and how a hook finds the rights of the descriptor it
 * acts on. Layout in include/capsicum/abi.h; the scheme is described in
 * doc/design.md ("Where rights live").
 */
#ifndef CAPSICUM_STATE_BPF_H
#define CAPSICUM_STATE_BPF_H

#include "uapi.bpf.h"
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <capsicum/abi.h>

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

/*
 * What an LSM program may return: 0 or a negative errno. Newer verifiers
 * check the range, and a status that went through a 32-bit variable has
 * lost its sign as far as they can tell.
 */
static __always_inline int lsm_status(long status)
{
	return status > 0 || status < -4095 ? -EINVAL : (int)status;
}

/* The rights a hook compares against. */
struct held {
	__u64 rights[2];
	__u32 fcntls;
	__s32 nioctls;
	__s32 fd;     /* the descriptor they belong to, -1 for a floor */
	bool limited; /* false: the file is unrestricted here */
};

static __always_inline struct task_struct *current_leader(void)
{
	return bpf_get_current_task_btf()->group_leader;
}

/*
 * The fast path of every hook. A task with no BPF local storage at all has
 * no Capsicum state: one pointer load decides it before any helper runs.
 */
static __always_inline struct capsicum_proc *proc_of(struct task_struct *leader)
{
	if (!leader->bpf_storage)
		return NULL;
	return bpf_task_storage_get(&cap_procs, leader, 0, 0);
}

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

/*
 * A pdfork child whose descriptor is gone dies at the first hook it
 * meets: no helper before Linux 6.13 can signal another task, so the
 * child signals itself.
 */
static __always_inline void pd_doom_check(const struct capsicum_proc *p)
{
	struct task_struct *leader;
	struct pd_proc *pd;
	__u32 tgid;

	if (!(p->flags & CAPSICUM_PROC_PD_CHILD))
		return;
	tgid = bpf_get_current_pid_tgid() >> 32;
	pd = bpf_map_lookup_elem(&pd_procs, &tgid);
	leader = bpf_get_current_task_btf()->group_leader;
	/*
	 * By struct pid, which an exec from another thread hands to the new
	 * leader (the task changes; the watch may even have raced it).
	 */
	if (pd && pd->state == PD_DOOMED &&
	    pd->pid == (__u64)BPF_CORE_READ(leader, thread_pid))
		bpf_send_signal(SIGKILL);
}

/*
 * The gate of the hottest hooks, run before their body, which is a
 * subprogram (__noinline): the JIT then saves the body's registers only
 * when the body runs, and a process without Capsicum state pays a few
 * loads and the helper that finds current.
 */
static __always_inline bool no_capsicum_state(void)
{
	return !live_tables || !current_leader()->bpf_storage;
}

/* A hook's __noinline body, run past the gate: GATED(body, args...). */
#define GATED(body, ...) (no_capsicum_state() ? 0 : body(__VA_ARGS__))

/*
 * The hottest programs skip BPF_PROG and read their arguments from ctx
 * (argument n is ctx[n]; an fexit's return value follows them) only past
 * the gate: then nothing but ctx lives across the gate's helper call, and
 * a process without state saves one register, not one per argument.
 */
#define CTX_ARG(type, n) ((type)ctx[n])

/*
 * The table of the current process, NULL if it has none. While no process
 * has a table (live_tables only ever overcounts), one load decides it.
 */
static __always_inline struct capsicum_proc *current_proc(void)
{
	struct capsicum_proc *p;

	if (!live_tables)
		return NULL;
	p = proc_of(current_leader());

	if (p)
		pd_doom_check(p);
	return p;
}

/*
 * The struct file the current fd table maps fd to, or NULL. Plain loads
 * through the task's BTF pointers; only the array slot, whose address the
 * verifier sees as a number, needs a probe read.
 */
static __always_inline struct file *fd_file(int fd)
{
	struct files_struct *files = bpf_get_current_task_btf()->files;
	struct fdtable *fdt;
	struct file *f = NULL;

	if (fd < 0 || !files)
		return NULL;
	fdt = files->fdt;
	if (!fdt || (unsigned int)fd >= fdt->max_fds)
		return NULL;
	bpf_probe_read_kernel(&f, sizeof(f), &fdt->fd[fd]);
	return f;
}

/*
 * The file fd names, if it is the object at dentry (and on mnt, unless
 * mnt is NULL: a hook that does not see the mount); else NULL. One probe
 * read for both halves of the file's path.
 */
static __always_inline struct file *fd_at(int fd, struct dentry *dentry,
					  struct vfsmount *mnt)
{
	struct file *f = fd_file(fd);
	struct path fp;

	if (!f || BPF_CORE_READ_INTO(&fp, f, f_path) || fp.dentry != dentry ||
	    (mnt && fp.mnt != mnt))
		return NULL;
	return f;
}

/*
 * Whether a walk has no name to look up (AT_EMPTY_PATH: it acts on its
 * starting descriptor), from the kernel's copy of the path. A name that
 * cannot be read counts as a name: the stricter need.
 */
static __always_inline bool walk_name_empty(struct nameidata *nd)
{
	const char *name = BPF_CORE_READ(nd, name, name);
	char c = 1;

	if (name)
		bpf_probe_read_kernel(&c, 1, name);
	return !c;
}

/* How the current path walk, if any, starts from descriptor fd. */
enum walk_from {
	WALK_NOT_FROM, /* no walk, or one that does not start at fd */
	WALK_EMPTY,    /* it starts at fd with no name (AT_EMPTY_PATH) */
	WALK_NAMED,    /* it starts at fd and looks a name up */
};

static __always_inline enum walk_from walk_from(int fd)
{
	struct nameidata *nd = bpf_get_current_task_btf()->nameidata;

	if (!nd || nd->dfd != fd)
		return WALK_NOT_FROM;
	return walk_name_empty(nd) ? WALK_EMPTY : WALK_NAMED;
}

static __always_inline __u64 file_gen(struct file *file)
{
	__u64 key = (__u64)file;
	struct capsicum_file *f = bpf_map_lookup_elem(&cap_files, &key);

	return f ? f->gen : 0;
}

/*
 * Rights `r` are being stored for a descriptor or floor of the file: low
 * narrows first, so it is never wider than anything stored (atomically:
 * other tables may store at the same time).
 */
static __always_inline void file_low_narrow(struct capsicum_file *f,
					    const __u64 *r)
{
	if ((f->low[0] & r[0]) != f->low[0])
		__sync_fetch_and_and(&f->low[0], r[0]);
	if ((f->low[1] & r[1]) != f->low[1])
		__sync_fetch_and_and(&f->low[1], r[1]);
}

static __always_inline bool rights_contain(const __u64 *have, __u64 need0,
					   __u64 need1)
{
	return (have[0] & need0) == need0 && (have[1] & need1) == need1;
}

/*
 * True when every descriptor of `file`, in every table, holds need0/need1:
 * the hook may allow without finding the descriptor or the table. Not
 * while a doomed pdfork child may still have to meet pd_doom_check.
 */
static __always_inline bool file_allows_all(struct file *file, __u64 need0,
					    __u64 need1)
{
	__u64 key = (__u64)file;
	struct capsicum_file *f;

	if (pd_doomed)
		return false;
	f = bpf_map_lookup_elem(&cap_files, &key);
	return !f || rights_contain(f->low, need0, need1);
}

/*
 * Some descriptor of p's table may have been limited: by this process
 * (LIMITED), or by another sharing the table through CLONE_FILES, whose
 * flags are its own (SHARED_FDS).
 */
static __always_inline bool table_limited(const struct capsicum_proc *p)
{
	return p->flags & (CAPSICUM_PROC_LIMITED | CAPSICUM_PROC_SHARED_FDS);
}

static __always_inline void held_all(struct held *h, int fd)
{
	h->rights[0] = CAP_ALL0;
	h->rights[1] = CAP_ALL1;
	h->fcntls = CAP_FCNTL_ALL;
	h->nioctls = -1;
	h->fd = fd;
	h->limited = false;
}

static __always_inline void
held_from(struct held *h, const struct capsicum_fd_rights *e, int fd)
{
	h->rights[0] = e->rights[0];
	h->rights[1] = e->rights[1];
	h->fcntls = e->fcntls;
	h->nioctls = e->nioctls;
	h->fd = fd;
	h->limited = true;
}

/*
 * What a descriptor of the file holds where this table has no record of
 * it: its low, the narrowest rights any descriptor of it has anywhere,
 * with no fcntl and no ioctl (the low keeps neither).
 */
static __always_inline void held_low(struct held *h, const __u64 *low)
{
	h->rights[0] = low[0];
	h->rights[1] = low[1];
	h->fcntls = 0;
	h->nioctls = 0;
	h->fd = -1;
	h->limited = true;
}

/*
 * Rights of `file` as reached through descriptor `fd` (-1 if the hook
 * cannot know it). An entry counts only if the fd table still maps fd to
 * this very file and the file's generation matches; otherwise the file's
 * floor applies, so every gap fails closed. A limited file this table has
 * no floor of keeps all rights only through a descriptor the table holds
 * (it had the file before any limit touched it); reached any other way (a
 * ring's fixed file, an unknown descriptor) or in a table whose copy at
 * fork did not complete, it holds its low.
 */
static __always_inline void
held_rights(struct capsicum_proc *p, struct file *file, int fd, struct held *h)
{
	struct capsicum_floor_key fk = { .table_id = p->table_id,
					 .file = (__u64)file };
	__u64 key = (__u64)file;
	struct capsicum_fd_rights *e;
	struct capsicum_file *f;
	bool by_fd;

	held_all(h, fd);
	if (!table_limited(p))
		return; /* a table for capability mode only */
	f = bpf_map_lookup_elem(&cap_files, &key);
	if (!f)
		return; /* no limit ever touched this file */
	by_fd = fd >= 0 && fd_file(fd) == file;
	if (by_fd) {
		struct capsicum_fd_key k = { .table_id = p->table_id,
					     .fd = fd };

		e = bpf_map_lookup_elem(&cap_fds, &k);
		if (e && e->file == (__u64)file && e->gen == f->gen) {
			held_from(h, e, fd);
			return;
		}
	}
	e = bpf_map_lookup_elem(&cap_floors, &fk);
	if (e && e->gen == f->gen)
		held_from(h, e, -1);
	else if (!by_fd || (p->flags & CAPSICUM_PROC_INCOMPLETE))
		held_low(h, f->low);
}

/* Same rights, fcntls and ioctl rule: one can stand for the other. */
static __always_inline bool rights_same(const struct capsicum_fd_rights *a,
					const struct capsicum_fd_rights *b)
{
	return a->rights[0] == b->rights[0] && a->rights[1] == b->rights[1] &&
	       a->fcntls == b->fcntls && a->nioctls == b->nioctls;
}

static __always_inline void report(__u32 hook, __u32 error, int fd, __u64 need0,
				   __u64 need1, const struct held *h);

/*
 * The uid a new table's entries are charged to: the real uid, or inside a
 * user namespace that a user other than root made (the outermost one),
 * that user, so the ids mapped there (subordinate uids, newuidmap) share
 * their creator's quota. Namespaces root made (containers) are charged by
 * the real uids root gave them.
 */
static __always_inline __u32 charge_uid(void)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct user_namespace *ns = BPF_CORE_READ(t, cred, user_ns);
	__u32 uid = (__u32)bpf_get_current_uid_gid();

	/* 32 levels of user namespaces at most, plus the initial one. */
	for (int i = 0; i < 33 && ns; i++) {
		unsigned int level = BPF_CORE_READ(ns, level);

		if (level == 0)
			break;
		if (level == 1) {
			if (BPF_CORE_READ(ns, owner.val))
				uid = BPF_CORE_READ(ns, owner.val);
			break;
		}
		ns = BPF_CORE_READ(ns, parent);
	}
	return uid;
}

#define QUOTA_ENTRIES 0 /* cap_fds, cap_floors, cap_files */
#define QUOTA_IOCTLS  1 /* cap_ioctls */

/* What uid may hold of kind; < 0: not counted (an exempt root). */
static __always_inline __s64 quota_of(__u32 uid, int kind)
{
	if (uid == 0 && root_quota < 0)
		return -1;
	if (kind == QUOTA_IOCTLS)
		return uid_ioctl_quota;
	return uid == 0 ? root_quota : uid_quota;
}

/* One more element of kind for uid: 0, or -EDQUOT (with a denial). */
static __always_inline int quota_charge(__u32 uid, int kind, int fd)
{
	struct capsicum_usage *u, zero = {};
	__s64 limit = quota_of(uid, kind), *n;

	if (limit < 0)
		return 0;
	u = bpf_map_lookup_elem(&cap_usage, &uid);
	if (!u) {
		bpf_map_update_elem(&cap_usage, &uid, &zero, BPF_NOEXIST);
		u = bpf_map_lookup_elem(&cap_usage, &uid);
		if (!u)
			return -ENOMEM;
	}
	n = kind == QUOTA_IOCTLS ? &u->ioctls : &u->entries;
	/* Atomically: concurrent stores may pass limit only for a moment. */
	if (__sync_fetch_and_add(n, 1) < limit)
		return 0;
	__sync_fetch_and_add(n, -1);
	__sync_fetch_and_add(&quota_refusals, 1);
	report(CAPSICUM_HOOK_QUOTA, EDQUOT, fd, 0, 0, NULL);
	return -EDQUOT;
}

static __always_inline void quota_uncharge(__u32 uid, int kind)
{
	struct capsicum_usage *u;

	if (quota_of(uid, kind) < 0)
		return;
	u = bpf_map_lookup_elem(&cap_usage, &uid);
	if (u)
		__sync_fetch_and_add(
			kind == QUOTA_IOCTLS ? &u->ioctls : &u->entries, -1);
}

/*
 * Writes key -> val into one of the tables: replacing an element keeps its
 * charge, a new one is charged to uid first. 0, -EDQUOT or -ENOMEM (full).
 */
static __always_inline int entry_put(void *map, const void *key,
				     const void *val, __u32 uid, int kind,
				     int fd)
{
	int err;

	if (bpf_map_lookup_elem(map, key) &&
	    !bpf_map_update_elem(map, key, val, BPF_EXIST))
		return 0;
	err = quota_charge(uid, kind, fd);
	if (err)
		return err;
	if (!bpf_map_update_elem(map, key, val, BPF_NOEXIST))
		return 0;
	quota_uncharge(uid, kind);
	/* Another thread made it meanwhile (charged), or the map is full. */
	return bpf_map_update_elem(map, key, val, BPF_EXIST) ? -ENOMEM : 0;
}

/* Deletes an element of the tables; whoever deleted it uncharges it. */
static __always_inline void entry_del(void *map, const void *key, __u32 uid,
				      int kind)
{
	if (!bpf_map_delete_elem(map, key))
		quota_uncharge(uid, kind);
}

/*
 * The file's generation, assigned on first use, its record charged to uid
 * (the table's). 0 if it cannot be, *err then -ENOMEM (full) or -EDQUOT.
 */
static __always_inline __u64 file_gen_assign(struct file *file, __u32 uid,
					     int *err)
{
	__u64 key = (__u64)file;
	struct capsicum_file *old = bpf_map_lookup_elem(&cap_files, &key);
	struct capsicum_file f = { .low = { CAP_ALL0, CAP_ALL1 }, .uid = uid };

	if (old)
		return old->gen;
	*err = quota_charge(uid, QUOTA_ENTRIES, -1);
	if (*err)
		return 0;
	f.gen = __sync_fetch_and_add(&next_gen, 1) + 1;
	if (bpf_map_update_elem(&cap_files, &key, &f, BPF_NOEXIST)) {
		/* Made meanwhile by another (charged to it), or full. */
		quota_uncharge(uid, QUOTA_ENTRIES);
		f.gen = file_gen(file);
		*err = f.gen ? 0 : -ENOMEM;
		return f.gen;
	}
	__sync_fetch_and_add(&tracked_files, 1);
	return f.gen;
}

/*
 * Writes a floor (charged to uid, the table's) and records its table as
 * an owner of the file. A floor of an ended generation (the file was
 * freed meanwhile) is stale anyway.
 */
static __always_inline int floor_put(__u64 table_id, __u32 uid, __u64 file,
				     const struct capsicum_fd_rights *e)
{
	struct capsicum_floor_key fk = { .table_id = table_id, .file = file };
	struct capsicum_file *f = bpf_map_lookup_elem(&cap_files, &file);
	int err;

	if (f && f->gen == e->gen)
		file_low_narrow(f, e->rights);
	else
		f = NULL;
	err = entry_put(&cap_floors, &fk, e, uid, QUOTA_ENTRIES, -1);
	if (err)
		return err;
	if (!f || f->owners[0] == table_id || f->owners[1] == table_id)
		return 0;
	/* The uid goes with the slot: file_free uncharges the floor. */
	if (!__sync_val_compare_and_swap(&f->owners[0], 0, table_id))
		f->owner_uids[0] = uid;
	else if (!__sync_val_compare_and_swap(&f->owners[1], 0, table_id))
		f->owner_uids[1] = uid;
	else
		__sync_fetch_and_add(&floors_unowned, 1);
	return 0;
}

/* Table table_id (charged to uid) lets go of its floor of file (it exits). */
static __always_inline void floor_release(__u64 table_id, __u32 uid, __u64 file)
{
	struct capsicum_floor_key fk = { .table_id = table_id, .file = file };
	struct capsicum_file *f;

	if (bpf_map_delete_elem(&cap_floors, &fk))
		return;
	quota_uncharge(uid, QUOTA_ENTRIES);
	f = bpf_map_lookup_elem(&cap_files, &file);
	if (!f)
		return;
	if (f->owners[0] == table_id)
		f->owners[0] = 0;
	else if (f->owners[1] == table_id)
		f->owners[1] = 0;
}

/* The file is gone: so are the floors of its owners. */
static __always_inline void floors_drop(__u64 file, const __u64 *owners,
					const __u32 *uids)
{
	struct capsicum_floor_key fk = { .file = file };

	for (int i = 0; i < 2; i++) {
		fk.table_id = owners[i];
		if (fk.table_id)
			entry_del(&cap_floors, &fk, uids[i], QUOTA_ENTRIES);
	}
}

/*
 * Threads of one process set flags concurrently (a limit's LIMITED, a
 * cap_enter's CAPMODE): one atomic OR, on the 64-bit word that starts
 * with flags (BPF has no 32-bit atomic OR before -mcpu=v3); the high
 * half, fd_bound, is ORed with 0.
 */
static __always_inline void proc_set_flag(struct capsicum_proc *p, __u32 flag)
{
	_Static_assert(__builtin_offsetof(struct capsicum_proc, flags) % 8 == 0,
		       "flags starts an aligned 64-bit word");
	__sync_fetch_and_or((__u64 *)&p->flags, (__u64)flag);
}

/*
 * Entries of p exist only below fd_bound: task_free and close scan or
 * delete no further. Threads store entries concurrently, so the bound
 * only grows, by one atomic OR on the 64-bit word whose high half it is
 * (as proc_set_flag does for the flags): of 2^k - 1 for the smallest k
 * that covers fd + 1, at most twice the bound an exact max would keep.
 */
static __always_inline void note_fd(struct capsicum_proc *p, int fd)
{
	__u32 bound;

	_Static_assert(__builtin_offsetof(struct capsicum_proc, fd_bound) ==
			       __builtin_offsetof(struct capsicum_proc, flags) +
				       4,
		       "fd_bound is the high half of the flags word");
	if (fd < 0 || (__u32)fd < p->fd_bound)
		return;
	bound = (__u32)fd + 1;
	bound |= bound >> 1;
	bound |= bound >> 2;
	bound |= bound >> 4;
	bound |= bound >> 8;
	bound |= bound >> 16;
	__sync_fetch_and_or((__u64 *)&p->flags, (__u64)bound << 32);
}

/* The fd has no entry of its own any more (closed, replaced). */
static __always_inline void fd_forget(struct capsicum_proc *p, int fd)
{
	struct capsicum_fd_key k = { .table_id = p->table_id, .fd = fd };
	struct capsicum_fd_rights *e;

	/*
	 * No entry was ever stored this high, unless another process shares
	 * the table (CLONE_FILES) and stored it: fd_bound is per process.
	 */
	if (fd < 0 || ((__u32)fd >= p->fd_bound &&
		       !(p->flags & CAPSICUM_PROC_SHARED_FDS)))
		return;
	/*
	 * Lookup first: deleting a missing key takes the bucket lock. A
	 * list may outlive the entry that counted it (an entry copied over
	 * it), so tables that ever had one drop the fd's list regardless
	 * (a shared table's lists may come from the other process).
	 */
	if (p->flags & (CAPSICUM_PROC_IOCTLS | CAPSICUM_PROC_SHARED_FDS))
		entry_del(&cap_ioctls, &k, p->uid, QUOTA_IOCTLS);
	e = bpf_map_lookup_elem(&cap_fds, &k);
	if (e)
		entry_del(&cap_fds, &k, p->uid, QUOTA_ENTRIES);
}

/*
 * The current task's user registers. bpf_task_pt_regs returns a BTF
 * pointer: its fields are plain loads, no probe read.
 */
static __always_inline struct pt_regs *current_regs(void)
{
	return (struct pt_regs *)bpf_task_pt_regs(bpf_get_current_task_btf());
}

/* Syscall number of the current task, -1 outside a syscall. */
static __always_inline long current_syscall(void)
{
	return current_regs()->orig_ax;
}

/* call_of results that are no syscall number. */
#define NR_UNKNOWN (-3)
#define NR_KERNEL  (-4)

/*
 * The syscall a request is known to come from, as hooks compare it with
 * the x86-64 numbers: NR_UNKNOWN where the registers say nothing true
 * about it, so every hook fails closed there:
 * - io_uring: its SQPOLL thread and io-wq workers (PF_IO_WORKER, their
 *   registers a copy of whatever their creator was doing), and requests
 *   issued inline from io_uring_enter;
 * - an i386 (int $0x80, TS_COMPAT) or x32 syscall, whose numbers and
 *   argument registers are not the x86-64 ones;
 * - anything outside a syscall (orig_ax < 0): task work, which io_uring
 *   also runs requests from.
 * NR_KERNEL: the kernel's own work in the task, a core dump.
 */
static __always_inline long call_of(struct task_struct *task,
				    const struct pt_regs *regs)
{
	long nr = regs->orig_ax;

	if (task->flags & PF_DUMPCORE)
		return NR_KERNEL;
	if ((task->flags & PF_IO_WORKER) ||
	    (task->thread_info.status & TS_COMPAT) || nr < 0 ||
	    (nr & X32_SYSCALL_BIT) || nr == NR_io_uring_enter)
		return NR_UNKNOWN;
	return nr;
}

static __always_inline long current_call(void)
{
	struct task_struct *task = bpf_get_current_task_btf();

	return call_of(task, (struct pt_regs *)bpf_task_pt_regs(task));
}

/* Argument n (0-5) of a syscall, x86-64 calling convention. */
static __always_inline unsigned long regs_arg(const struct pt_regs *regs, int n)
{
	switch (n) {
	case 0:
		return regs->di;
	case 1:
		return regs->si;
	case 2:
		return regs->dx;
	case 3:
		return regs->r10;
	case 4:
		return regs->r8;
	default:
		return regs->r9;
	}
}

/* Argument n (0-5) of the current syscall. */
static __always_inline unsigned long syscall_arg(int n)
{
	return regs_arg(current_regs(), n);
}

static __always_inline void report(__u32 hook, __u32 error, int fd, __u64 need0,
				   __u64 need1, const struct held *h)
{
	struct capsicum_denial *d;
	__u64 pid_tgid = bpf_get_current_pid_tgid();

	__sync_fetch_and_add(&denial_count, 1);
	d = bpf_ringbuf_reserve(&denials, sizeof(*d), 0);
	if (!d) {
		__sync_fetch_and_add(&denials_dropped, 1);
		return;
	}
	d->time_ns = bpf_ktime_get_ns();
	d->pid = pid_tgid >> 32;
	d->tid = (__u32)pid_tgid;
	d->fd = fd;
	d->syscall_nr = (__s32)current_syscall();
	d->hook = hook;
	d->error = error;
	d->needed[0] = need0;
	d->needed[1] = need1;
	d->held[0] = h ? h->rights[0] : 0;
	d->held[1] = h ? h->rights[1] : 0;
	bpf_get_current_comm(d->comm, sizeof(d->comm));
	d->uid = (__u32)bpf_get_current_uid_gid();
	d->reserved = 0;
	bpf_ringbuf_submit(d, 0);
}

static __always_inline bool in_capmode(const struct capsicum_proc *p)
{
	return p->flags & CAPSICUM_PROC_CAPMODE;
}

/* A global namespace used in capability mode. */
static __always_inline int capmode_refuse(__u32 hook, int fd)
{
	report(hook, ECAPMODE, fd, 0, 0, NULL);
	return -ECAPMODE;
}

/*
 * A hook that cannot tell which request it serves (call_of: NR_UNKNOWN),
 * or which descriptor or lookup, refuses for a process whose table could
 * restrict it: in capability mode ECAPMODE, with limits ENOTCAPABLE.
 */
static __always_inline int unknown_refuse(const struct capsicum_proc *p,
					  __u32 hook)
{
	if (in_capmode(p))
		return capmode_refuse(hook, -1);
	if (!table_limited(p))
		return 0;
	report(hook, ENOTCAPABLE, -1, 0, 0, NULL);
	return -ENOTCAPABLE;
}

/*
 * The exact half of require(), for hooks that already found that the
 * file's low does not allow it (file_allows_all before the table lookup).
 */
static __always_inline int require_exact(struct capsicum_proc *p,
					 struct file *file, int fd, __u64 need0,
					 __u64 need1, __u32 hook)
{
	struct held h;

	held_rights(p, file, fd, &h);
	if (!h.limited || rights_contain(h.rights, need0, need1))
		return 0;
	report(hook, ENOTCAPABLE, h.fd >= 0 ? h.fd : fd, need0, need1, &h);
	return -ENOTCAPABLE;
}

/*
 * The check every enforcing hook ends in: the descriptor's rights must
 * contain need0/need1 (CAP_* values of index 0 and 1; 0 for none).
 */
static __always_inline int require(struct capsicum_proc *p, struct file *file,
				   int fd, __u64 need0, __u64 need1, __u32 hook)
{
	if (file_allows_all(file, need0, need1))
		return 0;
	return require_exact(p, file, fd, need0, need1, hook);
}

#endif
