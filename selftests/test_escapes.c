// SPDX-License-Identifier: GPL-2.0
/*
 * The ways out found by attacking the enforcement as a compromised
 * sandboxed program would (issue 11, doc/security.md): io_uring rings,
 * a fork racing a received descriptor, device nodes, re-reached files,
 * i386 syscalls and ELF interpreters. Each test does the operation with
 * and without what allows it and checks the exact result.
 */
#define _GNU_SOURCE
#include "compat.h"
#include "fixture.h"
#include "selftest.h"
#include "uring.h"

#include <elf.h>
#include <linux/fs.h>
#include <linux/userfaultfd.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capsicum.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* A ring, or a visible skip where this kernel or user has none. */
static bool ring(struct uring *u, bool sqpoll)
{
	int err = uring_init(u, sqpoll);

	if (err == -ENOSYS || err == -EPERM) {
		selftest_skip("io_uring is not available here");
		return false;
	}
	return ASSERT_EQ(err, 0, "io_uring_setup");
}

static int ring_openat(struct uring *u, int dfd, const char *path, int flags)
{
	struct io_uring_sqe *sqe = uring_sqe(u, IORING_OP_OPENAT, dfd);

	sqe->addr = (uintptr_t)path;
	sqe->open_flags = (__u32)flags;
	sqe->len = 0600;
	return uring_run(u);
}

static int ring_path_op(struct uring *u, int op, int dfd, const char *path)
{
	struct io_uring_sqe *sqe = uring_sqe(u, op, dfd);

	sqe->addr = (uintptr_t)path;
	if (op == IORING_OP_MKDIRAT)
		sqe->len = 0700;
	return uring_run(u);
}

static int ring_statx(struct uring *u, int dfd, const char *path)
{
	static struct statx stx;
	struct io_uring_sqe *sqe = uring_sqe(u, IORING_OP_STATX, dfd);

	sqe->addr = (uintptr_t)path;
	sqe->len = STATX_BASIC_STATS;
	sqe->off = (uintptr_t)&stx;
	return uring_run(u);
}

static int ring_rw(struct uring *u, int op, int fd, bool fixed)
{
	static char buf[8] = "x";
	struct io_uring_sqe *sqe = uring_sqe(u, op, fd);

	sqe->addr = (uintptr_t)buf;
	sqe->len = 1;
	sqe->off = 0;
	if (fixed)
		sqe->flags = IOSQE_FIXED_FILE;
	return uring_run(u);
}

/*
 * A request on a descriptor without its right: refused by a stock hook
 * (-ENOTCAPABLE), or, on the patched kernel, by the fget hook, whose
 * refusal fails io_uring's lookup: -EBADF (bpf/uring.bpf.h).
 */
static int uring_refused(void)
{
	return fixture_patched_kernel() ? -EBADF : -ENOTCAPABLE;
}

static bool enter(void)
{
	return ASSERT_OK(cap_enter(), "cap_enter");
}

/*
 * A ring whose SQPOLL thread runs requests without any syscall: after
 * cap_enter() it keeps reading held descriptors, and every lookup it
 * would make is ECAPMODE, through the working directory or a held one.
 */
SELFTEST(uring_sqpoll_ring_in_capmode_refuses_lookups)
{
	struct fixture_box b;
	struct uring u;
	struct stat st;
	char path[160];
	int fd, top, got;

	if (!fixture_loaded() || !ASSERT_TRUE(fixture_make_box(&b), "box") ||
	    !ring(&u, true))
		return;
	top = open(b.top, O_RDONLY | O_DIRECTORY);
	fd = ring_openat(&u, b.dfd, "f", O_RDONLY);
	if (!ASSERT_OK(top, "top") ||
	    !ASSERT_OK(fd, "the ring opens before cap_enter"))
		return;
	if (!enter())
		return;
	ASSERT_EQ(ring_rw(&u, IORING_OP_READ, fd, false), 1,
		  "the ring reads a held descriptor");
	snprintf(path, sizeof(path), "%s/outside", b.top);
	ASSERT_EQ(ring_openat(&u, AT_FDCWD, path, O_RDONLY), -ECAPMODE,
		  "OPENAT of a global path");
	snprintf(path, sizeof(path), "%s/new", b.top);
	ASSERT_EQ(ring_openat(&u, AT_FDCWD, path, O_RDWR | O_CREAT), -ECAPMODE,
		  "OPENAT(O_CREAT) of a global path");
	ASSERT_ERRNO(fstatat(top, "new", &st, 0), ENOENT,
		     "nothing was created");
	ASSERT_EQ(ring_openat(&u, b.dfd, "f", O_RDONLY), -ECAPMODE,
		  "OPENAT through a held directory cannot be checked");
	ASSERT_EQ(ring_path_op(&u, IORING_OP_MKDIRAT, b.dfd, "n"), -ECAPMODE,
		  "MKDIRAT");
	got = ring_statx(&u, AT_FDCWD, "/");
	ASSERT_EQ(got, -ECAPMODE, "STATX of a global path");
	uring_exit(&u);
}

/*
 * A ring without SQPOLL: io_uring_enter is refused in capability mode,
 * and a request queued before cap_enter() that runs after it (linked
 * behind a poll that fires later, run from task work or an io-wq worker)
 * is refused like any other.
 */
