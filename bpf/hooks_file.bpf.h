/* SPDX-License-Identifier: GPL-2.0 */
/*
 * File hooks: each finds the process's table (fast path first), the
 * descriptor the syscall names, and requires the right FreeBSD requires
 * for that operation. doc/enforcement.md lists them.
 */
#ifndef CAPSICUM_HOOKS_FILE_BPF_H
#define CAPSICUM_HOOKS_FILE_BPF_H

#include "control.bpf.h"
#include "hooks_at.bpf.h"
#include "ioctl.bpf.h"
#include "sigio.bpf.h"
#include "syscalls.bpf.h"

/*
 * The hottest hook: every read and write. Before the table lookup (a
 * helper call), the file's low may already allow it (state.bpf.h).
 */
static __noinline int file_permission_check(struct file *file, int mask)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct pt_regs *regs = (struct pt_regs *)bpf_task_pt_regs(task);
	long nr = call_of(task, regs);
	struct capsicum_proc *p;
	struct opt_need r;
	int err;

	if (!(mask & (MAY_READ | MAY_WRITE)))
		return 0;
	if (nr == NR_execve || nr == NR_execveat) {
		err = exec_read_check(file);
		if (err)
			return err;
	}
	r = rw_need_of(regs, nr, file, mask);
	if (file_allows_all(file, r.need, 0))
		return 0;
	p = current_proc();
	if (!p || !table_limited(p))
		return 0;
	return require_exact(p, file, r.fd, r.need, 0,
			     CAPSICUM_HOOK_FILE_PERMISSION);
}

/* (struct file *file, int mask), read past the gate (CTX_ARG). */
SEC("lsm/file_permission")
int capsicum_file_permission(unsigned long long *ctx)
{
	if (no_capsicum_state())
		return 0;
	return file_permission_check(CTX_ARG(struct file *, 0),
				     CTX_ARG(int, 1));
}

/*
 * The descriptor and rights of a mapping of prot (shared or not), as the
 * table's mapping rows say; other calls (shmat, i386's mmap2) and
 * mprotect, which names no descriptor, get the file's floor.
 */
static __always_inline struct opt_need mmap_need_of(unsigned long prot,
						    bool shared)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct pt_regs *regs = (struct pt_regs *)bpf_task_pt_regs(task);
	struct opt_call c = {
		.regs = regs, .fd = -1, .prot = prot, .shared = shared
	};

	switch (call_of(task, regs)) {
		CAPSICUM_OPS_MMAP(OPT_STOCK_CASE)
	}
	return opt_rule_mmap_prot(&c, -1, OPT_NOFD, CAP_MMAP);
}

static __noinline int mmap_file_check(struct file *file, unsigned long prot,
				      bool shared)
{
	struct opt_need n = mmap_need_of(prot, shared);
	struct capsicum_proc *p;

	if (file_allows_all(file, n.need, 0))
		return 0;
	p = current_proc();
	if (!p)
		return 0;
	return require_exact(p, file, n.fd, n.need, 0, CAPSICUM_HOOK_MMAP_FILE);
}

SEC("lsm/mmap_file")
int BPF_PROG(capsicum_mmap_file, struct file *file, unsigned long reqprot,
	     unsigned long prot, unsigned long flags)
{
	if (!file)
		return 0;
	return GATED(mmap_file_check, file, prot,
		     (flags & MAP_TYPE) != MAP_PRIVATE);
}

SEC("lsm/file_mprotect")
int BPF_PROG(capsicum_file_mprotect, struct vm_area_struct *vma,
	     unsigned long reqprot, unsigned long prot)
{
	struct capsicum_proc *p = current_proc();
	struct opt_need n;
	struct file *file;

	if (!p)
		return 0;
	file = vma->vm_file;
	if (!file)
		return 0;
	n = mmap_need_of(prot, vma->vm_flags & VM_SHARED);
	return require(p, file, n.fd, n.need, 0, CAPSICUM_HOOK_FILE_MPROTECT);
}

/*
 * The descriptor, rights and fcntl sub-rights of a control command, as
 * the table's control rows say (their rules read the command from the
 * call's arguments: flock's file_lock sees a lock type, and fcntl's
 * leases pass it too); through any other call (i386, io_uring) the
 * hook's own command (cmd) and the file's floor decide, with the rule
 * and rights the hook names.
 */
