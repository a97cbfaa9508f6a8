/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CAPCTL_COMMANDS_H
#define CAPCTL_COMMANDS_H

#include "args.h"

/* Each returns a capctl exit code (capctl_exit.h). */
int cmd_status(const struct capctl_args *a);
int cmd_ps(const struct capctl_args *a);
int cmd_fds(const struct capctl_args *a);
int cmd_audit(const struct capctl_args *a);
int cmd_rights(const struct capctl_args *a);
/* Returns only on failure, except with --learn (cmd_run_learn.c). */
int cmd_run(const struct capctl_args *a);
/*
 * run --learn: the program's exit code, after the report; or a capctl
 * exit code when it could not be run.
 */
int cmd_run_learn(const struct capctl_args *a);
/* The sandbox of r, then exec: returns only on failure, an exit code. */
int run_exec(const struct run_opts *r);

#endif
