/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The control plane on stock kernels: cap_rights_limit, cap_fcntls_limit,
 * cap_ioctls_limit and the queries, carried by fcntl(fd, F_GETFD, &req)
 * and prctl(CAPSICUM_PRCTL_OPTION, &req). See include/capsicum/abi.h.
 */
#ifndef CAPSICUM_CONTROL_BPF_H
#define CAPSICUM_CONTROL_BPF_H

#include "state.bpf.h"
#include <capsicum/pins.h>

static __always_inline int status_ok(void)
{
	return -CAPSICUM_STATUS_OK;
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

static __always_inline int op_limit_rights(struct file *file, int fd,
					   const struct capsicum_req *req)
{
	struct capsicum_fd_key k = { .fd = fd };
	struct capsicum_fd_rights e;
	struct capsicum_proc *p;
	struct held h;
	int err;

	if (!rights_valid(req->rights[0], req->rights[1]))
		return -EINVAL;
	err = entry_current(&p, file, fd, &e, &h);
	if (err)
		return err;
	if (!rights_contain(h.rights, req->rights[0], req->rights[1]))
		return -ENOTCAPABLE;
	e.rights[0] = req->rights[0];
	e.rights[1] = req->rights[1];
	/* As on FreeBSD, dropping CAP_FCNTL / CAP_IOCTL drops their lists. */
	if (!rights_contain(e.rights, CAP_FCNTL, 0))
		e.fcntls = 0;
	if (!rights_contain(e.rights, 0, CAP_IOCTL)) {
		e.nioctls = 0;
		k.table_id = p->table_id;
		entry_del(&cap_ioctls, &k, p->uid, QUOTA_IOCTLS);
	}
	err = store_entry(p, file, fd, &e);
	return err ? err : status_ok();
}

static __always_inline int op_limit_fcntls(struct file *file, int fd,
					   const struct capsicum_req *req)
{
	struct capsicum_fd_rights e;
	struct capsicum_proc *p;
	struct held h;
	int err;

	if (req->fcntls & ~CAP_FCNTL_ALL)
		return -EINVAL;
	err = entry_current(&p, file, fd, &e, &h);
	if (err)
		return err;
	if (req->fcntls & ~h.fcntls)
		return -ENOTCAPABLE;
	e.fcntls = req->fcntls;
	err = store_entry(p, file, fd, &e);
	return err ? err : status_ok();
}

struct ioctl_subset {
	const struct capsicum_ioctls *have;
	const struct capsicum_ioctls *want;
	__s32 nhave;
	bool widens;
};

/* bpf_loop body: is want[i] among the held commands? */
static long ioctl_subset_cb(__u64 i, struct ioctl_subset *s)
{
	__u64 cmd;

	if (i >= CAP_IOCTLS_MAX)
		return 1;
	cmd = s->want->cmds[i];
	for (int j = 0; j < CAP_IOCTLS_MAX; j++) {
		if (j >= s->nhave)
			break;
		if (s->have->cmds[j] == cmd)
			return 0;
	}
	s->widens = true;
	return 1;
}

static __always_inline int op_limit_ioctls(struct file *file, int fd,
					   const struct capsicum_req *req)
{
	struct capsicum_fd_rights e;
	struct capsicum_fd_key k = { .fd = fd };
	struct capsicum_ioctls *have = NULL;
	struct capsicum_proc *p;
	struct scratch *sc;
	__u32 zero = 0;
	struct held h;
	__s32 n = req->nioctls;
	int err;

	if (n < 0 || n > CAP_IOCTLS_MAX)
		return -EINVAL;
	sc = bpf_map_lookup_elem(&scratch, &zero);
	if (!sc)
		return -ENOMEM;
	if (n > 0 &&
	    bpf_probe_read_user(sc->ioctls.cmds,
				(n & (CAP_IOCTLS_MAX * 2 - 1)) * sizeof(__u64),
				(const void *)req->ioctls))
		return -EFAULT;
	err = entry_current(&p, file, fd, &e, &h);
	if (err)
		return err;
	k.table_id = p->table_id;
	if (h.nioctls >= 0 && h.fd < 0 && n > 0)
		return -ENOTCAPABLE; /* a floor allows no ioctl */
	if (h.nioctls >= 0 && n > 0) {
		struct ioctl_subset s = { .want = &sc->ioctls,
					  .nhave = h.nioctls };

		have = bpf_map_lookup_elem(&cap_ioctls, &k);
		if (!have)
			return -ENOTCAPABLE;
		s.have = have;
		bpf_loop(n, ioctl_subset_cb, &s, 0);
		if (s.widens)
			return -ENOTCAPABLE;
	}
	proc_set_flag(p, CAPSICUM_PROC_IOCTLS);
	err = entry_put(&cap_ioctls, &k, &sc->ioctls, p->uid, QUOTA_IOCTLS, fd);
	if (err)
		return err;
	e.nioctls = n;
	err = store_entry(p, file, fd, &e);
	return err ? err : status_ok();
}

/* The pidfd file operations: one of the two exists, by kernel version. */
extern const void pidfd_fops __ksym __weak;	       /* 6.1 */
extern const void pidfs_file_operations __ksym __weak; /* 6.9+ */

/* The struct pid a pidfd refers to, NULL for other files. */
static __always_inline struct pid *pidfd_pid_of(struct file *file)
{
	const void *fop = BPF_CORE_READ(file, f_op);

	if (&pidfs_file_operations && fop == &pidfs_file_operations)
		return BPF_CORE_READ(file, f_inode, i_private);
	if (&pidfd_fops && fop == &pidfd_fops)
		return BPF_CORE_READ(file, private_data);
	return NULL;
}

/* pid's number in the current task's pid namespace, -1 if not there. */
static __always_inline __s32 pid_nr_here(struct pid *pid)
{
	struct pid *mine = bpf_get_current_task_btf()->thread_pid;
	unsigned int lvl = BPF_CORE_READ(mine, level);
	struct upid here, there;

	if (lvl >= PID_MAX_LEVELS || BPF_CORE_READ(pid, level) < lvl ||
	    bpf_probe_read_kernel(&here, sizeof(here), &mine->numbers[lvl]) ||
	    bpf_probe_read_kernel(&there, sizeof(there), &pid->numbers[lvl]) ||
	    here.ns != there.ns)
		return -1;
	return there.nr;
}

static __always_inline int op_get(struct file *file, int fd,
				  const struct capsicum_req *req)
{
	struct capsicum_proc *p = current_proc();
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct capsicum_answer *a;
	struct scratch *sc;
	struct pid *pid;
	__u32 zero = 0;
	struct held h;

	sc = bpf_map_lookup_elem(&scratch, &zero);
	if (!sc)
		return -ENOMEM;
	a = &sc->answer;
	if (p)
		held_rights(p, file, fd, &h);
	else
		held_all(&h, fd);
	a->nonce = req->nonce;
	a->rights[0] = h.rights[0];
	a->rights[1] = h.rights[1];
	a->fcntls = h.fcntls;
	a->nioctls = h.nioctls;
	a->pid = 0;
	pid = pidfd_pid_of(file);
	if (pid)
		a->pid = rights_contain(h.rights, 0, CAP_PDGETPID)
				 ? pid_nr_here(pid)
				 : -1;
	if (p && h.nioctls > 0 && h.fd >= 0) {
		struct capsicum_fd_key k = { .table_id = p->table_id,
					     .fd = fd };
		struct capsicum_ioctls *l =
			bpf_map_lookup_elem(&cap_ioctls, &k);

		if (l)
			bpf_probe_read_kernel(a->ioctls, sizeof(a->ioctls),
					      l->cmds);
		else
			a->nioctls = 0;
	}
	answers_used = true;
	if (bpf_map_update_elem(&answers, &tid, a, BPF_ANY))
		return -ENOMEM;
	return status_ok();
}

/*
 * CAPSICUM_ANSWER_BITS of this thread's answer from req->answer_bit on
 * (bytes past its end read as 0), as a status: libcapsicum reads an
 * answer this way, needing no descriptor (include/capsicum/abi.h).
 */
static __always_inline int op_answer(const struct capsicum_req *req)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct capsicum_answer *a = bpf_map_lookup_elem(&answers, &tid);
	__u64 bit = req->answer_bit;
	const __u8 *q;
	__u32 byte, base, v;

	if (!a || a->nonce != req->nonce)
		return -ENOENT; /* none, or another call's: ask again */
	if (bit >= sizeof(*a) * 8)
		return -ERANGE;
	/*
	 * 11 bits from any bit offset lie in three bytes. Near the end the
	 * three are the last ones, and the shift drops what lies before.
	 */
	byte = (__u32)(bit >> 3);
	base = byte < sizeof(*a) - 3 ? byte : sizeof(*a) - 3;
	q = (const __u8 *)a + base;
	v = (__u32)q[0] | (__u32)q[1] << 8 | (__u32)q[2] << 16;
	v >>= (byte - base) * 8 + (bit & 7);
	v &= (1U << CAPSICUM_ANSWER_BITS) - 1;
	return -(int)(CAPSICUM_STATUS_ANSWER + v);
}

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

