// SPDX-License-Identifier: BSD-2-Clause
/* The program's side of cap_syslog (cap_syslog(3)). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <syslog.h>
#include <unistd.h>

#include <casper/cap_syslog.h>

#include "syslog_proto.h"

/* syslog(3) returns nothing: neither do these, and errno is kept. */
static void call(cap_channel_t *chan, struct msg *req)
{
	int saved = errno;

	(void)casper_call_void(chan, req);
	errno = saved;
}

void cap_vsyslog(cap_channel_t *chan, int priority, const char *fmt, va_list ap)
{
	struct msg *req;
	char text[SYSLOG_MAX];

	/* %m is glibc's, with the caller's errno: format here. */
	vsnprintf(text, sizeof(text), fmt, ap);
	req = casper_request("syslog");
	if (!req)
		return;
	msg_add_u64(req, SK_PRI, (uint64_t)(unsigned)priority);
	msg_add_str(req, SK_MESSAGE, text);
	call(chan, req);
}

void cap_syslog(cap_channel_t *chan, int pri, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cap_vsyslog(chan, pri, fmt, ap);
	va_end(ap);
}

void cap_openlog(cap_channel_t *chan, const char *ident, int logopt,
		 int facility)
{
	struct msg *req = casper_request("openlog");
	int fd;

	if (!req)
		return;
	if (ident)
		msg_add_str(req, SK_IDENT, ident);
	msg_add_u64(req, SK_LOGOPT, (uint64_t)(unsigned)logopt);
	msg_add_u64(req, SK_FACILITY, (uint64_t)(unsigned)facility);
	if (logopt & LOG_PERROR) {
		fd = dup(STDERR_FILENO);
		if (fd < 0) {
			msg_free(req);
			return;
		}
		msg_add_fd(req, fd);
	}
	call(chan, req);
}

void cap_closelog(cap_channel_t *chan)
{
	call(chan, casper_request("closelog"));
}

int cap_setlogmask(cap_channel_t *chan, int maskpri)
{
	struct msg *req = casper_request("setlogmask"), *rep;
	uint64_t old;
	int res = -1;

	if (!req)
		return -1;
	msg_add_u64(req, SK_MASK, (uint64_t)(unsigned)maskpri);
	rep = casper_call(chan, req);
	if (rep && msg_get_u64(rep, SK_MASK, &old) == 0 && old <= 0xffffffff)
		res = (int)(unsigned)old;
	msg_free(rep);
	return res;
}
