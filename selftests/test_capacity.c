// SPDX-License-Identifier: GPL-2.0
/*
 * The tables give their room back: a process's entries go when it exits.
 * Twice as many entries pass through here as the map holds (65,536), so
 * a leak fails a limit with ENOMEM before the end (checked: with the
 * cleanup in task_free disabled, child 66 or so fails).
 */
#define _GNU_SOURCE
#include "fixture.h"
#include "selftest.h"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/capsicum.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHILDREN      72
#define FDS_PER_CHILD 1000

/* A child limits FDS_PER_CHILD descriptors, then exits; 0 if all held. */
static int limit_many_and_exit(void)
{
	struct rlimit rl = { FDS_PER_CHILD + 64, FDS_PER_CHILD + 64 };
	cap_rights_t r;
	int fd = open("/dev/null", O_RDONLY);

	cap_rights_init(&r, CAP_READ);
	if (fd < 0 || setrlimit(RLIMIT_NOFILE, &rl))
		return 2;
	for (int i = 0; i < FDS_PER_CHILD; i++) {
		int d = i ? dup(fd) : fd;

		if (d < 0)
			return 3;
		if (cap_rights_limit(d, &r))
			return 4; /* ENOMEM here: entries leaked */
	}
	return 0;
}

SELFTEST(exit_returns_table_entries)
{
	if (!fixture_loaded())
		return;
	for (int i = 0; i < CHILDREN; i++) {
		pid_t pid = fork();

		if (pid == 0)
			_exit(limit_many_and_exit());
		if (!ASSERT_EQ(selftest_wait(pid), 0,
			       "child limited all its fds"))
			return;
	}
}

#define UID_QUOTA FIXTURE_UID_QUOTA
#define QUOTA_UID FIXTURE_QUOTA_UID

static char sharer_stack[65536] __attribute__((aligned(16)));

static int sharer_limits(void *arg)
{
	(void)arg;
	return limit_many_and_exit();
}

/*
 * One round: a process with a table of its own (one limit) shares it with
 * a CLONE_FILES child, which limits FDS_PER_CHILD descriptors; neither
 * closes anything. child_last: the process exits at once, and the child,
 * left alone on the table, goes last. Root runs it as QUOTA_UID, so a leak
 * also meets that uid's quota.
 */
static int share_round(bool child_last)
{
	cap_rights_t r;
	int fd = open("/dev/null", O_RDONLY);
	pid_t c;

	if (selftest_is_root() && (setresgid(QUOTA_UID, QUOTA_UID, QUOTA_UID) ||
				   setresuid(QUOTA_UID, QUOTA_UID, QUOTA_UID)))
		return 7;
	cap_rights_init(&r, CAP_READ);
	if (fd < 0 || cap_rights_limit(fd, &r))
		return 5;
	c = clone(sharer_limits, sharer_stack + sizeof(sharer_stack),
		  CLONE_FILES | SIGCHLD, NULL);
	if (c < 0)
		return 6;
	return child_last ? 0 : selftest_wait(c);
}

/*
 * Issue 11 item 8: tables shared by CLONE_FILES were never freed, so 65
 * such rounds filled cap_fds for every user. The last sharer to go frees
 * them, whichever of the two it is, when it exits: afterwards the uid's
 * whole quota is usable again (uid_quota_refuses_with_edquot, next, checks
 * that as root).
 */
SELFTEST(clone_files_sharers_return_table_entries)
{
	cap_rights_t r;
	int fd, status;
	pid_t pid;

	if (!fixture_loaded())
		return;
	/* A sharer whose process went first is reparented here. */
	if (!ASSERT_OK(prctl(PR_SET_CHILD_SUBREAPER, 1), "subreaper"))
		return;
	for (int i = 0; i < CHILDREN; i++) {
		pid = fork();
		if (pid == 0)
			_exit(share_round(i & 1));
		if (!ASSERT_EQ(selftest_wait(pid), 0, "sharers limited"))
			return;
		if (!(i & 1))
			continue;
		pid = wait(&status);
		if (!ASSERT_TRUE(pid > 0 && WIFEXITED(status) &&
					 WEXITSTATUS(status) == 0,
				 "the sharer left alone limited all its fds"))
			return;
	}
	fd = open("/dev/null", O_RDONLY);
	cap_rights_init(&r, CAP_READ);
	ASSERT_OK(cap_rights_limit(fd, &r), "a limit once every sharer left");
}

