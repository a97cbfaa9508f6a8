// SPDX-License-Identifier: GPL-2.0
/*
 * Per-descriptor rights on a stock kernel, through <sys/capsicum.h> only:
 * the control plane's contract and errors, then one row per right: the
 * operation succeeds with the right and fails with ENOTCAPABLE without it.
 * Each SELFTEST runs in its own child, so limits never leak between tests.
 */
#define _GNU_SOURCE
#include "fixture.h"
#include "rows.h"
#include "selftest.h"

#include "load.h"

#include <fcntl.h>
#include <linux/openat2.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sys/inotify.h>
#include <sys/syscall.h>
#include <stdlib.h>
#include <sys/capsicum.h>
#include <sys/eventfd.h>
#include <sys/file.h>
#include <sys/sendfile.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <sys/xattr.h>
#include <unistd.h>

static bool loaded(void)
{
	return access(CAPSICUM_PIN_ANSWERS, F_OK) == 0;
}

/* A scratch file with some content, opened read-write. */
static int scratch_file(void)
{
	return fixture_scratch_file("capsicum");
}

/*
 * Unloads Capsicum first if this binary loaded it, so the test does not
 * depend on running before whatever loads it, and loads it again after.
 */
SELFTEST(control_plane_enosys_when_unloaded)
{
	cap_rights_t r;
	unsigned int mode;
	int fd = open("/dev/null", O_RDONLY);
	bool reload = loaded();

	if (reload && !fixture_unload())
		return;
	cap_rights_init(&r, CAP_READ);
	ASSERT_ERRNO(cap_rights_limit(fd, &r), ENOSYS, "limit unloaded");
	ASSERT_ERRNO(cap_rights_get(fd, &r), ENOSYS, "get unloaded");
	ASSERT_ERRNO(cap_getmode(&mode), ENOSYS, "getmode unloaded");
	close(fd);
	if (reload)
		fixture_loaded();
}

SELFTEST(limit_get_and_errors)
{
	cap_rights_t r, got, wide;
	unsigned int mode = 7;
	int fd;

	if (!fixture_loaded())
		return;
	fd = scratch_file();
	if (!ASSERT_OK(fd, "scratch file"))
		return;
	/* An untouched descriptor has every right. */
	ASSERT_OK(cap_rights_get(fd, &got), "get fresh");
	CAP_ALL(&wide);
	ASSERT_TRUE(cap_rights_contains(&got, &wide) &&
			    cap_rights_contains(&wide, &got),
		    "fresh fd has all rights");
	cap_rights_init(&r, CAP_READ, CAP_FSTAT);
	ASSERT_OK(cap_rights_limit(fd, &r), "limit read,fstat");
	ASSERT_OK(cap_rights_get(fd, &got), "get limited");
	ASSERT_EQ(got.cr_rights[0], r.cr_rights[0], "word 0 as set");
	ASSERT_EQ(got.cr_rights[1], r.cr_rights[1], "word 1 as set");
	/* Rights only narrow, whoever asks. */
	cap_rights_init(&wide, CAP_READ, CAP_WRITE);
	ASSERT_ERRNO(cap_rights_limit(fd, &wide), ENOTCAPABLE, "widen");
	ASSERT_OK(cap_rights_get(fd, &got), "get after widen");
	ASSERT_EQ(got.cr_rights[0], r.cr_rights[0], "widen changed nothing");
	/* Same set again is fine; a subset narrows further. */
	ASSERT_OK(cap_rights_limit(fd, &r), "limit same");
	cap_rights_init(&r, CAP_READ);
	ASSERT_OK(cap_rights_limit(fd, &r), "narrow further");
	/* Bad input. */
	ASSERT_ERRNO(cap_rights_limit(12345, &r), EBADF, "unknown fd");
	ASSERT_ERRNO(cap_rights_get(12345, &got), EBADF, "get unknown fd");
	got = r;
	got.cr_rights[0] |= 3ULL << 62; /* wrong version */
	ASSERT_ERRNO(cap_rights_limit(fd, &got), EINVAL, "bad version");
	ASSERT_ERRNO(cap_rights_limit(fd, NULL), EINVAL, "NULL rights");
	ASSERT_ERRNO(cap_ioctls_limit(fd, NULL, CAP_IOCTLS_MAX + 1), EINVAL,
		     "too many ioctls");
	ASSERT_ERRNO(cap_fcntls_limit(fd, 1U << 20), EINVAL, "bad fcntls");
	ASSERT_OK(cap_getmode(&mode), "getmode");
	ASSERT_EQ(mode, 0, "not in capability mode");
	close(fd);
}

/* The acceptance case: stdout limited to CAP_WRITE, parent intact. */
SELFTEST(stdout_write_only_parent_unaffected)
{
	struct stat st;
	pid_t pid;

	if (!fixture_loaded())
		return;
	pid = fork();
	if (pid == 0) {
		cap_rights_t r;

		cap_rights_init(&r, CAP_WRITE);
		if (cap_rights_limit(STDOUT_FILENO, &r))
			_exit(10);
		if (fstat(STDOUT_FILENO, &st) != -1 || errno != ENOTCAPABLE)
			_exit(11);
		if (write(STDOUT_FILENO, "", 0) != 0)
			_exit(12);
		_exit(0);
	}
	ASSERT_EQ(selftest_wait(pid), 0,
		  "child: limit, fstat ENOTCAPABLE, write ok");
	ASSERT_OK(fstat(STDOUT_FILENO, &st), "parent fstat(1) unaffected");
}

SELFTEST(dup_then_limit_keeps_original)
{
	cap_rights_t r, got;
	char c;
	int fd, ro;

	if (!fixture_loaded())
		return;
	fd = scratch_file();
	ro = dup(fd);
	if (!ASSERT_OK(ro, "dup"))
		return;
	cap_rights_init(&r, CAP_READ, CAP_SEEK);
	ASSERT_OK(cap_rights_limit(ro, &r), "limit the dup");
	ASSERT_ERRNO(write(ro, "x", 1), ENOTCAPABLE, "write via limited dup");
	ASSERT_EQ(pread(ro, &c, 1, 0), 1, "pread via limited dup");
	ASSERT_EQ(write(fd, "x", 1), 1, "write via original");
	ASSERT_OK(cap_rights_get(fd, &got), "get original");
	ASSERT_TRUE(cap_rights_is_set(&got, CAP_WRITE, CAP_FSTAT, CAP_MMAP_RW),
		    "original keeps its rights");
}

/*
 * Narrowing fd to `narrow` (no CAP_WRITE) takes writing from it only:
 * its dup still writes and keeps `keep`.
 */
static void expect_narrowing_spares_dup(int fd, int dup,
					const cap_rights_t *narrow,
					const cap_rights_t *keep)
{
	cap_rights_t got;

	ASSERT_OK(cap_rights_limit(fd, narrow), "narrow");
	ASSERT_ERRNO(write(fd, "x", 1), ENOTCAPABLE,
		     "narrowed fd cannot write");
	ASSERT_EQ(write(dup, "x", 1), 1, "its dup still writes");
	ASSERT_OK(cap_rights_get(dup, &got), "get the dup");
	ASSERT_EQ(got.cr_rights[0], keep->cr_rights[0],
		  "the dup keeps its rights");
}

/*
 * A dup of a limited descriptor holds the file's floor with no entry of
 * its own (doc/design.md): narrowing either one later leaves the other
 * as it was, and the narrowed one exactly narrowed.
 */
SELFTEST(narrowing_after_dup_leaves_the_other)
{
	cap_rights_t rw, r, w;
	char c;
	int fd, d, d2;

	if (!fixture_loaded())
		return;
	fd = scratch_file();
	cap_rights_init(&rw, CAP_READ, CAP_WRITE, CAP_SEEK);
	if (!ASSERT_OK(cap_rights_limit(fd, &rw), "limit"))
		return;
	d = dup(fd);
	d2 = dup(fd);
	if (!ASSERT_OK(d, "dup") || !ASSERT_OK(d2, "dup"))
		return;
	cap_rights_init(&r, CAP_READ, CAP_SEEK);
	expect_narrowing_spares_dup(fd, d, &r, &rw);
	cap_rights_init(&w, CAP_WRITE);
	ASSERT_OK(cap_rights_limit(d2, &w), "narrow the other dup");
	ASSERT_ERRNO(pread(d2, &c, 1, 0), ENOTCAPABLE, "it cannot read");
	ASSERT_EQ(pread(d, &c, 1, 0), 1, "the first dup still reads");
	ASSERT_EQ(write(d, "x", 1), 1, "and writes");
}

