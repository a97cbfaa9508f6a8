/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The BPF side of include/capsicum/optable.h: its rows' x86-64 numbers
 * as NR_name, and its refining rules as functions. A hook's decision is
 * an expansion of the table's rows into `case NR: rule(row)` lines
 * (OPT_STOCK_CASE for file_permission and the *at() hooks,
 * OPT_FGET_CASE for the patched kernel's file_fget), so the right a
 * call needs is written once, in its row, and each rule once, here.
 */
#ifndef CAPSICUM_OPTABLE_BPF_H
#define CAPSICUM_OPTABLE_BPF_H

#include "state.bpf.h"
#include <capsicum/optable.h>

/* NR_name: the row's x86-64 number, what call_of returns for it. */
enum {
#define OPT_NR_ENUM(name, nr64, ...) NR_##name = (nr64),
	CAPSICUM_OPS(OPT_NR_ENUM)
#undef OPT_NR_ENUM
};

/* A right without its rights-word index bits, to take it out of rights. */
#define OPT_BITS(right) ((right) & ((1ULL << 57) - 1))
/* Which of struct fget_need's words a row's rights (one word) are in. */
#define OPT_IDX(rights) (((rights) >> 58) & 1)

/*
 * The call a rule decides for. The file_permission hook knows the
 * direction (mask: MAY_READ or MAY_WRITE) but not the descriptor: the
 * rule names the descriptor. The fget hook (fget: a constant, so the
 * inlined rule keeps one of its two halves) knows the descriptor and
 * its file: the rule gives what that descriptor needs in this call, 0
 * when it is not one the row names. An *at() hook knows what the
 * lookup reached (obj; obj_mnt NULL where the hook does not see the
 * mount) and, for two_dirfds, which end it checks (target); file_open
 * knows the file being opened (file). The rule names the dirfd. The
 * mapping hooks know the protection the kernel settled on (prot, after
 * READ_IMPLIES_EXEC) and whether the mapping is shared; the control
 * hooks their command (cmd), which a rule uses only without a row
 * (opt_cmd); the socket hooks whether a message names a destination
 * (named).
 */
struct opt_call {
	const struct pt_regs *regs;
	struct file *file;
	struct dentry *obj;
	struct vfsmount *obj_mnt;
	unsigned long prot;
	unsigned int cmd;
	int fd;
	int mask;
	bool fget;
	bool target;
	bool shared;
	bool named;
};

/*
 * What a rule decides: the descriptor checked and the rights it needs
 * (fcntls: the CAP_FCNTL_* sub-rights too, for fcntl_cmd).
 * file: set when an *at() call acts on its descriptor itself (an empty
 * path) rather than looking a name up from it; the descriptor's file.
 */
struct opt_need {
	int fd;
	__u64 need;
	__u32 fcntls;
	struct file *file;
};

/*
 * A row of one descriptor argument (fds: OPT_ARG(n)) needing `need`.
 * file_permission checks that argument. fget asks `need` of every
 * descriptor the call looks up: these calls look up only their
 * descriptor argument (or, poll and select, those of their sets).
 */
static __always_inline struct opt_need opt_one(const struct opt_call *c,
					       __u32 fds, __u64 need)
{
	struct opt_need n = { .fd = c->fd, .need = need };

	if (!c->fget && fds && !(fds & OPT_ARGSETS))
		n.fd = (int)regs_arg(c->regs, __builtin_ctz(fds));
	return n;
}

/* require() of a right of either word: a row's rights are all of one. */
static __always_inline int require_row(struct capsicum_proc *p, struct file *f,
				       int fd, __u64 need, __u32 hook)
{
	if (OPT_IDX(need))
		return require(p, f, fd, 0, need, hook);
	return require(p, f, fd, need, 0, hook);
}

/*
 * The rules, one function each, named after CAPSICUM_OPT_RULES' names:
 * opt_rule_NAME(call, nr, fds, rights) refines the row's rights from the
 * call's arguments. nr is the row's number, a constant where the
 * expansion inlines the rule.
 */

static __always_inline struct opt_need
opt_rule_none(const struct opt_call *c, long nr, __u32 fds, __u64 rights)
{
	return opt_one(c, fds, rights);
}

/* The widest rights a rule can ask (CAPSICUM_OPT_RULES' may). */
static __always_inline __u64 opt_rule_may(enum opt_rule rule)
{
	switch (rule) {
#define OPT_RULE_MAY_CASE(rule, may, fcntls, what)                             \
	case OPT_RULE_##rule:                                                  \
		return (may);
		CAPSICUM_OPT_RULES(OPT_RULE_MAY_CASE)
#undef OPT_RULE_MAY_CASE
	}
	return 0;
}

/*
 * io_submit: a stock kernel sees an iocb's read or write at
 * file_permission, with no descriptor (the file's floor); every AIO read
 * or write is at an offset. The patched kernel's fget sees the iocb's
 * descriptor before io_submit reads its opcode (from its own copy of the
 * iocb, which no hook sees), and nothing checks the file after it there
 * (file_permission is not loaded: admin/load.c): the descriptor needs
 * every right any iocb can ask of it.
 */
static __always_inline struct opt_need
opt_rule_aio_op(const struct opt_call *c, long nr, __u32 fds, __u64 rights)
{
	struct opt_need n = { .fd = c->fget ? c->fd : -1, .need = rights };

	if (c->fget)
		n.need |= opt_rule_may(OPT_RULE_aio_op);
	else
		n.need |= c->mask & MAY_READ ? CAP_READ : CAP_WRITE;
	return n;
}

/*
 * fanotify_mark(fanotify_fd, flags, mask, dirfd, path): the fanotify
 * descriptor needs the row's rights; the dirfd (target, on a stock hook)
 * CAP_FSTAT, and CAP_LOOKUP with a path (the fget hook's walk asks that).
 */
static __always_inline struct opt_need
opt_rule_fanotify_ends(const struct opt_call *c, long nr, __u32 fds,
		       __u64 rights)
{
	int nfd = (int)SYS_ARG1(c->regs), dfd = (int)SYS_ARG4(c->regs);
	struct opt_need n = { .fd = c->fd };

	if (!c->fget) {
		n.fd = c->target ? dfd : nfd;
		n.need = c->target ? CAP_FSTAT | (SYS_ARG5(c->regs) ? CAP_LOOKUP
								    : 0)
				   : rights;
		return n;
	}
	if (nfd == c->fd)
		n.need = rights;
	else if (dfd == c->fd)
		n.need = CAP_FSTAT;
	return n;
}

/* preadv2/pwritev2(fd, iov, n, offset, ...): -1 is "the file position". */
static __always_inline struct opt_need
opt_rule_offset_ptr(const struct opt_call *c, long nr, __u32 fds, __u64 rights)
{
	return opt_one(c, fds,
		       rights | ((long)SYS_ARG4(c->regs) != -1 ? CAP_SEEK : 0));
}

/* lseek(fd, offset, whence): asking where it is, not moving it. */
static __always_inline struct opt_need
opt_rule_lseek_whence(const struct opt_call *c, long nr, __u32 fds,
		      __u64 rights)
{
	bool tell =
		(int)SYS_ARG3(c->regs) == SEEK_CUR && SYS_ARG2(c->regs) == 0;

	return opt_one(c, fds, tell ? CAP_SEEK_TELL : rights);
}

/* timerfd_settime(fd, flags, new, old): old reads the timer back. */
static __always_inline struct opt_need
opt_rule_old_value(const struct opt_call *c, long nr, __u32 fds, __u64 rights)
{
	return opt_one(c, fds, rights | (SYS_ARG4(c->regs) ? CAP_READ : 0));
}

/*
 * The command of an ioctl or fcntl row: its second argument. Without a
 * row (nr -1) the hook's own (c->cmd), which file_lock's is not: there
 * it is a lock type.
 */
static __always_inline unsigned int opt_cmd(const struct opt_call *c, long nr)
{
	return nr < 0 ? c->cmd : (unsigned int)SYS_ARG2(c->regs);
}

/*
 * mmap/mprotect: FreeBSD's rule, under which writing needs CAP_MMAP_W
 * only where the writes reach the file (a shared mapping).
 */
static __always_inline struct opt_need
opt_rule_mmap_prot(const struct opt_call *c, long nr, __u32 fds, __u64 rights)
{
	unsigned long prot = c->prot;
	bool shared = c->shared;
	__u64 need = rights;

	/*
	 * The fget hook sees mmap(addr, len, prot, flags, fd, off) before
	 * the kernel settles the protection: PROT_READ is PROT_EXEC too
	 * under READ_IMPLIES_EXEC (even where a noexec mount keeps the
	 * kernel from adding it: stricter, never wider).
	 */
	if (c->fget) {
		prot = SYS_ARG3(c->regs);
		shared = (SYS_ARG4(c->regs) & MAP_TYPE) != MAP_PRIVATE;
		if ((prot & PROT_READ) &&
		    (bpf_get_current_task_btf()->personality &
		     READ_IMPLIES_EXEC))
			prot |= PROT_EXEC;
	}
	if (prot & PROT_READ)
		need |= CAP_MMAP_R;
	if ((prot & PROT_WRITE) && shared)
		need |= CAP_MMAP_W;
	if (prot & PROT_EXEC)
		need |= CAP_MMAP_X;
	return opt_one(c, fds, need);
}

/*
 * ioctl: CAP_IOCTL; whether the command is in the descriptor's list is
 * the hook's to check (it holds the list), FIOCLEX/FIONCLEX need nothing.
 */
static __always_inline struct opt_need
opt_rule_ioctl_list(const struct opt_call *c, long nr, __u32 fds, __u64 rights)
{
	unsigned int cmd = opt_cmd(c, nr);

	return opt_one(c, fds, cmd == FIOCLEX || cmd == FIONCLEX ? 0 : rights);
}

/* fcntl(fd, cmd, arg): Linux's commands to FreeBSD's rights. */
static __always_inline struct opt_need
opt_rule_fcntl_cmd(const struct opt_call *c, long nr, __u32 fds, __u64 rights)
{
	struct opt_need n = opt_one(c, fds, rights);

	switch (opt_cmd(c, nr)) {
	case F_DUPFD:
	case F_GETFD:
	case F_SETFD:
	case F_DUPFD_CLOEXEC:
		n.need = 0;
		break;
	case F_GETFL:
		n.fcntls = CAP_FCNTL_GETFL;
		break;
	case F_SETFL:
		n.fcntls = CAP_FCNTL_SETFL;
		break;
	case F_GETOWN:
	case F_GETOWN_EX:
		n.fcntls = CAP_FCNTL_GETOWN;
		break;
	case F_SETOWN:
	case F_SETOWN_EX:
		n.fcntls = CAP_FCNTL_SETOWN;
		break;
	/*
	 * Locks, and leases since a lease is a lock on the file, need
	 * CAP_FLOCK, not CAP_FCNTL. The seals as the 2014 series mapped
	 * them: reading them is a stat of the file, adding one changes what
	 * may be done to it, like a mode.
	 */
	case F_GETLK:
	case F_SETLK:
	case F_SETLKW:
	case F_OFD_GETLK:
	case F_OFD_SETLK:
	case F_OFD_SETLKW:
	case F_SETLEASE:
	case F_GETLEASE:
		n.need = CAP_FLOCK;
		break;
	case F_GET_SEALS:
		n.need = CAP_FSTAT;
		break;
	case F_ADD_SEALS:
		n.need = CAP_FCHMOD;
		break;
	default:
		/* Other Linux-only commands (pipe size, ...): CAP_FCNTL. */
		break;
	}
	return n;
}

/* sendto/sendmsg/sendmmsg: as on FreeBSD, a destination needs CAP_CONNECT. */
static __always_inline struct opt_need
opt_rule_msg_dest(const struct opt_call *c, long nr, __u32 fds, __u64 rights)
{
	return opt_one(c, fds, rights | (c->named ? CAP_CONNECT : 0));
}

/* The file fd names, if it is what the hook's lookup reached; else NULL. */
static __always_inline struct file *opt_fd_at_obj(const struct opt_call *c,
						  int fd)
{
	return fd_at(fd, c->obj, c->obj_mnt);
}

/* The AT_* flags of an *at() call that has them, by its signature. */
static __always_inline unsigned long opt_at_flags(const struct opt_call *c,
						  long nr)
{
	switch (nr) {
	case NR_statx: /* (dfd, path, flags, mask, buf) */
		return SYS_ARG3(c->regs);
	case NR_execveat: /* (dfd, path, argv, envp, flags) */
		return SYS_ARG5(c->regs);
	default: /* newfstatat, utimensat, faccessat2: (dfd, path, x, flags) */
		return SYS_ARG4(c->regs);
	}
}

/*
 * An empty path acts on the descriptor itself, which then needs the
 * row's right without CAP_LOOKUP (CAP_FSTAT for CAP_FSTATAT, CAP_FUTIMES
 * for CAP_FUTIMESAT).
 *
 * fget (faccessat): decided where the walk looks the descriptor up,
 * from the walk's own copy of the path.
 *
 * The stock hooks: fstatat and statx with AT_EMPTY_PATH, utimensat and
 * futimesat with a NULL path (futimens), when the descriptor is what
 * the hook's lookup reached: the need is the descriptor's (n.file).
 * Otherwise a name was looked up from the dirfd: the row's right, with
 * its CAP_LOOKUP. A NULL path looks nothing up, so with no descriptor
 * at the object there is nothing to check. utimensat's own
 * AT_EMPTY_PATH is checked as a lookup of the dirfd itself.
 */
static __always_inline struct opt_need
opt_rule_empty_path(const struct opt_call *c, long nr, __u32 fds, __u64 rights)
{
	__u64 fd_need = rights & ~OPT_BITS(CAP_LOOKUP);
	struct opt_need n = { .fd = c->fd, .need = rights };
	bool empty, null_path;

	/*
	 * The fget hook: a walk from the descriptor with a name looks it up
	 * (the row's rights); one without, or no walk at all (fstatat and
	 * statx take an empty AT_EMPTY_PATH without one), acts on it.
	 */
	if (c->fget) {
		empty = walk_from(c->fd) != WALK_NAMED;
		return opt_one(c, fds, empty ? fd_need : rights);
	}
	n.fd = (int)regs_arg(c->regs, __builtin_ctz(fds));
	null_path = (nr == NR_utimensat || nr == NR_futimesat) &&
		    !SYS_ARG2(c->regs);
	if (nr == NR_utimensat || nr == NR_futimesat)
		empty = null_path;
	else
		empty = opt_at_flags(c, nr) & AT_EMPTY_PATH;
	n.file = empty ? opt_fd_at_obj(c, n.fd) : NULL;
	if (n.file)
		n.need = fd_need;
	else if (null_path)
		n.need = 0;
	return n;
}

/*
 * execveat(dfd, path, argv, envp, flags): with AT_EMPTY_PATH and the
 * descriptor's own file being run (fexecve), the row's rights on the
 * descriptor; a path looked up from dfd adds CAP_LOOKUP there.
 */
static __always_inline struct opt_need
opt_rule_lookup_path(const struct opt_call *c, long nr, __u32 fds, __u64 rights)
{
	struct opt_need n = opt_one(c, fds, rights | CAP_LOOKUP);

	if (!c->fget && (opt_at_flags(c, nr) & AT_EMPTY_PATH))
		n.file = opt_fd_at_obj(c, n.fd);
	if (n.file)
		n.need = rights;
	return n;
}

/*
 * mknodat(dfd, path, mode, dev): a FIFO adds CAP_MKFIFOAT, any other
 * node CAP_MKNODAT (the type bits are the call's: the umask leaves them
 * alone).
 */
static __always_inline struct opt_need
opt_rule_mknod_mode(const struct opt_call *c, long nr, __u32 fds, __u64 rights)
{
	bool fifo = ((__u32)SYS_ARG3(c->regs) & S_IFMT) == S_IFIFO;

	return opt_one(c, fds, rights | (fifo ? CAP_MKFIFOAT : CAP_MKNODAT));
}

/*
 * renameat/linkat(olddfd, old, newdfd, new, ...): the source's dirfd
 * (the row's first descriptor argument) needs the row's _SOURCE right,
 * the target's (its last) the _TARGET right. A hook checks the end
 * c->target says.
 */
static __always_inline struct opt_need
opt_rule_two_dirfds(const struct opt_call *c, long nr, __u32 fds, __u64 rights)
{
	__u64 src = rights & (CAP_RENAMEAT_SOURCE | CAP_LINKAT_SOURCE);
	__u64 dst = rights & (CAP_RENAMEAT_TARGET | CAP_LINKAT_TARGET);
	int sfd = (int)regs_arg(c->regs, __builtin_ctz(fds));
	int dfd = (int)regs_arg(c->regs, 31 - __builtin_clz(fds));
	struct opt_need n = { .fd = c->fd };

	if (!c->fget) {
		n.fd = c->target ? dfd : sfd;
		n.need = c->target ? dst : src;
		return n;
	}
	n.need = (sfd == c->fd ? src : 0) | (dfd == c->fd ? dst : 0);
	return n;
}

/* FreeBSD's rights for openat's flags: the row's rights and more. */
static __always_inline __u64 open_need(__u64 rights, __u64 flags)
{
	__u64 need = rights;

	if (flags & O_PATH)
		return need;
	if ((flags & O_ACCMODE) != O_WRONLY)
		need |= CAP_READ;
	if ((flags & O_ACCMODE) == O_WRONLY || (flags & O_ACCMODE) == O_RDWR) {
		need |= CAP_WRITE;
		/*
		 * FreeBSD: writing at the file position is seeking too,
		 * unless O_APPEND or O_TRUNC says where the writes go.
		 */
		if (!(flags & (O_APPEND | O_TRUNC)))
			need |= CAP_SEEK;
	}
	if (flags & (O_CREAT | __O_TMPFILE))
		need |= CAP_CREATE;
	if (flags & O_TRUNC)
		need |= CAP_FTRUNCATE;
	if (flags & O_DSYNC) /* O_SYNC includes O_DSYNC */
		need |= CAP_FSYNC;
	return need;
}

/*
 * openat(dfd, path, flags, mode), openat2(dfd, path, how, size): on the
 * dirfd. file_open passes the file being opened: its f_flags are what
 * the kernel acts on (O_CREAT and O_TRUNC still in them; openat2's
 * struct open_how in user memory may have changed since the kernel
 * read it), and its f_mode adds the access the open got. Before the
 * file exists (path_mknod) there are only the call's flags, and the
 * open creates.
 */
static __always_inline struct opt_need
opt_rule_open_flags(const struct opt_call *c, long nr, __u32 fds, __u64 rights)
{
	__u64 flags = 0, need;

	if (c->file && !c->fget) {
		need = open_need(rights, c->file->f_flags);
		if (c->file->f_mode & FMODE_READ)
			need |= CAP_READ;
		if (c->file->f_mode & FMODE_WRITE)
			need |= CAP_WRITE;
		return opt_one(c, fds, need);
	}
	if (nr == NR_openat2) /* struct open_how starts with the flags */
		bpf_probe_read_user(&flags, sizeof(flags),
				    (const void *)SYS_ARG3(c->regs));
	else
		flags = SYS_ARG3(c->regs);
	return opt_one(c, fds, open_need(rights, flags) | CAP_CREATE);
}

/*
 * Where a transfer's ends are. The fds column says which arguments are
 * descriptors, not which end each is: that is the syscall's signature.
 * An end that is no descriptor here is -1 (fget's fd never is).
 */
struct opt_ends {
	int in, out;
	bool in_seek, out_seek;
};

static __always_inline struct opt_ends opt_ends_of(const struct opt_call *c,
						   long nr)
{
	const struct pt_regs *r = c->regs;
	struct opt_ends e = { -1, -1, false, false };

	switch (nr) {
	case NR_sendfile: /* (out_fd, in_fd, *offset, count) */
		e.out = (int)SYS_ARG1(r);
		e.in = (int)SYS_ARG2(r);
		e.in_seek = SYS_ARG3(r);
		break;
	case NR_tee: /* (fd_in, fd_out, len, flags) */
		e.in = (int)SYS_ARG1(r);
		e.out = (int)SYS_ARG2(r);
		break;
	case NR_vmsplice: /* into a pipe's write end, out of its read end */
		if (c->file && (c->file->f_mode & FMODE_WRITE))
			e.out = (int)SYS_ARG1(r);
		else
			e.in = (int)SYS_ARG1(r);
		break;
	default: /* splice, copy_file_range: (fd_in, *off_in, fd_out, ...) */
		e.in = (int)SYS_ARG1(r);
		e.in_seek = SYS_ARG2(r);
		e.out = (int)SYS_ARG3(r);
		e.out_seek = SYS_ARG4(r);
	}
	return e;
}

/*
 * The input end needs the row's rights but CAP_WRITE, the output end
 * the row's rights but CAP_READ; an offset pointer on an end adds
 * CAP_SEEK there. file_permission checks the end its mask says.
 */
static __always_inline struct opt_need
opt_rule_splice_end(const struct opt_call *c, long nr, __u32 fds, __u64 rights)
{
	struct opt_ends e = opt_ends_of(c, nr);
	__u64 in = rights & ~OPT_BITS(CAP_WRITE);
	__u64 out = rights & ~OPT_BITS(CAP_READ);
	struct opt_need n = { .fd = c->fd };

	if (e.in_seek)
		in |= CAP_SEEK;
	if (e.out_seek)
		out |= CAP_SEEK;
	if (!c->fget) {
		bool rd = c->mask & MAY_READ;

		n.fd = rd ? e.in : e.out;
		n.need = rd ? in : out;
		return n;
	}
	n.need = (e.in == c->fd ? in : 0) | (e.out == c->fd ? out : 0);
	return n;
}

/*
 * epoll_ctl(epfd, op, fd, event): the epoll descriptor needs the row's
 * rights but CAP_EVENT, the descriptor added or modified (not removed)
 * the row's rights but CAP_EPOLL_CTL.
 */
static __always_inline struct opt_need
opt_rule_epoll_ends(const struct opt_call *c, long nr, __u32 fds, __u64 rights)
{
	const struct pt_regs *r = c->regs;
	struct opt_need n = { .fd = c->fd };

	if ((int)SYS_ARG1(r) == c->fd)
		n.need |= rights & ~OPT_BITS(CAP_EVENT);
	if ((int)SYS_ARG3(r) == c->fd && (int)SYS_ARG2(r) != EPOLL_CTL_DEL)
		n.need |= rights & ~OPT_BITS(CAP_EPOLL_CTL);
	return n;
}

/*
 * The rows of a section a stock hook enforces (stock verdict OPT_YES or
 * OPT_PART), as `case NR: return rule(row);`:
 *	switch (nr) { CAPSICUM_OPS_RW(OPT_STOCK_CASE) }
 * with `c`, the struct opt_call, in scope. file_permission (rw_need_of)
 * expands CAPSICUM_OPS_RW: the others there (tee, vmsplice, lseek) pass
 * no file_permission at all. The *at() hooks (at_need_of) expand
 * CAPSICUM_OPS_AT: faccessat's access check sees no dirfd.
 */
#define OPT_STOCK_CASE(name, nr64, nr32, fds, rights, rule, stock, stock_why,  \
		       patched, patched_why)                                   \
	OPT_STOCK_##stock(nr64, fds, rights, rule)
