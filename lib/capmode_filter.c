// SPDX-License-Identifier: BSD-2-Clause
/*
 * The capability-mode seccomp filter: classic BPF built from
 * capmode_table.c, and its installation on every thread.
 *
 * Shape of the program:
 *
 *   arch != x86-64 or nr >= __X32_SYSCALL_BIT   -> ECAPMODE
 *   binary search over syscall-number intervals -> one leaf per interval
 *   leaf: RET ALLOW / RET ECAPMODE / RET ENOSYS, or the row's argument
 *         checks, each jumping to the leaf's closing RET ECAPMODE
 *
 * Adjacent numbers with the same plain verdict share one interval, so the
 * search is a few compares deep and the program stays far below the
 * kernel's 4096 instructions (doc/capmode.md gives the count).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/audit.h>
#include <linux/seccomp.h>

#include <sys/capsicum.h>

#include "capmode.h"

#define RET_ALLOW    SECCOMP_RET_ALLOW
#define RET_ECAPMODE (SECCOMP_RET_ERRNO | (ECAPMODE & SECCOMP_RET_DATA))
#define RET_ENOSYS   (SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA))

/* x86-64 is little-endian: the low half of an argument comes first. */
#define ARG_LO(i) (offsetof(struct seccomp_data, args) + 8 * (i))
#define ARG_HI(i) (ARG_LO(i) + 4)

/* Conditional jumps of classic BPF reach at most 255 instructions ahead. */
#define JMP_MAX 255

/*
 * Output of the emitters.  With buf == NULL nothing is written and only len
 * grows: the same code then measures a subtree before it is placed.
 */
struct prog {
	struct sock_filter *buf;
	size_t len, max;
	int err;
	__u32 refuse; /* RET_ECAPMODE, or a learning tree's notification */
};

static void emit(struct prog *p, __u16 code, __u8 jt, __u8 jf, __u32 k)
{
	if (p->buf && p->len < p->max) {
		p->buf[p->len] = (struct sock_filter){
			.code = code, .jt = jt, .jf = jf, .k = k
		};
	}
	p->len++;
}

static void ret(struct prog *p, __u32 k)
{
	emit(p, BPF_RET | BPF_K, 0, 0, k);
}

static void load(struct prog *p, size_t off)
{
	emit(p, BPF_LD | BPF_W | BPF_ABS, 0, 0, (__u32)off);
}

/* Distance from the next instruction to absolute index `to`. */
static __u8 dist(struct prog *p, size_t to)
{
	size_t from = p->len + 1;

	if (to < from || to - from > JMP_MAX) {
		p->err = EINVAL; /* a row too long for one leaf */
		return 0;
	}
	return (__u8)(to - from);
}

/* A plain verdict, or a row with checks. */
enum leaf_kind { LEAF_ALLOW, LEAF_DENY, LEAF_ENOSYS, LEAF_CHECKS };

struct interval {
	__u32 start; /* covers start .. next interval's start - 1 */
	enum leaf_kind kind;
	const struct capsicum_capmode_rule *rule; /* LEAF_CHECKS */
};

/*
 * The values an id check accepts.  Duplicates (ruid == euid, the usual
 * case) cost an instruction each and keep the code obvious.
 */
static size_t id_values(const struct capsicum_capmode_check *c,
			const struct capsicum_capmode_ids *ids, __u32 out[4])
{
	size_t n = 0;

	switch (c->op) {
	case CAPMODE_UID:
	case CAPMODE_UID_OR_NEG:
		out[n++] = (__u32)ids->ruid;
		out[n++] = (__u32)ids->euid;
		out[n++] = (__u32)ids->suid;
		break;
	default:
		out[n++] = (__u32)ids->rgid;
		out[n++] = (__u32)ids->egid;
		out[n++] = (__u32)ids->sgid;
		break;
	}
	if (c->op == CAPMODE_UID_OR_NEG || c->op == CAPMODE_GID_OR_NEG)
		out[n++] = (__u32)-1;
	return n;
}

