// SPDX-License-Identifier: GPL-2.0
/*
 * The fuzzer's inputs: a raw control-plane request (include/capsicum/abi.h)
 * built from the seed, with mutated magic, version, op, rights, fcntl and
 * ioctl fields, a buffer cut short against an inaccessible page or a bad
 * pointer, sent by fcntl(fd, F_GETFD, &req) on a descriptor of any type
 * (or none: -1, a closed number, one past RLIMIT_NOFILE) or by the prctl;
 * or a descriptor move (remade, dup2 over a sibling). After each input the
 * oracle below says what may have changed, and the checker looks.
 */
#define _GNU_SOURCE
#include "fixture.h"
#include "fuzz.h"
#include "selftest.h"

#include <capsicum/abi.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <termios.h>
#include <unistd.h>

#define PAGE	   4096
#define KERNEL_PTR ((void *)0xffffffff81000000UL)

/* A page, then one that faults: a buffer at its end can be cut short. */
static char *guarded_page(void)
{
	char *p = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	if (mprotect(p + PAGE, PAGE, PROT_NONE)) {
		munmap(p, 2 * PAGE);
		return NULL;
	}
	return p;
}

bool fuzz_run_init(struct fuzz_run *r, int kmsg, int bss)
{
	memset(r, 0, sizeof(*r));
	r->kmsg = kmsg;
	r->bss = bss;
	r->req_page = guarded_page();
	r->ioc_page = guarded_page();
	if (!ASSERT_OK_PTR(r->req_page, "request page") ||
	    !ASSERT_OK_PTR(r->ioc_page, "ioctl list page") ||
	    !fuzz_zoo_init(&r->zoo))
		return false;
	for (int k = 0; k < FK_COUNT; k++)
		if (!ASSERT_OK(fuzz_rights_get(r->zoo.fd[k], &r->cur[k]),
			       fuzz_kind_name((enum fuzz_kind)k)))
			return false;
	if (bss >= 0 && !ASSERT_OK(fuzz_counters_read(bss, &r->ctr), "bss"))
		return false;
	return true;
}

void fuzz_run_free(struct fuzz_run *r)
{
	fuzz_zoo_free(&r->zoo);
	if (r->req_page)
		munmap(r->req_page, 2 * PAGE);
	if (r->ioc_page)
		munmap(r->ioc_page, 2 * PAGE);
}

/* What a new descriptor holds: everything. */
static void all_rights(struct fuzz_rights *f)
{
	memset(f, 0, sizeof(*f));
	f->rights.cr_rights[0] = CAP_ALL0;
	f->rights.cr_rights[1] = CAP_ALL1;
	f->fcntls = CAP_FCNTL_ALL;
	f->nioctls = CAP_IOCTLS_ALL;
}

/* One input, as generated and as it went; printed when a check fails. */
/* A raw mutation changed req.ioctls or req.nioctls after they were set. */
#define IOC_UNKNOWN (-1)

struct input {
	enum { IN_FCNTL, IN_PRCTL, IN_REOPEN, IN_DUP2, IN_OTHER_FCNTL } what;
	int slot; /* the target slot, -1 for a descriptor outside the zoo */
	int fd;
	int src; /* IN_DUP2: the slot copied over `slot` */
	struct capsicum_req req;
	size_t len;	  /* bytes of the request before the faulting page */
	int ptr_kind;	  /* 0: the buffer; 1 NULL, 2 the fault, 3 kernel */
	int ioc_ptr_kind; /* the same for req.ioctls; IOC_UNKNOWN: mutated */
	int ioc_written;  /* entries readable at req.ioctls */
	long ret;
	int err;
};