SELFTEST(uring_normal_ring_in_capmode_refuses_queued_lookups)
{
	struct io_uring_sqe *sqe;
	struct fixture_box b;
	struct uring u;
	char path[160];
	uint64_t tag, seen = 0;
	int p[2], res, open_res = 1;

	if (!fixture_loaded() || !ASSERT_TRUE(fixture_make_box(&b), "box") ||
	    !ASSERT_OK(pipe(p), "pipe") || !ring(&u, false))
		return;
	snprintf(path, sizeof(path), "%s/outside", b.top);
	sqe = uring_sqe(&u, IORING_OP_POLL_ADD, p[0]);
	sqe->poll32_events = POLLIN;
	sqe->flags = IOSQE_IO_LINK;
	sqe->user_data = 1;
	uring_push(&u);
	sqe = uring_sqe(&u, IORING_OP_OPENAT, AT_FDCWD);
	sqe->addr = (uintptr_t)path;
	sqe->user_data = 2;
	uring_push(&u);
	if (!ASSERT_EQ(uring_enter(&u, 2), 0, "queued before cap_enter") ||
	    !enter())
		return;
	ASSERT_EQ(uring_enter(&u, 0), -ECAPMODE, "io_uring_enter");
	if (!ASSERT_EQ(write(p[1], "x", 1), 1, "fire the poll"))
		return;
	for (int i = 0; i < 2; i++) {
		res = uring_wait(&u, &tag);
		if (!ASSERT_TRUE(res != -ETIME, "completion"))
			return;
		seen |= tag;
		if (tag == 2)
			open_res = res;
	}
	ASSERT_EQ(seen, 3, "both requests completed");
	ASSERT_EQ(open_res, -ECAPMODE, "the queued OPENAT");
	uring_exit(&u);
}

/*
 * Outside capability mode, a process with limits: what a ring would do
 * through a directory descriptor cannot be checked and is refused, where
 * the same process could do it before it limited anything (the patched
 * kernel refuses the lookup of the limited dirfd: -EBADF).
 */
SELFTEST(uring_limited_table_refuses_path_requests)
{
	struct io_uring_sqe *sqe;
	struct fixture_box b;
	struct uring u;
	cap_rights_t r;
	int refused = uring_refused();

	if (!fixture_loaded() || !ASSERT_TRUE(fixture_make_box(&b), "box") ||
	    !ring(&u, false))
		return;
	ASSERT_OK(ring_openat(&u, b.dfd, "f", O_RDONLY), "OPENAT before");
	ASSERT_OK(ring_statx(&u, b.dfd, "f"), "STATX before");
	cap_rights_init(&r, CAP_LOOKUP, CAP_READ, CAP_FSTATAT);
	if (!ASSERT_OK(cap_rights_limit(b.dfd, &r), "limit the directory"))
		return;
	ASSERT_EQ(ring_openat(&u, b.dfd, "f", O_RDONLY), refused,
		  "OPENAT through it");
	ASSERT_EQ(ring_openat(&u, b.dfd, "../outside", O_RDONLY), refused,
		  "OPENAT of .. out of it");
	ASSERT_EQ(ring_openat(&u, b.dfd, "../missing", O_RDONLY), refused,
		  "a missing name out of it: the same, no probe");
	ASSERT_EQ(ring_openat(&u, b.dfd, "f", O_RDWR), refused,
		  "OPENAT(O_RDWR) without CAP_WRITE");
	ASSERT_EQ(ring_statx(&u, b.dfd, "f"), refused, "STATX");
	ASSERT_EQ(ring_path_op(&u, IORING_OP_MKDIRAT, b.dfd, "n"), refused,
		  "MKDIRAT");
	ASSERT_EQ(ring_path_op(&u, IORING_OP_UNLINKAT, b.dfd, "f"), refused,
		  "UNLINKAT");
	sqe = uring_sqe(&u, IORING_OP_RENAMEAT, b.dfd);
	sqe->addr = (uintptr_t) "f";
	sqe->len = (__u32)b.dfd;
	sqe->addr2 = (uintptr_t) "g";
	ASSERT_EQ(uring_run(&u), refused, "RENAMEAT");
	ASSERT_OK(faccessat(b.dfd, "f", F_OK, 0), "f is still there");
	ASSERT_ERRNO(faccessat(b.dfd, "n", F_OK, 0), ENOENT, "no n");
	uring_exit(&u);
}

