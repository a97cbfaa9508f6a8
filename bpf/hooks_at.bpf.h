/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lookups relative to a directory descriptor (*at() calls). Through a
 * restricted dirfd, and through every dirfd in capability mode, a lookup
 * needs the dirfd's CAP_LOOKUP plus the right of the operation, and the
 * object it resolves to (or, for calls that add or remove a name, the
 * parent directory) must be beneath the dirfd: otherwise ENOTCAPABLE. In
 * capability mode a lookup from the working directory (AT_FDCWD, or a
 * plain path call) is ECAPMODE; the seccomp filter refuses those first,
 * this is the second wall. Each hook acts only for the syscalls whose
 * lookup it sees, so kernel-internal lookups (exec's interpreter, unix
 * socket nodes) are left alone.
 */
#ifndef CAPSICUM_HOOKS_AT_BPF_H
#define CAPSICUM_HOOKS_AT_BPF_H

#include "beneath.bpf.h"
#include "control.bpf.h"
#include "syscalls_at.bpf.h"

#define FMODE_READ  0x1
#define FMODE_WRITE 0x2

static __always_inline int deny(__u32 error, int fd, __u64 need,
				const struct held *h)
{
	report(CAPSICUM_HOOK_LOOKUP, error, fd, need, 0, h);
	return -(int)error;
}

/*
 * The lookup l reached (dentry, mnt); mnt NULL if the hook cannot see the
 * mount. Returns 0 or the negative errno the syscall fails with; *h gets
 * the dirfd's rights.
 */
static __always_inline int at_check_held(struct capsicum_proc *p,
					 struct at_lookup l,
					 struct dentry *dentry,
					 struct vfsmount *mnt, struct held *h)
{
	struct file *dir;

	held_all(h, l.dirfd);
	if (l.dirfd == AT_FDCWD)
		return in_capmode(p)
			       ? capmode_refuse(CAPSICUM_HOOK_LOOKUP, l.dirfd)
			       : 0;
	dir = fd_file(l.dirfd);
	if (!dir) /* closed while the lookup ran: fail closed */
		return deny(ENOTCAPABLE, l.dirfd, l.need, NULL);
	held_rights(p, dir, l.dirfd, h);
	if (!h->limited && !in_capmode(p))
		return 0;
	if (h->limited && !rights_contain(h->rights, l.need, 0))
		return deny(ENOTCAPABLE, l.dirfd, l.need, h);
	if (!beneath(dentry, mnt, dir))
		return deny(ENOTCAPABLE, l.dirfd, l.need, h);
	return 0;
}

#define X32_SYSCALL_BIT 0x40000000

/*
 * The path hooks know the x86-64 path syscalls only. An i386 or x32 one
 * from a
 * process that limited something, or is in capability mode (whose
 * seccomp filter refuses i386 already), cannot be told apart: refused.
 */
static __always_inline bool lookups_checked(const struct capsicum_proc *p)
{
	return table_limited(p) || in_capmode(p);
}

/* compat_refuse with the task and syscall number already at hand. */
static __always_inline int compat_refuse_of(struct capsicum_proc *p,
					    struct task_struct *task, long nr)
{
	if (!lookups_checked(p))
		return 0;
	if (!(task->thread_info.status & TS_COMPAT) && !(nr & X32_SYSCALL_BIT))
		return 0;
	return deny(ENOTCAPABLE, -1, 0, NULL);
}

static __always_inline int compat_refuse(struct capsicum_proc *p)
{
	/* The helper calls only for a table whose lookups are checked. */
	if (!lookups_checked(p))
		return 0;
	return compat_refuse_of(p, bpf_get_current_task_btf(),
				current_syscall());
}

static __always_inline int at_check(struct capsicum_proc *p, struct at_lookup l,
				    struct dentry *dentry, struct vfsmount *mnt)
{
	struct held h;

	return at_check_held(p, l, dentry, mnt, &h);
}

/*
 * The file openat is opening gets the dirfd's rights as its floor before
 * it has a descriptor, so no other thread can use it with more. The new
 * descriptor holds that floor and needs no entry of its own (a later
 * narrowing gives it one first: protect_siblings). A full table fails
 * the open (a used-up quota with EDQUOT).
 */
static __always_inline int derive_floor(struct capsicum_proc *p,
					struct file *file, const struct held *h)
{
	struct capsicum_fd_rights e = {
		.file = (__u64)file,
		.rights = { h->rights[0], h->rights[1] },
		.fcntls = h->fcntls,
		.nioctls = h->nioctls < 0 ? -1 : 0,
	};
	int err;

	e.gen = file_gen_assign(file, p->uid, &err);
	if (!e.gen)
		return err;
	return lsm_status(floor_narrow(p, file, -1, &e));
}