static void describe(const struct input *in, char *buf, size_t len)
{
	static const char *const what[] = { "fcntl(F_GETFD)", "prctl", "reopen",
					    "dup2", "fcntl(other)" };

	snprintf(buf, len,
		 "%s on %s fd %d (src %d): magic %016llx version %u op %u "
		 "rights %016llx %016llx fcntls %#x nioctls %d (%d readable, "
		 "ptr kind %d), %zu bytes, ptr kind %d -> %ld errno %d",
		 what[in->what],
		 in->slot >= 0 ? fuzz_kind_name((enum fuzz_kind)in->slot)
			       : "outside",
		 in->fd, in->src, (unsigned long long)in->req.magic,
		 in->req.version, in->req.op,
		 (unsigned long long)in->req.rights[0],
		 (unsigned long long)in->req.rights[1], in->req.fcntls,
		 in->req.nioctls, in->ioc_written, in->ioc_ptr_kind, in->len,
		 in->ptr_kind, in->ret, in->err);
}

static const cap_ioctl_t some_ioctls[] = { FIONREAD, FIOCLEX,  FIONBIO,
					   TCGETS,   FIONCLEX, 0 };

static cap_ioctl_t pick_ioctl(uint64_t *s, const struct fuzz_rights *h)
{
	switch (fuzz_below(s, 4)) {
	case 0:
		if (h->nioctls > 0 && h->nioctls <= CAP_IOCTLS_MAX)
			return h->ioctls[fuzz_below(s, (uint32_t)h->nioctls)];
		/* fall through */
	case 1:
	case 2:
		return some_ioctls[fuzz_below(
			s, sizeof(some_ioctls) / sizeof(some_ioctls[0]))];
	default:
		return (cap_ioctl_t)fuzz_next(s);
	}
}

/* A rights word pair: a narrowing of h mostly, else anything. */
static void pick_rights(uint64_t *s, const struct fuzz_rights *h, __u64 out[2])
{
	for (int i = 0; i < 2; i++) {
		__u64 held = h->rights.cr_rights[i];
		__u64 bits = held & CAP_RIGHTS_BITS_MASK;

		switch (fuzz_below(s, 8)) {
		case 0:
		case 1:
		case 2: /* drop a few random bits */
			for (int n = (int)fuzz_below(s, 4); n >= 0; n--)
				bits &= ~(1ULL << fuzz_below(s, 57));
			out[i] = (held & ~CAP_RIGHTS_BITS_MASK) | bits;
			break;
		case 3: /* keep a random subset */
			out[i] = (held & ~CAP_RIGHTS_BITS_MASK) |
				 (bits & fuzz_next(s));
			break;
		case 4: /* widen by one bit */
			out[i] = held | (1ULL << fuzz_below(s, 57));
			break;
		case 5: /* unchanged */
			out[i] = held;
			break;
		case 6: /* the index bits alone, or swapped */
			out[i] = fuzz_below(s, 2) ? CAPRIGHT(i, 0)
						  : CAPRIGHT(!i, 0);
			break;
		default:
			out[i] = fuzz_next(s);
		}
	}
}

static void *pointer_of(int kind, char *page, size_t len)
{
	switch (kind) {
	case 1:
		return NULL;
	case 2:
		return page + PAGE;
	case 3:
		return KERNEL_PTR;
	default:
		return page + PAGE - len;
	}
}

static int ptr_kind(uint64_t *s)
{
	return fuzz_below(s, 16) ? 0 : 1 + (int)fuzz_below(s, 3);
}