/* Requests on a limited descriptor: by the file's floor, or refused. */
SELFTEST(uring_limited_descriptor_requests_need_their_rights)
{
	char value[8];
	struct io_uring_sqe *sqe;
	struct uring u;
	int fd, yes, two[2], sv[2] = { -1, -1 }, res;

	if (!fixture_loaded() || !ring(&u, false))
		return;
	if (!ASSERT_TRUE(fixture_scratch_twice(two), "file opened twice") ||
	    !ASSERT_OK(sv[0] = socket(AF_INET, SOCK_DGRAM, 0), "udp") ||
	    !ASSERT_OK(sv[1] = socket(AF_INET, SOCK_DGRAM, 0), "udp 2"))
		return;
	fd = two[0];
	yes = two[1];
	sqe = uring_sqe(&u, IORING_OP_FGETXATTR, fd);
	sqe->addr = (uintptr_t) "user.x";
	sqe->addr2 = (uintptr_t)value;
	sqe->len = sizeof(value);
	res = uring_run(&u);
	ASSERT_TRUE(res != -ENOTCAPABLE, "FGETXATTR before any limit");
	if (!ASSERT_OK(fixture_limit_all_but(fd, CAP_FTRUNCATE), "limit") ||
	    !ASSERT_OK(fixture_limit_all_but(yes, CAP_FCHOWN), "limit 2") ||
	    !ASSERT_OK(fixture_limit_all_but(sv[0], CAP_IOCTL), "limit 3"))
		return;
	sqe = uring_sqe(&u, IORING_OP_FGETXATTR, fd);
	sqe->addr = (uintptr_t) "user.x";
	sqe->addr2 = (uintptr_t)value;
	sqe->len = sizeof(value);
	ASSERT_EQ(uring_run(&u), -ENOTCAPABLE, "FGETXATTR cannot be checked");

	sqe = uring_sqe(&u, URING_OP_FTRUNCATE, yes);
	sqe->off = 0;
	res = uring_run(&u);
	if (res == -EINVAL) {
		printf("    no IORING_OP_FTRUNCATE on this kernel\n");
	} else {
		ASSERT_EQ(res, 0, "FTRUNCATE with CAP_FTRUNCATE");
		sqe = uring_sqe(&u, URING_OP_FTRUNCATE, fd);
		ASSERT_EQ(uring_run(&u), uring_refused(),
			  "FTRUNCATE without CAP_FTRUNCATE");
	}

	/* UDP: SIOCINQ is the size of the next datagram, none here. */
	sqe = uring_sqe(&u, IORING_OP_URING_CMD, sv[1]);
	sqe->cmd_op = URING_SOCKET_SIOCINQ;
	res = uring_run(&u);
	if (res == -EOPNOTSUPP) {
		printf("    no socket URING_CMD on this kernel\n");
	} else {
		ASSERT_EQ(res, 0, "SIOCINQ command with CAP_IOCTL");
		sqe = uring_sqe(&u, IORING_OP_URING_CMD, sv[0]);
		sqe->cmd_op = URING_SOCKET_SIOCINQ;
		ASSERT_EQ(uring_run(&u), uring_refused(),
			  "SIOCINQ command without CAP_IOCTL");
	}
	uring_exit(&u);
}

/*
 * io_uring runs a request linked behind a poll from task work, which the
 * kernel runs as the task returns from whatever syscall it made: here a
 * write, whose row asks CAP_WRITE. The request is io_uring's, not that
 * write's: a READ of a pipe limited without CAP_READ (but with
 * CAP_WRITE) must fail however the write's own row would judge it. A
 * pipe, so that the READ runs inline, not in an io-wq worker.
 */
SELFTEST(uring_task_work_is_no_syscall_of_the_task)
{
	int p[2], q[2], res, read_res = 1, i;
	struct io_uring_sqe *sqe;
	char buf[8] = { 0 };
	uint64_t which;
	struct uring u;
	cap_rights_t r;

	if (!fixture_loaded() || !ring(&u, false))
		return;
	cap_rights_init(&r, CAP_WRITE, CAP_EVENT, CAP_FSTAT);
	if (!ASSERT_OK(pipe(p), "pipe") || !ASSERT_OK(pipe(q), "pipe 2") ||
	    !ASSERT_EQ(write(q[1], "secret", 6), 6, "the secret") ||
	    !ASSERT_OK(cap_rights_limit(q[0], &r), "limit: no CAP_READ"))
		return;
	sqe = uring_sqe(&u, IORING_OP_POLL_ADD, p[0]);
	sqe->poll32_events = POLLIN;
	sqe->flags = IOSQE_IO_LINK;
	sqe->user_data = 1;
	uring_push(&u);
	sqe = uring_sqe(&u, IORING_OP_READ, q[0]);
	sqe->addr = (uintptr_t)buf;
	sqe->len = 6;
	sqe->off = -1ULL;
	sqe->user_data = 2;
	uring_push(&u);
	if (!ASSERT_EQ(uring_enter(&u, 2), 0, "two requests submitted"))
		return;
	/* The poll completes in this write; its task work runs at its end. */
	if (!ASSERT_EQ(write(p[1], "x", 1), 1, "the poll's wakeup"))
		return;
	for (i = 0; i < 2; i++) {
		res = uring_wait(&u, &which);
		if (which == 2)
			read_res = res;
	}
	if (read_res > 0)
		printf("    the READ got \"%.6s\"\n", buf);
	ASSERT_EQ(read_res, uring_refused(),
		  "the linked READ without CAP_READ");
	uring_exit(&u);
}

/* An O_RDWR temporary file limited to reading. */
static int read_only_file(void)
{
	cap_rights_t r;
	int fd = fixture_scratch_file("data");

	if (fd < 0)
		return -1;
	cap_rights_init(&r, CAP_READ, CAP_SEEK, CAP_FSTAT);
	if (cap_rights_limit(fd, &r))
		return -1;
	return fd;
}

/*
 * A limited file kept only as a ring's fixed file, its last descriptor
 * closed: a forked child that uses the inherited ring, or installs the
 * fixed file as a descriptor again, gets no more than CAP_READ.
 */
SELFTEST(uring_fixed_file_never_comes_back_wider)
{
	struct io_uring_sqe *sqe;
	struct uring u;
	int fd, status;
	pid_t pid;

	if (!fixture_loaded() || !ring(&u, false))
		return;
	fd = read_only_file();
	if (!ASSERT_OK(fd, "read-only file"))
		return;
	if (fixture_patched_kernel()) {
		/* No limited descriptor becomes a fixed file there (below). */
		ASSERT_EQ(uring_register_files(&u, &fd, 1), -ENOTCAPABLE,
			  "registering a limited descriptor");
		uring_exit(&u);
		return;
	}
	if (!ASSERT_EQ(uring_register_files(&u, &fd, 1), 0, "fixed file") ||
	    !ASSERT_OK(close(fd), "close its last descriptor"))
		return;
	pid = fork();
	if (pid == 0) {
		int nfd, bad = 0;

		if (ring_rw(&u, IORING_OP_READ, 0, true) != 1)
			bad |= 1;
		if (ring_rw(&u, IORING_OP_WRITE, 0, true) != -ENOTCAPABLE)
			bad |= 2;
		sqe = uring_sqe(&u, URING_OP_FIXED_FD_INSTALL, 0);
		sqe->flags = IOSQE_FIXED_FILE;
		nfd = uring_run(&u);
		if (nfd == -EINVAL)
			_exit(bad); /* no FIXED_FD_INSTALL before 6.8 */
		if (nfd < 0)
			_exit(bad | 4);
		if (pread(nfd, (char[4]){ 0 }, 4, 0) != 4)
			bad |= 8;
		if (write(nfd, "x", 1) != -1 || errno != ENOTCAPABLE)
			bad |= 16;
		_exit(bad);
	}
	status = selftest_wait(pid);
	ASSERT_EQ(status, 0, "child: read 1, write 2, install 4/8/16 failed");
	uring_exit(&u);
}

