// SPDX-License-Identifier: GPL-2.0
/*
 * Linux AIO (io_submit): each iocb's descriptor needs its opcode's
 * rights, as FreeBSD's aio_read/aio_write/aio_fsync: CAP_READ or
 * CAP_WRITE, and CAP_SEEK, since every AIO read or write is at an offset
 * (CAP_PREAD, CAP_PWRITE); CAP_FSYNC for IOCB_CMD_FSYNC/FDSYNC
 * (doc/enforcement.md says where each kernel sees which).
 */
#define _GNU_SOURCE
#include "fixture.h"
#include "selftest.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/aio_abi.h>
#include <stdint.h>
#include <string.h>
#include <sys/capsicum.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/*
 * One iocb of opcode on fd, completed: its result (bytes, or -errno from
 * the completion), or -errno from io_submit itself; -1000 - errno if the
 * context could not be set up or the completion never came.
 */
static long aio_one(int fd, int opcode)
{
	aio_context_t ctx = 0;
	struct iocb cb, *cbs[1] = { &cb };
	struct io_event ev;
	struct timespec ts = { .tv_sec = 10 };
	static char buf[16] = "0123456789abcdef";
	long ret;

	if (syscall(SYS_io_setup, 1, &ctx))
		return -1000 - errno;
	memset(&cb, 0, sizeof(cb));
	cb.aio_fildes = (uint32_t)fd;
	cb.aio_lio_opcode = (uint16_t)opcode;
	if (opcode == IOCB_CMD_PREAD || opcode == IOCB_CMD_PWRITE) {
		cb.aio_buf = (uint64_t)(uintptr_t)buf;
		cb.aio_nbytes = 4; /* at offset 0 */
	}
	ret = syscall(SYS_io_submit, ctx, 1, cbs);
	if (ret != 1) {
		ret = ret < 0 ? -errno : -1000;
	} else if (syscall(SYS_io_getevents, ctx, 1, 1, &ev, &ts) != 1) {
		ret = -1000 - errno;
	} else {
		ret = ev.res;
	}
	syscall(SYS_io_destroy, ctx);
	return ret;
}

struct aio_case {
	const char *name;
	int opcode;
	uint64_t right; /* the one taken away */
	long ok;	/* the result with every right */
	long without;	/* and without it: what the kernel enforces */
	bool dir;	/* on a directory: tmpfs files have no fsync */
};

/*
 * Reads and writes are refused without their rights on every kernel
 * (stock: the file's floor, which is this descriptor's limit here);
 * fsync reaches no hook (the table's io_submit row says so).
 */
static const struct aio_case aio_cases[] = {
	{ .name = "aio pread needs read",
	  .opcode = IOCB_CMD_PREAD,
	  .right = CAP_READ,
	  .ok = 4,
	  .without = -ENOTCAPABLE },
	{ .name = "aio pread needs seek",
	  .opcode = IOCB_CMD_PREAD,
	  .right = CAP_SEEK,
	  .ok = 4,
	  .without = -ENOTCAPABLE },
	{ .name = "aio pwrite needs write",
	  .opcode = IOCB_CMD_PWRITE,
	  .right = CAP_WRITE,
	  .ok = 4,
	  .without = -ENOTCAPABLE },
	{ .name = "aio pwrite needs seek",
	  .opcode = IOCB_CMD_PWRITE,
	  .right = CAP_SEEK,
	  .ok = 4,
	  .without = -ENOTCAPABLE },
	{ .name = "aio fsync is not checked",
	  .opcode = IOCB_CMD_FSYNC,
	  .right = CAP_FSYNC,
	  .ok = 0,
	  .without = 0,
	  .dir = true },
	{ .name = "aio fdsync is not checked",
	  .opcode = IOCB_CMD_FDSYNC,
	  .right = CAP_FSYNC,
	  .ok = 0,
	  .without = 0,
	  .dir = true },
};

SELFTEST(aio_rights_with_and_without)
{
	if (!fixture_loaded())
		return;
	for (size_t i = 0; i < sizeof(aio_cases) / sizeof(aio_cases[0]); i++) {
		const struct aio_case *c = &aio_cases[i];
		int fd = c->dir ? open("/tmp", O_RDONLY | O_DIRECTORY)
				: fixture_scratch_file("0123456789");
		int lim = c->dir ? open("/tmp", O_RDONLY | O_DIRECTORY)
				 : fixture_scratch_file("0123456789");

		if (!ASSERT_OK(fd, "file") || !ASSERT_OK(lim, "file"))
			return;
		if (!ASSERT_OK(fixture_limit_all_but(fd, 0), c->name) ||
		    !ASSERT_OK(fixture_limit_all_but(lim, c->right), c->name))
			return;
		ASSERT_EQ(aio_one(fd, c->opcode), c->ok, c->name);
		ASSERT_EQ(aio_one(lim, c->opcode), c->without, c->name);
		close(fd);
		close(lim);
	}
}

/*
 * Two descriptors of one file, one without CAP_READ: an AIO read
 * through the other is checked by its own rights on the patched kernel
 * (its fget saw the iocb's descriptor); a stock kernel sees no
 * descriptor and checks the file's floor, which lacks CAP_READ.
 */
SELFTEST(aio_read_is_checked_by_its_descriptor)
{
	int fd, ro;

	if (!fixture_loaded())
		return;
	fd = fixture_scratch_file("0123456789");
	if (!ASSERT_OK(fd, "file"))
		return;
	ro = dup(fd);
	if (!ASSERT_OK(ro, "dup") ||
	    !ASSERT_OK(fixture_limit_all_but(fd, 0), "limit fd") ||
	    !ASSERT_OK(fixture_limit_all_but(ro, CAP_READ), "limit the dup"))
		return;
	ASSERT_EQ(aio_one(ro, IOCB_CMD_PREAD), -ENOTCAPABLE,
		  "through the descriptor without CAP_READ");
	ASSERT_EQ(aio_one(fd, IOCB_CMD_PREAD),
		  fixture_patched_kernel() ? 4 : -ENOTCAPABLE,
		  "through the one with it");
}