/* Fills in->req and places it; the pointer to pass. */
static void *build_request(struct fuzz_run *r, uint64_t *s, struct input *in,
			   const struct fuzz_rights *h, bool prctl_side)
{
	static const __u32 fd_ops[] = { CAPSICUM_OP_LIMIT_RIGHTS,
					CAPSICUM_OP_LIMIT_FCNTLS,
					CAPSICUM_OP_LIMIT_IOCTLS,
					CAPSICUM_OP_GET, CAPSICUM_OP_PD_WATCH };
	static const __u32 proc_ops[] = { CAPSICUM_OP_PING, CAPSICUM_OP_GETMODE,
					  CAPSICUM_OP_PD_CHILD,
					  CAPSICUM_OP_ANSWER,
					  CAPSICUM_OP_ENTER };
	static const __s32 counts[] = {
		-1,	 0,	 1, 2, 3, 5, CAP_IOCTLS_MAX, CAP_IOCTLS_MAX + 1,
		INT_MAX, INT_MIN
	};
	struct capsicum_req *q = &in->req;
	unsigned char *raw = (unsigned char *)q;
	cap_ioctl_t *list;
	int n;

	memset(q, 0, sizeof(*q));
	q->magic = fuzz_below(s, 12) ? CAPSICUM_REQ_MAGIC : fuzz_next(s);
	q->version = fuzz_below(s, 12) ? CAPSICUM_ABI_VERSION
				       : (__u32)fuzz_below(s, 4);
	if (fuzz_below(s, 10) == 0)
		q->op = fuzz_below(s, 3) ? fuzz_below(s, 12)
					 : (__u32)fuzz_next(s);
	else if (prctl_side)
		/* ENTER is rare: it changes the rest of the worker's run. */
		q->op = proc_ops[fuzz_below(s, fuzz_below(s, 16) ? 4 : 5)];
	else
		q->op = fd_ops[fuzz_below(s, 5)];
	q->nonce = fuzz_next(s);
	pick_rights(s, h, q->rights);
	/* ANSWER reads its bit offset there: often one inside the answer. */
	if (q->op == CAPSICUM_OP_ANSWER && fuzz_below(s, 2))
		q->answer_bit =
			fuzz_below(s, sizeof(struct capsicum_answer) * 8 + 64);
	switch (fuzz_below(s, 6)) {
	case 0:
		q->fcntls = (__u32)fuzz_next(s);
		break;
	case 1:
		q->fcntls = (__u32)fuzz_next(s) & CAP_FCNTL_ALL;
		break;
	default:
		q->fcntls = h->fcntls & (__u32)fuzz_next(s);
	}
	q->nioctls = fuzz_below(s, 3)
			     ? (__s32)fuzz_below(s, 6)
			     : counts[fuzz_below(s, sizeof(counts) /
							    sizeof(counts[0]))];
	/* The list: as many entries as asked, sometimes fewer readable. */
	n = q->nioctls < 0 ? 0 : q->nioctls > 300 ? 300 : q->nioctls;
	if (n && fuzz_below(s, 8) == 0)
		n = (int)fuzz_below(s, (uint32_t)n);
	in->ioc_written = n;
	in->ioc_ptr_kind = ptr_kind(s);
	list = (cap_ioctl_t *)(r->ioc_page + PAGE - n * sizeof(*list));
	if (n * sizeof(*list) > PAGE) { /* cannot be: 300 * 8 < 4096 */
		n = 0;
		list = (cap_ioctl_t *)(r->ioc_page + PAGE);
	}
	for (int i = 0; i < n; i++)
		list[i] = pick_ioctl(s, h);
	q->ioctls = (__u64)(unsigned long)pointer_of(
		in->ioc_ptr_kind, r->ioc_page, n * sizeof(*list));
	/* Raw mutation of a few bytes, anywhere. */
	if (fuzz_below(s, 8) == 0) {
		__u64 list_at = q->ioctls;
		__s32 count = q->nioctls;

		for (int i = (int)fuzz_below(s, 4); i >= 0; i--)
			raw[fuzz_below(s, sizeof(*q))] ^=
				(unsigned char)(1U << fuzz_below(s, 8));
		/*
		 * A flipped pointer or count leaves no telling how much of
		 * the list is readable: the oracle then checks no more.
		 */
		if (q->ioctls != list_at || q->nioctls != count)
			in->ioc_ptr_kind = IOC_UNKNOWN;
	}
	/*
	 * CAPSICUM_OP_LEARN (a flipped bit makes it) would switch a root
	 * worker's checks off for the rest of its run (doc/learn.md): it is
	 * sent only in capability mode, where it must fail with EPERM.
	 */
	if (q->op == CAPSICUM_OP_LEARN && !r->capmode)
		q->op = CAPSICUM_OP_LEARN_ID;
	in->len = fuzz_below(s, 8) ? sizeof(*q) : fuzz_below(s, sizeof(*q) + 9);
	in->ptr_kind = ptr_kind(s);
	{
		size_t k = in->len < sizeof(*q) ? in->len : sizeof(*q);
		char *at = r->req_page + PAGE - in->len;

		memcpy(at, q, k);
		for (size_t i = k; i < in->len; i++)
			at[i] = (char)fuzz_next(s);
	}
	return pointer_of(in->ptr_kind, r->req_page, in->len);
}