#define PIDTYPE_TGID_ 1

/* The thread-group leader a struct pid names, as a plain address. */
static __always_inline __u64 pid_leader(struct pid *pid)
{
	__u64 node = (__u64)BPF_CORE_READ(pid, tasks[PIDTYPE_TGID_].first);

	if (!node)
		return 0;
	return node - bpf_core_field_offset(struct task_struct, pid_links) -
	       PIDTYPE_TGID_ * sizeof(struct hlist_node);
}

/*
 * "Closing this descriptor kills its process": only the process's parent
 * may ask (pdfork does, at once), only through a descriptor that holds
 * CAP_PDKILL, and only once per child.
 */
static __always_inline int op_pd_watch(struct file *file, int fd)
{
	struct pid *pid = pidfd_pid_of(file);
	struct capsicum_proc *p = current_proc();
	struct pd_proc watched = { .state = PD_WATCHED };
	struct pd_file pf = {};
	__u64 key = (__u64)file;
	struct task_struct *child;
	struct held h;

	if (!pid)
		return -EBADF; /* not a process descriptor */
	child = (struct task_struct *)pid_leader(pid);
	if (!child)
		return -ESRCH; /* reaped */
	if (BPF_CORE_READ(child, real_parent, tgid) !=
	    (bpf_get_current_pid_tgid() >> 32))
		return -EPERM;
	if (p) {
		held_rights(p, file, fd, &h);
		if (h.limited && !rights_contain(h.rights, 0, CAP_PDKILL))
			return -ENOTCAPABLE;
	}
	/* The number is read now: 6.1 clears the file's pid on release. */
	pf.tgid = BPF_CORE_READ(pid, numbers[0].nr);
	watched.task = (__u64)child;
	pf.pid = watched.pid = (__u64)pid;
	pd_used = true;
	if (bpf_map_update_elem(&pd_procs, &pf.tgid, &watched, BPF_NOEXIST))
		return bpf_map_lookup_elem(&pd_procs, &pf.tgid) ? -EBUSY
								: -ENOMEM;
	if (bpf_map_update_elem(&pd_files, &key, &pf, BPF_NOEXIST)) {
		bpf_map_delete_elem(&pd_procs, &pf.tgid);
		return -ENOMEM;
	}
	__sync_fetch_and_add(&pd_files_live, 1);
	return status_ok();
}