/*
 * A ring on the patched kernel, for the fixed-file tests below; false
 * (skipped or failed) elsewhere: a stock kernel's file_permission checks
 * fixed files by their floor.
 */
static bool patched_ring(struct uring *u)
{
	if (!fixture_patched_kernel()) {
		selftest_skip(
			"stock kernel: file_permission checks fixed files");
		return false;
	}
	return fixture_loaded() && ring(u, false);
}

/*
 * The patched kernel does not check each read and write again after the
 * lookup (file_permission is not loaded there), and a fixed file is
 * never looked up by number: so only an unlimited descriptor becomes
 * one, and the fixed file keeps every right, as a dup made before a limit
 * would. A limited one is refused wherever io_uring looks it up for
 * itself: io_uring_register (FILES_UPDATE) and a FILES_UPDATE request.
 * An ioctl's second descriptor, FICLONE's source, which the kernel reads
 * with no hook after the lookup, needs every right as well.
 */
SELFTEST(patched_fixed_files_come_only_from_unlimited_descriptors)
{
	struct io_uring_files_update up = { .offset = 1 };
	struct io_uring_sqe *sqe;
	int fds[2] = { -1, -1 }, limited, src, dst;
	struct uring u;

	if (!patched_ring(&u))
		return;
	fds[0] = fixture_scratch_file("0123456789");
	limited = read_only_file();
	if (!ASSERT_OK(fds[0], "file") || !ASSERT_OK(limited, "limited file") ||
	    !ASSERT_EQ(uring_register_files(&u, fds, 2), 0,
		       "an unlimited descriptor and an empty slot") ||
	    !ASSERT_OK(fixture_limit(fds[0], CAP_READ), "limit it after"))
		return;
	ASSERT_EQ(ring_rw(&u, IORING_OP_WRITE, 0, true), 1,
		  "the fixed file keeps the rights it was registered with");
	up.fds = (uintptr_t)&limited;
	ASSERT_EQ(syscall(__NR_io_uring_register, u.fd,
			  IORING_REGISTER_FILES_UPDATE, &up, 1) == -1
			  ? -errno
			  : 0,
		  -ENOTCAPABLE,
		  "IORING_REGISTER_FILES_UPDATE of a limited one");
	sqe = uring_sqe(&u, IORING_OP_FILES_UPDATE, -1);
	sqe->addr = (uintptr_t)&limited;
	sqe->len = 1;
	sqe->off = 1;
	ASSERT_EQ(
		uring_run(&u), -EBADF,
		"IORING_OP_FILES_UPDATE of a limited one (its lookup failed)");
	uring_exit(&u);

	dst = fixture_scratch_file("");
	src = fixture_scratch_file("0123456789");
	if (!ASSERT_OK(dst, "clone target") || !ASSERT_OK(src, "clone source"))
		return;
	errno = 0;
	ASSERT_TRUE(
		ioctl(dst, FICLONE, src) == -1 && errno != ENOTCAPABLE,
		"FICLONE from an unlimited source: the file system answers");
	if (!ASSERT_OK(fixture_limit(src, CAP_READ, CAP_SEEK, CAP_FSTAT),
		       "limit the source"))
		return;
	ASSERT_ERRNO(ioctl(dst, FICLONE, src), ENOTCAPABLE,
		     "FICLONE from a limited source");
}

/* 6.3's io_uring_register flag, past the headers of Debian 12. */
#ifndef IORING_REGISTER_USE_REGISTERED_RING
#define IORING_REGISTER_USE_REGISTERED_RING (1U << 31)
#endif

/*
 * A registered ring is named by its index, not by a descriptor: a
 * lookup in io_uring_register or io_uring_enter through a registered
 * ring whose index is the number of a limited descriptor is not the
 * ring's own, and the limited descriptor still cannot become a fixed
 * file that way.
 */
