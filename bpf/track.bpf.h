/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Bookkeeping that keeps the tables exact: dup and friends copy rights,
 * accept and openat give the new file a floor, close ends an entry, fork
 * copies the table, exec keeps it (also from a non-leader thread), exit
 * and file free drop what can no longer be reached. Until a syscall's
 * fexit has run, its new descriptor has no entry and gets the file's
 * floor, which fails closed.
 */
#ifndef CAPSICUM_TRACK_BPF_H
#define CAPSICUM_TRACK_BPF_H

#include "table.bpf.h"
#include "hooks_at.bpf.h"
#include "hooks_sock.bpf.h"
#include "syscalls.bpf.h"

#define CLONE_FILES  0x00000400
#define CLONE_THREAD 0x00010000
#define PF_EXITING   0x00000004

/* e, an entry of this table, holds exactly its file's floor. */
static __always_inline bool is_floor(struct capsicum_proc *p,
				     const struct capsicum_fd_rights *e)
{
	struct capsicum_floor_key fk = { .table_id = p->table_id,
					 .file = e->file };
	struct capsicum_fd_rights *f = bpf_map_lookup_elem(&cap_floors, &fk);

	return f && f->gen == e->gen && rights_same(f, e);
}

/* newfd now holds what oldfd holds (dup, dup2, dup3, F_DUPFD). */
static __always_inline void fd_copy(struct capsicum_proc *p, int oldfd,
				    int newfd)
{
	struct capsicum_fd_key ko = { .table_id = p->table_id, .fd = oldfd };
	struct capsicum_fd_key kn = { .table_id = p->table_id, .fd = newfd };
	struct capsicum_fd_rights *e;
	struct capsicum_ioctls *l;
	struct file *file;

	if (oldfd == newfd || !table_limited(p))
		return;
	/*
	 * No entry of its own, one the floor equals, or a stale one: newfd
	 * gets its file's floor (a later narrowing of the floor gives it an
	 * entry first: protect_siblings). The floor test comes first: an
	 * entry equal to its file's floor needs no validation, since either
	 * way newfd ends on the floor of the file it holds.
	 */
	e = bpf_map_lookup_elem(&cap_fds, &ko);
	if (!e || (e->nioctls <= 0 && is_floor(p, e))) {
		fd_forget(p, newfd);
		return;
	}
	file = fd_file(newfd);
	if (!file || e->file != (__u64)file || e->gen != file_gen(file)) {
		fd_forget(p, newfd);
		return;
	}
	if (e->nioctls > 0) {
		l = bpf_map_lookup_elem(&cap_ioctls, &ko);
		if (!l || entry_put(&cap_ioctls, &kn, l, p->uid, QUOTA_IOCTLS,
				    newfd)) {
			fd_forget(p, newfd);
			return;
		}
	}
	/* Full table or quota: the floor applies. */
	if (entry_put(&cap_fds, &kn, e, p->uid, QUOTA_ENTRIES, newfd))
		fd_forget(p, newfd);
	else
		note_fd(p, newfd);
}

/*
 * A syscall already gave out a descriptor whose rights cannot be written
 * anywhere (every table full): rather than let it be used unrestricted,
 * the process dies, and the denial log says why.
 */
static __always_inline void fail_closed(void)
{
	report(CAPSICUM_HOOK_FILE_OPEN, ENOMEM, -1, 0, 0, NULL);
	bpf_send_signal(SIGKILL);
}

/* newfd is a new file derived from a source that held `h` (accept, openat). */
static __always_inline void fd_derive(struct capsicum_proc *p,
				      const struct held *hp, int newfd)
{
	struct file *file = fd_file(newfd);
	struct capsicum_fd_rights e;
	struct held h = *hp;
	int err;

	if (!file || !h.limited)
		return;
	e.file = (__u64)file;
	e.gen = file_gen_assign(file, p->uid, &err);
	e.rights[0] = h.rights[0];
	e.rights[1] = h.rights[1];
	e.fcntls = h.fcntls;
	/* Lists stay with their descriptor; an inherited list is empty. */
	e.nioctls = h.nioctls < 0 ? -1 : 0;
	/*
	 * The file is new, so its floor is exactly e and the descriptor
	 * needs no entry. If the floor cannot be narrowed (no room for a
	 * sibling's entry), it is written anyway: never more than e.
	 */
	if (!e.gen || floor_narrow(p, file, newfd, &e)) {
		proc_set_flag(p, CAPSICUM_PROC_LIMITED);
		if (!e.gen || floor_put(p->table_id, p->uid, (__u64)file, &e))
			fail_closed();
	}
}

