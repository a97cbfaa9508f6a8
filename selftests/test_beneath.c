// SPDX-License-Identifier: GPL-2.0
/*
 * *at() calls through a restricted directory descriptor: each needs the
 * dirfd's right for the operation (CAP_MKDIRAT, CAP_UNLINKAT, ...) and
 * must stay beneath the directory. `..` that stays beneath works; `..`
 * past it, absolute paths and symlinks out fail with ENOTCAPABLE, and a
 * refused call changes nothing outside.
 */
#define _GNU_SOURCE
#include "compat.h"
#include "fixture.h"
#include "rows.h"
#include "selftest.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capsicum.h>
#include <sys/syscall.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * A fresh tree:  TOP/outside, TOP/outlink -> outside, TOP/d/f,
 * TOP/d/sub/g, TOP/d/in -> sub/g, TOP/d/up -> .., TOP/d/abs -> TOP/outside.
 * Returns a descriptor of TOP/d (unrestricted); TOP's path goes in top.
 */
struct tree {
	char top[64];
	char outside[96];
	int dfd;
};

static bool touch(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	return fd >= 0 && write(fd, "x", 1) == 1 && close(fd) == 0;
}

static bool make_tree(struct tree *t)
{
	char p[160];

	snprintf(t->top, sizeof(t->top), "/tmp/beneath.XXXXXX");
	if (!mkdtemp(t->top))
		return false;
	snprintf(t->outside, sizeof(t->outside), "%s/outside", t->top);
#define AT(rel) (snprintf(p, sizeof(p), "%s/%s", t->top, rel), p)
	if (!touch(t->outside) || symlink("outside", AT("outlink")) ||
	    mkdir(AT("d"), 0755) || !touch(AT("d/f")) ||
	    mkdir(AT("d/sub"), 0755) || !touch(AT("d/sub/g")) ||
	    symlink("sub/g", AT("d/in")) || symlink("..", AT("d/up")) ||
	    symlink(t->outside, AT("d/abs")))
		return false;
	t->dfd = open(AT("d"), O_RDONLY | O_DIRECTORY);
#undef AT
	return t->dfd >= 0;
}

static bool exists(const struct tree *t, const char *rel)
{
	char p[160];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", t->top, rel);
	return lstat(p, &st) == 0;
}

/* Opens and closes; -1 with errno if the open fails. */
static int open_close(int dfd, const char *path, int flags)
{
	int fd = openat(dfd, path, flags, 0600);

	return fd < 0 ? -1 : close(fd);
}

static int do_fstatat(int dfd, const char *path)
{
	struct stat st;

	return fstatat(dfd, path, &st, AT_SYMLINK_NOFOLLOW);
}

static int do_statx(int dfd, const char *path)
{
	struct statx stx;

	return statx(dfd, path, AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS, &stx);
}

static int do_readlinkat(int dfd, const char *path)
{
	char buf[64];

	return readlinkat(dfd, path, buf, sizeof(buf)) < 0 ? -1 : 0;
}