#define OPT_STOCK_OPT_YES(nr, fds, rights, rule)                               \
	case nr:                                                               \
		return opt_rule_##rule(&c, nr, fds, rights);
#define OPT_STOCK_OPT_PART OPT_STOCK_OPT_YES
#define OPT_STOCK_OPT_NO(...)
#define OPT_STOCK_OPT_LIB(...)

/*
 * fn(regs, nr): the descriptor and rights a call of family's rows needs,
 * as its row says; no rights for a call that has no row there. For the
 * hooks that know nothing of the call but its number and arguments.
 */
#define OPT_NEED_OF(fn, family)                                                \
	static __always_inline struct opt_need fn(const struct pt_regs *regs,  \
						  long nr)                     \
	{                                                                      \
		struct opt_call c = { .regs = regs, .fd = -1 };                \
                                                                               \
		switch (nr) {                                                  \
			family(OPT_STOCK_CASE)                                 \
		}                                                              \
		return (struct opt_need){ .fd = -1 };                          \
	}

/*
 * file_fget decides every row the patched kernel enforces further than
 * the stock hooks do (its verdict is better than the stock one): what
 * no stock hook sees, and what one sees only in part (splice between
 * pipes). A (stock, patched) pair not listed here fails to compile: a
 * new kind of row needs a decision here.
 *	switch (nr) { CAPSICUM_OPS(OPT_FGET_CASE) }
 * with `c`, the struct opt_call, and `n`, the struct fget_need, in scope.
 */