/* The dup family: the source fd is the first argument, the result new. */
static __noinline int dup_exit_body(int oldfd, long ret)
{
	struct capsicum_proc *p = current_proc();

	if (p && ret >= 0)
		fd_copy(p, oldfd, (int)ret);
	return 0;
}

/*
 * A syscall's exit programs, from one body for both ABIs: NAME's program
 * on fexit/TARGET runs BODY(ARG, regs, ret), where ARG(regs, n) reads
 * argument n (from 1) the way that ABI passes it. The i386 ones (int
 * $0x80) are optional, loaded where the kernel has them: without them,
 * an i386 dup, close or O_PATH open would leave entries behind that a
 * later dup of the same file to the same number revives.
 */
#define X64_ARG(regs, n)  SYS_ARG##n(regs)
#define IA32_ARG(regs, n) IA32_ARG##n(regs)

#define SYSCALL_EXIT(prog, sec, abi_arg, body)                                 \
	SEC(sec)                                                               \
	int BPF_PROG(prog, const struct pt_regs *regs, long ret)               \
	{                                                                      \
		return body(abi_arg, regs, ret);                               \
	}
#define SYSCALL_EXIT_X64(name, target, body)                                   \
	SYSCALL_EXIT(capsicum_##name##_exit, "fexit/" target, X64_ARG, body)
#define SYSCALL_EXIT_IA32(name, target, body)                                  \
	SYSCALL_EXIT(capsicum_##name##_exit_ia32, "?fexit/" target, IA32_ARG,  \
		     body)
#define SYSCALL_EXIT_TWINS(name, x64_target, ia32_target, body)                \
	SYSCALL_EXIT_X64(name, x64_target, body)                               \
	SYSCALL_EXIT_IA32(name, ia32_target, body)

#define dup_exit(ARG, regs, ret) GATED(dup_exit_body, (int)ARG(regs, 1), ret)
/* fcntl's cmd is an unsigned int: the kernel drops the upper half. */
static __always_inline bool fcntl_dups(unsigned int cmd)
{
	return cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC;
}
#define fcntl_exit(ARG, regs, ret)                                             \
	((ret) < 0 || !fcntl_dups(ARG(regs, 2)) ? 0 : dup_exit(ARG, regs, ret))

/* (const struct pt_regs *regs) -> long ret, read past the gate. */
SEC("fexit/__x64_sys_dup")
int capsicum_dup_exit(unsigned long long *ctx)
{
	if (no_capsicum_state())
		return 0;
	return dup_exit_body(
		(int)X64_ARG(CTX_ARG(const struct pt_regs *, 0), 1),
		CTX_ARG(long, 1));
}
SYSCALL_EXIT_IA32(dup, "__ia32_sys_dup", dup_exit)
SYSCALL_EXIT_TWINS(dup2, "__x64_sys_dup2", "__ia32_sys_dup2", dup_exit)
SYSCALL_EXIT_TWINS(dup3, "__x64_sys_dup3", "__ia32_sys_dup3", dup_exit)
SYSCALL_EXIT_TWINS(fcntl, "__x64_sys_fcntl", "__ia32_compat_sys_fcntl",
		   fcntl_exit)
SYSCALL_EXIT_IA32(fcntl64, "__ia32_compat_sys_fcntl64", fcntl_exit)

/*
 * accept and accept4: the new socket inherits the rights the listener had
 * when socket_accept checked it (hooks_sock.bpf.h records them by
 * thread), not whatever the fd number names by the time accept returns.
 */
static __noinline int accept_exit_body(const struct pt_regs *regs, long ret)
{
	struct capsicum_proc *p = current_proc();
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct accepting *a;
	struct file *file;

	if (!p || !table_limited(p))
		return 0;
	a = bpf_map_lookup_elem(&accepting, &tid);
	if (!a)
		return 0;
	file = ret >= 0 ? fd_file((int)ret) : NULL;
	/* Only onto the socket accept made, not what another thread put there.
	 */
	if (file && (__u64)BPF_CORE_READ(file, private_data) == a->newsock)
		fd_derive(p, &a->held, (int)ret);
	bpf_map_delete_elem(&accepting, &tid);
	return 0;
}

#define accept_exit(ARG, regs, ret) GATED(accept_exit_body, regs, ret)
SYSCALL_EXIT_X64(accept, "__x64_sys_accept", accept_exit)
SYSCALL_EXIT_X64(accept4, "__x64_sys_accept4", accept_exit)

/* newfd keeps its number and loses every right. */
static __always_inline void fd_no_rights(struct capsicum_proc *p, int newfd)
{
	struct file *file = fd_file(newfd);
	struct capsicum_fd_rights e = {
		.file = (__u64)file,
		.rights = { CAPRIGHT(0, 0), CAPRIGHT(1, 0) },
	};
	int err;

	if (!file)
		return;
	e.gen = file_gen_assign(file, p->uid, &err);
	/* A new file: its floor alone says "nothing" (as in fd_derive). */
	if (!e.gen || floor_narrow(p, file, newfd, &e)) {
		proc_set_flag(p, CAPSICUM_PROC_LIMITED);
		if (!e.gen || floor_put(p->table_id, p->uid, (__u64)file, &e))
			fail_closed();
	}
}

/*
 * An O_PATH open runs no file_open hook, so its checks are made here,
 * after the fact, against the dirfd as it is now: a descriptor that
 * resolved outside a restricted dirfd (or any dirfd in capability mode)
 * is left with no rights at all, one beneath it gets the dirfd's rights.
 * Capability mode refuses O_PATH in its seccomp filter, so no other
 * thread there can use the descriptor before this runs.
 */
static __always_inline void o_path_exit(struct capsicum_proc *p, int dirfd,
					struct file *file, int newfd)
{
	struct file *dir = fd_file(dirfd);
	struct held h;

	if (!dir)
		return;
	held_rights(p, dir, dirfd, &h);
	if ((h.limited || in_capmode(p)) &&
	    !beneath_probed(BPF_CORE_READ(file, f_path.dentry),
			    BPF_CORE_READ(file, f_path.mnt), dir))
		fd_no_rights(p, newfd);
	else
		fd_derive(p, &h, newfd);
}

/*
 * newfd, just opened through dirfd, gets the ioctl list file_open found on
 * dirfd (hooks_at.bpf.h: ioctls_pend), as on FreeBSD: an entry with the
 * floor's rights and a copy of the list. If dirfd no longer holds that
 * directory, or there is no room for the copy (a full table or a used-up
 * quota), newfd stays on the floor, which allows no ioctl: narrower,
 * never wider, than the directory's list.
 */
static __always_inline void ioctls_inherit(struct capsicum_proc *p, int newfd)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct capsicum_fd_key kd = { .table_id = p->table_id };
	struct capsicum_fd_key kn = { .table_id = p->table_id, .fd = newfd };
	struct capsicum_floor_key fk = { .table_id = p->table_id };
	struct capsicum_fd_rights *floor, e;
	struct capsicum_ioctls *l;
	struct ioctls_pending *x;
	struct file *file, *dir;
	struct held h;
	int err;

	if (!task->bpf_storage)
		return;
	x = bpf_task_storage_get(&ioctls_pending, task, 0, 0);
	if (!x || !x->file)
		return;
	file = fd_file(newfd);
	dir = fd_file(x->dirfd);
	kd.fd = x->dirfd;
	fk.file = x->file;
	if ((__u64)file != x->file || (__u64)dir != x->dir || !dir) {
		x->file = 0;
		return;
	}
	x->file = 0;
	held_rights(p, dir, kd.fd, &h);
	floor = bpf_map_lookup_elem(&cap_floors, &fk);
	l = bpf_map_lookup_elem(&cap_ioctls, &kd);
	if (h.fd < 0 || h.nioctls <= 0 || !floor || !l)
		return;
	e = *floor;
	e.nioctls = h.nioctls;
	err = entry_put(&cap_ioctls, &kn, l, p->uid, QUOTA_IOCTLS, newfd);
	if (!err) {
		proc_set_flag(p, CAPSICUM_PROC_IOCTLS);
		err = entry_put(&cap_fds, &kn, &e, p->uid, QUOTA_ENTRIES,
				newfd);
		if (err)
			entry_del(&cap_ioctls, &kn, p->uid, QUOTA_IOCTLS);
	}
	if (err)
		report(CAPSICUM_HOOK_FILE_OPEN, -err, newfd, 0, 0, NULL);
	else
		note_fd(p, newfd);
}