static __noinline int file_open_check(struct file *file)
{
	struct capsicum_proc *p = current_proc();
	struct task_struct *task;
	struct pt_regs *regs;
	struct at_lookup l;
	struct held h;
	long nr;
	int err;

	if (!p)
		return 0;
	/* One helper call each for the task and its registers. */
	task = bpf_get_current_task_btf();
	regs = (struct pt_regs *)bpf_task_pt_regs(task);
	nr = regs->orig_ax;
	err = compat_refuse_of(p, task, nr);
	if (err)
		return err;
	if (nr == NR_openat || nr == NR_openat2) {
		/*
		 * The flags the kernel acts on: O_CREAT and O_TRUNC are still
		 * in f_flags here, and openat2's copy in user memory may have
		 * changed since the kernel read it.
		 */
		l.dirfd = (int)regs->di;
		l.need = open_need(file->f_flags);
		if (file->f_mode & FMODE_READ)
			l.need |= CAP_READ;
		if (file->f_mode & FMODE_WRITE)
			l.need |= CAP_WRITE;
	} else if (nr == NR_open || nr == NR_creat) {
		l = at_cwd(CAP_LOOKUP);
	} else {
		return 0;
	}
	err = at_check_held(p, l, file->f_path.dentry, file->f_path.mnt, &h);
	if (err || !h.limited)
		return err;
	return derive_floor(p, file, &h);
}

SEC("lsm/file_open")
int BPF_PROG(capsicum_file_open, struct file *file)
{
	return GATED(file_open_check, file);
}

/* Creating a name: mknodat, and openat(O_CREAT) before the file exists. */
SEC("lsm/path_mknod")
int BPF_PROG(capsicum_path_mknod, const struct path *dir, struct dentry *dentry,
	     umode_t mode)
{
	struct capsicum_proc *p = current_proc();
	__u64 fifo = (mode & S_IFMT) == S_IFIFO ? CAP_MKFIFOAT : CAP_MKNODAT;
	struct at_lookup l;
	__u64 flags;
	long nr;

	if (!p)
		return 0;
	if (compat_refuse(p))
		return -ENOTCAPABLE;
	nr = current_syscall();
	if (open_flags(nr, &flags))
		l = at_arg(0, open_need(flags) | CAP_CREATE);
	else if (nr == NR_mknodat)
		l = at_arg(0, fifo);
	else if (nr == NR_mknod || nr == NR_open || nr == NR_creat)
		l = at_cwd(fifo);
	else
		return 0;
	return at_check(p, l, dir->dentry, dir->mnt);
}

/*
 * The syscalls whose lookup a hook sees: the *at() forms (two numbers
 * where Linux has two), with the dirfd in argument `arg`, and the plain
 * forms that start from the working directory. NR_NONE fills a gap.
 */
#define NR_NONE -2
struct at_calls {
	long at, at2, plain, plain2;
	int arg;
	__u64 need;
};

static __always_inline int
lookup_check(struct at_calls c, struct dentry *dentry, struct vfsmount *mnt)
{
	struct capsicum_proc *p = current_proc();
	long nr;

	if (!p)
		return 0;
	if (compat_refuse(p))
		return -ENOTCAPABLE;
	nr = current_syscall();
	if (nr == c.at || nr == c.at2)
		return at_check(p, at_arg(c.arg, c.need), dentry, mnt);
	if (nr == c.plain || nr == c.plain2)
		return at_check(p, at_cwd(c.need), dentry, mnt);
	return 0;
}

SEC("lsm/path_mkdir")
int BPF_PROG(capsicum_path_mkdir, const struct path *dir)
{
	struct at_calls c = { NR_mkdirat, NR_NONE, NR_mkdir,
			      NR_NONE,	  0,	   CAP_MKDIRAT };

	return lookup_check(c, dir->dentry, dir->mnt);
}

/* unlinkat, with or without AT_REMOVEDIR: the parent must be beneath. */
SEC("lsm/path_unlink")
int BPF_PROG(capsicum_path_unlink, const struct path *dir)
{
	struct at_calls c = { NR_unlinkat, NR_NONE, NR_unlink,
			      NR_NONE,	   0,	    CAP_UNLINKAT };

	return lookup_check(c, dir->dentry, dir->mnt);
}

SEC("lsm/path_rmdir")
int BPF_PROG(capsicum_path_rmdir, const struct path *dir)
{
	struct at_calls c = { NR_unlinkat, NR_NONE, NR_rmdir,
			      NR_NONE,	   0,	    CAP_UNLINKAT };

	return lookup_check(c, dir->dentry, dir->mnt);
}

/* symlinkat(target, newdirfd, linkpath): the target is not looked up. */
SEC("lsm/path_symlink")
int BPF_PROG(capsicum_path_symlink, const struct path *dir)
{
	struct at_calls c = { NR_symlinkat, NR_NONE, NR_symlink,
			      NR_NONE,	    1,	     CAP_SYMLINKAT };

	return lookup_check(c, dir->dentry, dir->mnt);
}

