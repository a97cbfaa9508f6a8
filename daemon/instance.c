// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "instance.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

/*
 * The holder of the lock as the kernel knows it: a pid written into the
 * file by the holder could still be missing when a loser started at the
 * same instant reads it. 0 if it has just gone.
 */
static pid_t lock_holder(int fd)
{
	struct flock l = { .l_type = F_WRLCK, .l_whence = SEEK_SET };

	if (fcntl(fd, F_GETLK, &l) || l.l_type == F_UNLCK)
		return 0;
	return l.l_pid;
}

/* The descriptor that holds the lock, for instance_lock_keep_on_exec(). */
static int lock_fd = -1;

void instance_lock_keep_on_exec(void)
{
	if (lock_fd >= 0)
		fcntl(lock_fd, F_SETFD, 0);
}

pid_t instance_holder(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	pid_t pid;

	if (fd < 0)
		return 0;
	pid = lock_holder(fd);
	close(fd);
	return pid;
}

int instance_lock(const char *path, pid_t *holder)
{
	struct flock l = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	char pid[16];
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	int n;

	*holder = 0;
	if (fd < 0)
		return -errno;
	if (fcntl(fd, F_SETLK, &l)) {
		int err = errno == EACCES ? -EWOULDBLOCK : -errno;

		*holder = lock_holder(fd);
		close(fd);
		return err;
	}
	/* For people reading the file; the lock, not the text, decides. */
	n = snprintf(pid, sizeof(pid), "%d\n", getpid());
	if (ftruncate(fd, 0) || pwrite(fd, pid, (size_t)n, 0) != n) {
		int err = -errno;

		close(fd);
		return err;
	}
	lock_fd = fd;
	return 0; /* fd stays open: it holds the lock */
}
