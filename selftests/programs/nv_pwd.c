// SPDX-License-Identifier: BSD-2-Clause
/*
 * cap_pwd limited the way FreeBSD's libcasper(3) allows besides the
 * cap_pwd_limit_*() calls: one nvlist given to cap_limit_set(), read back
 * with cap_limit_get(), then a wider one refused.
 *
 * usage: nv_pwd [-n] [-e USER] USER...
 *   -n       no Capsicum: the reference run
 *   -e USER  then look USER up too (not in the limits when sandboxed)
 */
#include <capsicum_helpers.h>
#include <casper/cap_pwd.h>
#include <err.h>
#include <errno.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/nv.h>
#include <unistd.h>

static cap_channel_t *pwd;

static void show(const char *name)
{
	struct passwd *p = pwd ? cap_getpwnam(pwd, name) : getpwnam(name);

	if (!p) {
		printf("%s: no such user\n", name);
		return;
	}
	printf("%s uid=%u dir=%s\n", p->pw_name, (unsigned)p->pw_uid,
	       p->pw_dir);
}

/* FreeBSD's cap_pwd limits: cmds, fields, users sub-nvlists. */
static nvlist_t *limits(char **users, int n)
{
	nvlist_t *nvl = nvlist_create(0), *cmds = nvlist_create(0),
		 *fields = nvlist_create(0), *names = nvlist_create(0);
	char key[32];
	int i;

	nvlist_add_null(cmds, "getpwnam");
	nvlist_add_null(fields, "pw_name");
	nvlist_add_null(fields, "pw_uid");
	nvlist_add_null(fields, "pw_dir");
	for (i = 0; i < n; i++) {
		snprintf(key, sizeof(key), "name%d", i);
		nvlist_add_string(names, key, users[i]);
	}
	nvlist_move_nvlist(nvl, "cmds", cmds);
	nvlist_move_nvlist(nvl, "fields", fields);
	nvlist_move_nvlist(nvl, "users", names);
	return nvl;
}

int main(int argc, char **argv)
{
	const char *escape = NULL;
	bool sandbox = true;
	cap_channel_t *cas;
	nvlist_t *got, *wider, *users;
	int ch, i, ret;

	while ((ch = getopt(argc, argv, "ne:")) != -1) {
		switch (ch) {
		case 'n':
			sandbox = false;
			break;
		case 'e':
			escape = optarg;
			break;
		default:
			fprintf(stderr,
				"usage: nv_pwd [-n] [-e user] user...\n");
			exit(2);
		}
	}
	argc -= optind;
	argv += optind;

	if (sandbox) {
		cas = cap_init();
		if (!cas)
			err(1, "cap_init");
		pwd = cap_service_open(cas, "system.pwd");
		if (!pwd)
			err(1, "unable to open system.pwd service");
		cap_close(cas);
		if (cap_limit_set(pwd, limits(argv, argc)) < 0)
			err(1, "cap_limit_set");
		if (cap_limit_get(pwd, &got) < 0 || !got ||
		    !nvlist_exists_nvlist(got, "users"))
			err(1, "cap_limit_get");
		nvlist_destroy(got);
		caph_cache_catpages();
		if (caph_limit_stdio() < 0 || caph_enter_casper() < 0)
			err(1, "unable to enter capability mode");
	}
	for (i = 0; i < argc; i++)
		show(argv[i]);
	if (escape) {
		show(escape);
		if (sandbox) {
			/* The escape added to the users: a widening. */
			wider = limits(argv, argc);
			users = nvlist_take_nvlist(wider, "users");
			nvlist_add_string(users, "escape", escape);
			nvlist_move_nvlist(wider, "users", users);
			errno = 0;
			ret = cap_limit_set(pwd, wider);
			printf("wider limit_set: %d errno %d\n", ret, errno);
		}
	}
	if (sandbox)
		printf("sandboxed %d\n", cap_sandboxed());
	return 0;
}
