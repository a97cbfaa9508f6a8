/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CAPCTL_POLICY_H
#define CAPCTL_POLICY_H

/*
 * A policy file: the sandbox of a capctl run, as lines a person reviews
 * and keeps under version control (capctl run --write-policy writes one,
 * --policy reads one):
 *
 *   # a comment (whole lines only: a path may hold '#')
 *   limit FD=RIGHTS
 *   allow-dir PATH[=RIGHTS]      (in order: fds 3, 4, ...)
 *   capmode
 *   allow-procfs
 *
 * Blank lines are ignored, as are blanks around a line's words. The
 * command is never part of a policy.
 */
#include "args.h"

#include <stddef.h>

/* Longest line policy_read() takes, newline included. */
#define POLICY_MAX_LINE 8192

/*
 * Writes r's limits, directories, capmode and allow-procfs to path,
 * atomically (a temporary file in the same directory, renamed over it),
 * under a header naming r->argv as the command it was learnt from.
 * 0, or -1 with a one-line reason in err (a path no line can hold, such
 * as one with a newline, is refused before anything is written).
 */
int policy_write(const struct run_opts *r, const char *path, char *err,
		 size_t len);

/*
 * Replaces r's limits, directories, capmode and allow-procfs with the
 * file's; the other fields stay. 0, or -1 with a one-line reason in err
 * ("FILE:LINE: ..." for a bad line); r is then partly written.
 */
int policy_read(const char *path, struct run_opts *r, char *err, size_t len);

#endif
