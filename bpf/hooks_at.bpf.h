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
#include "exec.bpf.h"
#include "table.bpf.h"
#include "syscalls_at.bpf.h"

#define S_IFDIR 0040000

static __always_inline int deny(__u32 error, int fd, __u64 need,
				const struct held *h)
{
	return refuse(CAPSICUM_HOOK_LOOKUP, error, fd, need, 0, h);
}

/*
 * The lookup l reached (dentry, mnt); mnt NULL if the hook cannot see the
 * mount. Returns 0 or the negative errno the syscall fails with; *h gets
 * the dirfd's rights.
 */
static __always_inline int at_check_held(struct capsicum_proc *p,
					 struct opt_need l,
					 struct dentry *dentry,
					 struct vfsmount *mnt, struct held *h)
{
	struct file *dir;

	held_all(h, l.fd);
	if (l.fd == AT_FDCWD)
		return in_capmode(p)
			       ? capmode_refuse(CAPSICUM_HOOK_LOOKUP, l.fd)
			       : 0;
	dir = fd_file(l.fd);
	if (!dir) /* closed while the lookup ran: fail closed */
		return deny(ENOTCAPABLE, l.fd, l.need, NULL);
	held_rights(p, dir, l.fd, h);
	if (!h->limited && !in_capmode(p))
		return 0;
	if (h->limited && !rights_contain(h->rights, l.need, 0))
		return deny(ENOTCAPABLE, l.fd, l.need, h);
	if (!beneath(dentry, mnt, dir))
		return deny(ENOTCAPABLE, l.fd, l.need, h);
	return 0;
}

/*
 * A path hook whose request is of no syscall it knows. A request of
 * unknown origin (io_uring, i386, x32: call_of) is refused for a table
 * that could restrict it. A native syscall the hook does not list makes
 * a lookup of its own, from the working directory (bind of a unix
 * socket, exec's interpreter, mq_open...): capability mode refuses it,
 * as FreeBSD's namei refuses every lookup there not made through a
 * dirfd; other processes may. The kernel's own (a core dump) may.
 */
static __always_inline int other_lookup(struct capsicum_proc *p, long nr,
					__u32 hook)
{
	if (nr == NR_KERNEL)
		return 0;
	if (nr == NR_UNKNOWN)
		return unknown_refuse(p, hook);
	return in_capmode(p) ? capmode_refuse(hook, -1) : 0;
}

static __always_inline int at_check(struct capsicum_proc *p, struct opt_need l,
				    struct dentry *dentry, struct vfsmount *mnt)
{
	struct held h;

	return at_check_held(p, l, dentry, mnt, &h);
}

/*
 * Every step of a path walk: before the kernel looks a name up in a
 * directory, may_lookup() asks inode_permission(dir, MAY_EXEC), in RCU
 * walk too, and the walk's struct nameidata (current->nameidata) says
 * which walk it is: nd->path is the directory about to be searched and
 * nd->dfd the descriptor the walk started from. A walk from a restricted
 * dirfd (every dirfd in capability mode, or one with limited rights)
 * must search only directories at or beneath it, and needs the dirfd's
 * CAP_LOOKUP: so no name outside is ever looked up, and the errno is
 * ENOTCAPABLE whether it exists or not. An absolute path or symlink
 * starts its search at the root (outside); `..` moves up without a
 * search, so the next name's search is refused, and a path that ends
 * above (`..` last) meets the final-object check of the hooks above.
 *
 * Only a search counts: MAY_EXEC alone on a directory. Other checks
 * made while nd is set (may_open of the object, a create or O_TMPFILE in
 * the parent, execveat(fd, "", AT_EMPTY_PATH) of a descriptor without
 * CAP_LOOKUP) are the final object's, which the hooks above check. A
 * check outside a walk (nd NULL) is no lookup. A walk from the working
 * directory (AT_FDCWD, also the kernel's own walks, nested in another
 * or not) is left to the hooks above, which refuse a process's own in
 * capability mode.
 */