/*
 * openat2: how is in user memory, so its flags are not known here
 * (flags_known false).
 */
static __noinline int openat_exit_body(int dirfd, unsigned long flags,
				       bool flags_known, long ret)
{
	struct capsicum_proc *p = current_proc();
	struct file *file;

	if (!p || ret < 0)
		return 0;
	/* A reused fd number must not keep a closed descriptor's entry. */
	fd_forget(p, (int)ret);
	ioctls_inherit(p, (int)ret);
	/* openat's flags, as the kernel used them: not O_PATH, no more work. */
	if (flags_known && !(flags & O_PATH))
		return 0;
	file = fd_file((int)ret);
	if (dirfd == AT_FDCWD || !file)
		return 0;
	/*
	 * Otherwise the new descriptor holds the floor file_open gave its
	 * file from the dirfd the lookup used, and needs no entry.
	 */
	if (BPF_CORE_READ(file, f_mode) & FMODE_PATH)
		o_path_exit(p, dirfd, file, (int)ret);
	return 0;
}

/* i386 too (file_open refuses all but O_PATH opens there). */
#define openat_exit(ARG, regs, ret)                                            \
	GATED(openat_exit_body, (int)ARG(regs, 1), ARG(regs, 3), true, ret)
#define openat2_exit(ARG, regs, ret)                                           \
	GATED(openat_exit_body, (int)ARG(regs, 1), 0, false, ret)
