/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How a hook finds the rights of the descriptor it acts on, and refuses:
 * the gate, the current table, held rights, lows and floors as read, the
 * denial report. Changing the tables is table.bpf.h's; the maps are in
 * maps.bpf.h. Layout in include/capsicum/abi.h; the scheme is described
 * in doc/design.md ("Where rights live").
 */
#ifndef CAPSICUM_STATE_BPF_H
#define CAPSICUM_STATE_BPF_H

#include "maps.bpf.h"
#include "procdesc.bpf.h"
#include "regs.bpf.h"
#include "uapi.bpf.h"
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <capsicum/abi.h>

/*
 * What an LSM program may return: 0 or a negative errno. Newer verifiers
 * check the range, and a status that went through a 32-bit variable has
 * lost its sign as far as they can tell.
 */
static __always_inline int lsm_status(long status)
{
	return status > 0 || status < -4095 ? -EINVAL : (int)status;
}

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
 *
 * fd_maps_file: the caller knows that the table maps fd to file (the
 * kernel found it there), so it need not be the current task's table.
 */
static __always_inline void held_rights_in(struct capsicum_proc *p,
					   struct file *file, int fd,
					   bool fd_maps_file, struct held *h)
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
	by_fd = fd >= 0 && (fd_maps_file || fd_file(fd) == file);
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

/* The same for a descriptor of the current task's table. */
static __always_inline void
held_rights(struct capsicum_proc *p, struct file *file, int fd, struct held *h)
{
	held_rights_in(p, file, fd, false, h);
}

/* Same rights, fcntls and ioctl rule: one can stand for the other. */
static __always_inline bool rights_same(const struct capsicum_fd_rights *a,
					const struct capsicum_fd_rights *b)
{
	return a->rights[0] == b->rights[0] && a->rights[1] == b->rights[1] &&
	       a->fcntls == b->fcntls && a->nioctls == b->nioctls;
}

/* One record to the denials ring; learn_id 0 for a refusal. */
static __always_inline void record(__u32 hook, __u32 error, int fd, __u64 need0,
				   __u64 need1, const struct held *h,
				   __u32 learn_id)
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
	d->learn_id = learn_id;
	bpf_ringbuf_submit(d, 0);
}

/* A failure that is no refusal of a right (a quota, a full map). */
static __always_inline void report(__u32 hook, __u32 error, int fd, __u64 need0,
				   __u64 need1, const struct held *h)
{
	record(hook, error, fd, need0, need1, h, 0);
}

/*
 * The learn id of the current process, 0 unless it learns
 * (CAPSICUM_OP_LEARN). Asked only on the way to a refusal.
 */
static __always_inline __u32 current_learn_id(void)
{
	struct capsicum_proc *p = proc_of(current_leader());

	return p && (p->flags & CAPSICUM_PROC_LEARNING) ? p->learn_id : 0;
}

/*
 * Every refusal of a right or of capability mode ends here: reported,
 * and the hook's -error; for a learning process (doc/learn.md) the
 * record carries its learn id and the operation goes on (0).
 */
static __always_inline int refuse(__u32 hook, __u32 error, int fd, __u64 need0,
				  __u64 need1, const struct held *h)
{
	__u32 learn_id = current_learn_id();

	record(hook, error, fd, need0, need1, h, learn_id);
	return learn_id ? 0 : -(int)error;
}

static __always_inline bool in_capmode(const struct capsicum_proc *p)
{
	return p->flags & CAPSICUM_PROC_CAPMODE;
}

/* A global namespace used in capability mode. */
static __always_inline int capmode_refuse(__u32 hook, int fd)
{
	return refuse(hook, ECAPMODE, fd, 0, 0, NULL);
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
	return refuse(hook, ENOTCAPABLE, -1, 0, 0, NULL);
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
	return refuse(hook, ENOTCAPABLE, h.fd >= 0 ? h.fd : fd, need0, need1,
		      &h);
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
