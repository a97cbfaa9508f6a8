// SPDX-License-Identifier: BSD-2-Clause
/*
 * cap_limit_set()/cap_limit_get() with FreeBSD's limit nvlists: each
 * service's schema becomes the message fields its limit function checks,
 * comes back from cap_limit_get() in FreeBSD's shape, still only narrows,
 * and bad input gets FreeBSD's errno.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include <casper/cap_fileargs.h>
#include <casper/cap_grp.h>
#include <casper/cap_pwd.h>
#include <libcasper.h>
#include <sys/capsicum.h>
#include <sys/nv.h>

#include "casper/dblimits.h"
#include "casper/dns_proto.h"
#include "casper/fileargs_proto.h"
#include "casper/nvlimits.h"
#include "casper/pwd_proto.h"

static cap_channel_t *open_service(const char *name)
{
	cap_channel_t *cas = cap_init(), *chan;

	cr_assert_not_null(cas);
	chan = cap_service_open(cas, name);
	cr_assert_not_null(chan, "%s", name);
	cap_close(cas);
	return chan;
}

/* An nvlist of NULL elements named by names (NULL-terminated). */
static nvlist_t *nulls(const char *const *names)
{
	nvlist_t *nvl = nvlist_create(0);

	for (; *names; names++)
		nvlist_add_null(nvl, *names);
	return nvl;
}

/* FreeBSD's cap_pwd limits: getpwnam, two fields, the users named. */
static nvlist_t *pwd_limits(const char *user, const char *user2)
{
	nvlist_t *nvl = nvlist_create(0), *users = nvlist_create(0);

	nvlist_move_nvlist(nvl, "cmds",
			   nulls((const char *[]){ "getpwnam", NULL }));
	nvlist_move_nvlist(
		nvl, "fields",
		nulls((const char *[]){ "pw_name", "pw_uid", NULL }));
	nvlist_add_string(users, "name0", user);
	if (user2)
		nvlist_add_string(users, "name1", user2);
	nvlist_add_number(users, "uid0", 0);
	nvlist_move_nvlist(nvl, "users", users);
	return nvl;
}

static int to_msg(const char *service, nvlist_t *nvl)
{
	struct msg *m = msg_new();
	int error = nvlimits_to_msg(service, nvl, m);

	msg_free(m);
	nvlist_destroy(nvl);
	return error;
}

Test(casper_nvlimits, pwd_schema_to_fields_and_back)
{
	nvlist_t *nvl = pwd_limits("root", NULL), *back;
	const nvlist_t *users;
	struct msg *m = msg_new();
	uint64_t uid;

	cr_assert_eq(nvlimits_to_msg("system.pwd", nvl, m), 0);
	cr_expect_eq(msg_count(m, DK_LISTED, MSG_U64), 3);
	cr_expect_str_eq(msg_get_str(m, DK_CMD), "getpwnam");
	cr_expect_eq(msg_count(m, DK_FIELD, MSG_STR), 2);
	cr_expect_str_eq(msg_get_str(m, DK_NAME), "root");
	cr_expect_eq(msg_get_u64(m, DK_ID, &uid), 0);
	cr_expect_eq(uid, 0);
	cr_expect_eq(pwd_service.limit(NULL, m), 0, "the service takes it");

	back = nvlimits_from_msg("system.pwd", m);
	cr_assert_not_null(back);
	cr_expect(nvlist_exists_null(nvlist_get_nvlist(back, "cmds"),
				     "getpwnam"));
	cr_expect(nvlist_exists_null(nvlist_get_nvlist(back, "fields"),
				     "pw_uid"));
	users = nvlist_get_nvlist(back, "users");
	cr_expect_str_eq(nvlist_get_string(users, "name0"), "root");
	cr_expect_eq(nvlist_get_number(users, "uid0"), 0);
	nvlist_destroy(back);
	nvlist_destroy(nvl);
	msg_free(m);
}

