/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Socket hooks. The table's socket rows say which descriptor and which
 * rights each socket syscall needs (sock_need_of); read(2), write(2) and
 * the other calls that reach a socket hook (sock_read_iter, splice)
 * offer their first argument, which counts only if it is the socket's
 * own descriptor.
 */
#ifndef CAPSICUM_HOOKS_SOCK_BPF_H
#define CAPSICUM_HOOKS_SOCK_BPF_H

#include "table.bpf.h"
#include "optable.bpf.h"

#define MAX_CMSGS 8

struct scm_scan {
	struct capsicum_proc *p;
	const void *fds; /* kernel copy of the int array */
	__s64 error;
};

/* bpf_loop body: note the sender's rights of the i-th passed fd. */
static long scm_fd_cb(__u64 i, struct scm_scan *s)
{
	struct capsicum_fd_rights e = {}, *old;
	struct file *file;
	struct held h;
	__u64 key;
	int fd;

	if (bpf_probe_read_kernel(&fd, sizeof(fd), s->fds + i * sizeof(int)))
		goto fail;
	file = fd_file(fd);
	if (!file)
		return 0;
	held_rights(s->p, file, fd, &h);
	if (!h.limited)
		return 0;
	key = (__u64)file;
	e.rights[0] = h.rights[0];
	e.rights[1] = h.rights[1];
	e.fcntls = h.fcntls;
	e.nioctls = h.nioctls < 0 ? -1 : 0;
	old = bpf_map_lookup_elem(&inflight, &key);
	if (old) {
		e.rights[0] &= old->rights[0];
		e.rights[1] &= old->rights[1];
		e.fcntls &= old->fcntls;
		if (old->nioctls == 0)
			e.nioctls = 0;
	}
	if (!bpf_map_update_elem(&inflight, &key, &e, BPF_ANY))
		return 0;
fail:
	s->error = -ENOMEM;
	return 1;
}

/*
 * A restricted descriptor sent over SCM_RIGHTS keeps the sender's rights:
 * record them by file for file_receive in the receiver. A control buffer
 * this cannot read to its end is refused rather than let through.
 */
static __always_inline int scm_note_rights(struct capsicum_proc *p,
					   struct msghdr *msg)
{
	struct scm_scan s = { .p = p };
	__u64 len = msg->msg_controllen, off = 0;
	const void *ctl = msg->msg_control;
	struct cmsghdr c;

	if (!len)
		return 0;
	if (BPF_CORE_READ_BITFIELD_PROBED(msg, msg_control_is_user))
		return -ENOTCAPABLE;
	for (int i = 0; i < MAX_CMSGS; i++) {
		if (off + sizeof(c) > len)
			return 0;
		if (bpf_probe_read_kernel(&c, sizeof(c), ctl + off) ||
		    c.cmsg_len < sizeof(c) || off + c.cmsg_len > len)
			return -EINVAL;
		if (c.cmsg_level == SOL_SOCKET && c.cmsg_type == SCM_RIGHTS) {
			__u64 n = (c.cmsg_len - sizeof(c)) / sizeof(int);

			if (n > SCM_MAX_FD)
				return -EINVAL;
			s.fds = ctl + off + sizeof(c);
			bpf_loop(n, scm_fd_cb, &s, 0);
			if (s.error)
				return lsm_status(s.error);
		}
		off += (c.cmsg_len + 7) & ~7ULL;
	}
	return off >= len ? 0 : -ENOTCAPABLE;
}

struct stale_scan {
	__u64 table_id;
	__u32 uid;
	struct file *file;
};

/* bpf_loop body: fd i's entry names the file, which fd i no longer holds. */
static long stale_cb(__u64 i, struct stale_scan *s)
{
	struct capsicum_fd_key k = { .table_id = s->table_id, .fd = (__s32)i };
	struct capsicum_fd_rights *e = bpf_map_lookup_elem(&cap_fds, &k);

	if (!e || e->file != (__u64)s->file || fd_file((int)i) == s->file)
		return 0;
	entry_del(&cap_ioctls, &k, s->uid, QUOTA_IOCTLS);
	entry_del(&cap_fds, &k, s->uid, QUOTA_ENTRIES);
	return 0;
}

/*
 * A descriptor closed without close(2) (exec's close-on-exec, io_uring's
 * close) keeps its entry, which still names the file and its generation.
 * A receive (SCM_RIGHTS, pidfd_getfd) may install that same file at that
 * number again, and the entry would count: before the install, entries
 * of the file at numbers that no longer hold it go.
 */
