// SPDX-License-Identifier: BSD-2-Clause
/*
 * The syscall-level half of libcapsicum on stock kernels: each call is a
 * request to the BPF side over fcntl(fd, F_GETFD, &req) or prctl(), and
 * answers that do not fit a status are read back through statuses too, so
 * no call needs a descriptor of its own. Protocol: include/capsicum/abi.h.
 * Without the BPF side, every call fails with ENOSYS; with it, never.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <sys/capsicum.h>

#include "capmode.h"
#include "control.h"

static void req_init(struct capsicum_req *req, __u32 op)
{
	memset(req, 0, sizeof(*req));
	req->magic = CAPSICUM_REQ_MAGIC;
	req->version = CAPSICUM_ABI_VERSION;
	req->op = op;
}

/*
 * Sends an fd request. 0 on success, -1 with errno set otherwise. The BPF
 * side signals success through errno (CAPSICUM_STATUS_OK, 4000): the
 * caller's errno is put back, since no API call may leak that status.
 */
static int fd_request(int fd, struct capsicum_req *req)
{
	int saved = errno;
	int ret = fcntl(fd, F_GETFD, req);

	if (ret >= 0) {
		/* Plain F_GETFD ran: nobody intercepted the request. */
		errno = ENOSYS;
		return -1;
	}
	if (errno == CAPSICUM_STATUS_OK) {
		errno = saved;
		return 0;
	}
	return -1;
}

/*
 * A process request. Returns the success status, or -1 with errno; on
 * success errno is the caller's again (see fd_request).
 */
static int proc_request(__u32 op)
{
	struct capsicum_req req;
	int saved = errno, status;

	req_init(&req, op);
	if (prctl(CAPSICUM_PRCTL_OPTION, &req, 0, 0, 0) >= 0 ||
	    errno == EINVAL) {
		/*
		 * The kernel's own answer to an unknown prctl option: the BPF
		 * side never answers EINVAL (EPROTO, EOPNOTSUPP for requests
		 * it does not know), so this is "not loaded" and only that.
		 */
		errno = ENOSYS;
		return -1;
	}
	status = errno;
	if (status == CAPSICUM_STATUS_OK ||
	    status == CAPSICUM_STATUS_OK_CAPMODE) {
		errno = saved;
		return status;
	}
	return -1;
}

/*
 * One piece of an answer op's answer (CAPSICUM_OP_ANSWER: this thread's
 * answer to the GET tagged `nonce`): its CAPSICUM_ANSWER_BITS bits from
 * `bit` on, or -1 with errno.
 */
static int answer_piece_of(__u32 op, __u64 nonce, size_t bit)
{
	struct capsicum_req req;
	int saved = errno, e;

	req_init(&req, op);
	req.nonce = nonce;
	req.answer_bit = bit;
	if (prctl(CAPSICUM_PRCTL_OPTION, &req, 0, 0, 0) >= 0 ||
	    errno == EINVAL || errno == EOPNOTSUPP) {
		/* Unloaded in between, or programs without this op. */
		errno = ENOSYS;
		return -1;
	}
	e = errno;
	if (e >= CAPSICUM_STATUS_ANSWER &&
	    e < CAPSICUM_STATUS_ANSWER + (1 << CAPSICUM_ANSWER_BITS)) {
		errno = saved;
		return e - CAPSICUM_STATUS_ANSWER;
	}
	/* ENOENT: the answer is gone, which signals blocked rule out. */
	errno = e == ENOENT ? EIO : e;
	return -1;
}

static int answer_piece(__u64 nonce, size_t bit)
{
	return answer_piece_of(CAPSICUM_OP_ANSWER, nonce, bit);
}

/* Bytes [off, off + len) of the answer into dst, a piece at a time. */
static int answer_read(__u64 nonce, size_t off, void *dst, size_t len)
{
	unsigned char *out = dst;
	size_t first = off * 8, end = (off + len) * 8;

	memset(dst, 0, len);
	for (size_t bit = first; bit < end; bit += CAPSICUM_ANSWER_BITS) {
		int v = answer_piece(nonce, bit);

		if (v < 0)
			return -1;
		for (size_t i = 0; i < CAPSICUM_ANSWER_BITS && bit + i < end;
		     i++)
			if (v >> i & 1)
				out[(bit + i - first) / 8] |=
					(unsigned char)(1U << ((bit + i) % 8));
	}
	return 0;
}

