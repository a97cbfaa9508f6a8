// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "log.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static enum log_target target = LOG_TO_STDERR;
static const char *file_path;
static FILE *file;

int log_open(enum log_target t, const char *path)
{
	target = t;
	file_path = path;
	return log_reopen();
}

int log_reopen(void)
{
	switch (target) {
	case LOG_TO_SYSLOG:
		closelog();
		openlog("capsicumd", LOG_PID | LOG_NDELAY, LOG_DAEMON);
		return 0;
	case LOG_TO_FILE: {
		FILE *f = fopen(file_path, "ae");

		if (!f)
			return -errno;
		if (file)
			fclose(file);
		file = f;
		setvbuf(file, NULL, _IOLBF, 0);
		return 0;
	}
	default:
		return 0;
	}
}

void log_msg(int priority, const char *subsystem, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (target == LOG_TO_SYSLOG) {
		syslog(priority, "%s: %s", subsystem, line);
	} else if (target == LOG_TO_FILE && file) {
		fprintf(file, "capsicumd: %s: %s\n", subsystem, line);
	} else {
		/* sd-daemon(3) priority prefix, harmless on a terminal. */
		fprintf(stderr, "<%d>capsicumd: %s: %s\n", priority, subsystem,
			line);
	}
}

void log_vlines(int priority, const char *subsystem, const char *fmt,
		va_list ap)
{
	char *text, *line, *save = NULL;

	/* A verifier log comes as one message of any size: no fixed buffer. */
	if (vasprintf(&text, fmt, ap) < 0) {
		log_msg(LOG_ERR, subsystem,
			"a message was lost: out of memory");
		return;
	}
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		log_msg(priority, subsystem, "%s", line);
	free(text);
}

int log_libbpf(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level != LIBBPF_DEBUG)
		log_vlines(LOG_WARNING, "libbpf", fmt, ap);
	return 0;
}
