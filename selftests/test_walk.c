// SPDX-License-Identifier: GPL-2.0
/*
 * A lookup through a restricted directory descriptor (every dirfd in
 * capability mode, or one limited with cap_rights_limit) never steps
 * outside the directory, not even to come back: it fails with ENOTCAPABLE
 * before any name outside is looked up, so the errno is the same whether
 * the name outside exists or not. Every path syscall of the table, every
 * form of escape, both kinds of restriction.
 *
 *   TOP/
 *     o/            outside, a mirror of d: f, in -> sub/g, sub/g,
 *                   emptydir, prog
 *     e/            outside, empty: no name the calls use
 *     d/            the directory descriptor
 *       f  sub/g  emptydir  prog (a static busybox)
 *       in -> sub/g           a symlink that stays beneath
 *       self -> .             a symlinked directory that stays beneath
 *       up -> ..              a relative symlink that climbs
 *       abs -> TOP            an absolute symlink out
 *       absd -> TOP/d         an absolute symlink back inside
 *       sub/up2 -> ../..      a symlinked directory climbing mid-path
 *
 * An escape form is tried three times: into o (the names exist), into e
 * (they do not) and into TOP/nodir (no such directory); unfixed, these
 * answer ENOTCAPABLE, ENOENT, ENOTDIR or even succeed (out and back).
 */
#define _GNU_SOURCE
#include "fixture.h"
#include "selftest.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capsicum.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define PATH_LEN 192

static char busybox[64]; /* a copy the test user owns, to hard-link */

static bool touch(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	return fd >= 0 && write(fd, "x", 1) == 1 && close(fd) == 0;
}

/* A file the calls below act on, in d and in its outside mirror o. */
static bool populate(const char *dir)
{
	char p[PATH_LEN];

#define IN(rel) (snprintf(p, sizeof(p), "%s/%s", dir, rel), p)
	return mkdir(dir, 0755) == 0 && touch(IN("f")) &&
	       mkdir(IN("sub"), 0755) == 0 && touch(IN("sub/g")) &&
	       mkdir(IN("emptydir"), 0755) == 0 &&
	       symlink("sub/g", IN("in")) == 0 &&
	       link(busybox, IN("prog")) == 0;
#undef IN
}

struct walk_tree {
	char top[64];
	int dfd;
};

static bool make_walk_tree(struct walk_tree *t)
{
	char p[PATH_LEN], q[PATH_LEN];

	snprintf(t->top, sizeof(t->top), "/tmp/walk.XXXXXX");
	if (!mkdtemp(t->top))
		return false;
#define AT(rel) (snprintf(p, sizeof(p), "%s/%s", t->top, rel), p)
	if (!populate(AT("o")) || mkdir(AT("e"), 0755) || !populate(AT("d")) ||
	    symlink(".", AT("d/self")) || symlink("..", AT("d/up")) ||
	    symlink(t->top, AT("d/abs")) || symlink("../..", AT("d/sub/up2")))
		return false;
	snprintf(q, sizeof(q), "%s/d", t->top);
	if (symlink(q, AT("d/absd")))
		return false;
	t->dfd = open(AT("d"), O_RDONLY | O_DIRECTORY);
#undef AT
	return t->dfd >= 0;
}

/*
 * A form of path: `fmt` leads to the directory the operation acts in.
 * "@" stands for TOP, "%s" for o, e or nodir (escape forms only).
 */
struct walk_form {
	const char *name;
	const char *fmt;
	bool beneath; /* stays beneath: must work */
};

static const struct walk_form walk_forms[] = {
	{ "absolute path", "@/%s/", false },
	{ ".. above", "../%s/", false },
	{ ".. above from a subdirectory", "sub/../../%s/", false },
	{ "out and back", "../%s/../d/", false },
	{ "relative symlink climbing", "up/%s/", false },
	{ "absolute symlink", "abs/%s/", false },
	{ "symlinked directory climbing mid-path", "sub/up2/%s/", false },
	{ "absolute symlink back inside", "absd/", false },
	{ "absolute path back inside", "@/d/", false },
	{ ".. beneath", "sub/../", true },
	{ "symlink beneath", "self/sub/../", true },
};

