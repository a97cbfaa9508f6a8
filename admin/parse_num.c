// SPDX-License-Identifier: GPL-2.0
#include "parse_num.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>

int parse_int(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	if (!*s || *s == '+' || *s == '-' || *s == ' ')
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int parse_pid(const char *s, pid_t *pid)
{
	long v;

	if (parse_int(s, 1, INT_MAX, &v))
		return -1;
	*pid = (pid_t)v;
	return 0;
}