/* Could the BPF side read the whole request? */
static bool readable(const struct input *in)
{
	return in->ptr_kind == 0 && in->len >= sizeof(in->req);
}

static bool rights_valid(const __u64 w[2])
{
	cap_rights_t r = { .cr_rights = { w[0], w[1] } };

	return cap_rights_is_valid(&r) && !(w[0] & ~CAP_ALL0) &&
	       !(w[1] & ~CAP_ALL1);
}

#define CHECK(cond, ...)                                                       \
	do {                                                                   \
		if (!(cond)) {                                                 \
			selftest_fail(__FILE__, __LINE__, __VA_ARGS__);        \
			bad++;                                                 \
		}                                                              \
	} while (0)

/*
 * What the request may have done to the target's rights, given how it
 * went: `exp` is set to the exact result where it is known.
 */
static int fd_request_oracle(const struct input *in,
			     const struct fuzz_rights *before,
			     const struct fuzz_rights *after)
{
	const struct capsicum_req *q = &in->req;
	bool ok = in->ret == -1 && in->err == CAPSICUM_STATUS_OK;
	int bad = 0;

	if (in->slot < 0) {
		CHECK(in->ret == -1 && in->err == EBADF,
		      "a request on no descriptor: %ld errno %d", in->ret,
		      in->err);
		return bad;
	}
	if (!readable(in) || q->magic != CAPSICUM_REQ_MAGIC) {
		CHECK(in->ret >= 0,
		      "not a request, yet F_GETFD gave %ld "
		      "errno %d",
		      in->ret, in->err);
		CHECK(fuzz_rights_equal(before, after),
		      "rights changed by a plain F_GETFD");
		return bad;
	}
	CHECK(in->ret == -1, "a request was not intercepted (%ld)", in->ret);
	if (q->version != CAPSICUM_ABI_VERSION)
		CHECK(in->err == EPROTO, "version %u: errno %d", q->version,
		      in->err);
	if (!ok) {
		CHECK(fuzz_rights_equal(before, after),
		      "a refused request (errno %d) changed the rights",
		      in->err);
		return bad;
	}
	CHECK(fuzz_rights_within(before, after),
	      "an accepted request widened the rights");
	switch (q->op) {
	case CAPSICUM_OP_LIMIT_RIGHTS: {
		cap_rights_t want = { .cr_rights = { q->rights[0],
						     q->rights[1] } };

		CHECK(rights_valid(q->rights), "invalid rights accepted");
		CHECK(cap_rights_contains(&before->rights, &want),
		      "a widening limit accepted");
		CHECK(after->rights.cr_rights[0] == q->rights[0] &&
			      after->rights.cr_rights[1] == q->rights[1],
		      "limited to %016llx %016llx, holds %016llx %016llx",
		      (unsigned long long)q->rights[0],
		      (unsigned long long)q->rights[1],
		      (unsigned long long)after->rights.cr_rights[0],
		      (unsigned long long)after->rights.cr_rights[1]);
		break;
	}
	case CAPSICUM_OP_LIMIT_FCNTLS:
		CHECK(!(q->fcntls & ~before->fcntls),
		      "fcntls %#x accepted over %#x", q->fcntls,
		      before->fcntls);
		CHECK(after->fcntls == q->fcntls &&
			      cap_rights_contains(&after->rights,
						  &before->rights),
		      "fcntls limited to %#x, holds %#x", q->fcntls,
		      after->fcntls);
		break;
	case CAPSICUM_OP_LIMIT_IOCTLS:
		CHECK(q->nioctls >= 0 && q->nioctls <= CAP_IOCTLS_MAX,
		      "%d ioctls accepted", q->nioctls);
		CHECK(after->nioctls == q->nioctls,
		      "ioctls limited to %d, holds %zd", q->nioctls,
		      after->nioctls);
		CHECK(q->nioctls == 0 || in->ioc_ptr_kind == IOC_UNKNOWN ||
			      (in->ioc_ptr_kind == 0 &&
			       in->ioc_written >= q->nioctls),
		      "an unreadable ioctl list was accepted");
		break;
	case CAPSICUM_OP_GET:
	case CAPSICUM_OP_PD_WATCH:
		CHECK(fuzz_rights_equal(before, after),
		      "op %u changed the rights", q->op);
		CHECK(q->op != CAPSICUM_OP_PD_WATCH || in->slot == FK_PIDFD,
		      "a watch accepted on a %s descriptor",
		      fuzz_kind_name((enum fuzz_kind)in->slot));
		break;
	default:
		CHECK(false, "op %u accepted", q->op);
	}
	return bad;
}

