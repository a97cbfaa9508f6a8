/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CAPSICUM_ADMIN_SYSFILES_H
#define CAPSICUM_ADMIN_SYSFILES_H

#include <stddef.h>
#include <sys/types.h>

#define CAPSICUMD_PIDFILE "/run/capsicumd.pid"
/* capsicumd's pid if it runs (pid file + a live process named so), or 0. */
pid_t daemon_pid(void);

/* The first line of a small file, without its newline; "?" if unreadable. */
void read_first_line(const char *path, char *buf, size_t len);

#endif