SELFTEST(patched_registered_ring_index_is_no_descriptor)
{
	struct io_uring_files_update up = { .offset = 0 };
	struct io_uring_rsrc_update reg = { 0 };
	struct io_uring_sqe *sqe;
	int empty[1] = { -1 }, limited, ret;
	struct uring u;

	if (!patched_ring(&u))
		return;
	limited = read_only_file();
	if (!ASSERT_OK(limited, "limited file") ||
	    !ASSERT_EQ(uring_register_files(&u, empty, 1), 0, "an empty slot"))
		return;
	if (limited >= 16) {
		selftest_skip("the descriptor's number is past the ring table");
		return;
	}
	reg.offset = (unsigned int)limited;
	reg.data = (unsigned int)u.fd;
	ret = syscall(__NR_io_uring_register, u.fd, IORING_REGISTER_RING_FDS,
		      &reg, 1);
	if (ret == -1 && errno == EINVAL) {
		selftest_skip("no registered rings before 5.18");
		return;
	}
	if (!ASSERT_EQ(ret, 1, "the ring registered at the limited number"))
		return;
	up.fds = (uintptr_t)&limited;
	ASSERT_EQ(syscall(__NR_io_uring_register, limited,
			  IORING_REGISTER_FILES_UPDATE |
				  IORING_REGISTER_USE_REGISTERED_RING,
			  &up, 1) == -1
			  ? -errno
			  : 0,
		  -ENOTCAPABLE, "FILES_UPDATE through the registered ring");
	sqe = uring_sqe(&u, IORING_OP_FILES_UPDATE, -1);
	sqe->addr = (uintptr_t)&limited;
	sqe->len = 1;
	sqe->off = 0;
	uring_push(&u);
	ret = syscall(__NR_io_uring_enter, limited, 1, 1,
		      IORING_ENTER_GETEVENTS | IORING_ENTER_REGISTERED_RING,
		      NULL, 0);
	if (ASSERT_EQ(ret, 1, "io_uring_enter through the registered ring"))
		ASSERT_EQ(uring_wait(&u, NULL), -EBADF,
			  "a FILES_UPDATE request of the limited descriptor");
	uring_exit(&u);
}

/* What the fault handler of the test below puts at the ring's number. */
struct swap_at_fault {
	int uffd, n, limited;
	char *page; /* registered, missing: its first int is read last */
	int swapped;
};

static void *swap_at_fault(void *arg)
{
	struct swap_at_fault *w = arg;
	static char src[4096] __attribute__((aligned(4096)));
	struct uffd_msg msg;
	struct uffdio_copy copy = { .dst = (uintptr_t)w->page,
				    .src = (uintptr_t)src,
				    .len = sizeof(src) };
	struct pollfd p = { .fd = w->uffd, .events = POLLIN };

	if (poll(&p, 1, 10000) != 1 ||
	    read(w->uffd, &msg, sizeof(msg)) != sizeof(msg) ||
	    msg.event != UFFD_EVENT_PAGEFAULT)
		return NULL;
	/* The call has its ring: now the number names the limited file. */
	w->swapped = dup2(w->limited, w->n) == w->n;
	memcpy(src, &w->n, sizeof(w->n));
	ioctl(w->uffd, UFFDIO_COPY, &copy);
	return NULL;
}

/*
 * io_uring_register(N, FILES_UPDATE, {-1, N}) looks the ring up by N,
 * then reads the second slot's number and looks N up again. The second
 * read faults (userfaultfd), and the handler puts a limited file at N
 * first: that lookup, at the ring's number, is the ring's own only if
 * it is a ring (fget_unclaimed asks the file, not only the number), so
 * the limited file never becomes a fixed file: one slot updated, not
 * two. Root: a fault in the kernel's copy needs a privileged userfaultfd.
 */
SELFTEST(patched_ring_number_swapped_mid_call_is_no_ring)
{
	struct io_uring_files_update up = { .offset = 0 };
	struct swap_at_fault w = { .n = 201 };
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };
	int empty[2] = { -1, -1 }, *fds;
	struct uring u;
	pthread_t th;
	char *pages;
	long ret;

	if (getuid() != 0) {
		selftest_skip("needs root: a kernel-mode userfaultfd");
		return;
	}
	if (!patched_ring(&u))
		return;
	w.limited = read_only_file();
	w.uffd = (int)syscall(SYS_userfaultfd, O_CLOEXEC);
	pages = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!ASSERT_OK(w.limited, "limited file") ||
	    !ASSERT_OK(w.uffd, "userfaultfd") ||
	    !ASSERT_OK(ioctl(w.uffd, UFFDIO_API, &api), "UFFDIO_API") ||
	    !ASSERT_TRUE(pages != MAP_FAILED, "mmap") ||
	    !ASSERT_EQ(uring_register_files(&u, empty, 2), 0, "two slots") ||
	    !ASSERT_EQ(dup2(u.fd, w.n), w.n, "the ring at the number"))
		return;
	/* The first slot at the end of the first page, the second after. */
	fds = (int *)(pages + 4096) - 1;
	fds[0] = -1;
	w.page = pages + 4096;
	reg.range.start = (uintptr_t)w.page;
	reg.range.len = 4096;
	if (!ASSERT_OK(ioctl(w.uffd, UFFDIO_REGISTER, &reg), "register") ||
	    !ASSERT_EQ(pthread_create(&th, NULL, swap_at_fault, &w), 0,
		       "fault handler"))
		return;
	up.fds = (uintptr_t)fds;
	ret = syscall(__NR_io_uring_register, w.n, IORING_REGISTER_FILES_UPDATE,
		      &up, 2);
	pthread_join(th, NULL);
	ASSERT_TRUE(w.swapped, "the limited file was put at the number");
	ASSERT_EQ(ret, 1, "the limited file was not registered");
	uring_exit(&u);
}

/*
 * pidfd_getfd of a limited descriptor: the taker, a process with its own
 * limits and no floor of that file, gets no more than the file's rights.
 */
