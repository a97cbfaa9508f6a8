// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "instance.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>
#include <unistd.h>

/* The pid the holder wrote; 0 if it has not written it yet. */
static pid_t read_holder(int fd)
{
	char buf[16];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return (pid_t)strtol(buf, NULL, 10);
}

int instance_lock(const char *path, pid_t *holder)
{
	char pid[16];
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	int n;

	*holder = 0;
	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		int err = -errno;

		*holder = read_holder(fd);
		close(fd);
		return err;
	}
	/* For the loser's message only: the lock, not the text, decides. */
	n = snprintf(pid, sizeof(pid), "%d\n", getpid());
	if (ftruncate(fd, 0) || pwrite(fd, pid, (size_t)n, 0) != n) {
		int err = -errno;

		close(fd);
		return err;
	}
	return 0; /* fd stays open: it holds the lock */
}