Test(casper_nvlimits, unknown_names_and_types_are_einval)
{
	nvlist_t *nvl, *sub;

	nvl = nvlist_create(0);
	nvlist_move_nvlist(nvl, "bogus", nvlist_create(0));
	cr_expect_eq(to_msg("system.pwd", nvl), EINVAL, "unknown list");

	nvl = nvlist_create(0);
	nvlist_add_null(nvl, "cmds");
	cr_expect_eq(to_msg("system.pwd", nvl), EINVAL, "cmds not an nvlist");

	nvl = nvlist_create(0);
	sub = nvlist_create(0);
	nvlist_add_string(sub, "getpwnam", "yes");
	nvlist_move_nvlist(nvl, "cmds", sub);
	cr_expect_eq(to_msg("system.pwd", nvl), EINVAL, "a command not NULL");

	nvl = nvlist_create(0);
	sub = nvlist_create(0);
	nvlist_add_bool(sub, "x", true);
	nvlist_move_nvlist(nvl, "groups", sub);
	cr_expect_eq(to_msg("system.grp", nvl), EINVAL, "a bool group");

	nvl = nvlist_create(0);
	nvlist_add_number(nvl, "type0", 1);
	cr_expect_eq(to_msg("system.dns", nvl), EINVAL, "a number type");

	nvl = nvlist_create(0);
	nvlist_add_string(nvl, "other", "x");
	cr_expect_eq(to_msg("system.dns", nvl), EINVAL, "unknown dns name");

	nvl = nvlist_create(0);
	nvlist_add_number(nvl, "operations", FA_OPEN);
	cr_expect_eq(to_msg(FILEARGS_SERVICE, nvl), EINVAL, "no flags");

	nvl = nvlist_create(0);
	nvlist_add_number(nvl, "flags", O_RDONLY);
	nvlist_add_number(nvl, "operations", FA_OPEN);
	nvlist_add_string(nvl, "/etc/passwd", "x");
	cr_expect_eq(to_msg(FILEARGS_SERVICE, nvl), EINVAL, "a string name");

	nvl = nvlist_create(0);
	nvlist_add_null(nvl, "x");
	cr_expect_eq(to_msg("system.syslog", nvl), EINVAL, "syslog limit");

	nvl = nvlist_create(0);
	nvlist_add_string(nvl, "system.pwd", "x");
	cr_expect_eq(to_msg("casper", nvl), EINVAL, "a service not NULL");

	cr_expect_eq(to_msg("system.net", nvlist_create(0)), EOPNOTSUPP);

	nvl = nvlist_create(0);
	nvlist_set_error(nvl, ENOMEM);
	cr_expect_eq(to_msg("system.pwd", nvl), ENOMEM, "a list in error");
}

Test(casper_nvlimits, pwd_live_narrows_only)
{
	cap_channel_t *chan = open_service("system.pwd");
	struct passwd *other = getpwnam("nobody");
	nvlist_t *got;
	struct passwd *p;

	cr_assert_not_null(other, "the host has nobody");
	cr_assert_eq(cap_limit_get(chan, &got), 0);
	cr_expect_null(got, "no limits yet");
	cr_assert_eq(cap_limit_set(chan, pwd_limits("root", NULL)), 0);
	p = cap_getpwnam(chan, "root");
	cr_assert_not_null(p);
	cr_expect_null(p->pw_dir, "pw_dir withheld");
	cr_expect_null(cap_getpwnam(chan, "nobody"), "outside the users");
	errno = 0;
	cr_expect_null(cap_getpwuid(chan, 0));
	cr_expect_eq(errno, ENOTCAPABLE, "getpwuid not in cmds");

	cr_assert_eq(cap_limit_get(chan, &got), 0);
	cr_assert_not_null(got);
	cr_expect(nvlist_exists_nvlist(got, "cmds"));
	cr_expect(nvlist_exists_nvlist(got, "fields"));
	cr_expect_str_eq(
		nvlist_get_string(nvlist_get_nvlist(got, "users"), "name0"),
		"root");
	/* What cap_limit_get() gives may be set again: not a widening. */
	cr_expect_eq(cap_limit_set(chan, got), 0);

	errno = 0;
	cr_expect_eq(cap_limit_set(chan, pwd_limits("root", "nobody")), -1);
	cr_expect_eq(errno, ENOTCAPABLE, "a user added");
	errno = 0;
	cr_expect_eq(cap_limit_set(chan, nvlist_create(0)), -1);
	cr_expect_eq(errno, ENOTCAPABLE, "all lists dropped");
	cr_expect_null(cap_getpwnam(chan, "nobody"), "limits unchanged");
	cap_close(chan);
}