static __always_inline void drop_stale_entries(struct capsicum_proc *p,
					       struct file *file)
{
	struct stale_scan s = { .table_id = p->table_id,
				.uid = p->uid,
				.file = file };
	struct fdtable *fdt;
	__u32 n = p->fd_bound;

	if (!table_limited(p) || !file_gen(file))
		return;
	/* fd_bound is per process; a shared table may hold the other's. */
	if (p->flags & CAPSICUM_PROC_SHARED_FDS) {
		fdt = BPF_CORE_READ(bpf_get_current_task_btf(), files, fdt);
		n = BPF_CORE_READ(fdt, max_fds);
	}
	bpf_loop(n < CAPSICUM_SCAN_FDS ? n : CAPSICUM_SCAN_FDS, stale_cb, &s,
		 0);
}

/*
 * A file arriving with no in-flight record. Over SCM_RIGHTS that means
 * its sender held it unrestricted. Any other way (pidfd_getfd, io_uring's
 * FIXED_FD_INSTALL of a ring's fixed file, a receive of unknown origin)
 * says nothing of the rights it was held with: a limited file then comes
 * with its low, never wider than any descriptor of it is.
 */
static __always_inline int receive_unrecorded(struct capsicum_proc *p,
					      struct file *file)
{
	__u64 key = (__u64)file;
	struct capsicum_fd_rights e = { .file = key, .nioctls = 0 };
	struct capsicum_file *f;
	long nr = current_call();

	if (nr == NR_recvmsg || nr == NR_recvmmsg)
		return 0;
	f = bpf_map_lookup_elem(&cap_files, &key);
	if (!f)
		return 0; /* never limited */
	e.gen = f->gen;
	e.rights[0] = f->low[0];
	e.rights[1] = f->low[1];
	return lsm_status(floor_narrow(p, file, -1, &e));
}

SEC("lsm/file_receive")
int BPF_PROG(capsicum_file_receive, struct file *file)
{
	__u64 key = (__u64)file;
	struct capsicum_fd_rights *in = bpf_map_lookup_elem(&inflight, &key);
	struct capsicum_fd_rights e;
	struct capsicum_proc *p;
	int err;

	if (!in) {
		p = current_proc();
		if (!p)
			return 0;
		drop_stale_entries(p, file);
		return receive_unrecorded(p, file);
	}
	/* The receiver's descriptor has no entry yet: its floor says it. */
	p = proc_get_or_create();
	if (!p)
		return -ENOMEM;
	drop_stale_entries(p, file);
	e = *in;
	e.file = key;
	e.gen = file_gen_assign(file, p->uid, &err);
	if (!e.gen)
		return err;
	return lsm_status(floor_narrow(p, file, -1, &e));
}

/*
 * The descriptor and rights of a socket call, as the table's socket rows
 * say; named: the message names a destination. Another call that reaches
 * a socket hook offers its first argument (state.bpf.h keeps it only if
 * the fd table maps it to the socket) with the right of the hook's own
 * operation (as); one of unknown origin offers none: the file's floor.
 */
static __always_inline struct opt_need sock_need_of(__u64 as, bool named)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct pt_regs *regs = (struct pt_regs *)bpf_task_pt_regs(task);
	struct opt_call c = { .regs = regs, .fd = -1, .named = named };
	long nr = call_of(task, regs);

	switch (nr) {
		CAPSICUM_OPS_SOCK(OPT_STOCK_CASE)
	}
	return (struct opt_need){
		.fd = nr == NR_UNKNOWN ? -1 : (int)SYS_ARG1(regs),
		.need = opt_rule_msg_dest(&c, -1, OPT_NOFD, as).need
	};
}

/*
 * The socket's descriptor needs n.need. `global`: the call names an
 * address (bind, connect, a destination), which capability mode forbids;
 * otherwise the file's low may allow before the table is looked up.
 * `low_tried`: the caller found already that the low does not allow it.
 */
static __always_inline int sock_check_of(struct capsicum_proc *p,
					 struct socket *sock,
					 const struct opt_need *n, bool global,
					 bool low_tried)
{
	struct file *file;

	if (!p)
		return 0;
	if (global && in_capmode(p))
		return capmode_refuse(CAPSICUM_HOOK_SOCKET, n->fd);
	file = sock->file;
	if (!file)
		return 0;
	if (!low_tried && file_allows_all(file, n->need, 0))
		return 0;
	return require_exact(p, file, n->fd, n->need, 0, CAPSICUM_HOOK_SOCKET);
}