SYSCALL_EXIT_TWINS(openat, "__x64_sys_openat", "__ia32_compat_sys_openat",
		   openat_exit)
SYSCALL_EXIT_TWINS(openat2, "__x64_sys_openat2", "__ia32_sys_openat2",
		   openat2_exit)

static __noinline int close_exit_body(int fd)
{
	struct capsicum_proc *p = current_proc();

	if (p)
		fd_forget(p, fd);
	return 0;
}

/* (const struct pt_regs *regs) -> long ret, read past the gate. */
SEC("fexit/__x64_sys_close")
int capsicum_close_exit(unsigned long long *ctx)
{
	if (CTX_ARG(long, 1) != 0 || no_capsicum_state())
		return 0;
	return close_exit_body(
		(int)X64_ARG(CTX_ARG(const struct pt_regs *, 0), 1));
}

#define close_exit(ARG, regs, ret)                                             \
	((ret) != 0 ? 0 : GATED(close_exit_body, (int)ARG(regs, 1)))
SYSCALL_EXIT_IA32(close, "__ia32_sys_close", close_exit)

struct range_forget {
	struct capsicum_proc *p;
	__u32 first;
};

static long range_forget_cb(__u64 i, struct range_forget *r)
{
	fd_forget(r->p, (int)(r->first + i));
	return 0;
}

static __always_inline int close_range_exit(__u32 first, __u32 last,
					    __u32 flags, long ret)
{
	struct capsicum_proc *p = current_proc();
	struct task_struct *task = bpf_get_current_task_btf();
	struct range_forget r;
	__u32 max;

	if (!p || ret != 0 || (flags & CLOSE_RANGE_CLOEXEC))
		return 0;
	/* Entries past the table's size cannot exist for an open fd. */
	max = BPF_CORE_READ(task, files, fdt, max_fds);
	if (last >= max)
		last = max - 1;
	if (first > last)
		return 0;
	r.p = p;
	r.first = first;
	max = last - first + 1;
	if (max > CAPSICUM_SCAN_FDS)
		max = CAPSICUM_SCAN_FDS;
	bpf_loop(max, range_forget_cb, &r, 0);
	return 0;
}

#define close_range_exit_of(ARG, regs, ret)                                    \
	close_range_exit(ARG(regs, 1), ARG(regs, 2), ARG(regs, 3), ret)
SYSCALL_EXIT_TWINS(close_range, "__x64_sys_close_range",
		   "__ia32_sys_close_range", close_range_exit_of)

/*
 * Copies the parent's table into the child's at fork, descriptor by
 * descriptor: the child's fd table is a copy of this one, so its entries
 * and the floors of its files are all that can matter to it. (A floor of
 * a file the parent no longer has a descriptor for stays behind: only
 * mprotect of an old mapping of it would have used it.)
 */
struct table_copy {
	__u64 from;
	__u64 to;
	__u32 uid;	   /* what `to` is charged to (`from` when dropping) */
	struct file **fds; /* the parent's fd array */
	__s64 error;
	__u32 at; /* the fd whose copy failed */
};