#define OPT_FGET_CASE(name, nr64, nr32, fds, rights, rule, stock, stock_why,   \
		      patched, patched_why)                                    \
	OPT_FGET_PICK_##stock##_##patched(OPT_FGET_ROW, nr64, fds, rights, rule)
#define OPT_FGET_ROW(nr, fds, rights, rule)                                    \
	case nr: {                                                             \
		/* A rule may ask another word than the row's (fanotify). */   \
		__u64 need_ = opt_rule_##rule(&c, nr, fds, rights).need;       \
                                                                               \
		n.need[OPT_IDX(need_)] = need_;                                \
		break;                                                         \
	}
/* M(row) for the rows file_fget decides, nothing for the others. */
#define OPT_FGET_PICK_OPT_YES_OPT_YES(...)
#define OPT_FGET_PICK_OPT_PART_OPT_PART(...)
#define OPT_FGET_PICK_OPT_NO_OPT_NO(...)
#define OPT_FGET_PICK_OPT_PART_OPT_YES(M, ...) M(__VA_ARGS__)
#define OPT_FGET_PICK_OPT_NO_OPT_YES(M, ...)   M(__VA_ARGS__)
#define OPT_FGET_PICK_OPT_NO_OPT_PART(M, ...)  M(__VA_ARGS__)
#define OPT_FGET_PICK_OPT_LIB_OPT_YES(M, ...)  M(__VA_ARGS__)

