// SPDX-License-Identifier: BSD-2-Clause
/*
 * A head(1) sandboxed as FreeBSD's is (usr.bin/head): the named files
 * handed to fileargs with CAP_READ, CAP_FSTAT and CAP_FCNTL, stdio
 * limited, capability mode, then each file opened through fileargs and
 * read with stdio. Built against the installed tree through pkg-config
 * only (Makefile).
 *
 * usage: fa_head [-N] [-n LINES] [-e PATH] FILE...
 *   -N       no Capsicum: the reference run
 *   -e PATH  then print the errno of fileargs_open(PATH), of open(PATH)
 *            and of flock(2) on a listed file (fileargs grants no
 *            CAP_FLOCK); 0 where the call worked
 */
#include <sys/file.h>

#include <capsicum_helpers.h>
#include <casper/cap_fileargs.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static fileargs_t *fa;
static bool sandbox = true;

static FILE *open_file(const char *name)
{
	return sandbox ? fileargs_fopen(fa, name, "r") : fopen(name, "r");
}

static void head(FILE *f, long lines)
{
	int c;

	while (lines > 0 && (c = getc(f)) != EOF) {
		putchar(c);
		if (c == '\n')
			lines--;
	}
}

static void escapes(const char *path, const char *listed)
{
	int fd;

	errno = 0;
	fd = sandbox ? fileargs_open(fa, path) : open(path, O_RDONLY);
	printf("fileargs_open: errno %d\n", fd < 0 ? errno : 0);
	if (fd >= 0)
		close(fd);
	errno = 0;
	fd = open(path, O_RDONLY);
	printf("open: errno %d\n", fd < 0 ? errno : 0);
	if (fd >= 0)
		close(fd);
	fd = sandbox ? fileargs_open(fa, listed) : open(listed, O_RDONLY);
	if (fd < 0)
		err(1, "%s", listed);
	errno = 0;
	printf("flock: errno %d\n",
	       flock(fd, LOCK_SH | LOCK_NB) < 0 ? errno : 0);
	close(fd);
}

int main(int argc, char **argv)
{
	const char *escape = NULL;
	cap_rights_t rights;
	long lines = 10;
	int ch;

	while ((ch = getopt(argc, argv, "Nn:e:")) != -1) {
		switch (ch) {
		case 'N':
			sandbox = false;
			break;
		case 'n':
			lines = strtol(optarg, NULL, 10);
			break;
		case 'e':
			escape = optarg;
			break;
		default:
			fprintf(stderr, "usage: fa_head [-N] [-n lines] "
					"[-e path] file...\n");
			exit(2);
		}
	}
	argc -= optind;
	argv += optind;

	if (sandbox) {
		fa = fileargs_init(argc, argv, O_RDONLY, 0,
				   cap_rights_init(&rights, CAP_READ, CAP_FSTAT,
						   CAP_FCNTL),
				   FA_OPEN);
		if (!fa)
			err(1, "unable to init casper");
		caph_cache_catpages();
		if (caph_limit_stdio() < 0 || caph_enter_casper() < 0)
			err(1, "unable to enter capability mode");
	}
	for (int i = 0; i < argc; i++) {
		FILE *f = open_file(argv[i]);

		if (!f) {
			warn("%s", argv[i]);
			continue;
		}
		if (argc > 1)
			printf("%s==> %s <==\n", i ? "\n" : "", argv[i]);
		head(f, lines);
		fclose(f);
	}
	if (escape && argc > 0)
		escapes(escape, argv[0]);
	if (sandbox)
		printf("sandboxed %d\n", cap_sandboxed());
	fileargs_free(fa);
	return 0;
}
