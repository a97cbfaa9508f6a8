/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CAPSICUMD_INSTANCE_H
#define CAPSICUMD_INSTANCE_H

#include <sys/types.h>

/*
 * One capsicumd at a time: two would load at once (the second finding a
 * half-pinned state), or both consume the denial ring and answer on the
 * same socket, each stealing half of the other's records.
 */
#define CAPSICUMD_LOCK "/run/capsicumd.lock"

/*
 * Takes an exclusive flock(2) on path, without waiting, and writes our pid
 * into the file. The descriptor stays open (close-on-exec, inherited by the
 * --background child) for the life of the process: the kernel releases the
 * lock when the process ends however it ends, SIGKILL included, so a stale
 * file never blocks a restart. Returns 0, -EWOULDBLOCK with *holder set to
 * the pid the holder wrote (0 if unreadable), or another -errno.
 */
int instance_lock(const char *path, pid_t *holder);

#endif