/*
 * A row file_fget decides whatever its verdicts: its stock check is not
 * loaded on the patched kernel (fchdir's, on inode_permission, which
 * the kernel's LOOKUP_BENEATH makes needless there for walks).
 */
#define OPT_FGET_ALWAYS(name, nr64, nr32, fds, rights, rule, ...)              \
	OPT_FGET_ROW(nr64, fds, rights, rule)

/*
 * The rows of the families whose stock hook the patched kernel does not
 * load (CAPSICUM_OPS_SUPERSEDED: admin/load.c), that OPT_FGET_CASE
 * leaves to it: expanded in the same switch, so that file_fget decides
 * each row of those families once.
 *	switch (nr) { CAPSICUM_OPS(OPT_FGET_CASE)
 *		      CAPSICUM_OPS_SUPERSEDED(OPT_FGET_SUPERSEDED_CASE) }
 */
#define OPT_FGET_SUPERSEDED_CASE(name, nr64, nr32, fds, rights, rule, stock,   \
				 stock_why, patched, patched_why)              \
	OPT_FGET_LEFT_##stock##_##patched(OPT_FGET_ROW, nr64, fds, rights, rule)
/*
 * M(row) for the pairs OPT_FGET_PICK leaves to a stock hook; nothing for
 * a row no kernel enforces (its patched verdict says why).
 */