Test(casper_nvlimits, bad_arguments)
{
	cap_channel_t *chan = open_service("system.pwd");
	nvlist_t *nvl;

	errno = 0;
	cr_expect_eq(cap_limit_set(chan, NULL), -1);
	cr_expect_eq(errno, EINVAL);
	nvl = nvlist_create(0);
	nvlist_add_number(nvl, "x", 1);
	nvlist_add_number(nvl, "x", 2);
	errno = 0;
	cr_expect_eq(cap_limit_set(chan, nvl), -1, "consumed, in error");
	cr_expect_eq(errno, EEXIST);
	errno = 0;
	cr_expect_eq(cap_limit_set(NULL, nvlist_create(0)), -1);
	cr_expect_eq(errno, EINVAL);
	errno = 0;
	nvl = nvlist_create(0);
	nvlist_add_number(nvl, "users", 1);
	cr_expect_eq(cap_limit_set(chan, nvl), -1);
	cr_expect_eq(errno, EINVAL, "users not an nvlist");
	nvl = nvlist_create(0);
	nvlist_move_nvlist(nvl, "cmds",
			   nulls((const char *[]){ "getpwfoo", NULL }));
	errno = 0;
	cr_expect_eq(cap_limit_set(chan, nvl), -1);
	cr_expect_eq(errno, EINVAL, "an unknown command, the service's check");
	errno = 0;
	cr_expect_eq(cap_limit_get(chan, NULL), -1);
	cr_expect_eq(errno, EINVAL);
	cap_close(chan);

	chan = open_service("system.net");
	errno = 0;
	cr_expect_eq(cap_limit_set(chan, nvlist_create(0)), -1);
	cr_expect_eq(errno, EOPNOTSUPP, "cap_net has no documented schema");
	cap_close(chan);
}

Test(casper_nvlimits, grp_live_narrows_only)
{
	cap_channel_t *chan = open_service("system.grp");
	nvlist_t *nvl = nvlist_create(0), *groups = nvlist_create(0), *got;

	nvlist_add_string(groups, "name0", "root");
	nvlist_move_nvlist(nvl, "groups", groups);
	cr_assert_eq(cap_limit_set(chan, nvl), 0);
	cr_expect_not_null(cap_getgrnam(chan, "root"));
	cr_expect_null(cap_getgrgid(chan, 1), "gid 1 outside");
	cr_assert_eq(cap_limit_get(chan, &got), 0);
	cr_assert_not_null(got);
	cr_expect(!nvlist_exists(got, "cmds"), "never limited");
	groups = nvlist_take_nvlist(got, "groups");
	cr_expect_str_eq(nvlist_get_string(groups, "name0"), "root");
	nvlist_add_number(groups, "gid0", 1);
	nvlist_move_nvlist(got, "groups", groups);
	errno = 0;
	cr_expect_eq(cap_limit_set(chan, got), -1);
	cr_expect_eq(errno, ENOTCAPABLE, "gid 1 added");
	cap_close(chan);
}

Test(casper_nvlimits, dns_types_and_families)
{
	cap_channel_t *chan = open_service("system.dns");
	nvlist_t *nvl = nvlist_create(0), *got;
	struct msg *m = msg_new();

	nvlist_add_string(nvl, "type0", "NAME2ADDR");
	nvlist_add_number(nvl, "family0", AF_INET);
	cr_assert_eq(nvlimits_to_msg("system.dns", nvl, m), 0);
	cr_expect_eq(msg_count(m, DNK_LISTED, MSG_U64), 2);
	msg_free(m);
	cr_assert_eq(cap_limit_set(chan, nvl), 0);
	cr_assert_eq(cap_limit_get(chan, &got), 0);
	cr_assert_not_null(got);
	cr_expect_str_eq(nvlist_get_string(got, "type0"), "NAME2ADDR");
	cr_expect_eq(nvlist_get_number(got, "family0"), AF_INET);
	nvlist_add_string(got, "type1", "ADDR2NAME");
	errno = 0;
	cr_expect_eq(cap_limit_set(chan, got), -1);
	cr_expect_eq(errno, ENOTCAPABLE, "ADDR2NAME added");
	cap_close(chan);
}