SELFTEST(dup_family_copies_rights)
{
	cap_rights_t r, got;
	int fd, d[4];

	if (!fixture_loaded())
		return;
	fd = scratch_file();
	cap_rights_init(&r, CAP_READ);
	if (!ASSERT_OK(cap_rights_limit(fd, &r), "limit"))
		return;
	d[0] = dup(fd);
	d[1] = dup2(fd, 40);
	d[2] = dup3(fd, 41, O_CLOEXEC);
	d[3] = fcntl(fd, F_DUPFD_CLOEXEC, 50);
	for (int i = 0; i < 4; i++) {
		ASSERT_OK(d[i], "dup variant");
		ASSERT_OK(cap_rights_get(d[i], &got), "get dup");
		ASSERT_EQ(got.cr_rights[0], r.cr_rights[0],
			  "dup has the rights");
		ASSERT_ERRNO(write(d[i], "x", 1), ENOTCAPABLE,
			     "dup cannot write");
	}
	/* dup2 over a limited fd number replaces its rights. */
	int fresh = scratch_file();

	ASSERT_EQ(dup2(fresh, 40), 40, "dup2 fresh over 40");
	ASSERT_EQ(write(40, "x", 1), 1, "40 now writes");
}

SELFTEST(fork_copies_and_child_limits_stay_in_child)
{
	cap_rights_t r;
	int fd;
	pid_t pid;

	if (!fixture_loaded())
		return;
	fd = scratch_file();
	cap_rights_init(&r, CAP_READ, CAP_WRITE);
	ASSERT_OK(cap_rights_limit(fd, &r), "limit before fork");
	pid = fork();
	if (pid == 0) {
		struct stat st;
		cap_rights_t w;

		if (fstat(fd, &st) != -1 || errno != ENOTCAPABLE)
			_exit(10); /* inherited limit */
		cap_rights_init(&w, CAP_READ);
		if (cap_rights_limit(fd, &w))
			_exit(11);
		_exit(write(fd, "x", 1) == -1 && errno == ENOTCAPABLE ? 0 : 12);
	}
	ASSERT_EQ(selftest_wait(pid), 0,
		  "child saw the table, narrowed its own");
	ASSERT_EQ(write(fd, "x", 1), 1, "parent still writes");
}

SELFTEST(close_and_reopen_never_inherits)
{
	cap_rights_t r, got, all;

	if (!fixture_loaded())
		return;
	CAP_ALL(&all);
	cap_rights_init(&r, CAP_READ);
	/* Same fd number, often the same struct file address: never stale. */
	for (int i = 0; i < 10000; i++) {
		int fd = open("/dev/null", O_RDWR);

		if (!ASSERT_OK(fd, "open") ||
		    !ASSERT_OK(cap_rights_limit(fd, &r), "limit"))
			return;
		close(fd);
		fd = open("/dev/null", O_RDWR);
		if (!ASSERT_OK(cap_rights_get(fd, &got), "get reopened") ||
		    !ASSERT_TRUE(cap_rights_contains(&got, &all),
				 "reopened fd unrestricted") ||
		    !ASSERT_EQ(write(fd, "x", 1), 1, "reopened fd writes"))
			return;
		close(fd);
	}
}

/* --- one row per right ---------------------------------------------------*/

/*
 * The descriptors rows act on (rows.h: .make), each made fresh in the
 * row's child before the limit.
 */

/* Where tcp_fresh()'s listener waits, for op_connect. */
static struct sockaddr_in peer;

/* The extended attribute xattr_file() carries (a namespace this run has). */
static const char *xattr_name;

/*
 * The other file of a transfer row, opened before the row's call and
 * before cap_enter(), as a sandboxed program holds its files.
 */
static int xfer_peer = -1;

/* fd, repositioned at its start (-1 on failure, which the op reports). */
static int at_start(int fd)
{
	return lseek(fd, 0, SEEK_SET) < 0 ? -1 : fd;
}

/* A scratch file at its start (rewinding after the limit needs CAP_SEEK). */
static int file_rw(void)
{
	xfer_peer = scratch_file();
	return at_start(scratch_file());
}

/* A unix stream socket; its peer stays open, with a byte sent. */
static int sockpair(void)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) ||
	    write(sv[1], "y", 1) != 1)
		return -1;
	return sv[0];
}

/* A fresh directory holding a file "f". */
static int directory(void)
{
	char dir[] = "/tmp/rights-dir.XXXXXX";
	int dfd, f;

	if (!mkdtemp(dir))
		return -1;
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	f = openat(dfd, "f", O_WRONLY | O_CREAT, 0644);
	return f < 0 || close(f) ? -1 : dfd;
}

static int inotify(void)
{
	return inotify_init1(0);
}

/* A new TCP socket; a listener waits at `peer`. */
static int tcp_fresh(void)
{
	int l = fixture_tcp_bound(&peer);

	if (l < 0 || listen(l, 1))
		return -1;
	return socket(AF_INET, SOCK_STREAM, 0);
}

/* Bound to 127.0.0.1, not listening. */
static int tcp_bound(void)
{
	struct sockaddr_in a;

	return fixture_tcp_bound(&a);
}

/* Listening, one connection pending. */
static int tcp_listening(void)
{
	struct sockaddr_in a;
	int l = fixture_tcp_bound(&a), c = socket(AF_INET, SOCK_STREAM, 0);

	if (l < 0 || c < 0 || listen(l, 1) ||
	    connect(c, (struct sockaddr *)&a, sizeof(a)))
		return -1;
	return l;
}

/* /bin/busybox opened read-only. */
static int executable(void)
{
	return open("/bin/busybox", O_RDONLY);
}

/* file_rw() with the attribute xattr_name set. */
static int xattr_file(void)
{
	int fd = scratch_file();

	if (fd < 0 || fsetxattr(fd, xattr_name, "v", 1, 0))
		return -1;
	return fd;
}

/* A memfd that allows sealing. */
static int memfd(void)
{
	return memfd_create("rights", MFD_ALLOW_SEALING);
}

/* A read-only shared mapping of a scratch file, made before the limit. */
static void *mapped;

static int mapped_file(void)
{
	int fd = scratch_file();

	mapped = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	return mapped == MAP_FAILED ? -1 : fd;
}

/* CAP_MMAP_X also holds CAP_MMAP and CAP_SEEK: this is its own bit. */
#define CAP_MMAP_X_ONLY CAPRIGHT(0, 0x20ULL)

/* The extended attribute XATTR_FILE carries (a namespace this run has). */
static const char *xattr_name;