SELFTEST(beneath_lookups_stay_beneath)
{
	struct tree t;
	struct stat st;
	char abs[128];
	int pfd;

	if (!fixture_loaded() || !ASSERT_TRUE(make_tree(&t), "tree"))
		return;
	/* Unrestricted, the dirfd reaches outside: the control case. */
	ASSERT_OK(open_close(t.dfd, "../outside", O_RDONLY), "unrestricted ..");
	if (!ASSERT_OK(fixture_limit_all_but(t.dfd, CAP_FCHFLAGS), "limit"))
		return;

	ASSERT_OK(open_close(t.dfd, "f", O_RDONLY), "f");
	ASSERT_OK(open_close(t.dfd, ".", O_RDONLY), ".");
	ASSERT_OK(open_close(t.dfd, "sub/g", O_RDONLY), "sub/g");
	ASSERT_OK(open_close(t.dfd, "sub/../f", O_RDONLY), ".. beneath");
	ASSERT_OK(open_close(t.dfd, "in", O_RDONLY), "symlink beneath");
	ASSERT_ERRNO(open_close(t.dfd, "..", O_RDONLY), ENOTCAPABLE, "..");
	ASSERT_ERRNO(open_close(t.dfd, "../outside", O_RDONLY), ENOTCAPABLE,
		     "../outside");
	ASSERT_ERRNO(open_close(t.dfd, "sub/../../outside", O_RDONLY),
		     ENOTCAPABLE, "sub/../../outside");
	ASSERT_ERRNO(open_close(t.dfd, "up/outside", O_RDONLY), ENOTCAPABLE,
		     "relative symlink out");
	ASSERT_ERRNO(open_close(t.dfd, "abs", O_RDONLY), ENOTCAPABLE,
		     "absolute symlink out");
	ASSERT_ERRNO(open_close(t.dfd, t.outside, O_RDONLY), ENOTCAPABLE,
		     "absolute path");
	ASSERT_ERRNO(open_close(t.dfd, "/etc/passwd", O_RDONLY), ENOTCAPABLE,
		     "/etc/passwd");
	/* FreeBSD's rule: an absolute path never goes through a dirfd. */
	snprintf(abs, sizeof(abs), "%s/d/f", t.top);
	ASSERT_ERRNO(open_close(t.dfd, abs, O_RDONLY), ENOTCAPABLE,
		     "absolute path that resolves beneath");

	/* A refused create creates nothing. */
	ASSERT_ERRNO(open_close(t.dfd, "../created", O_WRONLY | O_CREAT),
		     ENOTCAPABLE, "O_CREAT outside");
	ASSERT_TRUE(!exists(&t, "created"), "nothing created outside");
	ASSERT_OK(open_close(t.dfd, "sub/created", O_WRONLY | O_CREAT),
		  "O_CREAT beneath");

	ASSERT_ERRNO(do_fstatat(t.dfd, "../outside"), ENOTCAPABLE, "fstatat");
	ASSERT_OK(do_fstatat(t.dfd, "sub/g"), "fstatat beneath");
	ASSERT_ERRNO(do_statx(t.dfd, "../outside"), ENOTCAPABLE, "statx");
	ASSERT_ERRNO(do_readlinkat(t.dfd, "../outlink"), ENOTCAPABLE,
		     "readlinkat");
	ASSERT_OK(do_readlinkat(t.dfd, "up"), "readlinkat beneath");
	ASSERT_ERRNO(mkdirat(t.dfd, "../newdir", 0755), ENOTCAPABLE, "mkdirat");
	ASSERT_TRUE(!exists(&t, "newdir"), "no directory made outside");
	ASSERT_ERRNO(mknodat(t.dfd, "../fifo", S_IFIFO | 0600, 0), ENOTCAPABLE,
		     "mknodat");
	ASSERT_ERRNO(unlinkat(t.dfd, "../outside", 0), ENOTCAPABLE, "unlinkat");
	ASSERT_TRUE(exists(&t, "outside"), "outside not removed");
	ASSERT_ERRNO(renameat(t.dfd, "f", t.dfd, "../moved"), ENOTCAPABLE,
		     "rename out");
	ASSERT_ERRNO(renameat(t.dfd, "../outside", t.dfd, "stolen"),
		     ENOTCAPABLE, "rename in");
	ASSERT_TRUE(exists(&t, "outside") && exists(&t, "d/f"),
		    "nothing renamed");
	ASSERT_ERRNO(linkat(t.dfd, "../outside", t.dfd, "hard", 0), ENOTCAPABLE,
		     "link from outside");
	ASSERT_ERRNO(linkat(t.dfd, "f", t.dfd, "../hard", 0), ENOTCAPABLE,
		     "link to outside");
	ASSERT_ERRNO(symlinkat("f", t.dfd, "../sl"), ENOTCAPABLE, "symlinkat");
	ASSERT_ERRNO(fchmodat(t.dfd, "../outside", 0600, 0), ENOTCAPABLE,
		     "fchmodat");
	ASSERT_ERRNO(fchownat(t.dfd, "../outside", -1, -1, 0), ENOTCAPABLE,
		     "fchownat");
	ASSERT_ERRNO(utimensat(t.dfd, "../outside", NULL, 0), ENOTCAPABLE,
		     "utimensat");
	ASSERT_ERRNO(fixture_execveat_true(t.dfd, "/bin/true"), ENOTCAPABLE,
		     "execveat of an absolute path");

	/*
	 * O_PATH runs no open hook: on stock kernels the escaped descriptor
	 * gets no rights; the patched kernel keeps the lookup beneath.
	 */
	if (fixture_patched_kernel())
		ASSERT_ERRNO(openat(t.dfd, "..", O_PATH), ENOTCAPABLE,
			     "O_PATH .. on the patched kernel");
	else if (ASSERT_OK(pfd = openat(t.dfd, "..", O_PATH), "O_PATH ..")) {
		ASSERT_ERRNO(open_close(pfd, "outside", O_RDONLY), ENOTCAPABLE,
			     "lookup through an escaped O_PATH descriptor");
		ASSERT_ERRNO(fstat(pfd, &st), ENOTCAPABLE,
			     "fstat of an escaped O_PATH descriptor");
	}
}