#define READ_FIELD(nonce, a, field)                                            \
	answer_read((nonce), offsetof(struct capsicum_answer, field),          \
		    &(a)->field, sizeof((a)->field))

static _Thread_local __u64 nonce_counter;

/* One GET and the reading of the parts asked for; signals blocked. */
static int fd_query_blocked(int fd, struct capsicum_answer *a, unsigned parts)
{
	struct capsicum_req req;

	req_init(&req, CAPSICUM_OP_GET);
	/* Unique per thread and call, so a stale answer is never taken. */
	req.nonce = ((__u64)gettid() << 32) ^ ++nonce_counter ^
		    (__u64)(unsigned long)&req;
	if (fd_request(fd, &req))
		return -1;
	if ((parts & CAPSICUM_QUERY_RIGHTS) && READ_FIELD(req.nonce, a, rights))
		return -1;
	if ((parts & CAPSICUM_QUERY_FCNTLS) && READ_FIELD(req.nonce, a, fcntls))
		return -1;
	if ((parts & CAPSICUM_QUERY_PID) && READ_FIELD(req.nonce, a, pid))
		return -1;
	if (parts & CAPSICUM_QUERY_IOCTLS) {
		if (READ_FIELD(req.nonce, a, nioctls))
			return -1;
		if (a->nioctls > 0 && a->nioctls <= CAP_IOCTLS_MAX &&
		    answer_read(req.nonce,
				offsetof(struct capsicum_answer, ioctls),
				a->ioctls,
				(size_t)a->nioctls * sizeof(a->ioctls[0])))
			return -1;
	}
	return 0;
}

/*
 * Asks for fd's rights. Signals are blocked meanwhile: a handler asking
 * too (cap_rights_get() is async-signal-safe on FreeBSD, one syscall)
 * would replace this thread's answer between its pieces.
 */
int capsicum_fd_query(int fd, struct capsicum_answer *a, unsigned parts)
{
	sigset_t all, old;
	int ret, saved;

	sigfillset(&all);
	if (pthread_sigmask(SIG_BLOCK, &all, &old))
		return -1;
	ret = fd_query_blocked(fd, a, parts);
	saved = errno;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	errno = saved;
	return ret;
}

int capsicum_pd_child(void)
{
	return proc_request(CAPSICUM_OP_PD_CHILD) < 0 ? -1 : 0;
}

int capsicum_pd_watch(int pidfd)
{
	struct capsicum_req req;

	req_init(&req, CAPSICUM_OP_PD_WATCH);
	return fd_request(pidfd, &req);
}

int cap_rights_limit(int fd, const cap_rights_t *rights)
{
	struct capsicum_req req;

	if (!rights || !cap_rights_is_valid(rights)) {
		errno = EINVAL;
		return -1;
	}
	req_init(&req, CAPSICUM_OP_LIMIT_RIGHTS);
	req.rights[0] = rights->cr_rights[0];
	req.rights[1] = rights->cr_rights[1];
	return fd_request(fd, &req);
}

int __cap_rights_get(int version, int fd, cap_rights_t *rights)
{
	struct capsicum_answer a;

	if (version != CAP_RIGHTS_VERSION_00 || !rights) {
		errno = EINVAL;
		return -1;
	}
	if (capsicum_fd_query(fd, &a, CAPSICUM_QUERY_RIGHTS))
		return -1;
	rights->cr_rights[0] = a.rights[0];
	rights->cr_rights[1] = a.rights[1];
	return 0;
}

int cap_fcntls_limit(int fd, uint32_t fcntlrights)
{
	struct capsicum_req req;

	if (fcntlrights & ~CAP_FCNTL_ALL) {
		errno = EINVAL;
		return -1;
	}
	req_init(&req, CAPSICUM_OP_LIMIT_FCNTLS);
	req.fcntls = fcntlrights;
	return fd_request(fd, &req);
}

