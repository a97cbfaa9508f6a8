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
#include <sys/capsicum.h>
#include <sys/resource.h>
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