#define CTL_NEED_OF(hook, rule, rights)                                        \
	static __always_inline struct opt_need hook##_need_of(                 \
		unsigned int cmd)                                              \
	{                                                                      \
		struct task_struct *task = bpf_get_current_task_btf();         \
		struct pt_regs *regs =                                         \
			(struct pt_regs *)bpf_task_pt_regs(task);              \
		struct opt_call c = { .regs = regs, .fd = -1, .cmd = cmd };    \
                                                                               \
		switch (call_of(task, regs)) {                                 \
			CAPSICUM_OPS_CTL(OPT_STOCK_CASE)                       \
		}                                                              \
		return opt_rule_##rule(&c, -1, OPT_NOFD, rights);              \
	}
CTL_NEED_OF(ioctl, ioctl_list, CAP_IOCTL)
CTL_NEED_OF(fcntl, fcntl_cmd, CAP_FCNTL)
CTL_NEED_OF(lock, none, CAP_FLOCK)

SEC("lsm/file_ioctl")
int BPF_PROG(capsicum_file_ioctl, struct file *file, unsigned int cmd,
	     unsigned long arg)
{
	struct capsicum_proc *p = current_proc();
	struct opt_need n;

	if (!p)
		return 0;
	n = ioctl_need_of(cmd);
	if (!n.need)
		return 0;
	return ioctl_decide(p, file, cmd, n.fd);
}

/* An i386 ioctl: the file's floor decides (loaded where it exists). */
SEC("?lsm/file_ioctl_compat")
int BPF_PROG(capsicum_file_ioctl_compat, struct file *file, unsigned int cmd,
	     unsigned long arg)
{
	struct capsicum_proc *p = current_proc();
	struct opt_need n;

	if (!p)
		return 0;
	n = ioctl_need_of(cmd);
	if (!n.need)
		return 0;
	return ioctl_decide(p, file, cmd, n.fd);
}

/*
 * A socket's option command through io_uring (6.7's
 * SOCKET_URING_OP_GETSOCKOPT and _SETSOCKOPT) needs the option's right,
 * as getsockopt and setsockopt do: no socket hook sees it on the patched
 * kernel, which does not load theirs (admin/load.c). No descriptor, so
 * the file's floor decides, as the stock socket hooks decide it.
 */
static __always_inline int uring_sockopt_check(struct capsicum_proc *p,
					       struct file *file, __u32 op)
{
	__u64 need;

	if ((BPF_CORE_READ(file, f_inode, i_mode) & S_IFMT) != S_IFSOCK)
		return 0; /* another driver's numbers */
	if (op == SOCKET_URING_OP_GETSOCKOPT)
		need = CAP_GETSOCKOPT;
	else if (op == SOCKET_URING_OP_SETSOCKOPT)
		need = CAP_SETSOCKOPT;
	else
		return 0;
	return require(p, file, -1, need, 0, CAPSICUM_HOOK_SOCKET);
}

/*
 * io_uring's IORING_OP_URING_CMD: a driver or socket command (SIOCINQ,
 * socket options, NVMe passthrough) on a file, an ioctl by another name.
 */
SEC("?lsm/uring_cmd")
int BPF_PROG(capsicum_uring_cmd, struct io_uring_cmd *ioucmd)
{
	struct capsicum_proc *p = current_proc();
	struct file *file;
	__u32 op;
	int err;

	if (!p)
		return 0;
	file = BPF_CORE_READ(ioucmd, file);
	if (!file)
		return unknown_refuse(p, CAPSICUM_HOOK_FILE_IOCTL);
	op = BPF_CORE_READ(ioucmd, cmd_op);
	err = ioctl_check(p, file, op, -1, false);
	return err ?: uring_sockopt_check(p, file, op);
}

SEC("lsm/file_fcntl")
int BPF_PROG(capsicum_file_fcntl, struct file *file, unsigned int cmd,
	     unsigned long arg)
{
	struct capsicum_proc *p;
	struct opt_need n;
	struct held h;
	long status;

	if (fd_request(file, cmd, arg, &status))
		return lsm_status(status);
	p = current_proc();
	if (!p)
		return 0;
	n = fcntl_need_of(cmd);
	if (!n.need)
		return 0;
	held_rights(p, file, n.fd, &h);
	if (!h.limited || (rights_contain(h.rights, n.need, 0) &&
			   (h.fcntls & n.fcntls) == n.fcntls))
		return in_capmode(p) ? capmode_fcntl_check(file, cmd, arg, n.fd)
				     : 0;
	return refuse(CAPSICUM_HOOK_FILE_FCNTL, ENOTCAPABLE,
		      h.fd >= 0 ? h.fd : n.fd, n.need, 0, &h);
}