Test(casper_nvlimits, casper_and_syslog)
{
	cap_channel_t *cas = cap_init(), *chan;

	cr_assert_not_null(cas);
	cr_assert_eq(cap_limit_set(cas, nulls((const char *[]){ "system.pwd",
								NULL })),
		     0);
	errno = 0;
	cr_expect_null(cap_service_open(cas, "system.grp"));
	cr_expect_eq(errno, ENOTCAPABLE);
	chan = cap_service_open(cas, "system.pwd");
	cr_expect_not_null(chan);
	cap_close(chan);
	errno = 0;
	cr_expect_eq(
		cap_limit_set(cas, nulls((const char *[]){
					   "system.pwd", "system.grp", NULL })),
		-1);
	cr_expect_eq(errno, ENOTCAPABLE);
	cap_close(cas);

	chan = open_service("system.syslog");
	cr_expect_eq(cap_limit_set(chan, nvlist_create(0)), 0);
	cap_close(chan);
}

Test(casper_nvlimits, fileargs_initnv)
{
	char dir[] = "/tmp/casper-nv-XXXXXX", a[PATH_MAX], b[PATH_MAX];
	cap_channel_t *chan;
	nvlist_t *nvl, *got;
	cap_rights_t rights;
	fileargs_t *fa;
	int fd, flags;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(a, sizeof(a), "%s/a", dir);
	snprintf(b, sizeof(b), "%s/b", dir);
	close(open(a, O_CREAT | O_WRONLY, 0600));
	close(open(b, O_CREAT | O_WRONLY, 0600));

	nvl = nvlist_create(0);
	nvlist_add_number(nvl, "flags", O_RDONLY);
	nvlist_add_number(nvl, "operations", FA_OPEN);
	cap_rights_init(&rights, CAP_READ, CAP_FSTAT);
	nvlist_add_binary(nvl, "cap_rights", &rights, sizeof(rights));
	nvlist_add_null(nvl, a);
	fa = fileargs_initnv(nvl);
	cr_assert_not_null(fa);
	fd = fileargs_open(fa, a);
	cr_expect_geq(fd, 0);
	close(fd);
	errno = 0;
	cr_expect_eq(fileargs_open(fa, b), -1);
	cr_expect_eq(errno, ENOTCAPABLE);

	chan = fileargs_unwrap(fa, &flags);
	cr_assert_eq(cap_limit_get(chan, &got), 0);
	cr_assert_not_null(got);
	cr_expect_eq(nvlist_get_number(got, "flags"), O_RDONLY);
	cr_expect_eq(nvlist_get_number(got, "operations"), FA_OPEN);
	cr_expect(nvlist_exists_binary(got, "cap_rights"));
	cr_expect(nvlist_exists_null(got, a));
	errno = 0;
	cr_expect_eq(cap_limit_set(chan, got), -1, "set once, as FreeBSD's");
	cr_expect_eq(errno, ENOTCAPABLE);
	cap_close(chan);

	/* NULL limits: as argv NULL, a fileargs that opens nothing. */
	fa = fileargs_initnv(NULL);
	cr_assert_not_null(fa);
	errno = 0;
	cr_expect_eq(fileargs_open(fa, a), -1);
	cr_expect_eq(errno, ENOTCAPABLE);
	fileargs_free(fa);
	nvl = nvlist_create(0);
	nvlist_add_number(nvl, "flags", O_RDONLY);
	errno = 0;
	cr_expect_null(fileargs_cinitnv(NULL, nvl), "no casper channel");
	cr_expect_eq(errno, EINVAL);
	nvl = nvlist_create(0);
	nvlist_add_null(nvl, a);
	errno = 0;
	cr_expect_null(fileargs_initnv(nvl), "no flags");
	cr_expect_eq(errno, EINVAL);
	unlink(a);
	unlink(b);
	rmdir(dir);
}
