// SPDX-License-Identifier: GPL-2.0
/*
 * The fuzzer's checker: what a descriptor holds by the public API, whether
 * it only narrowed, and whether the operations its rights forbid really
 * fail (and those they allow do not fail with ENOTCAPABLE).
 */
#define _GNU_SOURCE
#include "fuzz.h"
#include "selftest.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

int fuzz_rights_get(int fd, struct fuzz_rights *r)
{
	memset(r, 0, sizeof(*r));
	if (cap_rights_get(fd, &r->rights) || cap_fcntls_get(fd, &r->fcntls))
		return -errno;
	r->nioctls = cap_ioctls_get(fd, r->ioctls, CAP_IOCTLS_MAX);
	if (r->nioctls < 0)
		return -errno;
	/* Neither "all" nor a count the ABI allows: a broken answer. */
	if (r->nioctls > CAP_IOCTLS_MAX && r->nioctls != CAP_IOCTLS_ALL)
		return -ERANGE;
	return 0;
}

static bool ioctl_listed(const struct fuzz_rights *r, cap_ioctl_t cmd)
{
	if (r->nioctls == CAP_IOCTLS_ALL)
		return true;
	for (ssize_t i = 0; i < r->nioctls && i < CAP_IOCTLS_MAX; i++)
		if (r->ioctls[i] == cmd)
			return true;
	return false;
}

bool fuzz_rights_within(const struct fuzz_rights *before,
			const struct fuzz_rights *after)
{
	if (!cap_rights_contains(&before->rights, &after->rights) ||
	    (after->fcntls & ~before->fcntls))
		return false;
	if (before->nioctls == CAP_IOCTLS_ALL)
		return true;
	if (after->nioctls == CAP_IOCTLS_ALL)
		return false;
	for (ssize_t i = 0; i < after->nioctls && i < CAP_IOCTLS_MAX; i++)
		if (!ioctl_listed(before, after->ioctls[i]))
			return false;
	return true;
}

bool fuzz_rights_equal(const struct fuzz_rights *a, const struct fuzz_rights *b)
{
	return fuzz_rights_within(a, b) && fuzz_rights_within(b, a) &&
	       a->nioctls == b->nioctls;
}

static bool has(const struct fuzz_rights *r, uint64_t right)
{
	cap_rights_t want;

	cap_rights_init(&want, right);
	return cap_rights_contains(&r->rights, &want);
}

/* Each operation returns 0 or -errno and undoes what it did. */
static int op_read(int fd)
{
	char c;

	return read(fd, &c, 0) < 0 ? -errno : 0;
}

static int op_write(int fd)
{
	return write(fd, "", 0) < 0 ? -errno : 0;
}

static int op_fstat(int fd)
{
	struct stat st;

	return fstat(fd, &st) ? -errno : 0;
}

static int op_fstatfs(int fd)
{
	struct statfs st;

	return fstatfs(fd, &st) ? -errno : 0;
}

static int op_getfl(int fd)
{
	return fcntl(fd, F_GETFL) < 0 ? -errno : 0;
}

static int op_fionread(int fd)
{
	int n;

	return ioctl(fd, FIONREAD, &n) ? -errno : 0;
}

static int op_flock(int fd)
{
	if (flock(fd, LOCK_SH | LOCK_NB))
		return -errno;
	flock(fd, LOCK_UN);
	return 0;
}

static int op_mmap(int fd)
{
	void *p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);

	if (p == MAP_FAILED)
		return -errno;
	munmap(p, 4096);
	return 0;
}

static int op_getsockname(int fd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);

	return getsockname(fd, (struct sockaddr *)&ss, &len) ? -errno : 0;
}

static int op_getsockopt(int fd)
{
	int v;
	socklen_t len = sizeof(v);

	return getsockopt(fd, SOL_SOCKET, SO_TYPE, &v, &len) ? -errno : 0;
}

static int op_openat(int fd)
{
	int f = openat(fd, "f", O_RDONLY | O_CLOEXEC);

	if (f < 0)
		return -errno;
	close(f);
	return 0;
}

static int op_pdkill0(int fd)
{
	return syscall(SYS_pidfd_send_signal, fd, 0, NULL, 0) ? -errno : 0;
}

/* Kinds as bits, for the table. */
#define B(k)	  (1U << (k))
#define FILES	  (B(FK_REG) | B(FK_MEMFD) | B(FK_DUP_REG))
#define SOCKS	  (B(FK_UNIX_A) | B(FK_UNIX_B) | B(FK_TCP) | B(FK_UDP))
#define ALL_KINDS ((1U << FK_COUNT) - 1)
/*
 * Descriptors on an anonymous inode (S_PRIVATE): security_inode_getattr()
 * calls no LSM for them, so a stock kernel cannot refuse their fstat
 * (a gap the fuzzer found; doc/security.md, "Testing").
 */