/* Both ends are on new_dir's mount: linkat refuses EXDEV before. */
SEC("lsm/path_link")
int BPF_PROG(capsicum_path_link, struct dentry *old_dentry,
	     const struct path *new_dir)
{
	struct at_calls src = { NR_linkat, NR_NONE, NR_link,
				NR_NONE,   0,	    CAP_LINKAT_SOURCE };
	struct at_calls dst = { NR_linkat, NR_NONE, NR_link,
				NR_NONE,   2,	    CAP_LINKAT_TARGET };

	return lookup_check(src, old_dentry, new_dir->mnt)
		       ?: lookup_check(dst, new_dir->dentry, new_dir->mnt);
}

SEC("lsm/path_rename")
int BPF_PROG(capsicum_path_rename, const struct path *old_dir,
	     struct dentry *old_dentry, const struct path *new_dir)
{
	struct at_calls src = { NR_renameat, NR_renameat2,
				NR_rename,   NR_NONE,
				0,	     CAP_RENAMEAT_SOURCE };
	struct at_calls dst = { NR_renameat, NR_renameat2,
				NR_rename,   NR_NONE,
				2,	     CAP_RENAMEAT_TARGET };

	return lookup_check(src, old_dir->dentry, old_dir->mnt)
		       ?: lookup_check(dst, new_dir->dentry, new_dir->mnt);
}

/* fchmod and fchown are inode_setattr's: they check the descriptor. */
SEC("lsm/path_chmod")
int BPF_PROG(capsicum_path_chmod, const struct path *path)
{
	struct at_calls c = { NR_fchmodat, NR_fchmodat2, NR_chmod, NR_NONE,
			      0,	   CAP_FCHMODAT };

	return lookup_check(c, path->dentry, path->mnt);
}

SEC("lsm/path_chown")
int BPF_PROG(capsicum_path_chown, const struct path *path)
{
	struct at_calls c = { NR_fchownat, NR_NONE, NR_chown,
			      NR_lchown,   0,	    CAP_FCHOWNAT };

	return lookup_check(c, path->dentry, path->mnt);
}

SEC("lsm/inode_readlink")
int BPF_PROG(capsicum_inode_readlink, struct dentry *dentry)
{
	struct at_calls c = { NR_readlinkat, NR_NONE, NR_readlink,
			      NR_NONE,	     0,	      CAP_LOOKUP };

	return lookup_check(c, dentry, NULL);
}

/*
 * fstatat/statx through a path (the fd forms are inode_getattr's, in
 * hooks_file.bpf.h), and stat/lstat in capability mode.
 */
static __always_inline int stat_at_check(struct capsicum_proc *p, long nr,
					 const struct path *path)
{
	if (nr == NR_newfstatat || nr == NR_statx)
		return at_check(p, at_arg(0, CAP_FSTATAT), path->dentry,
				path->mnt);
	if (nr == NR_stat || nr == NR_lstat)
		return at_check(p, at_cwd(CAP_FSTATAT), path->dentry,
				path->mnt);
	return 0;
}

/* utimensat(dirfd, path, ...) and futimesat with a path. */
static __always_inline int utimes_at_check(struct capsicum_proc *p, long nr,
					   struct dentry *dentry)
{
	if (nr == NR_utimensat || nr == NR_futimesat)
		return at_check(p, at_arg(0, CAP_FUTIMESAT), dentry, NULL);
	if (nr == NR_utime || nr == NR_utimes)
		return at_check(p, at_cwd(CAP_FUTIMESAT), dentry, NULL);
	return 0;
}

/* execveat(dirfd, path) and execve; fexecve is checked in track.bpf.h. */
static __always_inline int exec_at_check(struct capsicum_proc *p, long nr,
					 struct file *file)
{
	if (nr == NR_execveat)
		return at_check(p, at_arg(0, CAP_FEXECVE | CAP_LOOKUP),
				file->f_path.dentry, file->f_path.mnt);
	if (nr == NR_execve)
		return at_check(p, at_cwd(CAP_FEXECVE | CAP_LOOKUP),
				file->f_path.dentry, file->f_path.mnt);
	return 0;
}

/*
 * A script's interpreter (binfmt_script, binfmt_misc) is opened by the
 * path its first line names: capability mode refuses to run it, as
 * FreeBSD refuses the lookup. The interpreter's name replaced the
 * program's in bprm->interp when this runs for it.
 */
SEC("lsm/bprm_check_security")
int BPF_PROG(capsicum_bprm_check, struct linux_binprm *bprm)
{
	struct capsicum_proc *p = current_proc();

	if (!p || !in_capmode(p) || bprm->interp == bprm->filename)
		return 0;
	return capmode_refuse(CAPSICUM_HOOK_EXEC, -1);
}

#endif
