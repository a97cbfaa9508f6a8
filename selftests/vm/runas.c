// SPDX-License-Identifier: GPL-2.0
/*
 * runas UID CMD [ARGS...]: run CMD with every id (real, effective, saved,
 * groups) set to UID, the way a login would, so the guest can repeat a test
 * as an unprivileged user. busybox's su needs a passwd database and a shell;
 * this needs nothing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char *end;
	unsigned long id;

	if (argc < 3) {
		fprintf(stderr, "usage: runas UID CMD [ARGS...]\n");
		return 2;
	}
	errno = 0;
	id = strtoul(argv[1], &end, 10);
	if (errno || *end || end == argv[1]) {
		fprintf(stderr, "runas: bad uid '%s'\n", argv[1]);
		return 2;
	}
	gid_t gid = (gid_t)id;
	if (setgroups(1, &gid) || setresgid(gid, gid, gid) ||
	    setresuid((uid_t)id, (uid_t)id, (uid_t)id)) {
		fprintf(stderr, "runas: cannot become %lu: %s\n", id,
			strerror(errno));
		return 2;
	}
	execvp(argv[2], argv + 2);
	fprintf(stderr, "runas: %s: %s\n", argv[2], strerror(errno));
	return 127;
}