static long copy_fd_cb(__u64 i, struct table_copy *c)
{
	struct capsicum_fd_key k = { .table_id = c->from, .fd = (__s32)i };
	struct capsicum_fd_key nk = { .table_id = c->to, .fd = (__s32)i };
	struct capsicum_floor_key fk = { .table_id = c->from };
	struct capsicum_fd_rights *e;
	struct capsicum_ioctls *l;
	struct file *file = NULL;

	bpf_probe_read_kernel(&file, sizeof(file), &c->fds[i]);
	if (!file)
		return 0;
	fk.file = (__u64)file;
	e = bpf_map_lookup_elem(&cap_floors, &fk);
	c->at = (__u32)i;
	if (e && (c->error = floor_put(c->to, c->uid, fk.file, e)))
		return 1;
	e = bpf_map_lookup_elem(&cap_fds, &k);
	if (!e)
		return 0;
	if (e->nioctls > 0) {
		l = bpf_map_lookup_elem(&cap_ioctls, &k);
		c->error = l ? entry_put(&cap_ioctls, &nk, l, c->uid,
					 QUOTA_IOCTLS, (int)i)
			     : -ENOMEM;
		if (c->error)
			return 1;
	}
	c->error = entry_put(&cap_fds, &nk, e, c->uid, QUOTA_ENTRIES, (int)i);
	return c->error ? 1 : 0;
}

/*
 * bpf_loop body: a copy that failed at fd c->at is undone, fd i's entry
 * and floor, so a refused fork leaves nothing charged behind.
 */
static long uncopy_fd_cb(__u64 i, struct table_copy *c)
{
	struct capsicum_fd_key k = { .table_id = c->to, .fd = (__s32)i };
	struct file *file = NULL;

	if (i > c->at)
		return 1;
	entry_del(&cap_ioctls, &k, c->uid, QUOTA_IOCTLS);
	entry_del(&cap_fds, &k, c->uid, QUOTA_ENTRIES);
	bpf_probe_read_kernel(&file, sizeof(file), &c->fds[i]);
	if (file)
		floor_release(c->to, c->uid, (__u64)file);
	return 0;
}

SEC("lsm/task_alloc")
int BPF_PROG(capsicum_task_alloc, struct task_struct *task,
	     unsigned long clone_flags)
{
	struct capsicum_proc *p, *child;
	struct table_copy c = {};
	struct fdtable *fdt;
	__u32 max;

	/* Threads share the leader's table. */
	if (clone_flags & CLONE_THREAD)
		return 0;
	p = current_proc();
	if (!p)
		return 0;
	child = bpf_task_storage_get(&cap_procs, task, 0,
				     BPF_LOCAL_STORAGE_GET_F_CREATE);
	/* A child that cannot carry the restrictions must not exist. */
	if (!child)
		return -ENOMEM;
	child->flags =
		p->flags & ~(CAPSICUM_PROC_SHARE_REF | CAPSICUM_PROC_DROPPED);
	child->learn_id = p->learn_id;
	__sync_fetch_and_add(&live_tables, 1);
	if (clone_flags & CLONE_FILES) {
		/*
		 * One fd table, one rights table, dropped by the last of its
		 * sharers to exit (table_leave). The parent is counted once,
		 * when the table is first shared; the child once its fork has
		 * succeeded (sched_process_fork), as a fork failing after this
		 * hook frees a child that may not look like a leader.
		 */
		if (!(p->flags & CAPSICUM_PROC_SHARE_REF)) {
			struct capsicum_share one = { .users = 1 };

			if (bpf_map_update_elem(&cap_shares, &p->table_id, &one,
						BPF_NOEXIST) &&
			    !bpf_map_lookup_elem(&cap_shares, &p->table_id))
				return -ENOMEM;
			proc_set_flag(p, CAPSICUM_PROC_SHARE_REF);
		}
		child->table_id = p->table_id;
		child->uid = p->uid;
		child->flags |= CAPSICUM_PROC_SHARED_FDS;
		proc_set_flag(p, CAPSICUM_PROC_SHARED_FDS);
		return 0;
	}
	/*
	 * A table of its own: not shared, and limited if the copy may hold
	 * limits (a shared parent's table may hold its sharer's).
	 */
	child->flags = (child->flags & ~CAPSICUM_PROC_SHARED_FDS) |
		       (table_limited(p) ? CAPSICUM_PROC_LIMITED : 0);
	child->table_id = __sync_fetch_and_add(&next_table_id, 1) + 1;
	child->uid = charge_uid();
	child->fd_bound = p->fd_bound;
	c.from = p->table_id;
	c.to = child->table_id;
	c.uid = child->uid;
	fdt = BPF_CORE_READ(bpf_get_current_task_btf(), files, fdt);
	max = BPF_CORE_READ(fdt, max_fds);
	c.fds = BPF_CORE_READ(fdt, fd);
	/* Descriptors past the scan could not carry their rights over. */
	if (max > CAPSICUM_SCAN_FDS)
		return table_limited(p) ? -ENOMEM : 0;
	bpf_loop(max, copy_fd_cb, &c, 0);
	if (c.error)
		bpf_loop(max, uncopy_fd_cb, &c, 0);
	return lsm_status(c.error);
}