#define OPT_FGET_LEFT_OPT_YES_OPT_YES(M, ...)	M(__VA_ARGS__)
#define OPT_FGET_LEFT_OPT_PART_OPT_PART(M, ...) M(__VA_ARGS__)
#define OPT_FGET_LEFT_OPT_NO_OPT_NO(...)
#define OPT_FGET_LEFT_OPT_PART_OPT_YES(...)
#define OPT_FGET_LEFT_OPT_NO_OPT_YES(...)
#define OPT_FGET_LEFT_OPT_NO_OPT_PART(...)
#define OPT_FGET_LEFT_OPT_LIB_OPT_YES(...)

/*
 * The same rows without their rule's reading of the arguments (whose
 * registers an i386 call does not use): the row's rights and every
 * right its rule can add, asked of each descriptor the call looks up.
 * Exact for a row without a rule, stricter for the others.
 *	switch (nr) { CAPSICUM_OPS(OPT_FGET_WIDEST_CASE) }
 * with `n`, the struct fget_need, in scope.
 */
#define OPT_FGET_WIDEST_CASE(name, nr64, nr32, fds, rights, rule, stock,       \
			     stock_why, patched, patched_why)                  \
	OPT_FGET_PICK_##stock##_##patched(OPT_FGET_WIDEST_ROW, nr64, fds,      \
					  rights, rule)
