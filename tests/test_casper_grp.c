// SPDX-License-Identifier: BSD-2-Clause
/*
 * cap_grp on the host through a real casper process: answers equal
 * getgrnam()'s, and the commands, fields and groups limits only narrow.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#include <casper/cap_grp.h>
#include <libcasper.h>
#include <sys/capsicum.h>

#include "casper/grp_proto.h"

static cap_channel_t *grp_open(void)
{
	cap_channel_t *cas = cap_init(), *grp;

	cr_assert_not_null(cas);
	grp = cap_service_open(cas, GRP_SERVICE);
	cr_assert_not_null(grp);
	cap_close(cas);
	return grp;
}

/* A group of the host with members, copied: NULL if none. */
static struct group *group_with_members(char *name, size_t len)
{
	struct group *g;

	setgrent();
	while ((g = getgrent()))
		if (g->gr_mem && g->gr_mem[0])
			break;
	endgrent();
	if (g)
		snprintf(name, len, "%s", g->gr_name);
	return g;
}

Test(casper_grp, same_answers_as_libc)
{
	cap_channel_t *chan = grp_open();
	struct group *g, gr, *res;
	char buf[4096], small[8], name[64];
	size_t i;
	int n = 0;

	g = cap_getgrnam(chan, "root");
	cr_assert_not_null(g);
	cr_expect_str_eq(g->gr_name, "root");
	cr_expect_eq(g->gr_gid, 0);
	cr_expect_not_null(g->gr_mem);
	cr_expect_eq(cap_getgrgid_r(chan, 0, &gr, buf, sizeof(buf), &res), 0);
	cr_expect_eq(res, &gr);
	cr_expect_str_eq(gr.gr_name, "root");
	cr_expect_eq(cap_getgrgid_r(chan, 0, &gr, small, sizeof(small), &res),
		     ERANGE);
	if (group_with_members(name, sizeof(name))) {
		struct group *want = getgrnam(name);

		g = cap_getgrnam(chan, name);
		cr_assert_not_null(g);
		for (i = 0; want->gr_mem[i]; i++)
			cr_expect_str_eq(g->gr_mem[i], want->gr_mem[i]);
		cr_expect_null(g->gr_mem[i]);
	}
	cr_expect_null(cap_getgrnam(chan, "no-such-group-here"));
	cr_expect_eq(cap_setgrent(chan), 1);
	while (cap_getgrent(chan))
		n++;
	cr_expect_gt(n, 0);
	cap_endgrent(chan);
	cap_close(chan);
}

Test(casper_grp, limits_narrow)
{
	const char *cmds[] = { "getgrnam", "getgrgid" },
		   *wider[] = { "getgrnam", "getgrent" };
	const char *fields[] = { "gr_name", "gr_gid" }, *root[] = { "root" };
	cap_channel_t *chan = grp_open();
	struct group *g;
	gid_t one = 1;

	cr_assert_eq(cap_grp_limit_cmds(chan, cmds, 2), 0);
	errno = 0;
	cr_expect_null(cap_getgrent(chan));
	cr_expect_eq(errno, ENOTCAPABLE);
	errno = 0;
	cr_expect_eq(cap_grp_limit_cmds(chan, wider, 2), -1);
	cr_expect_eq(errno, ENOTCAPABLE);
	cr_assert_eq(cap_grp_limit_fields(chan, fields, 2), 0);
	g = cap_getgrnam(chan, "root");
	cr_assert_not_null(g);
	cr_expect_null(g->gr_mem, "gr_mem withheld");
	cr_expect_null(g->gr_passwd);
	cr_assert_eq(cap_grp_limit_groups(chan, root, 1, NULL, 0), 0);
	cr_expect_not_null(cap_getgrgid(chan, 0));
	cr_expect_null(cap_getgrgid(chan, 1), "gid 1 is not root");
	errno = 0;
	cr_expect_eq(cap_grp_limit_groups(chan, NULL, 0, &one, 1), -1);
	cr_expect_eq(errno, ENOTCAPABLE);
	errno = 0;
	cr_expect_eq(
		cap_grp_limit_fields(chan, (const char *[]){ "gr_mem" }, 1),
		-1);
	cr_expect_eq(errno, ENOTCAPABLE);
	cap_close(chan);
}

Test(casper_grp, limit_validation)
{
	struct msg *m = msg_new();

	msg_add_u64(m, DK_LISTED, DK_FIELD);
	msg_add_str(m, DK_FIELD, "pw_name");
	cr_expect_eq(grp_service.limit(NULL, m), EINVAL, "a cap_pwd field");
	msg_free(m);
	m = msg_new();
	msg_add_str(m, DK_NAME, "root");
	cr_expect_eq(grp_service.limit(NULL, m), EINVAL, "list not marked");
	msg_free(m);
}