static __noinline int walk_check(struct inode *inode, int mask)
{
	struct nameidata *nd;
	struct capsicum_proc *p;
	struct file *dir;
	struct held h;
	int dfd;

	if ((mask & ~MAY_NOT_BLOCK) != MAY_EXEC ||
	    (inode->i_mode & S_IFMT) != S_IFDIR)
		return 0;
	nd = bpf_get_current_task_btf()->nameidata;
	if (!nd)
		return 0;
	p = current_proc();
	if (!p || (!in_capmode(p) && !table_limited(p)))
		return 0;
	dfd = nd->dfd;
	if (dfd == AT_FDCWD)
		return 0;
	dir = fd_file(dfd);
	if (!dir) /* closed while the walk ran: fail closed */
		return deny(ENOTCAPABLE, dfd, CAP_LOOKUP, NULL);
	held_rights(p, dir, dfd, &h);
	if (!h.limited && !in_capmode(p))
		return 0;
	if (h.limited && !rights_contain(h.rights, CAP_LOOKUP, 0))
		return deny(ENOTCAPABLE, dfd, CAP_LOOKUP, &h);
	if (!beneath(nd->path.dentry, nd->path.mnt, dir))
		return deny(ENOTCAPABLE, dfd, CAP_LOOKUP, &h);
	return 0;
}

OPT_NEED_OF(chdir_need_of, CAPSICUM_OPS_CHDIR)

/*
 * fchdir(fd): before it makes the descriptor's directory the working
 * directory, the kernel asks inode_permission(dir, MAY_EXEC | MAY_CHDIR)
 * (chdir and chroot ask it of a path's): the descriptor the table's row
 * names needs the row's rights. Through the working directory a process
 * outside capability mode would otherwise reach, with every right, a
 * directory it holds only limited (one from outside its chroot, say).
 * A descriptor that no longer holds that directory (another thread
 * replaced it during the call) fails closed; a chdir or chroot by path
 * is no descriptor's (capability mode refuses both at their entry). An
 * i386 or x32 call's registers are not read: refused where a limit could
 * apply, as for every path call of unknown origin. The patched kernel
 * does not load this program (lookup_beneath.bpf.h): file_fget decides
 * fchdir there, its i386 and x32 forms by the same row (fget.bpf.h).
 */
static __noinline int chdir_check(struct inode *inode)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct pt_regs *regs = (struct pt_regs *)bpf_task_pt_regs(task);
	long nr = call_of(task, regs);
	struct capsicum_proc *p = current_proc();
	struct opt_need n;
	struct file *f;

	if (!p || nr == NR_KERNEL)
		return 0;
	if (nr == NR_UNKNOWN)
		return unknown_refuse(p, CAPSICUM_HOOK_INODE_PERMISSION);
	n = chdir_need_of(regs, nr);
	if (!n.need)
		return 0;
	f = fd_file(n.fd);
	if (!f || BPF_CORE_READ(f, f_inode) != inode) {
		return refuse(CAPSICUM_HOOK_INODE_PERMISSION, ENOTCAPABLE, n.fd,
			      n.need, 0, NULL);
	}
	return require_row(p, f, n.fd, n.need, CAPSICUM_HOOK_INODE_PERMISSION);
}

/* (struct inode *inode, int mask), read past the gate (CTX_ARG). */
SEC("lsm/inode_permission")
int capsicum_inode_permission(unsigned long long *ctx)
{
	int mask;

	if (no_capsicum_state())
		return 0;
	mask = CTX_ARG(int, 1);
	if (mask & MAY_CHDIR)
		return chdir_check(CTX_ARG(struct inode *, 0));
	return walk_check(CTX_ARG(struct inode *, 0), mask);
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

/*
 * A floor keeps no ioctl list, so a file opened through a directory
 * descriptor with one gets a floor that allows no ioctl. Its new
 * descriptor gets the list once it has a number, at openat's exit
 * (track.bpf.h: ioctls_inherit), from the directory descriptor recorded
 * in ioctls_pending (maps.bpf.h), if it still holds the same directory.
 * Every openat's file_open comes here, so a record left by an open that
 * failed later never stands for another file that reuses the address.
 */
static __always_inline void ioctls_pend(struct file *file, const struct held *h,
					bool derived)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct ioctls_pending *x;

	if (!derived || h->fd < 0 || h->nioctls <= 0) {
		/* Every ioctl (the floor says so), or none: nothing to copy. */
		if (!task->bpf_storage)
			return;
		x = bpf_task_storage_get(&ioctls_pending, task, 0, 0);
		if (x)
			x->file = 0;
		return;
	}
	x = bpf_task_storage_get(&ioctls_pending, task, 0,
				 BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!x)
		return; /* no memory: the floor allows no ioctl */
	x->dir = (__u64)fd_file(h->fd);
	x->dirfd = h->fd;
	x->file = (__u64)file;
}

