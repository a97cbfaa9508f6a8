// SPDX-License-Identifier: GPL-2.0
/* Rights and descriptor formatting, and the audit line both tools share. */
#include <errno.h>
#include <string.h>

#include <criterion/criterion.h>

#include "admin/audit_line.h"
#include "cli/fmt.h"
#include "daemon/ratelimit.h"

Test(capctl_fmt, rights_names)
{
	cap_rights_t r;
	char buf[256];

	cap_rights_init(&r, CAP_READ, CAP_SEEK);
	rights_display(&r, buf, sizeof(buf));
	cr_expect_str_eq(buf, "read,seek");
	cap_rights_init(&r);
	rights_display(&r, buf, sizeof(buf));
	cr_expect_str_eq(buf, "none");
	CAP_ALL(&r);
	rights_display(&r, buf, sizeof(buf));
	cr_expect_str_eq(buf, "all");
	cap_rights_init(&r, CAP_WRITE, CAP_EVENT);
	rights_display(&r, buf, sizeof(buf));
	cr_expect_str_eq(buf, "write,event");
}

Test(capctl_fmt, fcntls)
{
	char buf[64];

	fcntls_format(CAP_FCNTL_ALL, buf, sizeof(buf));
	cr_expect_str_eq(buf, "all");
	fcntls_format(0, buf, sizeof(buf));
	cr_expect_str_eq(buf, "none");
	fcntls_format(CAP_FCNTL_GETFL | CAP_FCNTL_SETOWN, buf, sizeof(buf));
	cr_expect_str_eq(buf, "getfl,setown");
	/* snprintf-style: the full length even when cut. */
	cr_expect_eq(fcntls_format(CAP_FCNTL_GETFL | CAP_FCNTL_SETFL, buf, 4),
		     11);
	cr_expect_str_eq(buf, "get");
}

Test(capctl_fmt, fd_kinds)
{
	cr_expect_str_eq(fd_kind("/etc/passwd"), "path");
	cr_expect_str_eq(fd_kind("socket:[1234]"), "socket");
	cr_expect_str_eq(fd_kind("pipe:[99]"), "pipe");
	cr_expect_str_eq(fd_kind("anon_inode:[eventfd]"), "anon_inode");
	cr_expect_str_eq(fd_kind("net:[4026531840]"), "other");
}

static struct capsicum_denial sample(void)
{
	struct capsicum_denial d = {
		.time_ns = 123456789012ULL,
		.pid = 42,
		.tid = 43,
		.fd = 1,
		.syscall_nr = 5,
		.hook = CAPSICUM_HOOK_INODE_GETATTR,
		.error = ENOTCAPABLE,
		.needed = { CAP_FSTAT, 0 },
		.held = { CAP_WRITE, CAPRIGHT(1, 0) },
	};

	memcpy(d.comm, "a b\\c\n\x01\xff", 9);
	return d;
}

Test(audit_line, round_trip_with_escaped_comm)
{
	struct capsicum_denial d = sample(), back;
	char line[1024];

	audit_line_format(&d, line, sizeof(line));
	cr_expect(strstr(line, " comm=a\\x20b\\x5cc\\x0a\\x01\\xff\n"), "%s",
		  line);
	cr_expect_eq(strchr(line, '\n'), line + strlen(line) - 1,
		     "one line: %s", line);
	cr_assert_eq(audit_line_parse(line, &back), 0, "%s", line);
	cr_expect_eq(memcmp(&d, &back, sizeof(d)), 0);
	cr_expect_eq(audit_line_parse("v2 time=1", &back), -1);
	cr_expect_eq(audit_line_parse("garbage", &back), -1);
	line[strlen(line) - 3] = 'z'; /* a broken \xNN */
	cr_expect_eq(audit_line_parse(line, &back), -1);
}

Test(audit_line, describe_names_the_missing_right)
{
	struct capsicum_denial d = sample();
	char buf[1024];

	memcpy(d.comm, "demo\0\0\0\0\0", 9);
	audit_describe(&d, buf, sizeof(buf));
	cr_expect_str_eq(buf, "pid 42 (demo) fd 1: missing fstat (holds "
			      "write); syscall 5, hook inode_getattr, "
			      "ENOTCAPABLE");
	cr_expect_str_eq(audit_hook_name(999), "?");
	cr_expect_null(audit_error_name(1));
}

/* Every hook of enum capsicum_hook: a name of its own, not "?". */
Test(audit_line, every_hook_has_a_unique_name)
{
	for (unsigned int h = 1; h < CAPSICUM_HOOK_MAX; h++) {
		const char *name = audit_hook_name(h);

		cr_expect(name[0] != '\0', "hook %u has an empty name", h);
		cr_expect_str_neq(name, "?", "hook %u has no name", h);
		for (unsigned int o = 1; o < h; o++)
			cr_expect_str_neq(name, audit_hook_name(o),
					  "hooks %u and %u share a name", o, h);
	}
	cr_expect_str_eq(audit_hook_name(CAPSICUM_HOOK_NONE), "?");
	cr_expect_str_eq(audit_hook_name(CAPSICUM_HOOK_MAX), "?");
	cr_expect_str_eq(audit_hook_name(CAPSICUM_HOOK_QUOTA), "quota");
	cr_expect_str_eq(audit_hook_name(CAPSICUM_HOOK_LOOKUP), "lookup");
	cr_expect_str_eq(audit_hook_name(CAPSICUM_HOOK_TASK_KILL), "task_kill");
}

Test(audit_line, describe_names_a_quota_refusal)
{
	struct capsicum_denial d = sample();
	char buf[1024];

	memcpy(d.comm, "demo\0\0\0\0\0", 9);
	d.hook = CAPSICUM_HOOK_QUOTA;
	d.error = EDQUOT;
	audit_describe(&d, buf, sizeof(buf));
	cr_expect_str_eq(buf, "pid 42 (demo) fd 1: its uid's quota of table "
			      "entries is used up; syscall 5, hook quota, "
			      "EDQUOT");
	cr_expect_str_eq(audit_error_name(EDQUOT), "EDQUOT");
}

Test(ratelimit, burst_then_summary)
{
	struct ratelimit rl;
	uint64_t t = 5000000000ULL;
	int allowed = 0;

	ratelimit_init(&rl, 3);
	for (int i = 0; i < 10; i++) {
		cr_expect_eq(ratelimit_roll(&rl, t + (uint64_t)i), 0);
		allowed += ratelimit_allow(&rl, t + (uint64_t)i);
	}
	cr_expect_eq(allowed, 3);
	/* Same window: nothing to report yet. */
	cr_expect_eq(ratelimit_roll(&rl, t + 999999999ULL), 0);
	/* Next window: the 7 left out are reported once, then it resets. */
	cr_expect_eq(ratelimit_roll(&rl, t + 1000000000ULL), 7);
	cr_expect_eq(ratelimit_roll(&rl, t + 3000000000ULL), 0);
	cr_expect(ratelimit_allow(&rl, t + 3000000001ULL));
}