static int prctl_oracle(struct fuzz_run *r, const struct input *in)
{
	const struct capsicum_req *q = &in->req;
	int want, bad = 0;

	if (!readable(in))
		want = EFAULT;
	else if (q->magic != CAPSICUM_REQ_MAGIC)
		want = EINVAL; /* not ours: the kernel's unknown option */
	else if (q->version != CAPSICUM_ABI_VERSION)
		want = EPROTO;
	else if (q->op == CAPSICUM_OP_ANSWER) {
		/*
		 * No answer of this thread carries a fuzzed nonce (the
		 * checker's own cap_rights_get() replaced any): ENOENT. A
		 * nonce that matched could only read bits inside it.
		 */
		bool data = in->err >= CAPSICUM_STATUS_ANSWER &&
			    in->err < CAPSICUM_STATUS_ANSWER +
					      (1 << CAPSICUM_ANSWER_BITS);

		CHECK(in->ret == -1 &&
			      (in->err == ENOENT ||
			       (data &&
				q->answer_bit <
					sizeof(struct capsicum_answer) * 8)),
		      "ANSWER at bit %llu gave %ld errno %d",
		      (unsigned long long)q->answer_bit, in->ret, in->err);
		return bad;
	} else if (q->op == CAPSICUM_OP_SELF) {
		/* The caller's state: at most these bits, capmode exact. */
		int bits = in->err - CAPSICUM_STATUS_SELF;

		CHECK(in->ret == -1 && bits >= 0 &&
			      bits <= (CAPSICUM_SELF_STATE |
				       CAPSICUM_SELF_CAPMODE |
				       CAPSICUM_SELF_FGET_CHECK) &&
			      !!(bits & CAPSICUM_SELF_CAPMODE) == r->capmode,
		      "SELF gave %ld errno %d", in->ret, in->err);
		return bad;
	} else if (q->op == CAPSICUM_OP_LEARN_ID) {
		/* A worker never learns: its id is 0, whichever bits. */
		CHECK(in->ret == -1 &&
			      in->err == (q->answer_bit < 32
						  ? CAPSICUM_STATUS_ANSWER
						  : ERANGE),
		      "LEARN_ID at bit %llu gave %ld errno %d",
		      (unsigned long long)q->answer_bit, in->ret, in->err);
		return bad;
	} else if (q->op == CAPSICUM_OP_LEARN)
		want = EPERM; /* sent in capability mode only */
	else if (q->op == CAPSICUM_OP_GETMODE && r->capmode)
		want = CAPSICUM_STATUS_OK_CAPMODE;
	else if (q->op == CAPSICUM_OP_PING || q->op == CAPSICUM_OP_GETMODE ||
		 q->op == CAPSICUM_OP_PD_CHILD || q->op == CAPSICUM_OP_ENTER)
		want = CAPSICUM_STATUS_OK;
	else
		want = EOPNOTSUPP;
	CHECK(in->ret == -1 && in->err == want,
	      "prctl gave %ld errno %d, expected errno %d", in->ret, in->err,
	      want);
	return bad;
}

/* A descriptor number outside the zoo: -1, closed, past the limit... */
static int outside_fd(struct fuzz_run *r, uint64_t *s)
{
	int fd;

	switch (fuzz_below(s, 5)) {
	case 0:
		return -1;
	case 1: /* the lowest free number, free again at once */
		fd = dup(0);
		if (fd >= 0)
			close(fd);
		return fd;
	case 2:
		return r->zoo.past_limit;
	case 3:
		return INT_MAX;
	default:
		return INT_MIN + (int)fuzz_below(s, 1000);
	}
}