SEC("lsm/file_lock")
int BPF_PROG(capsicum_file_lock, struct file *file, unsigned int cmd)
{
	struct capsicum_proc *p = current_proc();
	struct opt_need n;

	if (!p)
		return 0;
	n = lock_need_of(cmd);
	return require(p, file, n.fd, n.need, 0, CAPSICUM_HOOK_FILE_LOCK);
}

/*
 * The descriptor and rights of an attribute call, as the table's
 * attribute rows say; no rights for any other call. The hooks below see
 * a dentry or a path, not a descriptor: the row names it.
 */
OPT_NEED_OF(attr_need_of, CAPSICUM_OPS_FILE)

/* The file descriptor fd names, if it is the one at `path`; else NULL. */
static __always_inline struct file *fd_at_path(int fd, const struct path *path)
{
	return fd_at(fd, path->dentry, path->mnt);
}

static __noinline int inode_getattr_check(const struct path *path)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct pt_regs *regs = (struct pt_regs *)bpf_task_pt_regs(task);
	long nr = call_of(task, regs);
	struct opt_need n = attr_need_of(regs, NR_fstat);
	struct capsicum_proc *p;
	struct file *f = NULL;

	/* fstat: the file's low may allow it before the table is found. */
	if (nr == NR_fstat) {
		f = fd_at_path(n.fd, path);
		if (!f || file_allows_all(f, n.need, 0))
			return 0;
	}
	p = current_proc();
	if (!p)
		return 0;
	/* fstatat(fd, "", AT_EMPTY_PATH) is fstat(fd): its row says so. */
	if (nr != NR_fstat)
		return stat_at_check(p, nr, path);
	/* fstat: the low was tried above. */
	return require_exact(p, f, n.fd, n.need, 0,
			     CAPSICUM_HOOK_INODE_GETATTR);
}

SEC("lsm/inode_getattr")
int BPF_PROG(capsicum_inode_getattr, const struct path *path)
{
	return GATED(inode_getattr_check, path);
}

/*
 * The rights a change of attributes needs, from what it changes: for a
 * request of unknown origin (io_uring's FTRUNCATE, an i386 ftruncate).
 * The times a truncate sets, and the set-id bits a write clears, come
 * with their operation and need nothing more.
 */
static __always_inline __u64 setattr_need(unsigned int valid)
{
	__u64 need = 0;

	if (valid & ATTR_SIZE)
		need |= CAP_FTRUNCATE;
	else if (valid & (ATTR_ATIME | ATTR_MTIME))
		need |= CAP_FUTIMES;
	if (valid & (ATTR_UID | ATTR_GID))
		need |= CAP_FCHOWN;
	if ((valid & ATTR_MODE) && !(valid & (ATTR_KILL_SUID | ATTR_KILL_SGID)))
		need |= CAP_FCHMOD;
	return need;
}

/*
 * A change of unknown origin: the file it names (ATTR_FILE, as truncate
 * through a descriptor does) must hold the rights, by its floor; one that
 * names no file cannot be checked.
 */
static __always_inline int setattr_unknown(struct capsicum_proc *p,
					   const struct iattr *attr)
{
	unsigned int valid = BPF_CORE_READ(attr, ia_valid);
	__u64 need = setattr_need(valid);
	struct file *f;

	if (!need)
		return 0;
	f = valid & ATTR_FILE ? BPF_CORE_READ(attr, ia_file) : NULL;
	if (!f)
		return unknown_refuse(p, CAPSICUM_HOOK_INODE_SETATTR);
	return require(p, f, -1, need, 0, CAPSICUM_HOOK_INODE_SETATTR);
}

/*
 * A hook that sees a dentry: the call's row names the descriptor, whose
 * file must have that dentry, and the right it needs.
 */
static __always_inline int fd_dentry_check(struct capsicum_proc *p, long nr,
					   struct dentry *dentry, __u32 hook)
{
	struct opt_need n = attr_need_of(current_regs(), nr);
	struct file *f;

