// SPDX-License-Identifier: GPL-2.0
/*
 * fanotify_mark(fanotify_fd, flags, mask, dirfd, path): the fanotify
 * descriptor needs CAP_NOTIFY (<linux/capsicum.h>: CAP_INOTIFY_ADD and
 * CAP_INOTIFY_RM, the 2014 series' one right for both), the marked dirfd
 * CAP_FSTAT, and CAP_LOOKUP too with a path. Capability mode refuses
 * fanotify outright (doc/capmode.md). fanotify_init needs CAP_SYS_ADMIN.
 */
#define _GNU_SOURCE
#include "fixture.h"
#include "rows.h"
#include "selftest.h"

#include <fcntl.h>
#include <sys/capsicum.h>
#include <sys/fanotify.h>
#include <unistd.h>

static int notify_fd(void)
{
	return fanotify_init(FAN_CLASS_NOTIF, O_RDONLY);
}
static int tmp_dir(void)
{
	return open("/tmp", O_RDONLY | O_DIRECTORY);
}

/* fd is the fanotify descriptor: mark a directory by name. */
static int op_mark_on(int fd)
{
	return fanotify_mark(fd, FAN_MARK_ADD, FAN_OPEN, AT_FDCWD, "/tmp");
}
/* fd is the dirfd, the fanotify descriptor unlimited. */
static int mark_through(int dfd, const char *path)
{
	int nf = notify_fd(), ret;

	if (nf < 0)
		return -1;
	ret = fanotify_mark(nf, FAN_MARK_ADD, FAN_OPEN, dfd, path);
	close(nf);
	return ret;
}
static int op_mark_path(int fd)
{
	return mark_through(fd, ".");
}
static int op_mark_dirfd(int fd)
{
	return mark_through(fd, NULL);
}

static const struct rights_row fanotify_rows[] = {
	{ .name = "fanotify_mark on the fanotify descriptor",
	  .rights = CAP_INOTIFY_ADD | CAP_INOTIFY_RM,
	  .make = notify_fd,
	  .op = op_mark_on,
	  .stock = EXPECT(0, ENOTCAPABLE, ECAPMODE, ECAPMODE) },
	{ .name = "fanotify_mark through a dirfd with a path",
	  .rights = CAP_FSTAT | CAP_LOOKUP,
	  .make = tmp_dir,
	  .op = op_mark_path,
	  .stock = EXPECT(0, ENOTCAPABLE, ECAPMODE, ECAPMODE) },
	{ .name = "fanotify_mark of a dirfd itself",
	  .rights = CAP_FSTAT,
	  .make = tmp_dir,
	  .op = op_mark_dirfd,
	  .stock = EXPECT(0, ENOTCAPABLE, ECAPMODE, ECAPMODE) },
};

SELFTEST_RIGHTS_ROWS(fanotify_rows, "fanotify_mark_rights_with_and_without")

SELFTEST(fanotify_mark_rights_with_and_without)
{
	if (!fixture_loaded())
		return;
	if (!selftest_is_root()) {
		selftest_skip("fanotify_init needs CAP_SYS_ADMIN");
		return;
	}
	rows_run(fanotify_rows,
		 sizeof(fanotify_rows) / sizeof(fanotify_rows[0]));
}