static int op_read(int fd)
{
	char c;

	return lseek(fd, 0, SEEK_SET) < 0 || read(fd, &c, 1) != 1 ? -1 : 0;
}
static int op_write(int fd)
{
	return write(fd, "x", 1) == 1 ? 0 : -1;
}
static int op_pread(int fd)
{
	char c;

	return pread(fd, &c, 1, 0) == 1 ? 0 : -1;
}
static int op_pwrite(int fd)
{
	return pwrite(fd, "x", 1, 0) == 1 ? 0 : -1;
}
static int op_readv(int fd)
{
	char c;
	struct iovec v = { &c, 1 };

	return lseek(fd, 0, SEEK_SET) < 0 || readv(fd, &v, 1) != 1 ? -1 : 0;
}
static int op_fstat(int fd)
{
	struct stat st;

	return fstat(fd, &st);
}
static int op_mmap_r(int fd)
{
	void *p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);

	return p == MAP_FAILED ? -1 : munmap(p, 4096);
}
static int op_mmap_w_shared(int fd)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	return p == MAP_FAILED ? -1 : munmap(p, 4096);
}
static int op_mmap_w_private(int fd)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);

	return p == MAP_FAILED ? -1 : munmap(p, 4096);
}
static int op_ioctl(int fd)
{
	int n;

	return ioctl(fd, FIONREAD, &n);
}
static int op_fcntl_getfl(int fd)
{
	return fcntl(fd, F_GETFL) < 0 ? -1 : 0;
}
static int op_flock(int fd)
{
	return flock(fd, LOCK_SH);
}
static int op_setlk(int fd)
{
	struct flock l = { .l_type = F_RDLCK, .l_whence = SEEK_SET };

	return fcntl(fd, F_SETLK, &l);
}
/* Leases and seals: Linux-only fcntl commands with rights of their own. */
static int op_getlease(int fd)
{
	return fcntl(fd, F_GETLEASE) < 0 ? -1 : 0;
}
static int op_setlease(int fd)
{
	/* A write lease: this is the file's only open descriptor. */
	if (fcntl(fd, F_SETLEASE, F_WRLCK))
		return -1;
	return fcntl(fd, F_SETLEASE, F_UNLCK);
}
static int op_get_seals(int fd)
{
	return fcntl(fd, F_GET_SEALS) < 0 ? -1 : 0;
}
static int op_add_seals(int fd)
{
	return fcntl(fd, F_ADD_SEALS, F_SEAL_GROW);
}
static int op_ftruncate(int fd)
{
	return ftruncate(fd, 4);
}
static int op_fallocate(int fd)
{
	return fallocate(fd, 0, 0, 4096);
}
static int op_fchmod(int fd)
{
	return fchmod(fd, 0600);
}
static int op_fchown(int fd)
{
	return fchown(fd, geteuid(), getegid());
}
static int op_futimens(int fd)
{
	return futimens(fd, NULL);
}
/* futimesat with a NULL path acts on its descriptor, as futimens does. */
static int op_futimesat_null(int fd)
{
	return (int)syscall(SYS_futimesat, fd, NULL, NULL);
}
static int op_flistxattr(int fd)
{
	char buf[64];

	return flistxattr(fd, buf, sizeof(buf)) < 0 ? -1 : 0;
}
static int op_fstatfs(int fd)
{
	struct statfs s;

	return fstatfs(fd, &s);
}
static int op_send(int fd)
{
	return send(fd, "x", 1, 0) == 1 ? 0 : -1;
}
static int op_recv(int fd)
{
	char c;

	return recv(fd, &c, 1, MSG_DONTWAIT) == 1 ? 0 : -1;
}
static int op_sendmmsg(int fd)
{
	struct iovec v = { "x", 1 };
	struct mmsghdr m = { .msg_hdr = { .msg_iov = &v, .msg_iovlen = 1 } };

	return sendmmsg(fd, &m, 1, 0) == 1 ? 0 : -1;
}
static int op_sendmsg(int fd)
{
	struct iovec v = { "x", 1 };
	struct msghdr m = { .msg_iov = &v, .msg_iovlen = 1 };

	return sendmsg(fd, &m, 0) == 1 ? 0 : -1;
}
static int op_recvmsg(int fd)
{
	char c;
	struct iovec v = { &c, 1 };
	struct msghdr m = { .msg_iov = &v, .msg_iovlen = 1 };

	return recvmsg(fd, &m, MSG_DONTWAIT) == 1 ? 0 : -1;
}
static int op_openat2_read(int fd)
{
	struct open_how how = { .flags = O_RDONLY };
	int f = (int)syscall(SYS_openat2, fd, "f", &how, sizeof(how));

	return f < 0 ? -1 : close(f);
}
static int op_recvmmsg(int fd)
{
	char c;
	struct iovec v = { &c, 1 };
	struct mmsghdr m = { .msg_hdr = { .msg_iov = &v, .msg_iovlen = 1 } };

	return recvmmsg(fd, &m, 1, MSG_DONTWAIT, NULL) == 1 ? 0 : -1;
}
static int op_getsockname(int fd)
{
	struct sockaddr_storage a;
	socklen_t l = sizeof(a);

	return getsockname(fd, (struct sockaddr *)&a, &l);
}
static int op_getpeername(int fd)
{
	struct sockaddr_storage a;
	socklen_t l = sizeof(a);

	return getpeername(fd, (struct sockaddr *)&a, &l);
}
static int op_getsockopt(int fd)
{
	int v;
	socklen_t l = sizeof(v);

	return getsockopt(fd, SOL_SOCKET, SO_TYPE, &v, &l);
}
static int op_setsockopt(int fd)
{
	int v = 4096;

	return setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, sizeof(v));
}
static int op_shutdown(int fd)
{
	return shutdown(fd, SHUT_WR);
}
static int op_openat_read(int fd)
{
	int f = openat(fd, "f", O_RDONLY);

	return f < 0 ? -1 : close(f);
}
static int op_openat_create(int fd)
{
	int f = openat(fd, "new", O_WRONLY | O_CREAT, 0600);

	return f < 0 ? -1 : close(f);
}

static int op_writev(int fd)
{
	struct iovec v = { "x", 1 };

	return writev(fd, &v, 1) == 1 ? 0 : -1;
}
static int op_getdents_old(int fd)
{
	char buf[512];

	return syscall(SYS_getdents, fd, buf, sizeof(buf)) < 0 ? -1 : 0;
}
static int op_getdents(int fd)
{
	char buf[512];

	return syscall(SYS_getdents64, fd, buf, sizeof(buf)) < 0 ? -1 : 0;
}
static int op_inotify_add(int fd)
{
	return inotify_add_watch(fd, "/tmp", IN_CREATE) < 0 ? -1 : 0;
}
static int op_bind(int fd)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };

	return bind(fd, (struct sockaddr *)&a, sizeof(a));
}
static int op_listen(int fd)
{
	return listen(fd, 1);
}
static int op_connect(int fd)
{
	return connect(fd, (struct sockaddr *)&peer, sizeof(peer));
}
static int op_accept4(int fd)
{
	int c = accept4(fd, NULL, NULL, SOCK_CLOEXEC);

	return c < 0 ? -1 : close(c);
}
static int op_accept(int fd)
{
	int c = accept(fd, NULL, NULL);

	return c < 0 ? -1 : close(c);
}
/* fexecve of busybox as "true", in a grandchild; its errno comes back. */
static int op_fexecve(int fd)
{
	char *argv[] = { "true", NULL }, *envp[] = { NULL };
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		fexecve(fd, argv, envp);
		_exit(errno);
	}
	status = selftest_wait(pid);
	if (status < 0)
		return -1;
	errno = status;
	return errno ? -1 : 0;
}

static int pipe_end(bool read_end)
{
	int p[2];

	/* The other end stays open, so reads see data and writes no EPIPE. */
	if (pipe(p))
		return -1;
	if (!read_end)
		return p[1];
	return write(p[1], "y", 1) == 1 ? p[0] : -1;
}

enum xfer { X_SENDFILE, X_SPLICE, X_COPY_FILE_RANGE };

/* Moves one byte from in to out, passing offset pointers where asked. */
static int xfer(enum xfer how, int in, bool in_off, int out, bool out_off)
{
	loff_t ioff = 0, ooff = 0, *ip = in_off ? &ioff : NULL,
	       *op = out_off ? &ooff : NULL;
	ssize_t n = -1;

	switch (how) {
	case X_SENDFILE: /* offsets only apply to the input */
		n = sendfile(out, in, ip, 1);
		break;
	case X_SPLICE:
		n = splice(in, ip, out, op, 1, 0);
		break;
	case X_COPY_FILE_RANGE:
		n = copy_file_range(in, ip, out, op, 1, 0);
		break;
	}
	return n == 1 ? 0 : -1;
}

/*
 * fd, the limited descriptor, is the end the op's name says (_in or _out);
 * the other end is a fresh, unrestricted file (xfer_peer) or pipe.
 */
static int peer_file(void)
{
	return xfer_peer >= 0 ? xfer_peer : scratch_file();
}