	if (!n.need)
		return 0;
	f = fd_file(n.fd);
	if (!f || BPF_CORE_READ(f, f_path.dentry) != dentry)
		return 0;
	return require_row(p, f, n.fd, n.need, hook);
}

SEC("lsm/inode_setattr")
int BPF_PROG(capsicum_inode_setattr)
{
	struct capsicum_proc *p = current_proc();
	struct dentry *dentry;
	long nr;

	if (!p)
		return 0;
	/* Fixed-offset loads: the verifier refuses a computed one. */
	__u64 arg0 = ctx[0], arg1 = ctx[1], arg2 = ctx[2];

	barrier_var(arg0);
	barrier_var(arg1);
	barrier_var(arg2);
	nr = current_call();
	dentry = (struct dentry *)(setattr_has_idmap ? arg1 : arg0);
	switch (nr) {
	case NR_utimensat:
	case NR_futimesat:
		/* futimens(fd, t) is utimensat(fd, NULL, t, 0): its row. */
	case NR_utime:
	case NR_utimes:
		return utimes_at_check(p, nr, dentry);
	case NR_UNKNOWN:
		return setattr_unknown(
			p, (const struct iattr *)(setattr_has_idmap ? arg2
								    : arg1));
	}
	/*
	 * fchmod, fchown, ftruncate: their rows. Other syscalls' own changes
	 * (a write clearing set-id bits) have none and need nothing more.
	 */
	return fd_dentry_check(p, nr, dentry, CAPSICUM_HOOK_INODE_SETATTR);
}

/* As fd_dentry_check, where a call of unknown origin is refused. */
static __always_inline int dentry_check(struct dentry *dentry, __u32 hook)
{
	struct capsicum_proc *p = current_proc();
	long nr;

	if (!p)
		return 0;
	nr = current_call();
	/* No descriptor to be found: fgetxattr from io_uring or i386. */
	if (nr == NR_UNKNOWN)
		return unknown_refuse(p, hook);
	return fd_dentry_check(p, nr, dentry, hook);
}

SEC("lsm/inode_getxattr")
int BPF_PROG(capsicum_inode_getxattr, struct dentry *dentry, const char *name)
{
	return dentry_check(dentry, CAPSICUM_HOOK_XATTR);
}

SEC("lsm/inode_listxattr")
int BPF_PROG(capsicum_inode_listxattr, struct dentry *dentry)
{
	return dentry_check(dentry, CAPSICUM_HOOK_XATTR);
}

SEC("lsm/inode_setxattr")
int BPF_PROG(capsicum_inode_setxattr, void *idmap, struct dentry *dentry)
{
	return dentry_check(dentry, CAPSICUM_HOOK_XATTR);
}

SEC("lsm/inode_removexattr")
int BPF_PROG(capsicum_inode_removexattr, void *idmap, struct dentry *dentry)
{
	return dentry_check(dentry, CAPSICUM_HOOK_XATTR);
}

SEC("lsm/sb_statfs")
int BPF_PROG(capsicum_sb_statfs, struct dentry *dentry)
{
	return dentry_check(dentry, CAPSICUM_HOOK_SB_STATFS);
}

SEC("lsm/path_notify")
int BPF_PROG(capsicum_path_notify, const struct path *path, __u64 mask,
	     unsigned int obj_type)
{
	struct capsicum_proc *p = current_proc();
	struct pt_regs *regs;
	struct opt_need n;
	struct file *f;
	long nr;
	int err;

	if (!p)
		return 0;
	nr = current_call();
	if (nr == NR_UNKNOWN)
		return unknown_refuse(p, CAPSICUM_HOOK_PATH_NOTIFY);
	/*
	 * inotify_add_watch's and fanotify_mark's rows: the right belongs
	 * to the notification descriptor, not to the watched path.
	 */
	regs = current_regs();
	n = attr_need_of(regs, nr);
	f = n.need ? fd_file(n.fd) : NULL;
	err = f ? require_row(p, f, n.fd, n.need, CAPSICUM_HOOK_PATH_NOTIFY)
		: 0;
	if (!err && nr == NR_fanotify_mark) {
		/* Its other end, the dirfd, is an *at() lookup's. */
		struct opt_call c = { .regs = regs, .fd = -1, .target = true };

		err = at_check(p, opt_rule_fanotify_ends(&c, nr, 0, 0),
			       path->dentry, path->mnt);
	}
	return err;
}

#endif