static void run_input(struct fuzz_run *r, uint64_t *s, struct input *in)
{
	static const int pairs[][2] = { { FK_REG, FK_DUP_REG },
					{ FK_DUP_REG, FK_REG },
					{ FK_PIPE_W, FK_DUP_PIPE },
					{ FK_DUP_PIPE, FK_PIPE_W } };
	uint32_t w = fuzz_below(s, 100);
	void *ptr;

	memset(in, 0, sizeof(*in));
	in->src = -1;
	in->slot = (int)fuzz_below(s, FK_COUNT);
	if (w < 60) {
		in->what = IN_FCNTL;
		if (fuzz_below(s, 8) == 0)
			in->slot = -1;
	} else if (w < 78) {
		in->what = IN_PRCTL;
	} else if (w < 88) {
		in->what = IN_REOPEN;
	} else if (w < 95) {
		const int *p = pairs[fuzz_below(s, 4)];

		in->what = IN_DUP2;
		in->src = p[0];
		in->slot = p[1];
	} else {
		in->what = IN_OTHER_FCNTL;
	}
	in->fd = in->slot >= 0 ? r->zoo.fd[in->slot] : outside_fd(r, s);
	switch (in->what) {
	case IN_FCNTL:
		ptr = build_request(r, s, in,
				    in->slot >= 0 ? &r->cur[in->slot]
						  : &r->cur[FK_REG],
				    false);
		errno = 0;
		in->ret = fcntl(in->fd, F_GETFD, ptr);
		in->err = errno;
		r->st.requests++;
		break;
	case IN_PRCTL:
		ptr = build_request(r, s, in, &r->cur[FK_REG], true);
		errno = 0;
		in->ret = prctl(CAPSICUM_PRCTL_OPTION, ptr, fuzz_next(s),
				fuzz_next(s), fuzz_next(s));
		in->err = errno;
		r->st.requests++;
		break;
	case IN_OTHER_FCNTL:
		ptr = build_request(r, s, in, &r->cur[in->slot], false);
		errno = 0;
		in->ret = fcntl(in->fd, fuzz_below(s, 2) ? F_GETFL : F_GETOWN,
				ptr);
		in->err = errno;
		break;
	case IN_REOPEN:
		fuzz_zoo_reopen(&r->zoo, (enum fuzz_kind)in->slot);
		in->fd = r->zoo.fd[in->slot];
		break;
	case IN_DUP2:
		if (r->zoo.fd[in->src] < 0 || in->fd < 0) {
			in->ret = -1;
			break;
		}
		in->ret = dup2(r->zoo.fd[in->src], in->fd);
		in->err = errno;
		break;
	}
	if (in->ret == -1 && in->err == CAPSICUM_STATUS_OK)
		r->st.accepted++;
}

/* Compares every descriptor with what the input allowed; failed checks. */
static int check_fds(struct fuzz_run *r, const struct input *in,
		     struct fuzz_rights *after)
{
	int bad = 0;

