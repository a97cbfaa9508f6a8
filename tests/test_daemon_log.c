// SPDX-License-Identifier: GPL-2.0
/* capsicumd's log: libbpf's multi-line messages arrive whole, line by line. */
#define _GNU_SOURCE
#include "daemon/log.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int call_libbpf(enum libbpf_print_level level, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = log_libbpf(level, fmt, ap);
	va_end(ap);
	return ret;
}

/* What the log file holds after fn ran with the log going there. */
static char *logged(void (*fn)(void))
{
	char path[] = "/tmp/capsicumd-log.XXXXXX";
	int fd = mkstemp(path);
	static char buf[16384];
	FILE *f;
	size_t n;

	cr_assert(fd >= 0);
	close(fd);
	cr_assert_eq(log_open(LOG_TO_FILE, path), 0);
	fn();
	f = fopen(path, "re");
	cr_assert_not_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	unlink(path);
	return buf;
}

/* The shape of libbpf's report of a verifier rejection: one message. */
static void verifier_failure(void)
{
	call_libbpf(LIBBPF_WARN,
		    "prog '%s': BPF program load failed: %s\n"
		    "prog '%s': -- BEGIN PROG LOAD LOG --\n%s"
		    "-- END PROG LOAD LOG --\n",
		    "capsicum_file_permission", "Permission denied",
		    "capsicum_file_permission",
		    "0: R1=ctx() R10=fp0\n"
		    "; int BPF_PROG(capsicum_file_permission)\n"
		    "R2 invalid mem access 'scalar'\n");
	call_libbpf(LIBBPF_DEBUG, "libbpf: debug chatter\n");
}

Test(daemon_log, libbpf_messages_are_logged_line_by_line)
{
	cr_expect_str_eq(
		logged(verifier_failure),
		"capsicumd: libbpf: prog 'capsicum_file_permission': BPF "
		"program load failed: Permission denied\n"
		"capsicumd: libbpf: prog 'capsicum_file_permission': -- BEGIN "
		"PROG LOAD LOG --\n"
		"capsicumd: libbpf: 0: R1=ctx() R10=fp0\n"
		"capsicumd: libbpf: ; int BPF_PROG(capsicum_file_permission)\n"
		"capsicumd: libbpf: R2 invalid mem access 'scalar'\n"
		"capsicumd: libbpf: -- END PROG LOAD LOG --\n");
}

/* A log larger than any line buffer (200 lines of 15): none is lost. */
static void long_log(void)
{
	static char text[200 * 15 + 1];

	for (int i = 0; i < 200; i++)
		snprintf(text + i * 15, 16, "line %09d\n", i);
	call_libbpf(LIBBPF_WARN, "%s", text);
}

Test(daemon_log, a_long_libbpf_message_keeps_every_line)
{
	const char *out = logged(long_log);

	cr_expect_not_null(strstr(out, "capsicumd: libbpf: line 000000000\n"));
	cr_expect_not_null(strstr(out, "capsicumd: libbpf: line 000000199\n"));
}