SELFTEST(pidfd_getfd_never_widens_a_limited_file)
{
	int ready[2], done[2], keep, fd = -1, pidfd, got, status;
	char c;
	pid_t pid;

	if (!fixture_loaded() || !ASSERT_OK(pipe(ready), "pipe") ||
	    !ASSERT_OK(pipe(done), "pipe 2"))
		return;
	keep = open("/", O_RDONLY | O_DIRECTORY);
	if (!ASSERT_OK(fixture_limit_all_but(keep, CAP_WRITE), "own limit"))
		return;
	pid = fork();
	if (pid == 0) {
		fd = read_only_file();
		if (fd < 0 || write(ready[1], &fd, sizeof(fd)) != sizeof(fd))
			_exit(1);
		_exit(read(done[0], &c, 1) == 1 ? 0 : 2);
	}
	if (!ASSERT_OK(pid, "fork") ||
	    !ASSERT_EQ(read(ready[0], &fd, sizeof(fd)), sizeof(fd), "ready"))
		return;
	pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	got = (int)syscall(SYS_pidfd_getfd, pidfd, fd, 0);
	if (got < 0 && (errno == ENOSYS || errno == EPERM)) {
		selftest_skip("pidfd_getfd is not allowed here");
	} else if (ASSERT_OK(got, "pidfd_getfd")) {
		ASSERT_EQ(pread(got, (char[4]){ 0 }, 4, 0), 4, "read");
		ASSERT_ERRNO(write(got, "x", 1), ENOTCAPABLE, "write");
	}
	ASSERT_EQ(write(done[1], "x", 1), 1, "done");
	status = selftest_wait(pid);
	ASSERT_EQ(status, 0, "the holder");
}

struct passer {
	int sv[2];
	int fd;
	volatile bool stop;
};

/*
 * Passes the file to this very process over and over, closing the sent
 * descriptor first: between the two the file is in no fd table slot, so
 * a fork's copy of the table cannot see it there, and the receive may
 * install it before the child's fd table is copied.
 */
static void *pass_loop(void *arg)
{
	struct passer *ps = arg;

	while (!ps->stop) {
		int got = fixture_pass_closed(ps->sv, ps->fd);

		if (got < 0)
			break;
		ps->fd = got;
	}
	return NULL;
}

/* In a forked child: 0 if no descriptor of fd's file is writable. */
static int no_writable_copy(const struct stat *want)
{
	struct stat st;

	for (int i = 3; i < 1024; i++) {
		if (fstat(i, &st) || st.st_ino != want->st_ino ||
		    st.st_dev != want->st_dev)
			continue;
		if (write(i, "x", 1) >= 0)
			return 2;
	}
	return 0;
}

/*
 * fork() while another thread keeps receiving a read-only descriptor
 * over SCM_RIGHTS: whatever copy the child gets, at whatever point of
 * the receive, is never writable. Bounded: 300 forks or 20 seconds.
 */
SELFTEST(fork_racing_a_received_descriptor_never_widens)
{
	struct passer ps = { .stop = false };
	struct timespec t0, t;
	struct stat want;
	pthread_t th;
	int forks = 0, bad = 0, status;
	pid_t pid;

	if (!fixture_loaded() ||
	    !ASSERT_OK(socketpair(AF_UNIX, SOCK_STREAM, 0, ps.sv),
		       "socketpair"))
		return;
	ps.fd = read_only_file();
	/* 1,024 slots: the longer the fork's scan, the wider its window. */
	if (!ASSERT_OK(ps.fd, "read-only file") ||
	    !ASSERT_EQ(dup2(ps.fd, 1023), 1023, "a larger fd table") ||
	    !ASSERT_OK(close(1023), "close") ||
	    !ASSERT_OK(fstat(ps.fd, &want), "fstat") ||
	    !ASSERT_EQ(pthread_create(&th, NULL, pass_loop, &ps), 0, "thread"))
		return;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (; forks < 300; forks++) {
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec > 20)
			break;
		pid = fork();
		if (pid == 0)
			_exit(no_writable_copy(&want));
		status = selftest_wait(pid);
		if (status != 0)
			bad++;
	}
	ps.stop = true;
	pthread_join(th, NULL);
	ASSERT_TRUE(forks > 0 && ps.fd >= 0, "passed");
	ASSERT_EQ(bad, 0, "children that could write");
}

/*
 * Device nodes in capability mode: a character or block device is a way
 * to any device, refused whoever asks (root would be allowed otherwise,
 * uid 1000 would get EPERM later); a FIFO stays allowed.
 */
SELFTEST(capmode_refuses_device_nodes)
{
	struct fixture_box b;
	struct stat st;

	if (!fixture_loaded() || !ASSERT_TRUE(fixture_make_box(&b), "box") ||
	    !enter())
		return;
	ASSERT_ERRNO(mknodat(b.dfd, "kmsg", S_IFCHR | 0600, makedev(1, 11)),
		     ECAPMODE, "character device");
	ASSERT_ERRNO(mknodat(b.dfd, "disk", S_IFBLK | 0600, makedev(7, 0)),
		     ECAPMODE, "block device");
	ASSERT_ERRNO(fstatat(b.dfd, "kmsg", &st, 0), ENOENT, "no node");
	ASSERT_OK(mknodat(b.dfd, "fifo", S_IFIFO | 0600, 0), "a FIFO");
}

/*
 * Through a directory without CAP_MKNODAT the missing right is what
 * capability mode reports for a device node too, as FreeBSD does:
 * ENOTCAPABLE before ECAPMODE.
 */
SELFTEST(capmode_device_node_missing_right_first)
{
	struct fixture_box b;
	cap_rights_t r;
	int no;

	if (!fixture_loaded() || !ASSERT_TRUE(fixture_make_box(&b), "box"))
		return;
	/* Every right but CAP_MKNODAT's own bit (CAP_LOOKUP stays). */
	CAP_ALL(&r);
	r.cr_rights[0] &= ~(CAP_MKNODAT & ~CAP_LOOKUP);
	no = dup(b.dfd);
	if (!ASSERT_OK(cap_rights_limit(no, &r), "limit") || !enter())
		return;
	ASSERT_ERRNO(mknodat(no, "kmsg", S_IFCHR | 0600, makedev(1, 11)),
		     ENOTCAPABLE, "character device, no CAP_MKNODAT");
	ASSERT_OK(mknodat(no, "fifo", S_IFIFO | 0600, 0),
		  "a FIFO needs CAP_MKFIFOAT, not CAP_MKNODAT");
	ASSERT_ERRNO(mknodat(b.dfd, "kmsg", S_IFCHR | 0600, makedev(1, 11)),
		     ECAPMODE, "character device, with the right");
}