static int op_sendfile_in(int fd)
{
	return xfer(X_SENDFILE, fd, false, peer_file(), false);
}
static int op_sendfile_in_off(int fd)
{
	return xfer(X_SENDFILE, fd, true, peer_file(), false);
}
static int op_sendfile_out(int fd)
{
	return xfer(X_SENDFILE, at_start(peer_file()), false, fd, false);
}
static int op_splice_in(int fd)
{
	return xfer(X_SPLICE, fd, false, pipe_end(false), false);
}
static int op_splice_in_off(int fd)
{
	return xfer(X_SPLICE, fd, true, pipe_end(false), false);
}
static int op_splice_out(int fd)
{
	return xfer(X_SPLICE, pipe_end(true), false, fd, false);
}
static int op_splice_out_off(int fd)
{
	return xfer(X_SPLICE, pipe_end(true), false, fd, true);
}
static int op_copy_in(int fd)
{
	return xfer(X_COPY_FILE_RANGE, fd, false, peer_file(), false);
}
static int op_copy_in_off(int fd)
{
	return xfer(X_COPY_FILE_RANGE, fd, true, peer_file(), false);
}
static int op_copy_out(int fd)
{
	return xfer(X_COPY_FILE_RANGE, at_start(peer_file()), false, fd, false);
}
static int op_copy_out_off(int fd)
{
	return xfer(X_COPY_FILE_RANGE, at_start(peer_file()), false, fd, true);
}

/* One byte at offset 0 (or at the file position for -1), vectored. */
static int vec_io(int fd, bool wr, bool v2, off_t off)
{
	char c = 'x';
	struct iovec v = { &c, 1 };
	ssize_t n;

	if (v2)
		n = wr ? pwritev2(fd, &v, 1, off, 0)
		       : preadv2(fd, &v, 1, off, 0);
	else
		n = wr ? pwritev(fd, &v, 1, off) : preadv(fd, &v, 1, off);
	return n == 1 ? 0 : -1;
}
static int op_preadv(int fd)
{
	return vec_io(fd, false, false, 0);
}
static int op_pwritev(int fd)
{
	return vec_io(fd, true, false, 0);
}
static int op_preadv2(int fd)
{
	return vec_io(fd, false, true, 0);
}
static int op_pwritev2(int fd)
{
	return vec_io(fd, true, true, 0);
}
static int op_preadv2_at_pos(int fd)
{
	return vec_io(fd, false, true, -1);
}
static int op_pwritev2_at_pos(int fd)
{
	return vec_io(fd, true, true, -1);
}

/* An anonymous inode (S_PRIVATE), which security_inode_getattr() skips. */
static int anon_inode(void)
{
	return eventfd(0, 0);
}

static int op_fstatat_empty(int fd)
{
	struct stat st;

	return fstatat(fd, "", &st, AT_EMPTY_PATH);
}
static int op_statx_empty(int fd)
{
	struct statx stx;

	return statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &stx);
}

static int op_mmap_x(int fd)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);

	return p == MAP_FAILED ? -1 : munmap(p, 4096);
}

/*
 * file_rw() in a process whose PROT_READ mappings the kernel makes
 * executable (READ_IMPLIES_EXEC, set before cap_enter(), which refuses
 * setting a personality).
 */
static int file_rw_read_implies_exec(void)
{
	if (personality(READ_IMPLIES_EXEC) < 0)
		return -1;
	return file_rw();
}
static int op_mmap_private_r(int fd)
{
	void *p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);

	return p == MAP_FAILED ? -1 : munmap(p, 4096);
}

/* mprotect of mapped_file()'s mapping, made before the limit. */
static int op_mprotect_x(int fd)
{
	(void)fd;
	return mprotect(mapped, 4096, PROT_READ | PROT_EXEC);
}
static int op_mprotect_w(int fd)
{
	(void)fd;
	return mprotect(mapped, 4096, PROT_READ | PROT_WRITE);
}

static int op_fgetxattr(int fd)
{
	char v[8];

	return fgetxattr(fd, xattr_name, v, sizeof(v)) < 0 ? -1 : 0;
}
static int op_fsetxattr(int fd)
{
	return fsetxattr(fd, xattr_name, "w", 1, 0);
}
static int op_fremovexattr(int fd)
{
	return fremovexattr(fd, xattr_name);
}

static int openat_flags(int dfd, int flags)
{
	int f = openat(dfd, "f", flags);

	return f < 0 ? -1 : close(f);
}
static int op_openat_wronly(int fd)
{
	return openat_flags(fd, O_WRONLY);
}
static int op_openat_rdwr(int fd)
{
	return openat_flags(fd, O_RDWR);
}
static int op_openat_trunc(int fd)
{
	return openat_flags(fd, O_WRONLY | O_TRUNC);
}
static int op_openat_append(int fd)
{
	return openat_flags(fd, O_WRONLY | O_APPEND);
}
static int op_openat_sync(int fd)
{
	return openat_flags(fd, O_RDONLY | O_SYNC);
}
static int op_openat_dsync(int fd)
{
	return openat_flags(fd, O_RDONLY | O_DSYNC);
}

static int op_fcntl_setfl(int fd)
{
	return fcntl(fd, F_SETFL, O_NONBLOCK);
}

/*
 * One row per operation and the rights it needs (rows.h): it succeeds
 * with them and fails with ENOTCAPABLE without any one of them, in
 * capability mode too, where a missing right is reported before any
 * refusal of capability mode's (FreeBSD's order), except for the calls
 * capability mode refuses at their entry whatever the rights
 * (doc/capmode.md): ECAPMODE with or without the right, as FreeBSD's
 * syscall table refuses bind (FreeBSD allows only bindat), connect
 * (connectat) and inotify_add_watch (a path from the working directory)
 * before any right, and as capability mode refuses openat2 (its flags
 * are in user memory).
 */