/*
 * task_alloc copies before the child's fd table exists: a descriptor the
 * parent gained meanwhile (an SCM_RIGHTS receive in another thread, a
 * dup) reaches the child's fd table with no floor behind it. Now that the
 * table exists and before the child runs, every limited file in it gets
 * the parent's floor; where there is no room, the child's table is marked
 * so that such a file holds its low (held_rights).
 */
struct late_copy {
	__u64 from;
	__u64 to;
	__u32 uid;	   /* the child's table is charged to */
	struct file **fds; /* the child's fd array */
	bool full;
};

static long late_floor_cb(__u64 i, struct late_copy *c)
{
	struct capsicum_floor_key fk = { .table_id = c->to };
	struct capsicum_fd_rights *e;
	struct file *file = NULL;

	bpf_probe_read_kernel(&file, sizeof(file), &c->fds[i]);
	if (!file || !file_gen(file))
		return 0;
	fk.file = (__u64)file;
	if (bpf_map_lookup_elem(&cap_floors, &fk))
		return 0;
	fk.table_id = c->from;
	e = bpf_map_lookup_elem(&cap_floors, &fk);
	if (e && floor_put(c->to, c->uid, fk.file, e)) {
		c->full = true;
		return 1;
	}
	return 0;
}

SEC("tp_btf/task_newtask")
int BPF_PROG(capsicum_task_newtask, struct task_struct *task,
	     unsigned long clone_flags)
{
	struct capsicum_proc *p, *child;
	struct late_copy c = {};
	struct fdtable *fdt;
	__u32 max;

	if (clone_flags & (CLONE_THREAD | CLONE_FILES) || !live_tables)
		return 0;
	p = current_proc();
	if (!p || !table_limited(p) || !task->bpf_storage)
		return 0;
	child = bpf_task_storage_get(&cap_procs, task, 0, 0);
	if (!child || !child->table_id)
		return 0;
	c.from = p->table_id;
	c.to = child->table_id;
	c.uid = child->uid;
	fdt = BPF_CORE_READ(task, files, fdt);
	max = BPF_CORE_READ(fdt, max_fds);
	c.fds = BPF_CORE_READ(fdt, fd);
	if (max > CAPSICUM_SCAN_FDS) {
		max = CAPSICUM_SCAN_FDS;
		c.full = true;
	}
	bpf_loop(max, late_floor_cb, &c, 0);
	if (c.full)
		proc_set_flag(child, CAPSICUM_PROC_INCOMPLETE);
	return 0;
}

/* bpf_loop body: drop the entry of fd i (its floors go with the files). */
static long drop_fd_cb(__u64 i, struct table_copy *c)
{
	struct capsicum_fd_key k = { .table_id = c->from, .fd = (__s32)i };

	entry_del(&cap_ioctls, &k, c->uid, QUOTA_IOCTLS);
	entry_del(&cap_fds, &k, c->uid, QUOTA_ENTRIES);
	return 0;
}

/* bpf_loop body: the exiting table lets go of the floor of fd i's file. */
static long release_floor_cb(__u64 i, struct table_copy *c)
{
	struct file *file = NULL;

	bpf_probe_read_kernel(&file, sizeof(file), &c->fds[i]);
	if (file)
		floor_release(c->from, c->uid, (__u64)file);
	return 0;
}

/*
 * p's process is done with its table, once (DROPPED): a table of its own,
 * or a shared one whose last counted sharer it is, loses its entries
 * (below the union of the sharers' fd_bound) and, given the fd array it
 * still holds, the floors of those files (others go when their file is
 * freed). A sharer that is not the last only leaves the count.
 */