static const char *const outside_dirs[] = { "o", "e", "nodir" };

/* The form's directory prefix for outside directory `out`. */
static void form_prefix(char *buf, size_t len, const char *top,
			const struct walk_form *f, const char *out)
{
	const char *at = strchr(f->fmt, '@');
	char fmt[64];

	if (at) {
		snprintf(fmt, sizeof(fmt), "%s%s", top, at + 1);
		snprintf(buf, len, fmt, out);
	} else {
		snprintf(buf, len, f->fmt, out);
	}
}

static int walk_open(int dfd, const char *path, int flags)
{
	int fd = openat(dfd, path, flags, 0600);

	return fd < 0 ? -1 : close(fd);
}

/*
 * One path syscall: `p` is the form's directory prefix; the call puts
 * its own name after it. 0 or -1 with errno.
 */
struct walk_op {
	const char *name;
	int (*op)(int dfd, const char *p);
};

#define WALK_PATH(name)                                                        \
	char path[PATH_LEN];                                                   \
	snprintf(path, sizeof(path), "%s%s", p, name)

static int w_open(int dfd, const char *p)
{
	WALK_PATH("f");
	return walk_open(dfd, path, O_RDONLY);
}
static int w_open_creat(int dfd, const char *p)
{
	WALK_PATH("new");
	return walk_open(dfd, path, O_WRONLY | O_CREAT);
}
static int w_fstatat(int dfd, const char *p)
{
	struct stat st;

	WALK_PATH("f");
	return fstatat(dfd, path, &st, AT_SYMLINK_NOFOLLOW);
}
static int w_fstatat_follow(int dfd, const char *p)
{
	struct stat st;

	WALK_PATH("in");
	return fstatat(dfd, path, &st, 0);
}
static int w_statx(int dfd, const char *p)
{
	struct statx stx;

	WALK_PATH("f");
	return statx(dfd, path, AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS, &stx);
}
static int w_mkdirat(int dfd, const char *p)
{
	WALK_PATH("new");
	return mkdirat(dfd, path, 0755);
}
static int w_mknodat(int dfd, const char *p)
{
	WALK_PATH("new");
	return mknodat(dfd, path, S_IFIFO | 0600, 0);
}
static int w_unlinkat(int dfd, const char *p)
{
	WALK_PATH("f");
	return unlinkat(dfd, path, 0);
}
static int w_rmdirat(int dfd, const char *p)
{
	WALK_PATH("emptydir");
	return unlinkat(dfd, path, AT_REMOVEDIR);
}
static int w_rename_source(int dfd, const char *p)
{
	WALK_PATH("f");
	return renameat(dfd, path, dfd, "moved");
}
static int w_rename_target(int dfd, const char *p)
{
	WALK_PATH("new");
	return renameat(dfd, "f", dfd, path);
}
static int w_rename2_source(int dfd, const char *p)
{
	WALK_PATH("f");
	return renameat2(dfd, path, dfd, "moved", RENAME_NOREPLACE);
}
static int w_link_source(int dfd, const char *p)
{
	WALK_PATH("f");
	return linkat(dfd, path, dfd, "hard", 0);
}
static int w_link_target(int dfd, const char *p)
{
	WALK_PATH("new");
	return linkat(dfd, "f", dfd, path, 0);
}
static int w_symlinkat(int dfd, const char *p)
{
	WALK_PATH("new");
	return symlinkat("f", dfd, path);
}
static int w_readlinkat(int dfd, const char *p)
{
	char buf[64];

	WALK_PATH("in");
	return readlinkat(dfd, path, buf, sizeof(buf)) < 0 ? -1 : 0;
}
static int w_fchmodat(int dfd, const char *p)
{
	WALK_PATH("f");
	return fchmodat(dfd, path, 0644, 0);
}
static int w_fchownat(int dfd, const char *p)
{
	WALK_PATH("f");
	return fchownat(dfd, path, -1, -1, 0);
}
static int w_utimensat(int dfd, const char *p)
{
	WALK_PATH("f");
	return utimensat(dfd, path, NULL, 0);
}
static int w_futimesat(int dfd, const char *p)
{
	WALK_PATH("f");
	return (int)syscall(SYS_futimesat, dfd, path, NULL);
}
static int w_execveat(int dfd, const char *p)
{
	WALK_PATH("prog");
	return fixture_execveat_true(dfd, path);
}