/* A memfd holding an ELF program whose PT_INTERP is `interp`. */
static int elf_with_interp(const char *interp)
{
	struct {
		Elf64_Ehdr eh;
		Elf64_Phdr ph[2];
		char interp[64];
	} img = { 0 };
	int fd;

	memcpy(img.eh.e_ident, ELFMAG, SELFMAG);
	img.eh.e_ident[EI_CLASS] = ELFCLASS64;
	img.eh.e_ident[EI_DATA] = ELFDATA2LSB;
	img.eh.e_ident[EI_VERSION] = EV_CURRENT;
	img.eh.e_type = ET_EXEC;
	img.eh.e_machine = EM_X86_64;
	img.eh.e_version = EV_CURRENT;
	img.eh.e_entry = 0x400000 + offsetof(__typeof__(img), interp);
	img.eh.e_phoff = offsetof(__typeof__(img), ph);
	img.eh.e_ehsize = sizeof(Elf64_Ehdr);
	img.eh.e_phentsize = sizeof(Elf64_Phdr);
	img.eh.e_phnum = 2;
	img.ph[0].p_type = PT_INTERP;
	img.ph[0].p_offset = offsetof(__typeof__(img), interp);
	img.ph[0].p_filesz = strlen(interp) + 1;
	img.ph[1].p_type = PT_LOAD;
	img.ph[1].p_flags = PF_R | PF_X;
	img.ph[1].p_vaddr = 0x400000;
	img.ph[1].p_filesz = sizeof(img);
	img.ph[1].p_memsz = sizeof(img);
	img.ph[1].p_align = 0x1000;
	snprintf(img.interp, sizeof(img.interp), "%s", interp);
	fd = memfd_create("elf", MFD_CLOEXEC);
	if (fd < 0 || write(fd, &img, sizeof(img)) != sizeof(img))
		return -1;
	return fd;
}

/* The errno of fexecve(fd) in a child, in capability mode or not. */
static int exec_errno(int fd, bool capmode)
{
	pid_t pid = fork();

	if (pid == 0) {
		char *argv[] = { "elf", NULL }, *envp[] = { NULL };

		if (capmode && cap_enter())
			_exit(1);
		fexecve(fd, argv, envp);
		_exit(errno == ENOENT ? 10 : errno == ECAPMODE ? 11 : 12);
	}
	return selftest_wait(pid);
}

/*
 * In capability mode, the refused exec of `fd`, then the static busybox
 * (held open before) running `true`: its exit status.
 */
static int exec_then_static(int fd)
{
	int bin = open("/bin/busybox", O_RDONLY | O_CLOEXEC);
	pid_t pid;

	if (bin < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		char *argv[] = { "true", NULL }, *envp[] = { NULL };

		if (cap_enter())
			_exit(1);
		fexecve(fd, argv, envp);
		if (errno != ECAPMODE)
			_exit(2);
		fexecve(bin, argv, envp);
		_exit(3);
	}
	close(bin);
	return selftest_wait(pid);
}

/*
 * An ELF program names its interpreter by path: in capability mode the
 * kernel must not look it up, so neither a missing one (ENOENT would
 * tell the path does not exist) nor an existing one is reached.
 */
SELFTEST(capmode_refuses_an_elf_interpreter)
{
	int missing = elf_with_interp("/nonexistent/ld.so");
	int present = elf_with_interp("/bin/busybox");

	if (!fixture_loaded() || !ASSERT_OK(missing, "elf") ||
	    !ASSERT_OK(present, "elf 2"))
		return;
	ASSERT_EQ(exec_errno(missing, false), 10,
		  "outside capability mode the lookup fails with ENOENT");
	ASSERT_EQ(exec_errno(missing, true), 11,
		  "in capability mode: ECAPMODE, not ENOENT");
	ASSERT_EQ(exec_errno(present, true), 11,
		  "an existing interpreter: ECAPMODE");
	ASSERT_EQ(exec_then_static(missing), 0,
		  "a static program execs after a refused one");
}

#define I386_CLOSE     6
#define I386_IOCTL     54
#define I386_DUP2      63
#define I386_FTRUNCATE 93
#define I386_FCHDIR    133
#define I386_FSTATFS   100
#define I386_FSTAT64   197
#define I386_FGETXATTR 231

/*
 * i386 syscalls on descriptors of a process with limits: the file's
 * floor decides where the hook sees the file (ftruncate, ioctl), and
 * what names no file it can find (fstat64, fstatfs, fgetxattr) is
 * refused; an i386 number is never read as the x86-64 one (93 is
 * x86-64's fchown). fchdir's check (inode_permission with MAY_CHDIR)
 * does not read i386 registers: refused, whatever the directory holds
 * (the patched kernel decides it by its row: compat_rows).
 */