#define ANON_INODES                                                            \
	(B(FK_EPOLL) | B(FK_EVENTFD) | B(FK_TIMERFD) | B(FK_SIGNALFD) |        \
	 B(FK_URING) | B(FK_BPFMAP) | B(FK_PIDFD))

enum need { NEED_RIGHT, NEED_GETFL, NEED_FIONREAD };

static const struct probe {
	const char *name;
	int (*op)(int fd);
	uint32_t kinds;
	uint64_t right, right2; /* both needed; 0: none */
	enum need extra;
} probes[] = {
	{ "read", op_read,
	  FILES | SOCKS | B(FK_PIPE_R) | B(FK_EVENTFD) | B(FK_TIMERFD) |
		  B(FK_SIGNALFD),
	  CAP_READ, 0, NEED_RIGHT },
	{ "write", op_write,
	  FILES | SOCKS | B(FK_PIPE_W) | B(FK_DUP_PIPE) | B(FK_EVENTFD),
	  CAP_WRITE, 0, NEED_RIGHT },
	{ "fstat", op_fstat, ALL_KINDS & ~B(FK_OPATH) & ~ANON_INODES, CAP_FSTAT,
	  0, NEED_RIGHT },
	{ "fstatfs", op_fstatfs, ALL_KINDS & ~B(FK_OPATH), CAP_FSTATFS, 0,
	  NEED_RIGHT },
	{ "fcntl(F_GETFL)", op_getfl, ALL_KINDS & ~B(FK_OPATH), CAP_FCNTL, 0,
	  NEED_GETFL },
	{ "ioctl(FIONREAD)", op_fionread, ALL_KINDS & ~B(FK_OPATH), CAP_IOCTL,
	  0, NEED_FIONREAD },
	{ "flock", op_flock, FILES | B(FK_DIR), CAP_FLOCK, 0, NEED_RIGHT },
	{ "mmap(PROT_READ)", op_mmap, FILES, CAP_MMAP_R, 0, NEED_RIGHT },
	{ "getsockname", op_getsockname, SOCKS, CAP_GETSOCKNAME, 0,
	  NEED_RIGHT },
	{ "getsockopt", op_getsockopt, SOCKS, CAP_GETSOCKOPT, 0, NEED_RIGHT },
	{ "openat", op_openat, B(FK_DIR), CAP_LOOKUP, CAP_READ, NEED_RIGHT },
	{ "pidfd_send_signal(0)", op_pdkill0, B(FK_PIDFD), CAP_PDKILL, 0,
	  NEED_RIGHT },
};

static bool probe_allowed(const struct probe *p, const struct fuzz_rights *r)
{
	if (!has(r, p->right) || (p->right2 && !has(r, p->right2)))
		return false;
	switch (p->extra) {
	case NEED_GETFL:
		return r->fcntls & CAP_FCNTL_GETFL;
	case NEED_FIONREAD:
		return ioctl_listed(r, FIONREAD);
	default:
		return true;
	}
}

int fuzz_probe(struct fuzz_zoo *z, enum fuzz_kind k,
	       const struct fuzz_rights *held, unsigned int *denied)
{
	int fd = z->fd[k], bad = 0;

	if (fd < 0)
		return 0;
	for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
		const struct probe *p = &probes[i];
		bool allowed;
		int err;

		if (!(p->kinds & (1U << k)) ||
		    (k == FK_PIDFD && z->child_doomed))
			continue;
		allowed = probe_allowed(p, held);
		err = p->op(fd);
		if (err == -ENOTCAPABLE)
			(*denied)++;
		if (!allowed && err != -ENOTCAPABLE) {
			selftest_fail(
				__FILE__, __LINE__,
				"%s on the %s descriptor %d: %d, but its "
				"rights (0x%016llx 0x%016llx fcntls %#x "
				"ioctls %zd) forbid it: a widened right",
				p->name, fuzz_kind_name(k), fd, err,
				(unsigned long long)held->rights.cr_rights[0],
				(unsigned long long)held->rights.cr_rights[1],
				held->fcntls, held->nioctls);
			bad++;
		} else if (allowed && err == -ENOTCAPABLE) {
			selftest_fail(
				__FILE__, __LINE__,
				"%s on the %s descriptor %d: ENOTCAPABLE "
				"although its rights (0x%016llx "
				"0x%016llx) allow it",
				p->name, fuzz_kind_name(k), fd,
				(unsigned long long)held->rights.cr_rights[0],
				(unsigned long long)held->rights.cr_rights[1]);
			bad++;
		}
	}
	return bad;
}