/* A: the low half of the argument. Accepts A in vals, else jumps to deny. */
static void one_of(struct prog *p, const __u32 *vals, size_t n, size_t deny)
{
	size_t i;

	for (i = 0; i + 1 < n; i++)
		emit(p, BPF_JMP | BPF_JEQ | BPF_K, (__u8)(n - 1 - i), 0,
		     vals[i]);
	emit(p, BPF_JMP | BPF_JEQ | BPF_K, 0, dist(p, deny), vals[n - 1]);
}

/*
 * A 32-bit argument's high half must be 0 or 0xffffffff (zero- or
 * sign-extended), else deny: the kernel would truncate it, and the filter
 * refuses rather than judge a value other than the one passed.
 */
static void emit_high_half(struct prog *p, __u8 arg, size_t deny)
{
	load(p, ARG_HI(arg));
	emit(p, BPF_JMP | BPF_JEQ | BPF_K, 1, 0, 0);
	emit(p, BPF_JMP | BPF_JEQ | BPF_K, 0, dist(p, deny), 0xffffffffU);
}

/* A: the low half. Jumps to deny if (A & mask) is one of vals. */
static void none_of(struct prog *p, __u32 mask, const __u32 *vals, size_t n,
		    size_t deny)
{
	if (mask != 0xffffffffU)
		emit(p, BPF_ALU | BPF_AND | BPF_K, 0, 0, mask);
	for (size_t i = 0; i < n; i++)
		emit(p, BPF_JMP | BPF_JEQ | BPF_K, dist(p, deny), 0, vals[i]);
}

static void emit_check(struct prog *p, const struct capsicum_capmode_check *c,
		       const struct capsicum_capmode_ids *ids, size_t deny)
{
	__u32 vals[4];
	size_t n;

	if (c->op != CAPMODE_NULL)
		emit_high_half(p, c->arg, deny);
	load(p, ARG_LO(c->arg));
	switch (c->op) {
	case CAPMODE_NE:
		emit(p, BPF_JMP | BPF_JEQ | BPF_K, dist(p, deny), 0, c->value);
		break;
	case CAPMODE_EQ:
		emit(p, BPF_JMP | BPF_JEQ | BPF_K, 0, dist(p, deny), c->value);
		break;
	case CAPMODE_POSITIVE:
		/* As an int: sign bit clear and not zero. */
		emit(p, BPF_JMP | BPF_JSET | BPF_K, dist(p, deny), 0,
		     0x80000000U);
		emit(p, BPF_JMP | BPF_JEQ | BPF_K, dist(p, deny), 0, 0);
		break;
	case CAPMODE_NO_BITS:
		emit(p, BPF_JMP | BPF_JSET | BPF_K, dist(p, deny), 0, c->value);
		break;
	case CAPMODE_NULL:
		/* A pointer: both halves must be zero. */
		emit(p, BPF_JMP | BPF_JEQ | BPF_K, 0, dist(p, deny), 0);
		load(p, ARG_HI(c->arg));
		emit(p, BPF_JMP | BPF_JEQ | BPF_K, 0, dist(p, deny), 0);
		break;
	case CAPMODE_ONE_OF:
		if (!c->nset || c->nset > JMP_MAX) {
			p->err = EINVAL;
			return;
		}
		one_of(p, c->set, c->nset, deny);
		break;
	case CAPMODE_NONE_OF:
		if (!c->nset || c->nset > JMP_MAX) {
			p->err = EINVAL;
			return;
		}
		none_of(p, c->value, c->set, c->nset, deny);
		break;
	case CAPMODE_UID:
	case CAPMODE_UID_OR_NEG:
	case CAPMODE_GID:
	case CAPMODE_GID_OR_NEG:
		n = id_values(c, ids, vals);
		one_of(p, vals, n, deny);
		break;
	default:
		p->err = EINVAL;
	}
}

static bool check_valid(const struct capsicum_capmode_check *c)
{
	return c->op == CAPMODE_NONE || c->arg < 6;
}