/*
 * The descriptor of the *at() rows: a fresh tree's TOP/d (above), with
 * an empty directory TOP/d/emptydir.
 */
static int tree_dfd(void)
{
	struct tree t;
	char p[160];

	if (!make_tree(&t))
		return -1;
	snprintf(p, sizeof(p), "%s/d/emptydir", t.top);
	return mkdir(p, 0755) ? -1 : t.dfd;
}

static int op_mkdirat(int dfd)
{
	return mkdirat(dfd, "newdir", 0755);
}
static int op_mkfifoat(int dfd)
{
	return mknodat(dfd, "fifo", S_IFIFO | 0600, 0);
}
static int op_mknodat(int dfd)
{
	return mknodat(dfd, "node", S_IFREG | 0600, 0);
}
static int op_unlinkat(int dfd)
{
	return unlinkat(dfd, "f", 0);
}
static int op_rmdirat(int dfd)
{
	return unlinkat(dfd, "emptydir", AT_REMOVEDIR);
}
static int op_renameat(int dfd)
{
	return renameat(dfd, "f", dfd, "f2");
}
static int op_renameat2(int dfd)
{
	return (int)syscall(SYS_renameat2, dfd, "f", dfd, "f2", 0);
}
static int op_linkat(int dfd)
{
	return linkat(dfd, "f", dfd, "f2", 0);
}
static int op_symlinkat(int dfd)
{
	return symlinkat("f", dfd, "sl");
}
static int op_fchmodat(int dfd)
{
	return fchmodat(dfd, "f", 0600, 0);
}
static int op_fchownat(int dfd)
{
	return fchownat(dfd, "f", -1, -1, 0);
}
static int op_utimensat(int dfd)
{
	return utimensat(dfd, "f", NULL, 0);
}
static int op_futimesat(int dfd)
{
	return (int)syscall(SYS_futimesat, dfd, "f", NULL);
}
static int op_fstatat(int dfd)
{
	return do_fstatat(dfd, "f");
}
static int op_statx(int dfd)
{
	return do_statx(dfd, "f");
}
static int op_readlinkat(int dfd)
{
	return do_readlinkat(dfd, "in");
}

static int op_tmpfile(int dfd)
{
	return open_close(dfd, ".", O_TMPFILE | O_RDWR);
}

/*
 * One *at() operation on the tree's dirfd per row (rows.h): with its
 * right it succeeds, without any one of its rights (CAP_LOOKUP, which
 * the *AT rights hold, too) it fails with ENOTCAPABLE, in capability
 * mode alike (a call relative to a dirfd is allowed there).
 */
