/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CAPSICUMD_LOG_H
#define CAPSICUMD_LOG_H

#include <bpf/libbpf.h>
#include <stdarg.h>
#include <stdbool.h>
#include <syslog.h>

/*
 * capsicumd's log: stderr by default (systemd's journal picks it up, with
 * "<N>" priority prefixes it understands), syslog with --syslog, or a file
 * with --log FILE, reopened on SIGHUP for logrotate.
 */
enum log_target { LOG_TO_STDERR, LOG_TO_SYSLOG, LOG_TO_FILE };

int log_open(enum log_target target, const char *path);
/* SIGHUP: reopen the file or the syslog connection. */
int log_reopen(void);
/* One line, "capsicumd: SUBSYSTEM: ..." */
void log_msg(int priority, const char *subsystem, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/*
 * A message of any length and any number of lines, one log line per line
 * (empty ones dropped): syslog and the journal keep a record per line, and
 * one holding newlines would be cut or mangled there.
 */
void log_vlines(int priority, const char *subsystem, const char *fmt,
		va_list ap) __attribute__((format(printf, 3, 0)));
/* libbpf_set_print()'s callback: warnings and infos, every line logged. */
int log_libbpf(enum libbpf_print_level level, const char *fmt, va_list ap);

#endif
