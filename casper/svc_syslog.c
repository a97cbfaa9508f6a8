// SPDX-License-Identifier: BSD-2-Clause
/*
 * The cap_syslog service: openlog/syslog/closelog/setlogmask for the
 * program. It has no limits (an empty limit is accepted, any other is
 * EINVAL). With LOG_PERROR the program sends its stderr, which becomes the
 * service's, so the copy goes where the program's would.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "syslog_proto.h"

/* openlog() keeps the pointer: the ident lives here. */
static char ident[256];

static int syslog_limit(const struct msg *old, const struct msg *new)
{
	(void)old;
	return new->nfields ? EINVAL : 0;
}

static int get_int(const struct msg *in, uint16_t key, int *v)
{
	uint64_t u;

	if (msg_get_u64(in, key, &u) < 0 || u > 0x7fffffff)
		return -1;
	*v = (int)u;
	return 0;
}

static int do_openlog(struct msg *in)
{
	const char *id = msg_get_str(in, SK_IDENT);
	int logopt, facility, fd;

	if (get_int(in, SK_LOGOPT, &logopt) ||
	    get_int(in, SK_FACILITY, &facility) || (facility & ~LOG_FACMASK) ||
	    (id && strlen(id) >= sizeof(ident)))
		return EINVAL;
	if (logopt & LOG_PERROR) {
		fd = msg_take_fd(in, 0);
		if (fd < 0)
			return EINVAL;
		if (dup2(fd, STDERR_FILENO) < 0) {
			close(fd);
			return errno;
		}
		close(fd);
	}
	closelog();
	if (id)
		strcpy(ident, id);
	openlog(id ? ident : NULL, logopt, facility);
	return 0;
}

static int syslog_command(const char *cmd, const struct msg *limits,
			  struct msg *in, struct msg *out)
{
	const char *text = msg_get_str(in, SK_MESSAGE);
	int pri, mask;

	(void)limits;
	if (!strcmp(cmd, "syslog")) {
		if (!text || get_int(in, SK_PRI, &pri) ||
		    (pri & ~(LOG_PRIMASK | LOG_FACMASK)))
			return EINVAL;
		syslog(pri, "%s", text);
		return 0;
	}
	if (!strcmp(cmd, "openlog"))
		return do_openlog(in);
	if (!strcmp(cmd, "closelog")) {
		closelog();
		return 0;
	}
	if (!strcmp(cmd, "setlogmask")) {
		if (get_int(in, SK_MASK, &mask))
			return EINVAL;
		msg_add_u64(out, SK_MASK, (uint64_t)(unsigned)setlogmask(mask));
		return 0;
	}
	return EINVAL;
}

const struct casper_service syslog_service = {
	.name = SYSLOG_SERVICE,
	.limit = syslog_limit,
	.command = syslog_command,
};
