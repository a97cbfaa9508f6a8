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
#include "rows.h"
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

/* The row's call: 0 if the iocb completed, else -1 with its errno. */
static int aio_op(int fd, int opcode)
{
	long r = aio_one(fd, opcode);

	if (r >= 0)
		return 0;
	errno = r > -1000 ? (int)-r : EIO;
	return -1;
}
static int op_aio_pread(int fd)
{
	return aio_op(fd, IOCB_CMD_PREAD);
}
static int op_aio_pwrite(int fd)
{
	return aio_op(fd, IOCB_CMD_PWRITE);
}
static int op_aio_fsync(int fd)
{
	return aio_op(fd, IOCB_CMD_FSYNC);
}
static int op_aio_fdsync(int fd)
{
	return aio_op(fd, IOCB_CMD_FDSYNC);
}

static int aio_file(void)
{
	return fixture_scratch_file("0123456789");
}
/* tmpfs files have no fsync; its directories do (noop_fsync). */
static int aio_dir(void)
{
	return open("/tmp", O_RDONLY | O_DIRECTORY);
}

/*
 * Reads and writes are refused without their rights on every kernel
 * (stock: by the file's floor, which is this descriptor's limit here).
 * An fsync is refused without CAP_FSYNC on every kernel too: the stock
 * ones by the file's floor at the prepare_creds() inside aio_fsync(),
 * which fails the iocb with ENOMEM (bpf/aio.bpf.h: no hook can make it
 * ENOTCAPABLE there), the patched one at the lookup, which asks every
 * AIO right, CAP_FSYNC included. Capability mode allows Linux AIO.
 */
static const struct rights_row aio_rows[] = {
	{ .name = "io_submit pread",
	  .rights = CAP_PREAD,
	  .make = aio_file,
	  .op = op_aio_pread,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "io_submit pwrite",
	  .rights = CAP_PWRITE,
	  .make = aio_file,
	  .op = op_aio_pwrite,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "io_submit fsync",
	  .rights = CAP_FSYNC,
	  .make = aio_dir,
	  .op = op_aio_fsync,
	  .stock = EXPECT(0, ENOMEM, 0, ENOMEM),
	  .patched = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "io_submit fdsync",
	  .rights = CAP_FSYNC,
	  .make = aio_dir,
	  .op = op_aio_fdsync,
	  .stock = EXPECT(0, ENOMEM, 0, ENOMEM),
	  .patched = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
};

SELFTEST_RIGHTS_ROWS(aio_rows, "aio_rights_with_and_without")

SELFTEST(aio_rights_with_and_without)
{
	if (!fixture_loaded())
		return;
	rows_run(aio_rows, sizeof(aio_rows) / sizeof(aio_rows[0]));
}

/*
 * A stock kernel's refusal of an AIO fsync is a note the fentry on
 * aio_fsync() leaves for the cred_prepare hook of the prepare_creds()
 * inside it (bpf/aio.bpf.h), in a process with Capsicum state: the note
 * must refuse that call only. A fork right after the refused fsync, and
 * after one that fails its EINVAL checks before prepare_creds() (the
 * note then set and never used), prepares creds too and must work; so
 * must an fsync of another file whose descriptor holds CAP_FSYNC (and
 * the other AIO rights, which the patched kernel's lookup asks too).
 */
static int fork_and_wait(void)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	return selftest_wait(pid);
}

SELFTEST(aio_fsync_refusal_refuses_only_its_iocb)
{
	long refused = fixture_patched_kernel() ? -ENOTCAPABLE : -ENOMEM;
	aio_context_t ctx = 0;
	struct iocb cb, *cbs[1] = { &cb };
	int no_fsync, with_fsync;

	if (!fixture_loaded())
		return;
	no_fsync = aio_dir();
	with_fsync = aio_dir();
	if (!ASSERT_OK(no_fsync, "dir") || !ASSERT_OK(with_fsync, "dir") ||
	    !ASSERT_OK(fixture_limit_all_but(no_fsync, CAP_FSYNC),
		       "limit one without CAP_FSYNC") ||
	    !ASSERT_OK(fixture_limit(with_fsync, CAP_PREAD, CAP_PWRITE,
				     CAP_FSYNC, CAP_EVENT),
		       "limit the other to the AIO rights"))
		return;
	ASSERT_EQ(aio_one(no_fsync, IOCB_CMD_FSYNC), refused,
		  "an fsync without CAP_FSYNC");
	ASSERT_EQ(fork_and_wait(), 0, "a fork right after it");
	ASSERT_EQ(aio_one(with_fsync, IOCB_CMD_FSYNC), 0,
		  "an fsync with CAP_FSYNC");
	ASSERT_EQ(aio_one(with_fsync, IOCB_CMD_FDSYNC), 0,
		  "an fdsync with CAP_FSYNC");
	if (!ASSERT_OK(syscall(SYS_io_setup, 1, &ctx), "io_setup"))
		return;
	/* A length makes aio_fsync() fail before prepare_creds(). */
	memset(&cb, 0, sizeof(cb));
	cb.aio_fildes = (uint32_t)no_fsync;
	cb.aio_lio_opcode = IOCB_CMD_FSYNC;
	cb.aio_nbytes = 1;
	ASSERT_ERRNO(syscall(SYS_io_submit, ctx, 1, cbs),
		     fixture_patched_kernel() ? ENOTCAPABLE : EINVAL,
		     "an fsync that fails before prepare_creds()");
	ASSERT_EQ(fork_and_wait(), 0, "a fork right after that");
	syscall(SYS_io_destroy, ctx);
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

/*
 * The patched kernel looks an iocb's descriptor up before io_submit
 * reads the opcode (from its own copy, which no hook sees), and no hook
 * checks the file after that there: the descriptor needs every right an
 * iocb can ask, a read too. Stricter than FreeBSD's per-opcode rights;
 * a stock kernel checks a read by its file's floor (CAP_READ, CAP_SEEK).
 */
/*
 * An AIO read of a fresh file limited to r: its result, or -1000 - errno
 * if the file could not be made or limited.
 */
static long aio_read_limited_to(const cap_rights_t *r)
{
	int fd = aio_file();
	long ret;

	if (fd < 0)
		return -1000 - errno;
	ret = cap_rights_limit(fd, r) ? -1000 - errno
				      : aio_one(fd, IOCB_CMD_PREAD);
	close(fd);
	return ret;
}

SELFTEST(aio_lookup_asks_every_aio_right)
{
	long narrowed = fixture_patched_kernel() ? -ENOTCAPABLE : 4;
	cap_rights_t own, no_event, every;

	if (!fixture_loaded())
		return;
	cap_rights_init(&own, CAP_PREAD);
	cap_rights_init(&no_event, CAP_PREAD, CAP_PWRITE, CAP_FSYNC);
	cap_rights_init(&every, CAP_PREAD, CAP_PWRITE, CAP_FSYNC, CAP_EVENT);
	ASSERT_EQ(aio_read_limited_to(&own), narrowed,
		  "a read with exactly its own rights");
	ASSERT_EQ(aio_read_limited_to(&no_event), narrowed,
		  "a read without IOCB_CMD_POLL's CAP_EVENT");
	ASSERT_EQ(aio_read_limited_to(&every), 4,
		  "a read with every AIO right");
}
