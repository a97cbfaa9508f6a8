// SPDX-License-Identifier: GPL-2.0
/*
 * capsicumd's query socket without a socket (admin/query.c): the request
 * check, the /proc/PID/status ids, the visibility rule and the walk of an
 * fds answer, on good and hostile input.
 */
#include "admin/audit_line.h"
#include "admin/query.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

static struct query_req req(__u32 op, __s32 pid)
{
	return (struct query_req){ .magic = QUERY_MAGIC, .op = op, .pid = pid };
}

Test(query, requests_are_checked_whole)
{
	struct query_req r = req(QUERY_FDS, 42), out;
	char big[sizeof(r) + 1] = { 0 };

	cr_expect_eq(query_req_check(&r, sizeof(r), &out), 0);
	cr_expect_eq(out.pid, 42);
	r = req(QUERY_PS, 0);
	cr_expect_eq(query_req_check(&r, sizeof(r), &out), 0);
	r = req(QUERY_STATUS, 0);
	cr_expect_eq(query_req_check(&r, sizeof(r), &out), 0);
	memcpy(big, &r, sizeof(r));
	cr_expect_eq(query_req_check(big, sizeof(big), &out), EINVAL,
		     "longer than a request");
	cr_expect_eq(query_req_check(&r, sizeof(r) - 1, &out), EINVAL,
		     "shorter");
	r = req(QUERY_FDS, 0);
	cr_expect_eq(query_req_check(&r, sizeof(r), &out), EINVAL, "pid 0");
	r = req(QUERY_FDS, -1);
	cr_expect_eq(query_req_check(&r, sizeof(r), &out), EINVAL, "pid -1");
	r = req(QUERY_PS, 7);
	cr_expect_eq(query_req_check(&r, sizeof(r), &out), EINVAL,
		     "ps takes no pid");
	r = req(0, 0);
	cr_expect_eq(query_req_check(&r, sizeof(r), &out), EOPNOTSUPP);
	r = req(QUERY_AUDIT_FOLLOW + 1, 0);
	cr_expect_eq(query_req_check(&r, sizeof(r), &out), EOPNOTSUPP);
	r = req(QUERY_PS, 0);
	r.magic ^= 1;
	cr_expect_eq(query_req_check(&r, sizeof(r), &out), EPROTO, "magic");
	r = req(QUERY_PS, 0);
	r.reserved = 1;
	cr_expect_eq(query_req_check(&r, sizeof(r), &out), EPROTO, "reserved");
}

Test(query, status_ids_are_parsed_strictly)
{
	unsigned int u[4], g[4];

	cr_expect_eq(query_status_ids("Name:\tx\nUid:\t1000\t1001\t1002\t1003\n"
				      "Gid:\t5\t6\t7\t8\nGroups:\t\n",
				      u, g),
		     0);
	cr_expect(u[0] == 1000 && u[1] == 1001 && u[2] == 1002 && u[3] == 1003);
	cr_expect(g[0] == 5 && g[3] == 8);
	cr_expect_eq(query_status_ids("Uid:\t1\t1\t1\t1\n", u, g), -1,
		     "no Gid line");
	cr_expect_eq(
		query_status_ids("Uid:\t1\t1\t1\nGid:\t1\t1\t1\t1\n", u, g), -1,
		"three uids");
	cr_expect_eq(
		query_status_ids("Uid:\t1\t1\t1\t1x\nGid:\t1\t1\t1\t1\n", u, g),
		-1, "trailing junk");
	cr_expect_eq(query_status_ids("", u, g), -1);
	cr_expect_eq(query_status_ids("XUid:\t1\t1\t1\t1\n", u, g), -1);
}

Test(query, a_user_sees_only_their_dumpable_processes)
{
	const unsigned int mine[4] = { 1000, 1000, 1000, 1000 },
			   gmine[4] = { 100, 100, 100, 100 },
			   setuid[4] = { 1000, 0, 0, 1000 },
			   other[4] = { 1001, 1001, 1001, 1001 };

	cr_expect(query_may_see(1000, 100, mine, gmine, 1000));
	cr_expect_not(query_may_see(1000, 100, mine, gmine, 0),
		      "non-dumpable: its /proc files are root's");
	cr_expect_not(query_may_see(1000, 100, setuid, gmine, 1000));
	cr_expect_not(query_may_see(1000, 100, other, gmine, 1001));
	cr_expect_not(query_may_see(1000, 101, mine, gmine, 1000),
		      "another group");
	cr_expect(query_may_see(0, 0, other, gmine, 0), "root sees all");
}

