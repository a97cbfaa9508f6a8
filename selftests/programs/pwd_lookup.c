// SPDX-License-Identifier: BSD-2-Clause
/*
 * id(1)-like lookups sandboxed with cap_pwd: the service may answer
 * getpwnam and getpwuid, with the fields printed, for the users named on
 * the command line only.
 *
 * usage: pwd_lookup [-n] [-e USER] USER...
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
#include <unistd.h>

static cap_channel_t *pwd;

static void show(const char *name)
{
	struct passwd *p = pwd ? cap_getpwnam(pwd, name) : getpwnam(name);

	if (!p) {
		printf("%s: no such user\n", name);
		return;
	}
	printf("%s uid=%u gid=%u dir=%s shell=%s\n", p->pw_name,
	       (unsigned)p->pw_uid, (unsigned)p->pw_gid, p->pw_dir,
	       p->pw_shell);
	p = pwd ? cap_getpwuid(pwd, p->pw_uid) : getpwuid(p->pw_uid);
	printf("  uid %s\n", p ? p->pw_name : "?");
}

int main(int argc, char **argv)
{
	const char *fields[] = { "pw_name", "pw_uid", "pw_gid", "pw_dir",
				 "pw_shell" };
	const char *cmds[] = { "getpwnam", "getpwuid" };
	const char *escape = NULL;
	bool sandbox = true;
	cap_channel_t *cas;
	int ch, i;

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
				"usage: pwd_lookup [-n] [-e user] user...\n");
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
		if (cap_pwd_limit_cmds(pwd, cmds, 2) < 0 ||
		    cap_pwd_limit_fields(pwd, fields, 5) < 0 ||
		    cap_pwd_limit_users(pwd, (const char *const *)argv,
					(size_t)argc, NULL, 0) < 0)
			err(1, "unable to limit system.pwd service");
		caph_cache_catpages();
		if (caph_limit_stdio() < 0 || caph_enter_casper() < 0)
			err(1, "unable to enter capability mode");
	}
	for (i = 0; i < argc; i++)
		show(argv[i]);
	if (escape) {
		errno = 0;
		show(escape);
		/* A command outside the limits. */
		struct passwd *p;

		errno = 0;
		p = pwd ? cap_getpwent(pwd) : getpwent();
		printf("getpwent: %s errno %d\n", p ? "entry" : "none",
		       p ? 0 : errno);
	}
	if (sandbox)
		printf("sandboxed %d\n", cap_sandboxed());
	return 0;
}