	for (int k = 0; k < FK_COUNT; k++) {
		const struct fuzz_rights *b = &r->cur[k];
		struct fuzz_rights fresh;
		int fd = r->zoo.fd[k], err;

		if (fd < 0)
			continue;
		err = fuzz_rights_get(fd, &after[k]);
		CHECK(!err, "rights of the %s descriptor %d: errno %d",
		      fuzz_kind_name((enum fuzz_kind)k), fd, -err);
		if (err)
			continue;
		if (k != in->slot) {
			CHECK(fuzz_rights_equal(b, &after[k]),
			      "the %s descriptor %d changed, not the target",
			      fuzz_kind_name((enum fuzz_kind)k), fd);
			continue;
		}
		switch (in->what) {
		case IN_FCNTL:
			bad += fd_request_oracle(in, b, &after[k]);
			break;
		case IN_REOPEN:
			/* A dup copies; anything else is new: everything. */
			if (k == FK_DUP_REG || k == FK_DUP_PIPE)
				fresh = r->cur[k == FK_DUP_REG ? FK_REG
							       : FK_PIPE_W];
			else
				all_rights(&fresh);
			CHECK(fuzz_rights_equal(&fresh, &after[k]),
			      "remade %s descriptor %d: rights %016llx "
			      "%016llx fcntls %#x ioctls %zd, not its "
			      "origin's",
			      fuzz_kind_name((enum fuzz_kind)k), fd,
			      (unsigned long long)after[k].rights.cr_rights[0],
			      (unsigned long long)after[k].rights.cr_rights[1],
			      after[k].fcntls, after[k].nioctls);
			break;
		case IN_DUP2:
			CHECK(in->ret < 0 || fuzz_rights_equal(&r->cur[in->src],
							       &after[k]),
			      "dup2 of the %s descriptor did not copy its "
			      "rights",
			      fuzz_kind_name((enum fuzz_kind)in->src));
			break;
		default:
			CHECK(fuzz_rights_equal(b, &after[k]),
			      "the %s descriptor %d changed",
			      fuzz_kind_name((enum fuzz_kind)k), fd);
		}
	}
	return bad;
}

int fuzz_sweep(struct fuzz_run *r, unsigned int *denied)
{
	unsigned int n = 0;
	int bad = 0;

	for (int k = 0; k < FK_COUNT; k++)
		bad += fuzz_probe(&r->zoo, (enum fuzz_kind)k, &r->cur[k], &n);
	r->st.denied_probes += n;
	if (denied)
		*denied += n;
	return bad;
}

int fuzz_one(struct fuzz_run *r, uint64_t *seed)
{
	static struct fuzz_rights after[FK_COUNT];
	struct fuzz_counters now;
	unsigned int denied = 0;
	uint64_t start = *seed;
	struct input in;
	int bad = 0;

	run_input(r, seed, &in);
	r->st.inputs++;
	if (r->verbose) {
		char d[512];

		describe(&in, d, sizeof(d));
		fprintf(stderr, "    input %llu: %s\n",
			(unsigned long long)r->st.inputs, d);
	}
	if (in.what == IN_PRCTL)
		bad += prctl_oracle(r, &in);
	if (in.what == IN_FCNTL && in.slot < 0)
		bad += fd_request_oracle(&in, NULL, NULL);
	if (in.what == IN_OTHER_FCNTL && in.ret == -1 && in.err == ENOTCAPABLE)
		denied++;
	if (in.what == IN_PRCTL && readable(&in) &&
	    in.err == CAPSICUM_STATUS_OK && in.req.op == CAPSICUM_OP_ENTER)
		r->capmode = true;
	if (in.what == IN_FCNTL && in.slot == FK_PIDFD &&
	    in.err == CAPSICUM_STATUS_OK && in.req.op == CAPSICUM_OP_PD_WATCH)
		r->zoo.child_doomed = true;
	bad += check_fds(r, &in, after);
	for (int k = 0; k < FK_COUNT; k++)
		if (r->zoo.fd[k] >= 0)
			r->cur[k] = after[k];
	/* The target and its siblings now; everything every 16 inputs. */
	if (r->st.inputs % 16 == 0) {
		bad += fuzz_sweep(r, &denied);
	} else if (in.slot >= 0) {
		unsigned int n = 0;

		bad += fuzz_probe(&r->zoo, (enum fuzz_kind)in.slot,
				  &r->cur[in.slot], &n);
		r->st.denied_probes += n;
		denied += n;
	}
	if (r->bss >= 0) {
		/* In capability mode a remade descriptor may be refused too. */
		if (!ASSERT_OK(fuzz_counters_read(r->bss, &now), "bss"))
			bad++;
		else
			bad += fuzz_counters_check(&r->ctr, &now, denied,
						   !r->capmode);
		r->ctr = now;
	}
	bad += fuzz_kmsg_scan(r->kmsg);
	if (bad) {
		char d[512];

		describe(&in, d, sizeof(d));
		selftest_fail(__FILE__, __LINE__,
			      "input %llu (seed state %#llx): %s",
			      (unsigned long long)r->st.inputs,
			      (unsigned long long)start, d);
	}
	return bad;
}