static const struct rights_row cases[] = {
	{ .name = "writev",
	  .rights = CAP_WRITE,
	  .make = file_rw,
	  .op = op_writev,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "getdents64",
	  .rights = CAP_READ,
	  .make = directory,
	  .op = op_getdents,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "inotify_add_watch",
	  .rights = CAP_INOTIFY_ADD,
	  .make = inotify,
	  .op = op_inotify_add,
	  .stock = EXPECT(0, ENOTCAPABLE, ECAPMODE, ECAPMODE) },
	{ .name = "bind",
	  .rights = CAP_BIND,
	  .make = tcp_fresh,
	  .op = op_bind,
	  .stock = EXPECT(0, ENOTCAPABLE, ECAPMODE, ECAPMODE) },
	{ .name = "listen",
	  .rights = CAP_LISTEN,
	  .make = tcp_bound,
	  .op = op_listen,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "connect",
	  .rights = CAP_CONNECT,
	  .make = tcp_fresh,
	  .op = op_connect,
	  .stock = EXPECT(0, ENOTCAPABLE, ECAPMODE, ECAPMODE) },
	{ .name = "accept",
	  .rights = CAP_ACCEPT,
	  .make = tcp_listening,
	  .op = op_accept,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "fexecve",
	  .rights = CAP_FEXECVE,
	  .make = executable,
	  .op = op_fexecve,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "accept4",
	  .rights = CAP_ACCEPT,
	  .make = tcp_listening,
	  .op = op_accept4,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "getdents",
	  .rights = CAP_READ,
	  .make = directory,
	  .op = op_getdents_old,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "sendmsg",
	  .rights = CAP_SEND,
	  .make = sockpair,
	  .op = op_sendmsg,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "recvmsg",
	  .rights = CAP_RECV,
	  .make = sockpair,
	  .op = op_recvmsg,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "openat2 O_RDONLY",
	  .rights = CAP_LOOKUP | CAP_READ,
	  .make = directory,
	  .op = op_openat2_read,
	  .stock = EXPECT(0, ENOTCAPABLE, ECAPMODE, ECAPMODE) },
	{ .name = "read",
	  .rights = CAP_READ,
	  .make = file_rw,
	  .op = op_read,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "write",
	  .rights = CAP_WRITE,
	  .make = file_rw,
	  .op = op_write,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "pread",
	  .rights = CAP_PREAD,
	  .make = file_rw,
	  .op = op_pread,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "pwrite",
	  .rights = CAP_PWRITE,
	  .make = file_rw,
	  .op = op_pwrite,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "readv",
	  .rights = CAP_READ,
	  .make = file_rw,
	  .op = op_readv,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "fstat",
	  .rights = CAP_FSTAT,
	  .make = file_rw,
	  .op = op_fstat,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "fstat of an anonymous inode",
	  .rights = CAP_FSTAT,
	  .make = anon_inode,
	  .op = op_fstat,
	  .stock = EXPECT(0, 0, 0, 0),
	  .patched = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "mmap read",
	  .rights = CAP_MMAP_R,
	  .make = file_rw,
	  .op = op_mmap_r,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "mmap shared write",
	  .rights = CAP_MMAP_RW,
	  .make = file_rw,
	  .op = op_mmap_w_shared,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "ioctl",
	  .rights = CAP_IOCTL,
	  .make = sockpair,
	  .op = op_ioctl,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "fcntl getfl",
	  .rights = CAP_FCNTL,
	  .make = file_rw,
	  .op = op_fcntl_getfl,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "flock",
	  .rights = CAP_FLOCK,
	  .make = file_rw,
	  .op = op_flock,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "fcntl setlk",
	  .rights = CAP_FLOCK,
	  .make = file_rw,
	  .op = op_setlk,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "ftruncate",
	  .rights = CAP_FTRUNCATE,
	  .make = file_rw,
	  .op = op_ftruncate,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "fallocate",
	  .rights = CAP_PWRITE,
	  .make = file_rw,
	  .op = op_fallocate,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "fchmod",
	  .rights = CAP_FCHMOD,
	  .make = file_rw,
	  .op = op_fchmod,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "fchown",
	  .rights = CAP_FCHOWN,
	  .make = file_rw,
	  .op = op_fchown,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "futimens",
	  .rights = CAP_FUTIMES,
	  .make = file_rw,
	  .op = op_futimens,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "futimesat NULL path",
	  .rights = CAP_FUTIMES,
	  .make = file_rw,
	  .op = op_futimesat_null,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "flistxattr",
	  .rights = CAP_EXTATTR_LIST,
	  .make = file_rw,
	  .op = op_flistxattr,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "fstatfs",
	  .rights = CAP_FSTATFS,
	  .make = file_rw,
	  .op = op_fstatfs,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "send",
	  .rights = CAP_SEND,
	  .make = sockpair,
	  .op = op_send,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "recv",
	  .rights = CAP_RECV,
	  .make = sockpair,
	  .op = op_recv,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "sendmmsg",
	  .rights = CAP_SEND,
	  .make = sockpair,
	  .op = op_sendmmsg,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "recvmmsg",
	  .rights = CAP_RECV,
	  .make = sockpair,
	  .op = op_recvmmsg,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "getsockname",
	  .rights = CAP_GETSOCKNAME,
	  .make = sockpair,
	  .op = op_getsockname,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "getpeername",
	  .rights = CAP_GETPEERNAME,
	  .make = sockpair,
	  .op = op_getpeername,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "getsockopt",
	  .rights = CAP_GETSOCKOPT,
	  .make = sockpair,
	  .op = op_getsockopt,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "setsockopt",
	  .rights = CAP_SETSOCKOPT,
	  .make = sockpair,
	  .op = op_setsockopt,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "shutdown",
	  .rights = CAP_SHUTDOWN,
	  .make = sockpair,
	  .op = op_shutdown,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "openat needs lookup",
	  .rights = CAP_LOOKUP,
	  .make = directory,
	  .op = op_openat_read,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "openat O_RDONLY needs read",
	  .rights = CAP_READ,
	  .make = directory,
	  .op = op_openat_read,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "openat O_CREAT needs create",
	  .rights = CAP_CREATE,
	  .make = directory,
	  .op = op_openat_create,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "sendfile input needs read",
	  .rights = CAP_READ,
	  .make = file_rw,
	  .op = op_sendfile_in,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "sendfile input offset needs seek",
	  .rights = CAP_SEEK,
	  .make = file_rw,
	  .op = op_sendfile_in_off,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "sendfile output needs write",
	  .rights = CAP_WRITE,
	  .make = file_rw,
	  .op = op_sendfile_out,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "splice input needs read",
	  .rights = CAP_READ,
	  .make = file_rw,
	  .op = op_splice_in,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "splice input offset needs seek",
	  .rights = CAP_SEEK,
	  .make = file_rw,
	  .op = op_splice_in_off,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "splice output needs write",
	  .rights = CAP_WRITE,
	  .make = file_rw,
	  .op = op_splice_out,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "splice output offset needs seek",
	  .rights = CAP_SEEK,
	  .make = file_rw,
	  .op = op_splice_out_off,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "copy_file_range input needs read",
	  .rights = CAP_READ,
	  .make = file_rw,
	  .op = op_copy_in,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "copy_file_range input offset needs seek",
	  .rights = CAP_SEEK,
	  .make = file_rw,
	  .op = op_copy_in_off,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "copy_file_range output needs write",
	  .rights = CAP_WRITE,
	  .make = file_rw,
	  .op = op_copy_out,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "copy_file_range output offset needs seek",
	  .rights = CAP_SEEK,
	  .make = file_rw,
	  .op = op_copy_out_off,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "preadv",
	  .rights = CAP_PREAD,
	  .make = file_rw,
	  .op = op_preadv,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "pwritev",
	  .rights = CAP_PWRITE,
	  .make = file_rw,
	  .op = op_pwritev,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "preadv2 offset needs seek",
	  .rights = CAP_SEEK,
	  .make = file_rw,
	  .op = op_preadv2,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "preadv2 offset needs read",
	  .rights = CAP_READ,
	  .make = file_rw,
	  .op = op_preadv2,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "preadv2 at -1 needs read",
	  .rights = CAP_READ,
	  .make = file_rw,
	  .op = op_preadv2_at_pos,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "pwritev2 offset needs seek",
	  .rights = CAP_SEEK,
	  .make = file_rw,
	  .op = op_pwritev2,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "pwritev2 offset needs write",
	  .rights = CAP_WRITE,
	  .make = file_rw,
	  .op = op_pwritev2,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "pwritev2 at -1 needs write",
	  .rights = CAP_WRITE,
	  .make = file_rw,
	  .op = op_pwritev2_at_pos,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "fstatat AT_EMPTY_PATH",
	  .rights = CAP_FSTAT,
	  .make = file_rw,
	  .op = op_fstatat_empty,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "fstatat AT_EMPTY_PATH of an anonymous inode",
	  .rights = CAP_FSTAT,
	  .make = anon_inode,
	  .op = op_fstatat_empty,
	  .stock = EXPECT(0, 0, 0, 0),
	  .patched = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "statx AT_EMPTY_PATH of an anonymous inode",
	  .rights = CAP_FSTAT,
	  .make = anon_inode,
	  .op = op_statx_empty,
	  .stock = EXPECT(0, 0, 0, 0),
	  .patched = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "statx AT_EMPTY_PATH",
	  .rights = CAP_FSTAT,
	  .make = file_rw,
	  .op = op_statx_empty,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "mmap exec",
	  .rights = CAP_MMAP_X,
	  .make = file_rw,
	  .op = op_mmap_x,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "mmap read under READ_IMPLIES_EXEC",
	  .rights = CAP_MMAP_X,
	  .make = file_rw_read_implies_exec,
	  .op = op_mmap_private_r,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "mprotect add exec",
	  .rights = CAP_MMAP_X,
	  .make = mapped_file,
	  .op = op_mprotect_x,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "mprotect add shared write",
	  .rights = CAP_MMAP_W,
	  .make = mapped_file,
	  .op = op_mprotect_w,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "openat O_WRONLY needs write",
	  .rights = CAP_WRITE,
	  .make = directory,
	  .op = op_openat_wronly,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "openat O_RDWR needs write",
	  .rights = CAP_WRITE,
	  .make = directory,
	  .op = op_openat_rdwr,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "openat O_WRONLY needs seek",
	  .rights = CAP_SEEK,
	  .make = directory,
	  .op = op_openat_wronly,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "openat O_RDWR needs seek",
	  .rights = CAP_SEEK,
	  .make = directory,
	  .op = op_openat_rdwr,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "openat O_TRUNC needs ftruncate",
	  .rights = CAP_FTRUNCATE,
	  .make = directory,
	  .op = op_openat_trunc,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "openat O_SYNC needs fsync",
	  .rights = CAP_FSYNC,
	  .make = directory,
	  .op = op_openat_sync,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "openat O_DSYNC needs fsync",
	  .rights = CAP_FSYNC,
	  .make = directory,
	  .op = op_openat_dsync,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "fcntl setfl needs fcntl",
	  .rights = CAP_FCNTL,
	  .make = file_rw,
	  .op = op_fcntl_setfl,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "fcntl setfl needs the setfl sub-right",
	  .fcntls = CAP_FCNTL_SETFL,
	  .make = file_rw,
	  .op = op_fcntl_setfl,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "fcntl getfl needs the getfl sub-right",
	  .fcntls = CAP_FCNTL_GETFL,
	  .make = file_rw,
	  .op = op_fcntl_getfl,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "fcntl getlease needs flock",
	  .rights = CAP_FLOCK,
	  .make = file_rw,
	  .op = op_getlease,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "fcntl setlease needs flock",
	  .rights = CAP_FLOCK,
	  .make = file_rw,
	  .op = op_setlease,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "fcntl get_seals needs fstat",
	  .rights = CAP_FSTAT,
	  .make = memfd,
	  .op = op_get_seals,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "fcntl add_seals needs fchmod",
	  .rights = CAP_FCHMOD,
	  .make = memfd,
	  .op = op_add_seals,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
};
SELFTEST_RIGHTS_ROWS(cases, "each_right_with_and_without")

/* The xattr rows need a namespace tmpfs offers this run: see below. */
static const struct rights_row xattr_cases[] = {
	{ .name = "fgetxattr",
	  .rights = CAP_EXTATTR_GET,
	  .make = xattr_file,
	  .op = op_fgetxattr,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "fsetxattr",
	  .rights = CAP_EXTATTR_SET,
	  .make = xattr_file,
	  .op = op_fsetxattr,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "fremovexattr",
	  .rights = CAP_EXTATTR_DELETE,
	  .make = xattr_file,
	  .op = op_fremovexattr,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
};
SELFTEST_RIGHTS_ROWS(xattr_cases, "xattr_rights_with_and_without")

/*
 * Rights an operation must not need: it succeeds without them. Catches a
 * hook that demands too much (e.g. CAP_SEEK for a read at the position).
 */
static const struct rights_row unneeded_cases[] = {
	{ .name = "sendfile without offset needs no seek",
	  .rights = CAP_SEEK,
	  .make = file_rw,
	  .op = op_sendfile_in,
	  .stock = EXPECT(0, 0, 0, 0) },
	{ .name = "splice input without offset needs no seek",
	  .rights = CAP_SEEK,
	  .make = file_rw,
	  .op = op_splice_in,
	  .stock = EXPECT(0, 0, 0, 0) },
	{ .name = "splice output without offset needs no seek",
	  .rights = CAP_SEEK,
	  .make = file_rw,
	  .op = op_splice_out,
	  .stock = EXPECT(0, 0, 0, 0) },
	{ .name = "copy_file_range without offsets needs no seek",
	  .rights = CAP_SEEK,
	  .make = file_rw,
	  .op = op_copy_in,
	  .stock = EXPECT(0, 0, 0, 0) },
	{ .name = "preadv2 at -1 needs no seek",
	  .rights = CAP_SEEK,
	  .make = file_rw,
	  .op = op_preadv2_at_pos,
	  .stock = EXPECT(0, 0, 0, 0) },
	{ .name = "pwritev2 at -1 needs no seek",
	  .rights = CAP_SEEK,
	  .make = file_rw,
	  .op = op_pwritev2_at_pos,
	  .stock = EXPECT(0, 0, 0, 0) },
	{ .name = "mmap private write needs no write",
	  .rights = CAP_WRITE,
	  .make = file_rw,
	  .op = op_mmap_w_private,
	  .stock = EXPECT(0, 0, 0, 0) },
	{ .name = "openat O_APPEND needs no seek",
	  .rights = CAP_SEEK,
	  .make = directory,
	  .op = op_openat_append,
	  .stock = EXPECT(0, 0, 0, 0) },
	{ .name = "openat O_TRUNC needs no seek",
	  .rights = CAP_SEEK,
	  .make = directory,
	  .op = op_openat_trunc,
	  .stock = EXPECT(0, 0, 0, 0) },
	{ .name = "fcntl getlease needs no fcntl",
	  .rights = CAP_FCNTL,
	  .make = file_rw,
	  .op = op_getlease,
	  .stock = EXPECT(0, 0, 0, 0) },
	{ .name = "fcntl setlease needs no fcntl",
	  .rights = CAP_FCNTL,
	  .make = file_rw,
	  .op = op_setlease,
	  .stock = EXPECT(0, 0, 0, 0) },
	{ .name = "fcntl get_seals needs no fcntl",
	  .rights = CAP_FCNTL,
	  .make = memfd,
	  .op = op_get_seals,
	  .stock = EXPECT(0, 0, 0, 0) },
	{ .name = "fcntl add_seals needs no fcntl",
	  .rights = CAP_FCNTL,
	  .make = memfd,
	  .op = op_add_seals,
	  .stock = EXPECT(0, 0, 0, 0) },
};
SELFTEST_RIGHTS_ROWS(unneeded_cases, "rights_not_needed")

SELFTEST(each_right_with_and_without)
{
	if (!fixture_loaded())
		return;
	rows_run(cases, sizeof(cases) / sizeof(cases[0]));
}

/*
 * /tmp is tmpfs: user.* xattrs there need Linux 6.6, trusted.* needs
 * CAP_SYS_ADMIN. Root uses trusted.* on every kernel; uid 1000 can only
 * run where tmpfs has user.*.
 */
SELFTEST(xattr_rights_with_and_without)
{
	int fd;

	if (!fixture_loaded())
		return;
	xattr_name = selftest_is_root() ? "trusted.capsicum" : "user.capsicum";
	fd = scratch_file();
	if (!ASSERT_OK(fd, "scratch file"))
		return;
	if (fsetxattr(fd, xattr_name, "v", 1, 0)) {
		if (errno != EOPNOTSUPP || selftest_is_root())
			ASSERT_OK(-1, "fsetxattr probe");
		else
			selftest_skip("tmpfs has no user.* xattrs before "
				      "Linux 6.6, trusted.* needs root");
		return;
	}
	close(fd);
	rows_run(xattr_cases, sizeof(xattr_cases) / sizeof(xattr_cases[0]));
}

SELFTEST(rights_not_needed)
{
	if (!fixture_loaded())
		return;
	rows_run(unneeded_cases,
		 sizeof(unneeded_cases) / sizeof(unneeded_cases[0]));
}

/*
 * file_mprotect sees a mapping's file but no descriptor, so it checks the
 * file's floor (the intersection of every limit this process set on any
 * descriptor of that file) at mprotect time. FreeBSD instead fixes a
 * mapping's maximum protection from its descriptor at mmap time; here a
 * later limit on a sibling descriptor also stops mprotect, even though a
 * new mmap through the unrestricted descriptor is still allowed.
 */
SELFTEST(mprotect_checks_the_file_floor)
{
	int fd, ro, other;
	void *p, *q;

	if (!fixture_loaded())
		return;
	fd = scratch_file();
	other = scratch_file();
	if (!ASSERT_OK(fd, "scratch") || !ASSERT_OK(other, "other scratch"))
		return;
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	q = mmap(NULL, 4096, PROT_READ, MAP_SHARED, other, 0);
	if (!ASSERT_TRUE(p != MAP_FAILED && q != MAP_FAILED, "mmap"))
		return;
	ro = dup(fd);
	if (!ASSERT_OK(fixture_limit_all_but(ro, CAP_MMAP_X_ONLY),
		       "limit the dup"))
		return;
	ASSERT_ERRNO(mprotect(p, 4096, PROT_READ | PROT_EXEC), ENOTCAPABLE,
		     "mapped through fd before the dup's limit");
	ASSERT_OK(mprotect(p, 4096, PROT_READ), "same protection again");
	ASSERT_OK(op_mmap_x(fd), "new exec mapping through fd itself");
	ASSERT_OK(mprotect(q, 4096, PROT_READ | PROT_EXEC),
		  "a file with no limit is unaffected");
	close(ro);
	close(fd);
	ASSERT_ERRNO(mprotect(p, 4096, PROT_READ | PROT_EXEC), ENOTCAPABLE,
		     "every descriptor closed: the floor stays with the file");
}

SELFTEST(fcntl_subrights)
{
	int fd;

	if (!fixture_loaded())
		return;
	fd = scratch_file();
	ASSERT_OK(cap_fcntls_limit(fd, CAP_FCNTL_GETFL), "limit fcntls");
	ASSERT_OK(fcntl(fd, F_GETFL), "F_GETFL allowed");
	ASSERT_ERRNO(fcntl(fd, F_SETFL, O_NONBLOCK), ENOTCAPABLE,
		     "F_SETFL denied");
	ASSERT_OK(fcntl(fd, F_GETFD), "F_GETFD needs no right");
	ASSERT_ERRNO(cap_fcntls_limit(fd, CAP_FCNTL_ALL), ENOTCAPABLE,
		     "fcntls only narrow");
	uint32_t got = 0;

	ASSERT_OK(cap_fcntls_get(fd, &got), "fcntls get");
	ASSERT_EQ(got, CAP_FCNTL_GETFL, "fcntls as set");
}

SELFTEST(ioctl_allowlist)
{
	cap_ioctl_t cmds[2] = { FIONREAD, FIONBIO }, got[4];
	int sv[2], n, on = 1;

	if (!fixture_loaded())
		return;
	if (!ASSERT_OK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), "socketpair"))
		return;
	ASSERT_EQ(cap_ioctls_get(sv[0], got, 4), CAP_IOCTLS_ALL,
		  "all at first");
	ASSERT_OK(cap_ioctls_limit(sv[0], cmds, 1), "allow FIONREAD only");
	ASSERT_OK(ioctl(sv[0], FIONREAD, &n), "FIONREAD allowed");
	ASSERT_ERRNO(ioctl(sv[0], FIONBIO, &on), ENOTCAPABLE, "FIONBIO denied");
	ASSERT_ERRNO(cap_ioctls_limit(sv[0], cmds, 2), ENOTCAPABLE,
		     "ioctls only narrow");
	ASSERT_EQ(cap_ioctls_get(sv[0], got, 4), 1, "one ioctl");
	ASSERT_EQ(got[0], FIONREAD, "FIONREAD listed");
}

