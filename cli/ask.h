/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CAPCTL_ASK_H
#define CAPCTL_ASK_H

#include "query.h"

#include <stddef.h>
#include <sys/types.h>

/*
 * Asks capsicumd on its query socket (the pins are root's). 0 with the
 * answer's records in *rec (len bytes, to free; *head set); or a capctl
 * exit code with a message on stderr: CAPCTL_EXIT_DENIED for another
 * user's process or no daemon to ask, _UNLOADED, _VERSION or _ERROR.
 */
int ask_daemon(enum query_op op, pid_t pid, struct query_answer_head *head,
	       void **rec, size_t *len);

/*
 * The same, up to the answer's head: 0 with the connection in *fd, its
 * records to read; or a capctl exit code with a message.
 */
int ask_open(enum query_op op, pid_t pid, struct query_answer_head *head,
	     int *fd);

#endif