static __noinline int file_open_check(struct file *file)
{
	struct capsicum_proc *p = current_proc();
	struct task_struct *task;
	struct pt_regs *regs;
	struct opt_call c = { .file = file, .fd = -1 };
	struct opt_need l;
	struct held h;
	long nr;
	int err;

	if (!p)
		return 0;
	/* One helper call each for the task and its registers. */
	task = bpf_get_current_task_btf();
	regs = (struct pt_regs *)bpf_task_pt_regs(task);
	nr = call_of(task, regs);
	if (nr == NR_openat || nr == NR_openat2) {
		/* The rule reads the flags the kernel acts on, in the file. */
		c.regs = regs;
		l = at_need_of2(c, nr, NR_openat, NR_openat2);
	} else if (nr == NR_open || nr == NR_creat) {
		l = at_cwd();
	} else if (nr == NR_execve || nr == NR_execveat) {
		/*
		 * The program (bprm_creds_for_exec checks how it was named),
		 * or, once bprm_check_security has let it through, an
		 * interpreter: capability mode refuses that (and normally
		 * never gets here: exec_read_check, or on the patched
		 * kernel capsicum_exec_interp).
		 */
		if (in_capmode(p) && exec_state_of())
			return capmode_refuse(CAPSICUM_HOOK_EXEC, -1);
		return 0;
	} else if ((nr == NR_clone || nr == NR_clone3) &&
		   file->f_path.mnt->mnt_sb->s_magic == PIDFS_MAGIC) {
		/*
		 * CLONE_PIDFD: since 6.9 the kernel opens the new child's
		 * pidfd on pidfs through dentry_open. No name is looked up;
		 * this is pdfork's process descriptor.
		 */
		return 0;
	} else {
		return other_lookup(p, nr, CAPSICUM_HOOK_FILE_OPEN);
	}
	err = at_check_held(p, l, file->f_path.dentry, file->f_path.mnt, &h);
	if (!err && h.limited)
		err = derive_floor(p, file, &h);
	if (nr == NR_openat || nr == NR_openat2)
		ioctls_pend(file, &h, !err && h.limited);
	return err;
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
	struct opt_need l;
	long nr;

	if (!p)
		return 0;
	/*
	 * A device node is a way to any device: FreeBSD has them only in
	 * devfs, so capability mode there cannot make one. FIFOs, sockets
	 * and plain files stay allowed.
	 */
	nr = current_call();
	if (in_capmode(p) &&
	    ((mode & S_IFMT) == S_IFCHR || (mode & S_IFMT) == S_IFBLK)) {
		/* A missing right is reported first, as on FreeBSD. */
		if (nr == NR_mknodat) {
			int err = at_check(p, at_row(NR_mknodat), dir->dentry,
					   dir->mnt);

			if (err)
				return err;
		}
		return capmode_refuse(CAPSICUM_HOOK_LOOKUP, -1);
	}
	/* openat(O_CREAT) before the file exists, and mknodat. */
	if (nr == NR_openat)
		l = at_row(NR_openat);
	else if (nr == NR_openat2)
		l = at_row(NR_openat2);
	else if (nr == NR_mknodat)
		l = at_row(NR_mknodat);
	else if (nr == NR_mknod || nr == NR_open || nr == NR_creat)
		l = at_cwd();
	else
		return other_lookup(p, nr, CAPSICUM_HOOK_LOOKUP);
	return at_check(p, l, dir->dentry, dir->mnt);
}

/*
 * The syscalls whose lookup a hook sees: the *at() forms (two numbers
 * where Linux has two), whose rights and dirfd their rows in the table
 * give, and the plain
 * forms that start from the working directory. NR_NONE fills a gap.
 * `by_fd`: the descriptor form that reaches the hook with no lookup
 * (fchmod, fchown); inode_setattr checks its right on the descriptor.
 */
