/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The BPF side of include/capsicum/optable.h: its rows' x86-64 numbers
 * as NR_name, and its refining rules as functions. A hook's decision is
 * an expansion of the table's rows into `case NR: rule(row)` lines
 * (OPT_RW_CASE for file_permission, OPT_FGET_CASE for the patched
 * kernel's file_fget), so the right a call needs is written once, in
 * its row, and each rule once, here.
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

#define MAY_WRITE 0x2
#define MAY_READ  0x4

#define SEEK_CUR      1
#define EPOLL_CTL_DEL 2

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
 * when it is not one the row names.
 */
struct opt_call {
	const struct pt_regs *regs;
	struct file *file;
	int fd;
	int mask;
	bool fget;
};

/* What a rule decides: the descriptor checked and the rights it needs. */
struct opt_need {
	int fd;
	__u64 need;
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

/* preadv2/pwritev2(fd, iov, n, offset, ...): -1 is "the file position". */
static __always_inline struct opt_need
opt_rule_offset_ptr(const struct opt_call *c, long nr, __u32 fds, __u64 rights)
{
	return opt_one(c, fds,
		       rights | ((long)c->regs->r10 != -1 ? CAP_SEEK : 0));
}

/* lseek(fd, offset, whence): asking where it is, not moving it. */
static __always_inline struct opt_need
opt_rule_lseek_whence(const struct opt_call *c, long nr, __u32 fds,
		      __u64 rights)
{
	bool tell = (int)c->regs->dx == SEEK_CUR && c->regs->si == 0;

	return opt_one(c, fds, tell ? CAP_SEEK_TELL : rights);
}

/* timerfd_settime(fd, flags, new, old): old reads the timer back. */
static __always_inline struct opt_need
opt_rule_old_value(const struct opt_call *c, long nr, __u32 fds, __u64 rights)
{
	return opt_one(c, fds, rights | (c->regs->r10 ? CAP_READ : 0));
}

/*
 * faccessat(dfd, path, ...): an empty path (AT_EMPTY_PATH) acts on the
 * descriptor itself, which then needs the row's right without
 * CAP_LOOKUP (CAP_FSTAT for CAP_FSTATAT). Decided where the walk looks
 * the descriptor up (fget), from the walk's own copy of the path.
 */
static __always_inline struct opt_need
opt_rule_empty_path(const struct opt_call *c, long nr, __u32 fds, __u64 rights)
{
	struct nameidata *nd = bpf_get_current_task_btf()->nameidata;
	bool empty = nd && nd->dfd == c->fd && walk_name_empty(nd);

	return opt_one(c, fds, empty ? rights & ~OPT_BITS(CAP_LOOKUP) : rights);
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
		e.out = (int)r->di;
		e.in = (int)r->si;
		e.in_seek = r->dx;
		break;
	case NR_tee: /* (fd_in, fd_out, len, flags) */
		e.in = (int)r->di;
		e.out = (int)r->si;
		break;
	case NR_vmsplice: /* into a pipe's write end, out of its read end */
		if (c->file && (c->file->f_mode & FMODE_WRITE))
			e.out = (int)r->di;
		else
			e.in = (int)r->di;
		break;
	default: /* splice, copy_file_range: (fd_in, *off_in, fd_out, ...) */
		e.in = (int)r->di;
		e.in_seek = r->si;
		e.out = (int)r->dx;
		e.out_seek = r->r10;
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

	if ((int)r->di == c->fd)
		n.need |= rights & ~OPT_BITS(CAP_EVENT);
	if ((int)r->dx == c->fd && (int)r->si != EPOLL_CTL_DEL)
		n.need |= rights & ~OPT_BITS(CAP_EPOLL_CTL);
	return n;
}

/*
 * file_permission (rw_need_of) decides the rows of CAPSICUM_OPS_RW a
 * stock hook enforces: the others (tee, vmsplice, lseek) pass no
 * file_permission at all.
 *	switch (nr) { CAPSICUM_OPS_RW(OPT_RW_CASE) }
 * with `c`, the struct opt_call, in scope.
 */
#define OPT_RW_CASE(name, nr64, nr32, fds, rights, rule, stock, stock_why,     \
		    patched, patched_why)                                      \
	OPT_RW_##stock(nr64, fds, rights, rule)
#define OPT_RW_OPT_YES(nr, fds, rights, rule)                                  \
	case nr:                                                               \
		return opt_rule_##rule(&c, nr, fds, rights);
#define OPT_RW_OPT_PART OPT_RW_OPT_YES
#define OPT_RW_OPT_NO(...)
#define OPT_RW_OPT_LIB(...)

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
	OPT_FGET_##stock##_##patched(nr64, fds, rights, rule)
#define OPT_FGET_ROW(nr, fds, rights, rule)                                    \
	case nr:                                                               \
		n.need[OPT_IDX(rights)] =                                      \
			opt_rule_##rule(&c, nr, fds, rights).need;             \
		break;
#define OPT_FGET_OPT_YES_OPT_YES(...)
#define OPT_FGET_OPT_PART_OPT_PART(...)
#define OPT_FGET_OPT_NO_OPT_NO(...)
#define OPT_FGET_OPT_PART_OPT_YES OPT_FGET_ROW
#define OPT_FGET_OPT_NO_OPT_YES	  OPT_FGET_ROW
#define OPT_FGET_OPT_NO_OPT_PART  OPT_FGET_ROW
#define OPT_FGET_OPT_LIB_OPT_YES  OPT_FGET_ROW

#endif