int cap_fcntls_get(int fd, uint32_t *fcntlrightsp)
{
	struct capsicum_answer a;

	if (!fcntlrightsp) {
		errno = EINVAL;
		return -1;
	}
	if (capsicum_fd_query(fd, &a, CAPSICUM_QUERY_FCNTLS))
		return -1;
	*fcntlrightsp = a.fcntls;
	return 0;
}

int cap_ioctls_limit(int fd, const cap_ioctl_t *cmds, size_t ncmds)
{
	struct capsicum_req req;

	_Static_assert(sizeof(cap_ioctl_t) == sizeof(__u64),
		       "the ABI carries ioctl commands as 64-bit words");
	if (ncmds > CAP_IOCTLS_MAX || (ncmds && !cmds)) {
		errno = EINVAL;
		return -1;
	}
	req_init(&req, CAPSICUM_OP_LIMIT_IOCTLS);
	req.nioctls = (__s32)ncmds;
	req.ioctls = (__u64)(unsigned long)cmds;
	return fd_request(fd, &req);
}

ssize_t cap_ioctls_get(int fd, cap_ioctl_t *cmds, size_t maxcmds)
{
	struct capsicum_answer a;
	size_t n;

	if (capsicum_fd_query(fd, &a, CAPSICUM_QUERY_IOCTLS))
		return -1;
	if (a.nioctls < 0)
		return CAP_IOCTLS_ALL;
	n = (size_t)a.nioctls < maxcmds ? (size_t)a.nioctls : maxcmds;
	if (n && !cmds) {
		errno = EFAULT;
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		cmds[i] = (cap_ioctl_t)a.ioctls[i];
	return a.nioctls;
}

__u32 capsicum_learn_id(void)
{
	struct capsicum_req req;
	int saved = errno, bits = 0;
	__u32 id = 0;

	/* One request decides it for every process that does not learn. */
	req_init(&req, CAPSICUM_OP_SELF);
	if (prctl(CAPSICUM_PRCTL_OPTION, &req, 0, 0, 0) < 0)
		bits = errno - CAPSICUM_STATUS_SELF;
	errno = saved;
	if (bits < 0 || bits >= 32 || !(bits & CAPSICUM_SELF_LEARNING))
		return 0;
	for (int bit = 0; bit < 32; bit += CAPSICUM_ANSWER_BITS) {
		int v = answer_piece_of(CAPSICUM_OP_LEARN_ID, 0, (size_t)bit);

		if (v < 0) {
			errno = saved;
			return 0;
		}
		id |= (__u32)v << bit;
	}
	return id;
}

/* Set once this process image installed the filter (kept across fork). */
static atomic_bool capmode_filter_installed;

/*
 * The BPF side's flag first, then the seccomp filter: if the filter then
 * fails, the process is already refused every lookup outside its
 * descriptors, never the other way round. Neither needs a descriptor, a
 * path or a privilege, so no limit, chroot() or setuid() before can make
 * this fail open (doc/capmode.md).
 */
int cap_enter(void)
{
	int saved = errno;
	/*
	 * A learning tree's supervisor is reached before capability mode,
	 * so reaching it is no call of the program's to record.
	 */
	int learn = capsicum_learn_connect();

	if (proc_request(CAPSICUM_OP_ENTER) < 0) {
		if (learn >= 0)
			close(learn);
		return -1;
	}
	if (atomic_load(&capmode_filter_installed)) {
		if (learn >= 0)
			close(learn);
	} else {
		/* A second cap_enter() succeeds, as on FreeBSD. */
		if (capsicum_capmode_install_for(learn))
			return -1;
		atomic_store(&capmode_filter_installed, true);
	}
	errno = saved; /* the filter's setup may have set it */
	return 0;
}

int cap_getmode(unsigned int *modep)
{
	int status;

	if (!modep) {
		errno = EFAULT;
		return -1;
	}
	status = proc_request(CAPSICUM_OP_GETMODE);
	if (status < 0)
		return -1;
	*modep = status == CAPSICUM_STATUS_OK_CAPMODE;
	return 0;
}

/* Never fails, so it leaves errno alone even when unloaded (ENOSYS). */
bool cap_sandboxed(void)
{
	unsigned int mode;
	int saved = errno;
	bool in = cap_getmode(&mode) == 0 && mode;

	errno = saved;
	return in;
}