#define NR_NONE -2
struct at_calls {
	long at, at2, plain, plain2;
	long by_fd;
};

/* target: the lookup is the target end of a two-dirfd call. */
static __always_inline int lookup_check_end(struct at_calls a, bool target,
					    struct dentry *dentry,
					    struct vfsmount *mnt)
{
	struct capsicum_proc *p = current_proc();
	struct opt_call c = { .fd = -1, .target = target };
	long nr;

	if (!p)
		return 0;
	nr = current_call();
	if (a.by_fd > 0 && nr == a.by_fd)
		return 0;
	if (nr == a.at || nr == a.at2) {
		c.regs = current_regs();
		return at_check(p, at_need_of2(c, nr, a.at, a.at2), dentry,
				mnt);
	}
	if (nr == a.plain || nr == a.plain2)
		return at_check(p, at_cwd(), dentry, mnt);
	return other_lookup(p, nr, CAPSICUM_HOOK_LOOKUP);
}

static __always_inline int
lookup_check(struct at_calls a, struct dentry *dentry, struct vfsmount *mnt)
{
	return lookup_check_end(a, false, dentry, mnt);
}

SEC("lsm/path_mkdir")
int BPF_PROG(capsicum_path_mkdir, const struct path *dir)
{
	struct at_calls c = { NR_mkdirat, NR_NONE, NR_mkdir, NR_NONE, NR_NONE };

	return lookup_check(c, dir->dentry, dir->mnt);
}

/* unlinkat, with or without AT_REMOVEDIR: the parent must be beneath. */
SEC("lsm/path_unlink")
int BPF_PROG(capsicum_path_unlink, const struct path *dir)
{
	struct at_calls c = { NR_unlinkat, NR_NONE, NR_unlink, NR_NONE,
			      NR_NONE };

	return lookup_check(c, dir->dentry, dir->mnt);
}

SEC("lsm/path_rmdir")
int BPF_PROG(capsicum_path_rmdir, const struct path *dir)
{
	struct at_calls c = { NR_unlinkat, NR_NONE, NR_rmdir, NR_NONE,
			      NR_NONE };

	return lookup_check(c, dir->dentry, dir->mnt);
}

/* symlinkat(target, newdirfd, linkpath): the target is not looked up. */
SEC("lsm/path_symlink")
int BPF_PROG(capsicum_path_symlink, const struct path *dir)
{
	struct at_calls c = { NR_symlinkat, NR_NONE, NR_symlink, NR_NONE,
			      NR_NONE };

	return lookup_check(c, dir->dentry, dir->mnt);
}

/* A call naming two dirfds: the source's lookup, then the target's. */
static __always_inline int lookup_check2(struct at_calls a,
					 struct dentry *src_dentry,
					 struct vfsmount *src_mnt,
					 const struct path *dst_dir)
{
	return lookup_check_end(a, false, src_dentry, src_mnt)
		       ?: lookup_check_end(a, true, dst_dir->dentry,
					   dst_dir->mnt);
}

/* Both ends are on new_dir's mount: linkat refuses EXDEV before. */
SEC("lsm/path_link")
int BPF_PROG(capsicum_path_link, struct dentry *old_dentry,
	     const struct path *new_dir)
{
	struct at_calls c = { NR_linkat, NR_NONE, NR_link, NR_NONE, NR_NONE };

	return lookup_check2(c, old_dentry, new_dir->mnt, new_dir);
}

SEC("lsm/path_rename")
int BPF_PROG(capsicum_path_rename, const struct path *old_dir,
	     struct dentry *old_dentry, const struct path *new_dir)
{
	struct at_calls c = { NR_renameat, NR_renameat2, NR_rename, NR_NONE,
			      NR_NONE };

	return lookup_check2(c, old_dir->dentry, old_dir->mnt, new_dir);
}

/*
 * fchmod and fchown reach these hooks too: no lookup, so nothing to
 * refuse here (capability mode allows them, as FreeBSD does), and
 * inode_setattr checks CAP_FCHMOD/CAP_FCHOWN on the descriptor.
 */