/*
 * openat() through a directory with an ioctl list: the new descriptor
 * has the list, as on FreeBSD (it once had an empty one), and so does a
 * dup of it; an empty list stays empty, no list stays none.
 */
SELFTEST(ioctl_allowlist_inherited_by_openat)
{
	cap_ioctl_t one[1] = { FIONREAD }, got[4] = { 0 };
	char dir[] = "/tmp/rights-ioctls.XXXXXX";
	int dfd, empty, fd, dup_fd, n, on = 1;

	if (!fixture_loaded() || !ASSERT_TRUE(mkdtemp(dir) != NULL, "mkdtemp"))
		return;
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	empty = open(dir, O_RDONLY | O_DIRECTORY);
	fd = openat(dfd, "f", O_WRONLY | O_CREAT, 0644);
	if (!ASSERT_OK(fd, "create f") || !ASSERT_OK(empty, "open dir again"))
		return;
	close(fd);
	fd = openat(dfd, "f", O_RDONLY);
	ASSERT_EQ(cap_ioctls_get(fd, got, 4), CAP_IOCTLS_ALL,
		  "no list through an unrestricted directory");
	close(fd);

	ASSERT_OK(cap_ioctls_limit(dfd, one, 1), "directory: FIONREAD only");
	ASSERT_OK(cap_ioctls_limit(empty, NULL, 0), "other: no ioctl");
	fd = openat(dfd, "f", O_RDONLY);
	if (!ASSERT_OK(fd, "openat through the directory"))
		return;
	ASSERT_EQ(cap_ioctls_get(fd, got, 4), 1, "the list came along");
	ASSERT_EQ(got[0], FIONREAD, "FIONREAD listed");
	ASSERT_OK(ioctl(fd, FIONREAD, &n), "FIONREAD allowed");
	ASSERT_ERRNO(ioctl(fd, FIONBIO, &on), ENOTCAPABLE, "FIONBIO denied");
	ASSERT_ERRNO(
		cap_ioctls_limit(fd, (cap_ioctl_t[]){ FIONREAD, FIONBIO }, 2),
		ENOTCAPABLE, "the inherited list only narrows");
	dup_fd = dup(fd);
	got[0] = 0;
	ASSERT_EQ(cap_ioctls_get(dup_fd, got, 4), 1, "a dup keeps it");
	ASSERT_EQ(got[0], FIONREAD, "FIONREAD listed for the dup");
	close(dup_fd);
	close(fd);

	fd = openat(empty, "f", O_RDONLY);
	if (!ASSERT_OK(fd, "openat through the empty-list directory"))
		return;
	ASSERT_EQ(cap_ioctls_get(fd, got, 4), 0, "an empty list stays empty");
	ASSERT_ERRNO(ioctl(fd, FIONREAD, &n), ENOTCAPABLE, "no ioctl");
	close(fd);
}