static __noinline int sock_check(struct socket *sock, __u64 as, bool global)
{
	struct opt_need n = sock_need_of(as, false);
	struct file *file = sock->file;

	if (!global && (!file || file_allows_all(file, n.need, 0)))
		return 0;
	return sock_check_of(current_proc(), sock, &n, global, !global);
}

#define sock_require(sock, need) GATED(sock_check, sock, need, false)

SEC("lsm/socket_bind")
int BPF_PROG(capsicum_socket_bind, struct socket *sock)
{
	return GATED(sock_check, sock, CAP_BIND, true);
}

SEC("lsm/socket_connect")
int BPF_PROG(capsicum_socket_connect, struct socket *sock)
{
	return GATED(sock_check, sock, CAP_CONNECT, true);
}

SEC("lsm/socket_listen")
int BPF_PROG(capsicum_socket_listen, struct socket *sock)
{
	return sock_require(sock, CAP_LISTEN);
}

SEC("lsm/socket_accept")
int BPF_PROG(capsicum_socket_accept, struct socket *sock,
	     struct socket *newsock)
{
	struct accepting a = { .newsock = (__u64)newsock };
	struct capsicum_proc *p;
	__u32 tid;
	int err = sock_require(sock, CAP_ACCEPT);

	p = current_proc();
	if (err || !p || !table_limited(p) || !sock->file)
		return err;
	held_rights(p, sock->file, sock_need_of(CAP_ACCEPT, false).fd, &a.held);
	if (!a.held.limited)
		return 0;
	tid = (__u32)bpf_get_current_pid_tgid();
	/* No room to carry the rights over: refuse the accept. */
	return bpf_map_update_elem(&accepting, &tid, &a, BPF_ANY) ? -ENOMEM : 0;
}

static __noinline int sendmsg_check(struct socket *sock, struct msghdr *msg)
{
	bool named = msg->msg_name;
	struct opt_need n = sock_need_of(CAP_SEND, named);
	bool plain = !named && !msg->msg_controllen;
	struct capsicum_proc *p;
	int err;

	/* Nothing to record and nothing capability mode refuses: low may do. */
	if (plain && (!sock->file || file_allows_all(sock->file, n.need, 0)))
		return 0;
	p = current_proc();
	err = sock_check_of(p, sock, &n, named, plain);
	if (err)
		return err;
	return p ? scm_note_rights(p, msg) : 0;
}

SEC("lsm/socket_sendmsg")
int BPF_PROG(capsicum_socket_sendmsg, struct socket *sock, struct msghdr *msg)
{
	return GATED(sendmsg_check, sock, msg);
}

SEC("lsm/socket_recvmsg")
int BPF_PROG(capsicum_socket_recvmsg, struct socket *sock)
{
	return sock_require(sock, CAP_RECV);
}

SEC("lsm/socket_getsockname")
int BPF_PROG(capsicum_socket_getsockname, struct socket *sock)
{
	return sock_require(sock, CAP_GETSOCKNAME);
}

SEC("lsm/socket_getpeername")
int BPF_PROG(capsicum_socket_getpeername, struct socket *sock)
{
	return sock_require(sock, CAP_GETPEERNAME);
}

SEC("lsm/socket_getsockopt")
int BPF_PROG(capsicum_socket_getsockopt, struct socket *sock)
{
	return sock_require(sock, CAP_GETSOCKOPT);
}

SEC("lsm/socket_setsockopt")
int BPF_PROG(capsicum_socket_setsockopt, struct socket *sock)
{
	return sock_require(sock, CAP_SETSOCKOPT);
}

SEC("lsm/socket_shutdown")
int BPF_PROG(capsicum_socket_shutdown, struct socket *sock)
{
	return sock_require(sock, CAP_SHUTDOWN);
}

/*
 * SCTP binds and connects through setsockopt (SCTP_SOCKOPT_BINDX_ADD,
 * SCTP_SOCKOPT_CONNECTX...), which reach only this hook: an address, so
 * capability mode refuses it like bind and connect.
 */
SEC("lsm/sctp_bind_connect")
int BPF_PROG(capsicum_sctp_bind_connect, struct sock *sk, int optname)
{
	struct capsicum_proc *p = current_proc();

	if (!p || !in_capmode(p))
		return 0;
	return capmode_refuse(CAPSICUM_HOOK_SOCKET, (int)syscall_arg(0));
}

#endif
