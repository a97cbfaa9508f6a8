// SPDX-License-Identifier: BSD-2-Clause
/*
 * getent(1)-like group lookups sandboxed with cap_grp: the service may
 * answer getgrnam and getgrgid, with the fields printed, for the groups
 * named on the command line only.
 *
 * usage: grp_lookup [-n] [-e GROUP] GROUP...
 *   -n        no Capsicum: the reference run
 *   -e GROUP  then look GROUP up through the service (not in the limits
 *             when sandboxed) and the first GROUP with libc's getgrnam()
 *             (the program's own open of /etc/group, refused in
 *             capability mode)
 */
#include <capsicum_helpers.h>
#include <casper/cap_grp.h>
#include <err.h>
#include <errno.h>
#include <grp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static cap_channel_t *grp;

static void show(const char *name)
{
	struct group *g = grp ? cap_getgrnam(grp, name) : getgrnam(name);
	char **m;

	if (!g) {
		printf("%s: no such group errno %d\n", name, errno);
		return;
	}
	printf("%s gid=%u mem=", g->gr_name, (unsigned)g->gr_gid);
	for (m = g->gr_mem; m && *m; m++)
		printf("%s%s", *m, m[1] ? "," : "");
	printf("\n");
	g = grp ? cap_getgrgid(grp, g->gr_gid) : getgrgid(g->gr_gid);
	printf("  gid %s\n", g ? g->gr_name : "?");
}

int main(int argc, char **argv)
{
	const char *fields[] = { "gr_name", "gr_gid", "gr_mem" };
	const char *cmds[] = { "getgrnam", "getgrgid" };
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
				"usage: grp_lookup [-n] [-e group] group...\n");
			exit(2);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1)
		errx(2, "no group named");

	if (sandbox) {
		cas = cap_init();
		if (!cas)
			err(1, "cap_init");
		grp = cap_service_open(cas, "system.grp");
		if (!grp)
			err(1, "unable to open system.grp service");
		cap_close(cas);
		if (cap_grp_limit_cmds(grp, cmds, 2) < 0 ||
		    cap_grp_limit_fields(grp, fields, 3) < 0 ||
		    cap_grp_limit_groups(grp, (const char *const *)argv,
					 (size_t)argc, NULL, 0) < 0)
			err(1, "unable to limit system.grp service");
		caph_cache_catpages();
		if (caph_limit_stdio() < 0 || caph_enter_casper() < 0)
			err(1, "unable to enter capability mode");
	}
	for (i = 0; i < argc; i++)
		show(argv[i]);
	if (escape) {
		struct group *g;

		errno = 0;
		show(escape);
		/* libc's own lookup, of a group the limits allow. */
		errno = 0;
		g = getgrnam(argv[0]);
		printf("getgrnam %s: %s\n", argv[0], g ? "entry" : "none");
	}
	if (sandbox)
		printf("sandboxed %d\n", cap_sandboxed());
	return 0;
}