Test(query, an_fds_answer_is_walked_within_bounds)
{
	char buf[512] = { 0 };
	struct query_fd a = { .fd = 3, .nioctls = 2 },
			b = { .fd = 4, .nioctls = -1 }, q;
	__u64 cmds[2] = { 0x541b, 0x5421 }, got[CAP_IOCTLS_MAX];
	size_t len = 0, pos = 0;

	memcpy(buf, &a, sizeof(a));
	len += sizeof(a);
	memcpy(buf + len, cmds, sizeof(cmds));
	len += sizeof(cmds);
	memcpy(buf + len, &b, sizeof(b));
	len += sizeof(b);
	cr_assert_eq(query_next_fd(buf, len, &pos, &q, got), 1);
	cr_expect(q.fd == 3 && got[0] == 0x541b && got[1] == 0x5421);
	cr_assert_eq(query_next_fd(buf, len, &pos, &q, got), 1);
	cr_expect(q.fd == 4 && q.nioctls == -1);
	cr_expect_eq(query_next_fd(buf, len, &pos, &q, got), 0, "the end");
	pos = 0;
	cr_expect_eq(query_next_fd(buf, sizeof(a) + 8, &pos, &q, got), -1,
		     "ioctls cut short");
	pos = 0;
	cr_expect_eq(query_next_fd(buf, sizeof(a) - 1, &pos, &q, got), -1,
		     "a record cut short");
	a.nioctls = CAP_IOCTLS_MAX + 1;
	memcpy(buf, &a, sizeof(a));
	pos = 0;
	cr_expect_eq(query_next_fd(buf, sizeof(buf), &pos, &q, got), -1,
		     "more ioctls than a list holds");
	a.nioctls = -2;
	memcpy(buf, &a, sizeof(a));
	pos = 0;
	cr_expect_eq(query_next_fd(buf, sizeof(buf), &pos, &q, got), -1);
}

Test(query, a_user_sees_only_their_denials)
{
	struct capsicum_denial d = { .pid = 5, .uid = 1000 };

	cr_expect(query_may_see_denial(1000, &d));
	cr_expect_not(query_may_see_denial(1001, &d));
	cr_expect(query_may_see_denial(0, &d), "root sees all");
	d.uid = CAPSICUM_DENIAL_NO_UID;
	cr_expect_not(query_may_see_denial(1000, &d),
		      "a line without uid= is root's only");
	cr_expect_not(query_may_see_denial(CAPSICUM_DENIAL_NO_UID, &d));
	cr_expect(query_may_see_denial(0, &d));
}

/* The audit line carries the uid a user's denials are found by. */
Test(query, audit_lines_carry_the_uid)
{
	struct capsicum_denial d = { .pid = 7, .uid = 1000, .comm = "x" }, back;
	char line[512];

	audit_line_format(&d, line, sizeof(line));
	cr_expect(strstr(line, " uid=1000 comm=x\n"), "%s", line);
	cr_assert_eq(audit_line_parse(line, &back), 0);
	cr_expect_eq(back.uid, 1000);
	cr_assert_eq(audit_line_parse("v1 time=1 pid=2 tid=2 fd=3 syscall=0 "
				      "hook=1 error=93 needed=0x1,0x2 "
				      "held=0x0,0x0 comm=old\n",
				      &back),
		     0, "a line of an earlier build");
	cr_expect_eq(back.uid, CAPSICUM_DENIAL_NO_UID);
	d.uid = CAPSICUM_DENIAL_NO_UID;
	audit_line_format(&d, line, sizeof(line));
	cr_expect(!strstr(line, "uid="), "no uid is written as none: %s", line);
	cr_expect_eq(audit_line_parse("v1 time=1 pid=2 tid=2 fd=3 syscall=0 "
				      "hook=1 error=93 needed=0x1,0x2 "
				      "held=0x0,0x0 uid=x comm=old\n",
				      &back),
		     -1, "a uid that is no number");
	cr_expect_eq(audit_line_parse("v1 time=1 pid=2 tid=2 fd=3 syscall=0 "
				      "hook=1 error=93 needed=0x1,0x2 "
				      "held=0x0,0x0 uid=4294967295 comm=old\n",
				      &back),
		     -1, "the no-uid value written out");
}