#define OPT_FGET_WIDEST_ALWAYS(name, nr64, nr32, fds, rights, rule, ...)       \
	OPT_FGET_WIDEST_ROW(nr64, fds, rights, rule)
#define OPT_FGET_WIDEST_SUPERSEDED_CASE(name, nr64, nr32, fds, rights, rule,   \
					stock, stock_why, patched,             \
					patched_why)                           \
	OPT_FGET_LEFT_##stock##_##patched(OPT_FGET_WIDEST_ROW, nr64, fds,      \
					  rights, rule)
#define OPT_FGET_WIDEST_ROW(nr, fds, rights, rule)                             \
	case nr: {                                                             \
		/* Each rule's may is of one word, maybe not the row's. */     \
		__u64 may_ = opt_rule_may(OPT_RULE_##rule);                    \
                                                                               \
		n.need[OPT_IDX(rights)] |= (rights);                           \
		if (may_)                                                      \
			n.need[OPT_IDX(may_)] |= may_;                         \
		break;                                                         \
	}

/* `case` of a row's i386 number, or of another number of it: its row's. */
#define OPT_I386_TO_NR(name, nr64, nr32, ...)                                  \
	case nr32:                                                             \
		return nr64;
#define OPT_OTHER_TO_NR(name, nr)                                              \
	case nr:                                                               \
		return NR_##name;

/* The x86-64 number of an i386 call's row, NR_UNKNOWN if none. */
static __always_inline long nr_of_i386(long nr32)
{
	switch (nr32) {
		CAPSICUM_OPS(OPT_I386_TO_NR)
		CAPSICUM_OPT_I386_NRS(OPT_OTHER_TO_NR)
	}
	return NR_UNKNOWN;
}

/* The x86-64 number of an x32 call (without its bit). */
static __always_inline long nr_of_x32(long nr)
{
	switch (nr) {
		CAPSICUM_OPT_X32_NRS(OPT_OTHER_TO_NR)
	}
	return nr;
}

#endif
