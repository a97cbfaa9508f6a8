/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CAPCTL_COMMANDS_H
#define CAPCTL_COMMANDS_H

#include "args.h"

#include <sys/types.h>

/* Each returns a capctl exit code (args.h). */
int cmd_status(const struct capctl_args *a);
int cmd_ps(const struct capctl_args *a);
int cmd_fds(const struct capctl_args *a);
int cmd_audit(const struct capctl_args *a);
int cmd_rights(const struct capctl_args *a);
/* Returns only on failure. */
int cmd_run(const struct capctl_args *a);

#define CAPSICUMD_PIDFILE "/run/capsicumd.pid"
/* capsicumd's pid if it runs (pid file + a live process named so), or 0. */
pid_t daemon_pid(void);

/* The first line of a small file, without its newline; "?" if unreadable. */
void read_first_line(const char *path, char *buf, size_t len);

#endif
