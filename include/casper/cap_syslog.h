/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * FreeBSD's cap_syslog service: syslog(3) through a casper process, which
 * can reach /dev/log again when the log daemon restarts. cap_syslog(3).
 */
#ifndef _CAP_SYSLOG_H_
#define _CAP_SYSLOG_H_

#include <stdarg.h>

#include <libcasper.h>

#ifdef __cplusplus
extern "C" {
#endif

void cap_syslog(cap_channel_t *chan, int pri, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void cap_vsyslog(cap_channel_t *chan, int priority, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
void cap_openlog(cap_channel_t *chan, const char *ident, int logopt,
		 int facility);
void cap_closelog(cap_channel_t *chan);
int cap_setlogmask(cap_channel_t *chan, int maskpri);

#ifdef __cplusplus
}
#endif

#endif /* _CAP_SYSLOG_H_ */
