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
 * Takes an exclusive fcntl(2) write lock on all of path, without waiting,
 * and writes our pid into the file for people to read. A record lock, not
 * flock(2): F_GETLK names its holder, so a loser started at the same
 * instant learns the winner's pid without racing its write. The
 * descriptor stays open (close-on-exec) for the life of the process and
 * must be the only one of that file we ever open (closing any would drop
 * the lock); the kernel releases it when the process ends however it
 * ends, SIGKILL included, so a stale file never blocks a restart. Record
 * locks do not pass to a fork child: take it in the process that stays
 * (after --background's fork). Returns 0, -EWOULDBLOCK with *holder set
 * (0 if it has just gone), or another -errno.
 */
int instance_lock(const char *path, pid_t *holder);

/* The pid holding the lock on path (another process), or 0 if none. */
pid_t instance_holder(const char *path);

/*
 * Before re-executing ourselves (a live upgrade): the lock's descriptor
 * survives the exec, so the lock is held throughout; the new image's
 * instance_lock() takes it again, as record locks are per process.
 */
void instance_lock_keep_on_exec(void);

#endif