/*
 * A pdfork child's thread execs: it is about to become the leader, and
 * the entry must follow it (task_free of the old leader leaves it alone).
 */
static __always_inline void pd_exec_carry(struct task_struct *task)
{
	__u32 tgid = task->tgid;
	struct pd_proc *pd;

	if (!pd_used)
		return;
	pd = bpf_map_lookup_elem(&pd_procs, &tgid);
	if (pd && pd->task == (__u64)task->group_leader)
		pd->task = (__u64)task;
}

/* Asks capsicumd to kill the process pid leads (tgid is its number). */
static __always_inline void pd_kill_request(__u32 tgid, struct pid *pid)
{
	struct task_struct *leader = (struct task_struct *)pid_leader(pid);
	struct capsicum_pd_kill *k;

	if (!leader)
		return; /* reaped: nothing left to kill */
	k = bpf_ringbuf_reserve(&pd_kills, sizeof(*k), 0);
	if (!k) {
		__sync_fetch_and_add(&pd_kill_dropped, 1);
		return;
	}
	/* de_thread gives a new leader the old one's start time. */
	k->start_boottime = BPF_CORE_READ(leader, start_boottime);
	k->tgid = tgid;
	k->pad = 0;
	bpf_ringbuf_submit(k, 0);
	__sync_fetch_and_add(&pd_kill_requests, 1);
}

/*
 * The last reference to a watched pidfd is gone (a close, the holder's
 * exit or exec, an SCM_RIGHTS message never received): its process is
 * doomed. It meets pd_doom_check at its next hook, and capsicumd, if it
 * runs, kills it at once even if it sleeps.
 */