static __always_inline void table_leave(struct capsicum_proc *p,
					struct file **fds, __u32 nfds)
{
	struct table_copy c = { .from = p->table_id,
				.uid = p->uid,
				.fds = fds };
	struct capsicum_share *s;
	__u32 bound = p->fd_bound;

	if (__sync_fetch_and_or((__u64 *)&p->flags, CAPSICUM_PROC_DROPPED) &
	    CAPSICUM_PROC_DROPPED)
		return;
	if (p->flags & CAPSICUM_PROC_SHARED_FDS) {
		/* A CLONE_FILES child whose fork failed: never counted. */
		if (!(p->flags & CAPSICUM_PROC_SHARE_REF))
			return;
		s = bpf_map_lookup_elem(&cap_shares, &c.from);
		if (!s)
			return;
		/* Its bound first: the last one out scans for everyone. */
		__sync_fetch_and_or(&s->fd_bound, (__u64)bound);
		if (__sync_fetch_and_add(&s->users, -1) != 1)
			return;
		bound = (__u32)s->fd_bound;
		bpf_map_delete_elem(&cap_shares, &c.from);
	}
	if (fds)
		bpf_loop(nfds < CAPSICUM_SCAN_FDS ? nfds : CAPSICUM_SCAN_FDS,
			 release_floor_cb, &c, 0);
	bpf_loop(bound < CAPSICUM_SCAN_FDS ? bound : CAPSICUM_SCAN_FDS,
		 drop_fd_cb, &c, 0);
}

/* live_tables stops counting p's table, once. */
static __always_inline void uncount(struct capsicum_proc *p)
{
	if (!(__sync_fetch_and_or((__u64 *)&p->flags, CAPSICUM_PROC_UNCOUNTED) &
	      CAPSICUM_PROC_UNCOUNTED))
		__sync_fetch_and_add(&live_tables, -1);
}

/*
 * The last thread of a process exits, its fd table still open (the
 * tracepoint runs before exit_files): no thread can use the table any
 * more, so it is left now, not when the task is freed (a grace period
 * later), and a parent whose wait returned finds its uid's quota back.
 * The floors of the files it holds go too, as the files may live on in
 * other processes (a forked server's children hold its listener).
 */
SEC("tp_btf/sched_process_exit")
int BPF_PROG(capsicum_process_exit, struct task_struct *task)
{
	struct task_struct *leader = task->group_leader;
	struct capsicum_proc *p;
	struct fdtable *fdt;

	if (!live_tables || !leader->bpf_storage)
		return 0;
	p = bpf_task_storage_get(&cap_procs, leader, 0, 0);
	if (!p || !p->table_id ||
	    BPF_CORE_READ(task, signal, live.counter) != 0)
		return 0;
	/*
	 * The table stops counting now, in the process's own context:
	 * task_free may run in an RCU callback that interrupted a task
	 * storage helper, where 6.1 refuses the lookup (its per-CPU busy
	 * lock), and a count left behind turns the fast path off for good
	 * (soak_sandboxes_keep_their_invariants).
	 */
	uncount(p);
	/* A table for capability mode only holds nothing: task_free. */
	if (!table_limited(p))
		return 0;
	fdt = BPF_CORE_READ(task, files, fdt);
	table_leave(p, BPF_CORE_READ(fdt, fd), BPF_CORE_READ(fdt, max_fds));
	return 0;
}

