/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CAPSICUM_ADMIN_PARSE_NUM_H
#define CAPSICUM_ADMIN_PARSE_NUM_H

#include <sys/types.h>

/*
 * Decimal numbers as capctl's options and /proc's directory names give
 * them: digits only (no sign, no blank), within [min, max]. 0 or -1.
 */
int parse_int(const char *s, long min, long max, long *out);
/* A pid: decimal, > 0. 0 or -1. */
int parse_pid(const char *s, pid_t *pid);

#endif
