/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Changing the rights tables: entries and the per-uid quota they are
 * charged to, file generations and lows, floors, the fd bound, and a
 * process's table itself. state.bpf.h reads them; the control plane
 * (control.bpf.h), the hooks that derive rights (an open through a
 * dirfd, a received or accepted descriptor) and the bookkeeping of dup,
 * close, fork and exit (track.bpf.h) change them through these only.
 */
#ifndef CAPSICUM_TABLE_BPF_H
#define CAPSICUM_TABLE_BPF_H

#include "state.bpf.h"

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

/* The process's table, created on first use. */
static __always_inline struct capsicum_proc *proc_get_or_create(void)
{
	struct task_struct *leader = current_leader();
	struct capsicum_proc *p;

	p = bpf_task_storage_get(&cap_procs, leader, 0,
				 BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (p && !p->table_id) {
		p->uid = charge_uid();
		p->table_id = __sync_fetch_and_add(&next_table_id, 1) + 1;
		__sync_fetch_and_add(&live_tables, 1);
	}
	return p;
}

/* Rights as FreeBSD's cap_rights_is_valid would accept them. */
static __always_inline bool rights_valid(__u64 r0, __u64 r1)
{
	return (r0 & ~CAP_RIGHTS_BITS_MASK) == CAPRIGHT(0, 0) &&
	       (r1 & ~CAP_RIGHTS_BITS_MASK) == CAPRIGHT(1, 0) &&
	       (r0 & ~CAP_ALL0) == 0 && (r1 & ~CAP_ALL1) == 0;
}

struct sibling_scan {
	struct capsicum_fd_rights keep; /* what entry-less siblings hold now */
	struct file *file;
	__u64 table_id;
	__u32 uid; /* the table's */
	__s32 skip_fd;
	__u32 top;   /* 1 + the highest fd given an entry */
	__s64 error; /* 64-bit: a 32-bit load would lose the sign */
};

/*
 * bpf_loop body: another fd of the same file, with no entry of its own,
 * gets one holding what it holds now (the old floor, or everything).
 */
static long sibling_cb(__u64 i, struct sibling_scan *s)
{
	struct capsicum_fd_key k = { .table_id = s->table_id, .fd = (__s32)i };
	struct capsicum_fd_rights *e;

	if ((__s32)i == s->skip_fd || fd_file((int)i) != s->file)
		return 0;
	e = bpf_map_lookup_elem(&cap_fds, &k);
	if (e && e->file == (__u64)s->file && e->gen == s->keep.gen)
		return 0;
	s->error = entry_put(&cap_fds, &k, &s->keep, s->uid, QUOTA_ENTRIES,
			     (int)i);
	if (s->error)
		return 1;
	s->top = (__u32)i + 1;
	return 0;
}

/*
 * Before a file's floor narrows, every other descriptor of it that relies
 * on the floor (it has no entry of its own: a dup or derivation whose
 * rights equalled the floor, or any descriptor before the first limit)
 * gets an explicit entry with what it holds now (`old`, or everything
 * before the first limit). So ro = dup(fd); cap_rights_limit(ro, ...)
 * leaves fd as it was although the floor narrows. A file referenced only
 * once cannot have siblings, which spares the scan in the common case.
 */
static __always_inline int
protect_siblings(struct capsicum_proc *p, struct file *file, int fd, __u64 gen,
		 const struct capsicum_fd_rights *old)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct sibling_scan s = {
		.keep = { .file = (__u64)file,
			  .gen = gen,
			  .rights = { CAP_ALL0, CAP_ALL1 },
			  .fcntls = CAP_FCNTL_ALL,
			  .nioctls = -1 },
		.file = file,
		.table_id = p->table_id,
		.uid = p->uid,
		.skip_fd = fd,
	};
	unsigned int max;

	if (BPF_CORE_READ(file, f_count.counter) <= 1)
		return 0;
	if (old) {
		s.keep.rights[0] = old->rights[0];
		s.keep.rights[1] = old->rights[1];
		s.keep.fcntls = old->fcntls;
		s.keep.nioctls = old->nioctls;
	}
	max = BPF_CORE_READ(task, files, fdt, max_fds);
	if (max > CAPSICUM_SCAN_FDS)
		max = CAPSICUM_SCAN_FDS;
	bpf_loop(max, sibling_cb, &s, 0);
	/* Entries above fd_bound would never be forgotten on close. */
	if (s.top)
		note_fd(p, (int)s.top - 1);
	return s.error;
}

/* Narrows the file's floor to `e`; creates it (after the scan) if new. */
static __always_inline int floor_narrow(struct capsicum_proc *p,
					struct file *file, int fd,
					const struct capsicum_fd_rights *e)
{
	struct capsicum_floor_key fk = { .table_id = p->table_id,
					 .file = (__u64)file };
	struct capsicum_fd_rights *f = bpf_map_lookup_elem(&cap_floors, &fk);
	struct capsicum_fd_rights nf;
	int err;

	if (f && f->gen == e->gen) {
		nf = *f;
		nf.rights[0] &= e->rights[0];
		nf.rights[1] &= e->rights[1];
		nf.fcntls &= e->fcntls;
	} else {
		f = NULL;
		nf = *e;
	}
	/* The floor keeps no lists: any list makes it allow no ioctl. */
	nf.nioctls = nf.nioctls == -1 && e->nioctls == -1 ? -1 : 0;
	proc_set_flag(p, CAPSICUM_PROC_LIMITED);
	if (f && rights_same(f, &nf))
		return 0;
	err = protect_siblings(p, file, fd, e->gen, f);
	if (err)
		return err;
	return floor_put(p->table_id, p->uid, (__u64)file, &nf);
}

/*
 * Narrows the file's floor with the descriptor's new rights, then writes
 * its entry. Always, even when the floor now says the same: another
 * thread limiting a sibling at the same time may have read the floor
 * before this narrowing and would give an entry-less descriptor what it
 * read (protect_siblings), so an explicit limit keeps its own entry.
 */
static __always_inline int store_entry(struct capsicum_proc *p,
				       struct file *file, int fd,
				       struct capsicum_fd_rights *e)
{
	struct capsicum_fd_key k = { .table_id = p->table_id, .fd = fd };
	int err;

	/* Floor first: if the entry then fails, the fd falls to the floor. */
	err = floor_narrow(p, file, fd, e);
	if (err)
		return err;
	err = entry_put(&cap_fds, &k, e, p->uid, QUOTA_ENTRIES, fd);
	if (err)
		return err;
	note_fd(p, fd);
	return 0;
}

/*
 * Start of every limit: the process's table (created if need be) and fd's
 * current rights as an entry to edit; the file gets a generation.
 */
static __always_inline int entry_current(struct capsicum_proc **pp,
					 struct file *file, int fd,
					 struct capsicum_fd_rights *e,
					 struct held *h)
{
	struct capsicum_proc *p = proc_get_or_create();
	int err;

	if (!p)
		return -ENOMEM;
	*pp = p;
	held_rights(p, file, fd, h);
	e->file = (__u64)file;
	e->gen = file_gen_assign(file, p->uid, &err);
	if (!e->gen)
		return err;
	e->rights[0] = h->rights[0];
	e->rights[1] = h->rights[1];
	e->fcntls = h->fcntls;
	e->nioctls = h->nioctls;
	return 0;
}

#endif