/* The row's checks ANDed, then RET ALLOW; every failure lands on deny. */
static void emit_checks(struct prog *p, const struct capsicum_capmode_rule *r,
			const struct capsicum_capmode_ids *ids)
{
	struct prog probe = { 0 };
	size_t i, deny;

	/* Measure first: the checks jump forward to the closing RET. */
	for (i = 0; i < CAPMODE_MAX_CHECKS && r->check[i].op; i++)
		emit_check(&probe, &r->check[i], ids, (size_t)-1 / 2);
	deny = p->len + probe.len + 1;
	for (i = 0; i < CAPMODE_MAX_CHECKS && r->check[i].op; i++)
		emit_check(p, &r->check[i], ids, deny);
	ret(p, RET_ALLOW);
	ret(p, p->refuse);
}

static void emit_leaf(struct prog *p, const struct interval *iv,
		      const struct capsicum_capmode_ids *ids)
{
	switch (iv->kind) {
	case LEAF_ALLOW:
		ret(p, RET_ALLOW);
		break;
	case LEAF_DENY:
		ret(p, p->refuse);
		break;
	case LEAF_ENOSYS:
		ret(p, RET_ENOSYS);
		break;
	case LEAF_CHECKS:
		emit_checks(p, iv->rule, ids);
		break;
	}
}

/* A holds nr, known to lie in intervals [lo, hi). */
static void emit_tree(struct prog *p, const struct interval *iv, size_t lo,
		      size_t hi, const struct capsicum_capmode_ids *ids)
{
	struct prog probe = { 0 };
	size_t mid;

	if (hi - lo == 1) {
		emit_leaf(p, &iv[lo], ids);
		return;
	}
	mid = lo + (hi - lo) / 2;
	emit_tree(&probe, iv, lo, mid, ids);
	if (probe.len <= JMP_MAX) {
		emit(p, BPF_JMP | BPF_JGE | BPF_K, (__u8)probe.len, 0,
		     iv[mid].start);
	} else {
		/* Too far for jt: hop over the left half with a JA. */
		emit(p, BPF_JMP | BPF_JGE | BPF_K, 0, 1, iv[mid].start);
		emit(p, BPF_JMP | BPF_JA | BPF_K, 0, 0, (__u32)probe.len);
	}
	emit_tree(p, iv, lo, mid, ids);
	emit_tree(p, iv, mid, hi, ids);
}

static enum leaf_kind kind_of(const struct capsicum_capmode_rule *r)
{
	switch (r->verdict) {
	case CAPMODE_ALLOW:
		return LEAF_ALLOW;
	case CAPMODE_ENOSYS:
		return LEAF_ENOSYS;
	case CAPMODE_ALLOW_IF:
		return LEAF_CHECKS;
	default:
		return LEAF_DENY;
	}
}

static void add(struct interval *iv, size_t *n, __u32 start,
		enum leaf_kind kind, const struct capsicum_capmode_rule *r)
{
	/* A plain verdict equal to its left neighbour's extends it. */
	if (*n && kind != LEAF_CHECKS && iv[*n - 1].kind == kind)
		return;
	iv[*n] = (struct interval){ .start = start, .kind = kind, .rule = r };
	(*n)++;
}

/* Splits 0 .. __X32_SYSCALL_BIT - 1 into intervals; 0 or -1 (EINVAL). */
static int intervals(struct interval *iv, size_t *n)
{
	const struct capsicum_capmode_rule *r;
	__u32 next = 0;
	size_t i, c;

	*n = 0;
	if (capsicum_capmode_table_len > CAPSICUM_CAPMODE_TABLE_MAX)
		return -1;
	for (i = 0; i < capsicum_capmode_table_len; i++) {
		r = &capsicum_capmode_table[i];
		/* Sorted, unique, and checks only where the verdict says. */
		if (r->nr < (int)next || r->nr >= __X32_SYSCALL_BIT ||
		    (r->verdict == CAPMODE_ALLOW_IF) != (r->check[0].op != 0))
			return -1;
		for (c = 0; c < CAPMODE_MAX_CHECKS; c++) {
			if (!check_valid(&r->check[c]))
				return -1;
			/* The emitters stop at the first empty check. */
			if (c && !r->check[c - 1].op && r->check[c].op)
				return -1;
		}
		if ((__u32)r->nr > next)
			add(iv, n, next, LEAF_DENY, NULL); /* unlisted */
		add(iv, n, (__u32)r->nr, kind_of(r), r);
		next = (__u32)r->nr + 1;
	}
	add(iv, n, next, LEAF_DENY, NULL);
	return 0;
}

