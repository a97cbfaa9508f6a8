/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The control plane on stock kernels: cap_rights_limit, cap_fcntls_limit,
 * cap_ioctls_limit and the queries, carried by fcntl(fd, F_GETFD, &req)
 * and prctl(CAPSICUM_PRCTL_OPTION, &req). See include/capsicum/abi.h.
 */
#ifndef CAPSICUM_CONTROL_BPF_H
#define CAPSICUM_CONTROL_BPF_H

#include "table.bpf.h"
#include <capsicum/pins.h>

static __always_inline int status_ok(void)
{
	return -CAPSICUM_STATUS_OK;
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

/*
 * "Closing this descriptor kills its process": only the process's parent
 * may ask (pdfork does, at once), only through a descriptor that holds
 * CAP_PDKILL, and only once per child.
 */
static __always_inline int op_pd_watch(struct file *file, int fd)
{
	struct pid *pid = pidfd_pid_of(file);
	struct capsicum_proc *p = current_proc();
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
	return pd_watch(file, pid, child) ?: status_ok();
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

extern const void init_user_ns __ksym __weak;

#define CAPSICUM_CAP_SYS_ADMIN 21

/* CAP_SYS_ADMIN in the initial user namespace, as capable() would say. */
static __always_inline bool caller_is_host_admin(void)
{
	struct task_struct *task = bpf_get_current_task_btf();
	const struct cred *cred = BPF_CORE_READ(task, cred);
	__u64 caps = 0;

	/*
	 * kernel_cap_t is a __u64 from 6.3 and two __u32 before: the same
	 * bytes on x86-64.
	 */
	if (!cred || !&init_user_ns ||
	    (const void *)BPF_CORE_READ(cred, user_ns) != &init_user_ns ||
	    bpf_probe_read_kernel(&caps, sizeof(caps), &cred->cap_effective))
		return false;
	return caps & (1ULL << CAPSICUM_CAP_SYS_ADMIN);
}

/*
 * CAPSICUM_OP_LEARN (doc/learn.md): the caller's process records what it
 * would be refused, then does it; so do its children. Only the host's
 * admin may ask, and only for a process that is not yet restricted: a
 * sandbox, root inside one included, cannot switch itself off.
 */
static __always_inline int op_learn(void)
{
	struct capsicum_proc *p;

	if (!caller_is_host_admin())
		return -EPERM;
	p = current_proc();
	/* A table shared with another process may hold that one's limits. */
	if (p && (in_capmode(p) || table_limited(p) ||
		  (p->flags & CAPSICUM_PROC_INCOMPLETE)))
		return -EPERM;
	p = proc_get_or_create();
	if (!p)
		return -ENOMEM;
	/* Before the flag: a refusal that sees the flag finds the id. */
	p->learn_id = bpf_get_current_pid_tgid() >> 32;
	proc_set_flag(p, CAPSICUM_PROC_LEARNING);
	return status_ok();
}

/*
 * CAPSICUM_OP_LEARN_ID: CAPSICUM_ANSWER_BITS of the caller's learn id
 * from bit answer_bit (0 when it does not learn).
 */
static __always_inline int op_learn_id(const struct capsicum_req *req)
{
	__u32 id = current_learn_id();

	if (req->answer_bit >= 32)
		return -ERANGE;
	id = (id >> req->answer_bit) & ((1U << CAPSICUM_ANSWER_BITS) - 1);
	return -(int)(CAPSICUM_STATUS_ANSWER + id);
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
	if (p && (p->flags & CAPSICUM_PROC_LEARNING))
		bits |= CAPSICUM_SELF_LEARNING;
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
	case CAPSICUM_OP_LEARN:
		return op_learn();
	case CAPSICUM_OP_LEARN_ID:
		return op_learn_id(&req);
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
