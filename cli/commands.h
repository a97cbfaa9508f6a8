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
/* Returns only on failure. */
int cmd_run(const struct capctl_args *a);

#endif