int capsicum_capmode_filter_build(const struct capsicum_capmode_ids *ids,
				  struct sock_filter *buf, size_t max,
				  size_t *len)
{
	return capsicum_capmode_filter_build_as(ids, RET_ECAPMODE, buf, max,
						len);
}

int capsicum_capmode_filter_build_as(const struct capsicum_capmode_ids *ids,
				     uint32_t refuse, struct sock_filter *buf,
				     size_t max, size_t *len)
{
	struct interval iv[2 * CAPSICUM_CAPMODE_TABLE_MAX + 1];
	struct prog p = { .buf = buf, .max = max, .refuse = refuse };
	size_t n;

	if (!ids || !len || (max && !buf)) {
		errno = EINVAL;
		return -1;
	}
	if (intervals(iv, &n)) {
		errno = EINVAL;
		return -1;
	}

	/* Other ABIs number syscalls differently: deny them all. */
	load(&p, offsetof(struct seccomp_data, arch));
	emit(&p, BPF_JMP | BPF_JEQ | BPF_K, 1, 0, AUDIT_ARCH_X86_64);
	ret(&p, p.refuse);
	load(&p, offsetof(struct seccomp_data, nr));
	emit(&p, BPF_JMP | BPF_JGE | BPF_K, 0, 1, __X32_SYSCALL_BIT);
	ret(&p, p.refuse);
	emit_tree(&p, iv, 0, n, ids);

	if (p.err) {
		errno = p.err;
		return -1;
	}
	*len = p.len;
	if (p.len > max || p.len > BPF_MAXINSNS) {
		errno = E2BIG;
		return -1;
	}
	return 0;
}

/*
 * Builds the filter for the caller's ids with `refuse` and installs it on
 * every thread with `flags`: seccomp()'s result, or -1 with errno.
 */
static long install(__u32 refuse, unsigned int flags)
{
	struct sock_filter buf[BPF_MAXINSNS];
	struct capsicum_capmode_ids ids;
	struct sock_fprog fprog;
	size_t len;

	if (getresuid(&ids.ruid, &ids.euid, &ids.suid) ||
	    getresgid(&ids.rgid, &ids.egid, &ids.sgid))
		return -1;
	if (capsicum_capmode_filter_build_as(&ids, refuse, buf, BPF_MAXINSNS,
					     &len))
		return -1;
	/* Unprivileged callers may install a filter only with this set. */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	fprog.len = (unsigned short)len;
	fprog.filter = buf;
	/*
	 * TSYNC puts the filter on every thread or on none: a thread that
	 * kept its old authority would defeat cap_enter().
	 */
	return syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER,
		       SECCOMP_FILTER_FLAG_TSYNC | flags, &fprog);
}

int capsicum_capmode_install(void)
{
	long rc = install(RET_ECAPMODE, 0);

	if (rc < 0)
		return -1;
	if (rc > 0) {
		/*
		 * The id of a thread that could not be synchronised (it runs
		 * a filter that is not an ancestor of ours).  Nothing was
		 * installed; say so rather than cover the caller alone.
		 */
		errno = EBUSY;
		return -1;
	}
	return 0;
}

int capsicum_capmode_install_learning(void)
{
	/*
	 * A listener and TSYNC together need TSYNC_ESRCH, which reports a
	 * thread that could not be synchronised as ESRCH instead of its id.
	 */
	long rc = install(SECCOMP_RET_USER_NOTIF,
			  SECCOMP_FILTER_FLAG_NEW_LISTENER |
				  SECCOMP_FILTER_FLAG_TSYNC_ESRCH);

	if (rc < 0 && errno == ESRCH)
		errno = EBUSY;
	return rc < 0 ? -1 : (int)rc;
}