SEC("lsm/task_free")
int BPF_PROG(capsicum_task_free, struct task_struct *task)
{
	struct file **fds = NULL;
	struct capsicum_proc *p;
	struct fdtable *fdt;
	__u32 tid, nfds = 0;

	if (answers_used) {
		tid = task->pid;
		bpf_map_delete_elem(&answers, &tid);
	}
	if (pd_used && task->group_leader == task) {
		struct pd_proc *pd;

		tid = task->tgid;
		pd = bpf_map_lookup_elem(&pd_procs, &tid);
		/* Not a newer process's entry under a reused number. */
		if (pd && pd->task == (__u64)task) {
			if (pd->state == PD_DOOMED)
				__sync_fetch_and_add(&pd_doomed, -1);
			bpf_map_delete_elem(&pd_procs, &tid);
		}
	}
	if (!live_tables || !task->bpf_storage)
		return 0;
	/*
	 * Only a process's last leader owns its table: after a non-leader
	 * execve, the old leader no longer leads and must not drop it. A
	 * child whose fork failed after task_alloc never ran (it did not
	 * exit) and may still name its parent's leader: it leaves the table
	 * task_alloc gave it (a shared one it was never counted in).
	 */
	if (task->group_leader != task && (task->flags & PF_EXITING))
		return 0;
	p = bpf_task_storage_get(&cap_procs, task, 0, 0);
	if (!p || !p->table_id)
		return 0;
	uncount(p); /* a child whose fork failed never exited */
	/*
	 * That child is freed by its parent's failing fork: the parent's fd
	 * table is what task_alloc copied the floors for.
	 */
	if (!(task->flags & PF_EXITING)) {
		fdt = BPF_CORE_READ(bpf_get_current_task_btf(), files, fdt);
		fds = BPF_CORE_READ(fdt, fd);
		nfds = BPF_CORE_READ(fdt, max_fds);
	}
	/* Left at exit already, unless it never had limits there. */
	table_leave(p, fds, nfds);
	return 0;
}

/*
 * A fork succeeded (the child has not run yet): a CLONE_FILES child is
 * counted among its table's sharers now, while its parent, counted
 * already, keeps the count above zero.
 */
SEC("tp_btf/sched_process_fork")
int BPF_PROG(capsicum_process_fork, struct task_struct *parent,
	     struct task_struct *child)
{
	struct capsicum_share *s;
	struct capsicum_proc *c;

	if (!live_tables || !child->bpf_storage || child->group_leader != child)
		return 0;
	c = bpf_task_storage_get(&cap_procs, child, 0, 0);
	if (!c ||
	    (c->flags & (CAPSICUM_PROC_SHARED_FDS | CAPSICUM_PROC_SHARE_REF)) !=
		    CAPSICUM_PROC_SHARED_FDS)
		return 0;
	s = bpf_map_lookup_elem(&cap_shares, &c->table_id);
	if (!s)
		return 0;
	__sync_fetch_and_add(&s->users, 1);
	proc_set_flag(c, CAPSICUM_PROC_SHARE_REF);
	return 0;
}

SEC("lsm/file_free_security")
int BPF_PROG(capsicum_file_free, struct file *file)
{
	__u64 key = (__u64)file, owners[2];
	struct capsicum_file *f;
	__u32 uids[2], uid;

	pd_file_freed(file);
	/*
	 * Entries naming this address become stale: its generation ends.
	 * Lookups first: deleting a missing key takes the bucket lock. No
	 * one else holds the file now, so no floor is added meanwhile.
	 */
	if (tracked_files <= 0)
		return 0;
	f = bpf_map_lookup_elem(&cap_files, &key);
	if (!f)
		return 0;
	owners[0] = f->owners[0];
	owners[1] = f->owners[1];
	uids[0] = f->owner_uids[0];
	uids[1] = f->owner_uids[1];
	uid = f->uid;
	if (bpf_map_delete_elem(&cap_files, &key))
		return 0;
	quota_uncharge(uid, QUOTA_ENTRIES);
	__sync_fetch_and_add(&tracked_files, -1);
	if (bpf_map_lookup_elem(&inflight, &key))
		bpf_map_delete_elem(&inflight, &key);
	floors_drop(key, owners, uids);
	return 0;
}

SEC("lsm/bprm_creds_for_exec")
int BPF_PROG(capsicum_bprm_creds_for_exec, struct linux_binprm *bprm)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct task_struct *leader = task->group_leader;
	struct capsicum_proc *p = proc_of(leader), *mine;
	int err;

	if (!p)
		return 0;
	err = exec_at_check(p, current_call(), bprm->file);
	if (err)
		return err;
	/*
	 * execve from a non-leader thread makes that thread the leader and
	 * frees the old one: carry the table over before that happens.
	 */
	if (task != leader) {
		mine = bpf_task_storage_get(&cap_procs, task, 0,
					    BPF_LOCAL_STORAGE_GET_F_CREATE);
		if (!mine)
			return -ENOMEM;
		/*
		 * The count moves with the table: the old leader, freed as
		 * a non-leader, never stops counting it.
		 */
		mine->table_id = p->table_id;
		mine->uid = p->uid;
		mine->flags = p->flags;
		mine->learn_id = p->learn_id;
		mine->fd_bound = p->fd_bound;
		pd_exec_carry(task);
	}
	return 0;
}

#endif