static const struct walk_op walk_ops[] = {
	{ "walk openat", w_open },
	{ "walk openat O_CREAT", w_open_creat },
	{ "walk fstatat", w_fstatat },
	{ "walk fstatat through a symlink", w_fstatat_follow },
	{ "walk statx", w_statx },
	{ "walk mkdirat", w_mkdirat },
	{ "walk mknodat", w_mknodat },
	{ "walk unlinkat", w_unlinkat },
	{ "walk unlinkat AT_REMOVEDIR", w_rmdirat },
	{ "walk renameat source", w_rename_source },
	{ "walk renameat target", w_rename_target },
	{ "walk renameat2 source", w_rename2_source },
	{ "walk linkat source", w_link_source },
	{ "walk linkat target", w_link_target },
	{ "walk symlinkat", w_symlinkat },
	{ "walk readlinkat", w_readlinkat },
	{ "walk fchmodat", w_fchmodat },
	{ "walk fchownat", w_fchownat },
	{ "walk utimensat", w_utimensat },
	{ "walk futimesat", w_futimesat },
	{ "walk execveat", w_execveat },
};
SELFTEST_ROWS(walk_ops, "walk_capmode_never_steps_outside",
	      "walk_limited_dirfd_never_steps_outside");

enum walk_mode { WALK_CAPMODE, WALK_LIMITED };

#define NVARIANTS (sizeof(outside_dirs) / sizeof(outside_dirs[0]))

/*
 * Runs op with form f on a fresh tree, restricted by mode, in a child:
 * each variant's errno (0: it worked) goes in err[]. False if the tree
 * or the child could not be made.
 */
static bool walk_run(const struct walk_op *op, const struct walk_form *f,
		     enum walk_mode mode, int err[NVARIANTS])
{
	struct walk_tree t;
	int pfd[2];
	pid_t pid;
	bool ok;

	if (!make_walk_tree(&t) || pipe(pfd))
		return false;
	pid = fork();
	if (pid == 0) {
		int out[NVARIANTS] = { 0 };
		char prefix[PATH_LEN];

		close(pfd[0]);
		if (mode == WALK_CAPMODE
			    ? cap_enter()
			    : fixture_limit_all_but(t.dfd, CAP_FCHFLAGS))
			_exit(1);
		for (size_t i = 0; i < (f->beneath ? 1 : NVARIANTS); i++) {
			form_prefix(prefix, sizeof(prefix), t.top, f,
				    outside_dirs[i]);
			errno = 0;
			out[i] = op->op(t.dfd, prefix) ? errno : 0;
		}
		_exit(write(pfd[1], out, sizeof(out)) == sizeof(out) ? 0 : 1);
	}
	close(pfd[1]);
	ok = pid > 0 &&
	     read(pfd[0], err, sizeof(int) * NVARIANTS) ==
		     (ssize_t)(sizeof(int) * NVARIANTS) &&
	     selftest_wait(pid) == 0;
	close(pfd[0]);
	close(t.dfd);
	return ok;
}

static bool copy_busybox(void)
{
	int in = open("/bin/busybox", O_RDONLY), out;
	char buf[65536];
	ssize_t n;

	snprintf(busybox, sizeof(busybox), "/tmp/walk-busybox.%d", getpid());
	out = open(busybox, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (in < 0 || out < 0)
		return false;
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n)
			return false;
	return n == 0 && close(in) == 0 && close(out) == 0;
}