SELFTEST(i386_syscalls_get_the_floor_or_are_refused)
{
	char *low = compat_low_page();
	int fd, trunc_ok, two[2];
	cap_rights_t r;
	pid_t pid;

	if (!fixture_loaded() || !ASSERT_TRUE(low != NULL, "low page"))
		return;
	if (!ASSERT_TRUE(fixture_scratch_twice(two), "file opened twice"))
		return;
	fd = two[0];
	trunc_ok = two[1];
	if (int80(I386_FSTAT64, 0, 0, 0) == -ENOSYS) {
		selftest_skip("no i386 emulation");
		return;
	}
	/* Before any limit, in a child: the calls work. */
	pid = fork();
	if (pid == 0)
		_exit(int80(I386_FSTAT64, fd, (long)low, 0) != 0   ? 1
		      : int80(I386_FSTATFS, fd, (long)low, 0) != 0 ? 2
		      : int80(I386_FCHDIR, open("/", O_RDONLY | O_DIRECTORY), 0,
			      0) != 0
			      ? 3
			      : 0);
	ASSERT_EQ(selftest_wait(pid), 0,
		  "i386 fstat64, fstatfs and fchdir work");
	CAP_ALL(&r);
	cap_rights_clear(&r, CAP_FTRUNCATE, CAP_IOCTL, CAP_FSTAT);
	if (!ASSERT_OK(cap_rights_limit(fd, &r), "limit") ||
	    !ASSERT_OK(fixture_limit_all_but(trunc_ok, CAP_FCHOWN), "limit 2"))
		return;
	ASSERT_EQ(int80(I386_FTRUNCATE, fd, 0, 0), -ENOTCAPABLE,
		  "ftruncate without CAP_FTRUNCATE");
	ASSERT_EQ(int80(I386_FTRUNCATE, trunc_ok, 0, 0), 0,
		  "ftruncate with CAP_FTRUNCATE, without CAP_FCHOWN");
	ASSERT_EQ(int80(I386_IOCTL, fd, FIONREAD, (long)low), -ENOTCAPABLE,
		  "ioctl without CAP_IOCTL");
	ASSERT_EQ(int80(I386_IOCTL, trunc_ok, FIONREAD, (long)low), 0,
		  "ioctl with CAP_IOCTL");
	ASSERT_EQ(int80(I386_FSTAT64, fd, (long)low, 0), -ENOTCAPABLE,
		  "fstat64");
	ASSERT_EQ(int80(I386_FSTATFS, fd, (long)low, 0), -ENOTCAPABLE,
		  "fstatfs");
	strcpy(low + 2048, "user.x");
	ASSERT_EQ(int80(I386_FGETXATTR, fd, (long)(low + 2048), (long)low),
		  -ENOTCAPABLE, "fgetxattr");
	/*
	 * In a child: a successful one would move the test's directory.
	 * The patched kernel's fget hook decides it by its row instead.
	 */
	pid = fork();
	if (pid == 0)
		_exit(int80(I386_FCHDIR, open("/", O_RDONLY | O_DIRECTORY), 0,
			    0) == (fixture_patched_kernel() ? 0 : -ENOTCAPABLE)
			      ? 0
			      : 1);
	ASSERT_EQ(selftest_wait(pid), 0,
		  "i386 fchdir of an unlimited directory: refused (stock), "
		  "allowed (patched)");
}

/*
 * An i386 close leaves no entry behind that an i386 dup2 of the same
 * file to the same number would revive: the sibling of a read-only
 * descriptor, closed and re-made, is read-only.
 */
SELFTEST(i386_dup2_revives_no_closed_entry)
{
	cap_rights_t r;
	int a, b;

	if (!fixture_loaded())
		return;
	a = fixture_scratch_file(NULL);
	if (!ASSERT_OK(a, "file"))
		return;
	b = dup(a);
	cap_rights_init(&r, CAP_READ, CAP_FSTAT);
	if (!ASSERT_OK(b, "dup") ||
	    !ASSERT_OK(cap_rights_limit(a, &r), "limit"))
		return;
	if (!ASSERT_EQ(write(b, "x", 1), 1, "the sibling keeps its rights"))
		return;
	if (int80(I386_CLOSE, b, 0, 0) == -ENOSYS) {
		selftest_skip("no i386 emulation");
		return;
	}
	ASSERT_EQ(int80(I386_DUP2, a, b, 0), b, "i386 dup2 to the old number");
	ASSERT_ERRNO(write(b, "x", 1), ENOTCAPABLE, "the copy is read-only");
}

/*
 * fcntl's cmd is an unsigned int: the kernel drops the upper half of the
 * register, so (1 << 32) | F_DUPFD duplicates. The copy must get the
 * source's rights, not the file's low (a narrower sibling's), as a
 * bookkeeping that compared the whole register once gave it.
 */
SELFTEST(fcntl_dupfd_with_upper_bits_copies_rights)
{
	cap_rights_t rw, ro, got;
	int a, b, c;

	if (!fixture_loaded())
		return;
	a = fixture_scratch_file(NULL);
	if (!ASSERT_OK(a, "file"))
		return;
	b = dup(a);
	cap_rights_init(&rw, CAP_READ, CAP_WRITE, CAP_FSTAT);
	cap_rights_init(&ro, CAP_READ);
	if (!ASSERT_OK(b, "dup") ||
	    !ASSERT_OK(cap_rights_limit(a, &rw), "limit a") ||
	    !ASSERT_OK(cap_rights_limit(b, &ro), "limit its sibling"))
		return;
	c = (int)syscall(SYS_fcntl, a, (1UL << 32) | F_DUPFD, 60);
	if (!ASSERT_TRUE(c >= 60, "fcntl(F_DUPFD) with the upper bits set"))
		return;
	ASSERT_OK(cap_rights_get(c, &got), "rights of the copy");
	ASSERT_TRUE(cap_rights_contains(&got, &rw) &&
			    cap_rights_contains(&rw, &got),
		    "the copy has the source's rights");
	ASSERT_EQ(write(c, "x", 1), 1, "the copy writes, as its source");
}