SELFTEST(openat_derives_dirfd_rights)
{
	cap_rights_t r, got;
	int dfd, f;

	if (!fixture_loaded())
		return;
	dfd = directory();
	cap_rights_init(&r, CAP_LOOKUP, CAP_READ, CAP_FSTAT);
	ASSERT_OK(cap_rights_limit(dfd, &r), "limit dir");
	f = openat(dfd, "f", O_RDONLY);
	if (!ASSERT_OK(f, "openat through the dir"))
		return;
	ASSERT_OK(cap_rights_get(f, &got), "get new fd");
	ASSERT_EQ(got.cr_rights[0], r.cr_rights[0], "new fd has dir's rights");
	ASSERT_ERRNO(openat(dfd, "f", O_WRONLY), ENOTCAPABLE, "write open");
}

/*
 * The same for descriptors an openat or accept made: they hold their new
 * file's floor, and a dup of them too.
 */
SELFTEST(narrowing_a_derived_descriptor_leaves_its_dup)
{
	cap_rights_t r, ro;
	int dfd, f, d, l, s, sd;

	if (!fixture_loaded())
		return;
	dfd = directory();
	cap_rights_init(&r, CAP_LOOKUP, CAP_READ, CAP_WRITE, CAP_SEEK,
			CAP_FSTAT);
	ASSERT_OK(cap_rights_limit(dfd, &r), "limit dir");
	f = openat(dfd, "f", O_RDWR);
	if (!ASSERT_OK(f, "openat through the dir"))
		return;
	d = dup(f);
	cap_rights_init(&ro, CAP_READ);
	expect_narrowing_spares_dup(f, d, &ro, &r);

	l = tcp_listening();
	if (!ASSERT_OK(l, "listener"))
		return;
	cap_rights_init(&r, CAP_ACCEPT, CAP_READ, CAP_WRITE, CAP_GETSOCKNAME);
	ASSERT_OK(cap_rights_limit(l, &r), "limit listener");
	s = accept(l, NULL, NULL);
	if (!ASSERT_OK(s, "accept"))
		return;
	sd = dup(s);
	expect_narrowing_spares_dup(s, sd, &ro, &r);
}

SELFTEST(accept_inherits_listener_rights)
{
	cap_rights_t r, got;
	int l, s;

	if (!fixture_loaded())
		return;
	l = tcp_listening();
	if (!ASSERT_OK(l, "listener"))
		return;
	cap_rights_init(&r, CAP_ACCEPT, CAP_READ, CAP_GETSOCKNAME);
	ASSERT_OK(cap_rights_limit(l, &r), "limit listener");
	s = accept(l, NULL, NULL);
	if (!ASSERT_OK(s, "accept"))
		return;
	ASSERT_OK(cap_rights_get(s, &got), "get accepted");
	ASSERT_EQ(got.cr_rights[0], r.cr_rights[0], "accepted has its rights");
	ASSERT_ERRNO(write(s, "x", 1), ENOTCAPABLE, "accepted cannot write");
}