SEC("lsm/path_chmod")
int BPF_PROG(capsicum_path_chmod, const struct path *path)
{
	struct at_calls c = { NR_fchmodat, NR_fchmodat2, NR_chmod, NR_NONE,
			      NR_fchmod };

	return lookup_check(c, path->dentry, path->mnt);
}

SEC("lsm/path_chown")
int BPF_PROG(capsicum_path_chown, const struct path *path)
{
	struct at_calls c = { NR_fchownat, NR_NONE, NR_chown, NR_lchown,
			      NR_fchown };

	return lookup_check(c, path->dentry, path->mnt);
}

SEC("lsm/inode_readlink")
int BPF_PROG(capsicum_inode_readlink, struct dentry *dentry)
{
	struct at_calls c = { NR_readlinkat, NR_NONE, NR_readlink, NR_NONE,
			      NR_NONE };

	return lookup_check(c, dentry, NULL);
}

/*
 * A call whose row decides between a lookup from the dirfd and (an empty
 * path) the descriptor itself, reached through a hook that sees the
 * object (obj, on mnt: NULL where the hook does not see the mount). The
 * descriptor is the object if its file has obj (and obj_mnt, if not
 * NULL); then its right is required of it, else a lookup's, at_check's.
 */
static __always_inline int at_or_fd_check(struct capsicum_proc *p, long nr,
					  long a, long b, struct dentry *obj,
					  struct vfsmount *obj_mnt,
					  struct vfsmount *mnt, __u32 hook)
{
	struct opt_call c = {
		.regs = current_regs(), .obj = obj, .obj_mnt = obj_mnt, .fd = -1
	};
	struct opt_need l = at_need_of2(c, nr, a, b);

	if (l.file)
		return require(p, l.file, l.fd, l.need, 0, hook);
	if (!l.need)
		return 0; /* no lookup, no descriptor at the object */
	return at_check(p, l, obj, mnt);
}

/*
 * fstatat/statx (the fd forms, AT_EMPTY_PATH, on the descriptor), and
 * stat/lstat in capability mode; fstat is inode_getattr's, in
 * hooks_file.bpf.h.
 */
static __always_inline int stat_at_check(struct capsicum_proc *p, long nr,
					 const struct path *path)
{
	if (nr == NR_newfstatat || nr == NR_statx)
		return at_or_fd_check(p, nr, NR_newfstatat, NR_statx,
				      path->dentry, path->mnt, path->mnt,
				      CAPSICUM_HOOK_INODE_GETATTR);
	if (nr == NR_stat || nr == NR_lstat)
		return at_check(p, at_cwd(), path->dentry, path->mnt);
	/* Other syscalls' own getattr (a copy-up, a loop device) may. */
	return nr == NR_UNKNOWN ? unknown_refuse(p, CAPSICUM_HOOK_INODE_GETATTR)
				: 0;
}

/* utimensat(dirfd, path, ...) and futimesat, futimens (a NULL path). */
static __always_inline int utimes_at_check(struct capsicum_proc *p, long nr,
					   struct dentry *dentry)
{
	if (nr == NR_utimensat || nr == NR_futimesat)
		return at_or_fd_check(p, nr, NR_utimensat, NR_futimesat, dentry,
				      NULL, NULL, CAPSICUM_HOOK_INODE_SETATTR);
	if (nr == NR_utime || nr == NR_utimes)
		return at_check(p, at_cwd(), dentry, NULL);
	return nr == NR_UNKNOWN ? unknown_refuse(p, CAPSICUM_HOOK_INODE_SETATTR)
				: 0;
}

/*
 * execveat(dirfd, path) and execve; fexecve (execveat(fd, "", ...,
 * AT_EMPTY_PATH)) runs the descriptor's file: the one with the
 * program's dentry.
 */
static __always_inline int exec_at_check(struct capsicum_proc *p, long nr,
					 struct file *file)
{
	if (nr == NR_execveat)
		return at_or_fd_check(p, nr, NR_execveat, NR_execveat,
				      file->f_path.dentry, NULL,
				      file->f_path.mnt, CAPSICUM_HOOK_EXEC);
	if (nr == NR_execve)
		return at_check(p, at_cwd(), file->f_path.dentry,
				file->f_path.mnt);
	return nr == NR_UNKNOWN ? unknown_refuse(p, CAPSICUM_HOOK_EXEC) : 0;
}

#endif