static void walk_all(enum walk_mode mode)
{
	const char *how = mode == WALK_CAPMODE ? "capability mode" : "limited";

	if (!fixture_loaded() || !ASSERT_TRUE(copy_busybox(), "busybox"))
		return;
	for (size_t i = 0; i < sizeof(walk_ops) / sizeof(walk_ops[0]); i++) {
		if (!selftest_row_selected(walk_ops[i].name))
			continue;
		for (size_t j = 0;
		     j < sizeof(walk_forms) / sizeof(walk_forms[0]); j++) {
			const struct walk_form *f = &walk_forms[j];
			int err[NVARIANTS];
			bool same = true;

			if (!ASSERT_TRUE(walk_run(&walk_ops[i], f, mode, err),
					 "tree and child"))
				continue;
			if (f->beneath) {
				if (err[0])
					selftest_fail(__FILE__, __LINE__,
						      "%s, %s, %s: errno %d, "
						      "expected success",
						      how, walk_ops[i].name,
						      f->name, err[0]);
				continue;
			}
			for (size_t k = 0; k < NVARIANTS; k++)
				same &= err[k] == ENOTCAPABLE;
			if (!same)
				selftest_fail(__FILE__, __LINE__,
					      "%s, %s, %s: errno o %d, e %d, "
					      "nodir %d; expected ENOTCAPABLE "
					      "(%d) for each",
					      how, walk_ops[i].name, f->name,
					      err[0], err[1], err[2],
					      ENOTCAPABLE);
		}
	}
	unlink(busybox);
}

SELFTEST(walk_capmode_never_steps_outside)
{
	walk_all(WALK_CAPMODE);
}

SELFTEST(walk_limited_dirfd_never_steps_outside)
{
	walk_all(WALK_LIMITED);
}

/* A fresh tree whose dirfd holds every right but `dropped`. */
static bool limited_walk_tree(struct walk_tree *t, uint64_t dropped)
{
	bool ok;

	if (!fixture_loaded() || !ASSERT_TRUE(copy_busybox(), "busybox"))
		return false;
	ok = ASSERT_TRUE(make_walk_tree(t), "tree");
	unlink(busybox);
	return ok && ASSERT_OK(fixture_limit_all_but(t->dfd, dropped), "limit");
}

/*
 * A limited dirfd without CAP_LOOKUP looks up no name at all, beneath
 * it neither: an existing and a missing name answer alike. With the
 * descriptor itself as the object (AT_EMPTY_PATH), no name is looked up
 * and its own rights decide.
 */
SELFTEST(walk_needs_cap_lookup_before_any_name)
{
	struct walk_tree t;
	struct stat st;

	if (!limited_walk_tree(&t, CAP_LOOKUP))
		return;
	ASSERT_ERRNO(fstatat(t.dfd, "f", &st, 0), ENOTCAPABLE, "existing");
	ASSERT_ERRNO(fstatat(t.dfd, "missing", &st, 0), ENOTCAPABLE, "missing");
	ASSERT_ERRNO(fstatat(t.dfd, "sub/g", &st, 0), ENOTCAPABLE, "deeper");
	ASSERT_OK(fstatat(t.dfd, "", &st, AT_EMPTY_PATH),
		  "the descriptor itself");
}

/*
 * faccessat through a limited dirfd outside capability mode (which
 * refuses the call): its access check sees only an inode, but the walk
 * to it is confined like every other.
 */
SELFTEST(walk_faccessat_limited_never_steps_outside)
{
	struct walk_tree t;

	if (!limited_walk_tree(&t, CAP_FCHFLAGS))
		return;
	ASSERT_ERRNO(faccessat(t.dfd, "../o/f", F_OK, 0), ENOTCAPABLE,
		     "an existing name outside");
	ASSERT_ERRNO(faccessat(t.dfd, "../e/f", F_OK, 0), ENOTCAPABLE,
		     "a missing name outside");
	ASSERT_ERRNO(faccessat(t.dfd, "../nodir/f", F_OK, 0), ENOTCAPABLE,
		     "a missing directory outside");
	ASSERT_ERRNO(faccessat(t.dfd, "../o/../d/f", F_OK, 0), ENOTCAPABLE,
		     "out and back");
	ASSERT_OK(faccessat(t.dfd, "sub/../f", F_OK, 0), ".. beneath");
}