struct exhausted {
	int held;  /* descriptors limited */
	int error; /* errno of the limit that failed, 0 if none did */
};

/*
 * As uid (root: switches to it first), limits dups of one file until a
 * limit fails or the descriptors run out, reports how far it got on
 * `report`, then holds everything until `hold` reaches EOF.
 */
static void exhaust_as(uid_t uid, int report, int hold)
{
	struct exhausted x = { 0, 0 };
	struct rlimit rl;
	cap_rights_t r;
	char c;
	int fd;

	getrlimit(RLIMIT_NOFILE, &rl);
	if (selftest_is_root())
		rl.rlim_max = UID_QUOTA + 1024;
	rl.rlim_cur = rl.rlim_max;
	setrlimit(RLIMIT_NOFILE, &rl);
	if (selftest_is_root() &&
	    (setresgid(uid, uid, uid) || setresuid(uid, uid, uid)))
		_exit(2);
	cap_rights_init(&r, CAP_READ);
	fd = open("/dev/null", O_RDONLY);
	while (fd >= 0) {
		int d = x.held ? dup(fd) : fd;

		if (d < 0)
			break;
		if (cap_rights_limit(d, &r)) {
			x.error = errno;
			break;
		}
		x.held++;
	}
	if (write(report, &x, sizeof(x)) != sizeof(x))
		_exit(3);
	while (read(hold, &c, 1) > 0)
		;
	_exit(0);
}

/* Limits one descriptor as uid in a child: its errno, 0 on success. */
static int limit_one_as(uid_t uid)
{
	pid_t pid = fork();

	if (pid == 0) {
		cap_rights_t r;
		int fd = open("/dev/null", O_RDONLY);

		if (selftest_is_root() &&
		    (setresgid(uid, uid, uid) || setresuid(uid, uid, uid)))
			_exit(250);
		cap_rights_init(&r, CAP_READ);
		_exit(cap_rights_limit(fd, &r) ? errno : 0);
	}
	return selftest_wait(pid);
}

/*
 * One uid cannot fill what all users share: its tables hold at most
 * --uid-quota entries (descriptors, floors, files), the next limit fails with
 * EDQUOT and grants nothing, other uids (root here) still limit, and
 * exiting gives the quota back. As uid 1000 one process cannot hold that
 * many descriptors, so several do.
 */
SELFTEST(uid_quota_refuses_with_edquot)
{
	uid_t uid = selftest_is_root() ? QUOTA_UID : getuid();
	int report[2], hold[2], total = 0, nproc = 0, err = 0;
	pid_t kids[8];

	if (!fixture_loaded())
		return;
	if (!ASSERT_OK(pipe(report), "pipe") || !ASSERT_OK(pipe(hold), "pipe"))
		return;
	while (nproc < 8 && !err) {
		struct exhausted x;

		kids[nproc] = fork();
		if (kids[nproc] == 0) {
			close(hold[1]);
			exhaust_as(uid, report[1], hold[0]);
		}
		if (!ASSERT_OK(kids[nproc], "fork") ||
		    !ASSERT_EQ(read(report[0], &x, sizeof(x)), sizeof(x),
			       "report"))
			break;
		nproc++;
		/* Its entries, the floor and the record of its /dev/null. */
		total += x.held + 2 * (x.held > 0);
		err = x.error;
	}
	ASSERT_EQ(err, EDQUOT, "the limit past the quota");
	ASSERT_TRUE(total <= UID_QUOTA, "no more than the quota held");
	if (selftest_is_root()) {
		ASSERT_EQ(total, UID_QUOTA, "the whole quota was usable");
		ASSERT_EQ(limit_one_as(0), 0, "root still limits");
		ASSERT_EQ(limit_one_as(QUOTA_UID + 1), 0,
			  "another uid still limits");
	}
	ASSERT_EQ(limit_one_as(uid), EDQUOT, "the uid is refused meanwhile");
	close(hold[1]);
	for (int i = 0; i < nproc; i++)
		ASSERT_EQ(selftest_wait(kids[i]), 0, "holder exits");
	ASSERT_EQ(limit_one_as(uid), 0, "exiting gave the quota back");
}