static __always_inline void pd_file_freed(struct file *file)
{
	__u64 key = (__u64)file;
	struct pd_file *pf;
	struct pd_proc *pd;

	if (pd_files_live <= 0)
		return;
	pf = bpf_map_lookup_elem(&pd_files, &key);
	if (!pf)
		return;
	/* The same child only: a reaped one's number may name another. */
	pd = bpf_map_lookup_elem(&pd_procs, &pf->tgid);
	if (pd && pd->pid == pf->pid && pd->state != PD_DOOMED) {
		__sync_fetch_and_add(&pd_doomed, 1);
		pd->state = PD_DOOMED;
		pd_kill_request(pf->tgid, (struct pid *)pf->pid);
	}
	bpf_map_delete_elem(&pd_files, &key);
	__sync_fetch_and_add(&pd_files_live, -1);
}

/* fcntl(fd, F_GETFD, &req): 1 and *status set if this was a request. */
static __always_inline bool fd_request(struct file *file, unsigned int cmd,
				       unsigned long arg, long *status)
{
	struct capsicum_req req;
	int fd;

	if (cmd != F_GETFD || !arg ||
	    bpf_probe_read_user(&req, sizeof(req), (const void *)arg) ||
	    req.magic != CAPSICUM_REQ_MAGIC)
		return false;
	if (req.version != CAPSICUM_ABI_VERSION) {
		*status = -EPROTO;
		return true;
	}
	fd = (int)syscall_arg(0);
	/* The fd must still name the file the kernel resolved. */
	if (fd_file(fd) != file) {
		*status = -EBADF;
		return true;
	}
	switch (req.op) {
	case CAPSICUM_OP_LIMIT_RIGHTS:
		*status = op_limit_rights(file, fd, &req);
		break;
	case CAPSICUM_OP_LIMIT_FCNTLS:
		*status = op_limit_fcntls(file, fd, &req);
		break;
	case CAPSICUM_OP_LIMIT_IOCTLS:
		*status = op_limit_ioctls(file, fd, &req);
		break;
	case CAPSICUM_OP_GET:
		*status = op_get(file, fd, &req);
		break;
	case CAPSICUM_OP_PD_WATCH:
		*status = op_pd_watch(file, fd);
		break;
	default:
		*status = -EOPNOTSUPP;
	}
	return true;
}

/*
 * CAPSICUM_OP_SELF: what holds for the calling process. The flag bit
 * is unused on stock kernels, so it reads 0 there.
 */
static __always_inline int self_bits(void)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct capsicum_proc *p = current_proc();
	int bits = 0;

	if (p)
		bits |= CAPSICUM_SELF_STATE;
	if (p && (p->flags & CAPSICUM_PROC_CAPMODE))
		bits |= CAPSICUM_SELF_CAPMODE;
	if (task->atomic_flags & (1UL << PFA_FGET_CHECK))
		bits |= CAPSICUM_SELF_FGET_CHECK;
	return bits;
}

SEC("lsm/task_prctl")
int BPF_PROG(capsicum_prctl, int option, unsigned long arg2, unsigned long arg3,
	     unsigned long arg4, unsigned long arg5)
{
	struct capsicum_proc *p;
	struct capsicum_req req;

	if (option != CAPSICUM_PRCTL_OPTION)
		return 0;
	if (bpf_probe_read_user(&req, sizeof(req), (const void *)arg2))
		return -EFAULT;
	if (req.magic != CAPSICUM_REQ_MAGIC)
		return -EINVAL; /* not ours: what the kernel would say */
	/* Never EINVAL: libcapsicum takes that for "not loaded". */
	if (req.version != CAPSICUM_ABI_VERSION)
		return -EPROTO;
	switch (req.op) {
	case CAPSICUM_OP_PING:
		return status_ok();
	case CAPSICUM_OP_ANSWER:
		return op_answer(&req);
	case CAPSICUM_OP_GETMODE:
		p = current_proc();
		return p && (p->flags & CAPSICUM_PROC_CAPMODE)
			       ? -CAPSICUM_STATUS_OK_CAPMODE
			       : status_ok();
	case CAPSICUM_OP_SELF:
		return -(CAPSICUM_STATUS_SELF + self_bits());
	case CAPSICUM_OP_PD_CHILD:
		p = proc_get_or_create();
		if (!p)
			return -ENOMEM;
		proc_set_flag(p, CAPSICUM_PROC_PD_CHILD);
		return status_ok();
	case CAPSICUM_OP_ENTER:
		p = proc_get_or_create();
		if (!p)
			return -ENOMEM;
		proc_set_flag(p, CAPSICUM_PROC_CAPMODE);
		return status_ok();
	default:
		return -EOPNOTSUPP;
	}
}

#endif