static int limit_read_only(int fd)
{
	cap_rights_t r;

	cap_rights_init(&r, CAP_READ);
	return cap_rights_limit(fd, &r);
}

static void *limit_in_thread(void *arg)
{
	return (void *)(long)limit_read_only(*(int *)arg);
}

SELFTEST(threads_share_the_table)
{
	pthread_t t;
	void *ret;
	int fd;

	if (!fixture_loaded())
		return;
	fd = scratch_file();
	if (!ASSERT_OK(pthread_create(&t, NULL, limit_in_thread, &fd),
		       "thread") ||
	    !ASSERT_OK(pthread_join(t, &ret), "join"))
		return;
	ASSERT_EQ((long)ret, 0, "limit in thread");
	ASSERT_ERRNO(write(fd, "x", 1), ENOTCAPABLE, "main thread sees it");
}

/* Runs `sh -c "echo x >&5"` after fd 5 was limited (or not), via execve. */
static void *exec_shell_write(void *arg)
{
	char *argv[] = { "sh", "-c", "echo x >&5 2>/dev/null", NULL };

	(void)arg;
	execv("/bin/sh", argv);
	_exit(126);
}

/* Exit status of a child that limits fd 5 if asked, then execs a writer. */
static int exec_writer(bool limit, bool from_thread)
{
	pid_t pid = fork();

	if (pid == 0) {
		pthread_t t;

		if (dup2(scratch_file(), 5) != 5 ||
		    (limit && limit_read_only(5)))
			_exit(125);
		if (from_thread) {
			pthread_create(&t, NULL, exec_shell_write, NULL);
			pthread_join(t, NULL);
			_exit(124);
		}
		exec_shell_write(NULL);
	}
	return selftest_wait(pid);
}

SELFTEST(execve_keeps_the_table)
{
	int st;

	if (!fixture_loaded())
		return;
	ASSERT_EQ(exec_writer(false, false), 0,
		  "unlimited fd writes after exec");
	st = exec_writer(true, false);
	/* The shell's failed write: 1..123; not a setup or wait failure. */
	ASSERT_TRUE(st > 0 && st < 124, "limited fd still limited after exec");
	ASSERT_EQ(exec_writer(false, true), 0,
		  "unlimited fd, exec from a non-leader thread");
	st = exec_writer(true, true);
	ASSERT_TRUE(st > 0 && st < 124,
		    "limited fd still limited after non-leader exec");
}

SELFTEST(ten_thousand_restricted_descriptors)
{
	struct rlimit rl;
	int want = 10000, first = -1, n = 0;

	if (!fixture_loaded())
		return;
	getrlimit(RLIMIT_NOFILE, &rl);
	if (rl.rlim_max < (rlim_t)want + 64 && selftest_is_root())
		rl.rlim_max = want + 64;
	rl.rlim_cur = rl.rlim_max;
	setrlimit(RLIMIT_NOFILE, &rl);
	getrlimit(RLIMIT_NOFILE, &rl);
	if (rl.rlim_cur < (rlim_t)want + 64) {
		/* uid 1000's hard limit: as many as it may have. */
		want = (int)rl.rlim_cur - 64;
		printf("    (uid %d: RLIMIT_NOFILE %lu, using %d "
		       "descriptors)\n",
		       geteuid(), (unsigned long)rl.rlim_cur, want);
	}
	for (; n < want; n++) {
		int fd = open("/dev/null", O_RDWR);

		if (!ASSERT_OK(fd, "open") ||
		    !ASSERT_OK(limit_read_only(fd), "limit"))
			return;
		if (first < 0)
			first = fd;
	}
	for (int fd = first; fd < first + n; fd++)
		if (!ASSERT_ERRNO(write(fd, "x", 1), ENOTCAPABLE,
				  "every descriptor stays limited"))
			return;
}

static int send_fd(int sock, int fd)
{
	char ctl[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec v = { "f", 1 };
	struct msghdr m = { .msg_iov = &v,
			    .msg_iovlen = 1,
			    .msg_control = ctl,
			    .msg_controllen = sizeof(ctl) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);

	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	return sendmsg(sock, &m, 0) == 1 ? 0 : -1;
}

static int recv_fd(int sock)
{
	char ctl[CMSG_SPACE(sizeof(int))], b;
	struct iovec v = { &b, 1 };
	struct msghdr m = { .msg_iov = &v,
			    .msg_iovlen = 1,
			    .msg_control = ctl,
			    .msg_controllen = sizeof(ctl) };
	struct cmsghdr *c;
	int fd;

	if (recvmsg(sock, &m, 0) != 1 || !(c = CMSG_FIRSTHDR(&m)) ||
	    c->cmsg_type != SCM_RIGHTS)
		return -1;
	memcpy(&fd, CMSG_DATA(c), sizeof(int));
	return fd;
}

/*
 * A child receives two descriptors of fresh files from its parent: one
 * limited to CAP_READ, one unrestricted. Exit 0 iff the first cannot write
 * and reports CAP_READ, and the second writes.
 */
SELFTEST(scm_rights_keeps_sender_rights)
{
	int sv[2], limited, full;
	cap_rights_t r;
	pid_t pid;

	if (!fixture_loaded() ||
	    !ASSERT_OK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), "socketpair"))
		return;
	pid = fork();
	if (pid == 0) {
		cap_rights_t got;
		int a = recv_fd(sv[1]), b = recv_fd(sv[1]);

		if (a < 0 || b < 0)
			_exit(10);
		if (write(a, "x", 1) != -1 || errno != ENOTCAPABLE)
			_exit(11);
		if (cap_rights_get(a, &got) || got.cr_rights[0] != CAP_READ)
			_exit(12);
		_exit(write(b, "x", 1) == 1 ? 0 : 13);
	}
	limited = scratch_file();
	full = scratch_file();
	cap_rights_init(&r, CAP_READ);
	ASSERT_OK(cap_rights_limit(limited, &r), "limit");
	ASSERT_OK(send_fd(sv[0], limited), "send limited");
	ASSERT_OK(send_fd(sv[0], full), "send full");
	ASSERT_EQ(selftest_wait(pid), 0,
		  "receiver: limited stays limited, full stays full");
}

/* Far above what the test opens, so dup2 never clobbers its own files. */
#define RACE_FD 200

/*
 * One thread keeps dup2()ing a read-only descriptor and an unrestricted
 * one over RACE_FD while another writes through it. A write may land in the
 * unrestricted file only: the read-only file must never change, even in
 * the window before dup2's bookkeeping has run. Bounded in iterations and
 * time.
 */
SELFTEST(race_dup2_never_widens)
{
	char lpath[] = "/tmp/race-limited.XXXXXX";
	struct fixture_dup2_race r = { .fd = RACE_FD };
	struct timespec t0, t;
	cap_rights_t rights;
	struct stat st;
	long writes = 0;

	if (!fixture_loaded())
		return;
	r.limited = mkstemp(lpath);
	r.full = scratch_file();
	if (!ASSERT_OK(r.limited, "mkstemp") || !ASSERT_OK(r.full, "scratch"))
		return;
	cap_rights_init(&rights, CAP_READ, CAP_FSTAT);
	ASSERT_OK(cap_rights_limit(r.limited, &rights), "limit");
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (!ASSERT_OK(fixture_dup2_race_start(&r), "dup2 thread"))
		return;
	/*
	 * The writer bounds the race: 20,000 attempts or 20 s. Bounding the
	 * dup2 side instead let it finish before the writer got going.
	 */
	for (int i = 0; i < 20000; i++) {
		if (write(RACE_FD, "x", 1) == 1)
			writes++;
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec > 20)
			break;
	}
	fixture_dup2_race_stop(&r);
	ASSERT_OK(stat(lpath, &st), "stat limited file");
	ASSERT_EQ(st.st_size, 0, "read-only file never written");
	ASSERT_TRUE(writes > 0, "the unrestricted file was written");
	unlink(lpath);
}
