// SPDX-License-Identifier: BSD-2-Clause
/*
 * cap_pwd on the host through a real casper process: answers equal
 * getpwnam()'s, and the commands, fields and users limits only narrow.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pwd.h>
#include <string.h>

#include <criterion/criterion.h>

#include <casper/cap_pwd.h>
#include <libcasper.h>
#include <sys/capsicum.h>

#include "casper/pwd_proto.h"

static cap_channel_t *pwd_open(void)
{
	cap_channel_t *cas = cap_init(), *pwd;

	cr_assert_not_null(cas);
	pwd = cap_service_open(cas, PWD_SERVICE);
	cr_assert_not_null(pwd);
	cap_close(cas);
	return pwd;
}

Test(casper_pwd, same_answers_as_libc)
{
	cap_channel_t *chan = pwd_open();
	struct passwd *p, pw, *res;
	char buf[1024], small[4];
	int n = 0;

	p = cap_getpwnam(chan, "root");
	cr_assert_not_null(p);
	cr_expect_str_eq(p->pw_name, "root");
	cr_expect_eq(p->pw_uid, 0);
	cr_expect_str_eq(p->pw_dir, getpwnam("root")->pw_dir);
	cr_expect_eq(cap_getpwuid_r(chan, 0, &pw, buf, sizeof(buf), &res), 0);
	cr_expect_eq(res, &pw);
	cr_expect_str_eq(pw.pw_name, "root");
	cr_expect_eq(cap_getpwuid_r(chan, 0, &pw, small, sizeof(small), &res),
		     ERANGE);
	cr_expect_null(cap_getpwnam(chan, "no-such-user-here"));
	cap_setpwent(chan);
	while (cap_getpwent(chan))
		n++;
	cr_expect_gt(n, 0);
	cap_endpwent(chan);
	cap_close(chan);
}

Test(casper_pwd, limits_narrow)
{
	const char *cmds[] = { "getpwnam", "getpwuid" },
		   *wider[] = { "getpwnam", "getpwent" };
	const char *fields[] = { "pw_name", "pw_uid" }, *root[] = { "root" };
	cap_channel_t *chan = pwd_open();
	struct passwd *p;
	uid_t one = 1;

	cr_assert_eq(cap_pwd_limit_cmds(chan, cmds, 2), 0);
	errno = 0;
	cr_expect_null(cap_getpwent(chan));
	cr_expect_eq(errno, ENOTCAPABLE);
	errno = 0;
	cr_expect_eq(cap_pwd_limit_cmds(chan, wider, 2), -1);
	cr_expect_eq(errno, ENOTCAPABLE);
	cr_assert_eq(cap_pwd_limit_fields(chan, fields, 2), 0);
	p = cap_getpwnam(chan, "root");
	cr_assert_not_null(p);
	cr_expect_str_eq(p->pw_name, "root");
	cr_expect_null(p->pw_dir, "pw_dir withheld");
	cr_expect_null(p->pw_shell);
	cr_assert_eq(cap_pwd_limit_users(chan, root, 1, NULL, 0), 0);
	cr_expect_not_null(cap_getpwuid(chan, 0), "root by uid");
	cr_expect_null(cap_getpwuid(chan, 1), "uid 1 is not root");
	errno = 0;
	cr_expect_eq(cap_pwd_limit_users(chan, NULL, 0, &one, 1), -1);
	cr_expect_eq(errno, ENOTCAPABLE);
	/* The fields limit survived the users limit. */
	p = cap_getpwnam(chan, "root");
	cr_assert_not_null(p);
	cr_expect_null(p->pw_dir);
	/* An empty list allows nothing. */
	cr_assert_eq(cap_pwd_limit_cmds(chan, NULL, 0), 0);
	errno = 0;
	cr_expect_null(cap_getpwnam(chan, "root"));
	cr_expect_eq(errno, ENOTCAPABLE);
	cap_close(chan);
}

Test(casper_pwd, limit_validation)
{
	struct msg *m = msg_new();

	msg_add_u64(m, DK_LISTED, DK_CMD);
	msg_add_str(m, DK_CMD, "getpwnam");
	cr_expect_eq(pwd_service.limit(NULL, m), 0);
	msg_add_str(m, DK_CMD, "rm -rf");
	cr_expect_eq(pwd_service.limit(NULL, m), EINVAL, "unknown command");
	msg_free(m);
	m = msg_new();
	msg_add_str(m, DK_FIELD, "pw_name");
	cr_expect_eq(pwd_service.limit(NULL, m), EINVAL, "list not marked");
	msg_free(m);
	m = msg_new();
	msg_add_u64(m, DK_LISTED, 7);
	cr_expect_eq(pwd_service.limit(NULL, m), EINVAL, "unknown list");
	msg_free(m);
}