static const struct rights_row at_cases[] = {
	{ .name = "mkdirat",
	  .rights = CAP_MKDIRAT,
	  .make = tree_dfd,
	  .op = op_mkdirat,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "mknodat fifo",
	  .rights = CAP_MKFIFOAT,
	  .make = tree_dfd,
	  .op = op_mkfifoat,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "mknodat file",
	  .rights = CAP_MKNODAT,
	  .make = tree_dfd,
	  .op = op_mknodat,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "unlinkat",
	  .rights = CAP_UNLINKAT,
	  .make = tree_dfd,
	  .op = op_unlinkat,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "unlinkat AT_REMOVEDIR",
	  .rights = CAP_UNLINKAT,
	  .make = tree_dfd,
	  .op = op_rmdirat,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "renameat source",
	  .rights = CAP_RENAMEAT_SOURCE,
	  .make = tree_dfd,
	  .op = op_renameat,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "renameat target",
	  .rights = CAP_RENAMEAT_TARGET,
	  .make = tree_dfd,
	  .op = op_renameat,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "renameat2 source",
	  .rights = CAP_RENAMEAT_SOURCE,
	  .make = tree_dfd,
	  .op = op_renameat2,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "renameat2 target",
	  .rights = CAP_RENAMEAT_TARGET,
	  .make = tree_dfd,
	  .op = op_renameat2,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "linkat source",
	  .rights = CAP_LINKAT_SOURCE,
	  .make = tree_dfd,
	  .op = op_linkat,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "linkat target",
	  .rights = CAP_LINKAT_TARGET,
	  .make = tree_dfd,
	  .op = op_linkat,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "symlinkat",
	  .rights = CAP_SYMLINKAT,
	  .make = tree_dfd,
	  .op = op_symlinkat,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "fchmodat",
	  .rights = CAP_FCHMODAT,
	  .make = tree_dfd,
	  .op = op_fchmodat,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "fchownat",
	  .rights = CAP_FCHOWNAT,
	  .make = tree_dfd,
	  .op = op_fchownat,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "utimensat",
	  .rights = CAP_FUTIMESAT,
	  .make = tree_dfd,
	  .op = op_utimensat,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "futimesat",
	  .rights = CAP_FUTIMESAT,
	  .make = tree_dfd,
	  .op = op_futimesat,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "fstatat",
	  .rights = CAP_FSTATAT,
	  .make = tree_dfd,
	  .op = op_fstatat,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "statx",
	  .rights = CAP_FSTATAT,
	  .make = tree_dfd,
	  .op = op_statx,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "readlinkat",
	  .rights = CAP_LOOKUP,
	  .make = tree_dfd,
	  .op = op_readlinkat,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
	{ .name = "openat O_TMPFILE needs create",
	  .rights = CAP_CREATE,
	  .make = tree_dfd,
	  .op = op_tmpfile,
	  .stock = EXPECT(0, ENOTCAPABLE, 0, ENOTCAPABLE) },
};
SELFTEST_RIGHTS_ROWS(at_cases, "at_rights_with_and_without")

SELFTEST(at_rights_with_and_without)
{
	if (!fixture_loaded())
		return;
	rows_run(at_cases, sizeof(at_cases) / sizeof(at_cases[0]));
}

/*
 * A mount stacked on the directory after it was opened: lookups from the
 * descriptor never enter it ("f" is ENOENT), so reaching it by "../x/f"
 * must not count as beneath either.
 */
SELFTEST(beneath_not_into_a_mount_over_the_directory)
{
	char top[] = "/tmp/overmount.XXXXXX", x[64], f[80];
	int dfd, fd;

	if (!selftest_is_root())
		selftest_skip("needs root (mount)");
	if (!fixture_loaded() || !ASSERT_OK_PTR(mkdtemp(top), "top"))
		return;
	snprintf(x, sizeof(x), "%s/x", top);
	snprintf(f, sizeof(f), "%s/f", x);
	if (!ASSERT_OK(mkdir(x, 0755), "x"))
		return;
	dfd = open(x, O_RDONLY | O_DIRECTORY);
	if (!ASSERT_OK(dfd, "open x") ||
	    !ASSERT_OK(mount("none", x, "tmpfs", 0, NULL), "mount over x"))
		return;
	fd = open(f, O_WRONLY | O_CREAT, 0644);
	if (ASSERT_OK(fd, "file in the mount") &&
	    ASSERT_OK(fixture_limit_all_but(dfd, CAP_FCHFLAGS), "limit")) {
		ASSERT_ERRNO(open_close(dfd, "f", O_RDONLY), ENOENT,
			     "the mount is not under the descriptor");
		ASSERT_ERRNO(open_close(dfd, "../x/f", O_RDONLY), ENOTCAPABLE,
			     "nor reachable through ..");
	}
	close(fd);
	umount(x);
}

#define NR_I386_OPENAT 295

/*
 * The hooks know x86-64 syscall numbers; an i386 openat through a
 * restricted dirfd cannot be checked, so it is refused even beneath.
 */
SELFTEST(beneath_refuses_i386_lookups)
{
	struct tree t;
	char *path;
	long ret;

	if (!fixture_loaded() || !ASSERT_TRUE(make_tree(&t), "tree"))
		return;
	path = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	if (!ASSERT_TRUE(path != MAP_FAILED, "low memory"))
		return;
	strcpy(path, "f");
	ret = int80(NR_I386_OPENAT, t.dfd, (long)path, O_RDONLY);
	if (ret == -ENOSYS)
		selftest_skip("no i386 emulation in this kernel");
	if (!ASSERT_TRUE(ret >= 0, "an unrestricted dirfd: i386 openat works"))
		return;
	close((int)ret);
	if (!ASSERT_OK(fixture_limit_all_but(t.dfd, CAP_FCHFLAGS), "limit"))
		return;
	ASSERT_EQ(int80(NR_I386_OPENAT, t.dfd, (long)path, O_RDONLY),
		  -ENOTCAPABLE, "restricted: refused");
	/* Refused before the walk leaves: no probe of the names outside. */
	strcpy(path, "../outside");
	ASSERT_EQ(int80(NR_I386_OPENAT, t.dfd, (long)path, O_RDONLY),
		  -ENOTCAPABLE, "an existing name outside");
	strcpy(path, "../missing");
	ASSERT_EQ(int80(NR_I386_OPENAT, t.dfd, (long)path, O_RDONLY),
		  -ENOTCAPABLE, "a missing name outside: the same");
}
