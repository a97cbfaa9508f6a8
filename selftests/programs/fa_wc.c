// SPDX-License-Identifier: BSD-2-Clause
/*
 * A wc(1) sandboxed as FreeBSD's is: stdio limited, the named files handed
 * to fileargs with read rights only, capability mode, then every file
 * opened through fileargs. Built against the installed tree through
 * pkg-config only (Makefile).
 *
 * usage: fa_wc [-n] [-e PATH] FILE...
 *   -n       no Capsicum: the reference run
 *   -e PATH  then try escapes and print their errno (0 if they worked):
 *            fileargs_open(PATH), open(PATH), flock(2) of a file
 *            opened (fileargs grants no CAP_FLOCK)
 */
#include <sys/file.h>

#include <capsicum_helpers.h>
#include <casper/cap_fileargs.h>
#include <ctype.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static fileargs_t *fa;
static bool sandbox = true;
static unsigned long tlines, twords, tbytes;

static int open_file(const char *name)
{
	return sandbox ? fileargs_open(fa, name) : open(name, O_RDONLY);
}

static void cnt(const char *name)
{
	unsigned long lines = 0, words = 0, bytes = 0;
	bool inword = false;
	FILE *f;
	int fd, c;

	fd = open_file(name);
	if (fd < 0 || !(f = fdopen(fd, "r"))) {
		warn("%s", name);
		return;
	}
	while ((c = getc(f)) != EOF) {
		bytes++;
		if (c == '\n')
			lines++;
		if (isspace(c))
			inword = false;
		else if (!inword) {
			inword = true;
			words++;
		}
	}
	fclose(f);
	printf(" %7lu %7lu %7lu %s\n", lines, words, bytes, name);
	tlines += lines;
	twords += words;
	tbytes += bytes;
}

static void escapes(const char *path, const char *listed)
{
	int fd;

	errno = 0;
	fd = sandbox ? fileargs_open(fa, path) : open(path, O_RDONLY);
	printf("fileargs_open %s: errno %d\n", path, fd < 0 ? errno : 0);
	if (fd >= 0)
		close(fd);
	errno = 0;
	fd = open(path, O_RDONLY);
	printf("open %s: errno %d\n", path, fd < 0 ? errno : 0);
	if (fd >= 0)
		close(fd);
	fd = open_file(listed);
	if (fd < 0)
		err(1, "%s", listed);
	errno = 0;
	printf("flock %s: errno %d\n", listed,
	       flock(fd, LOCK_SH | LOCK_NB) < 0 ? errno : 0);
	close(fd);
}

int main(int argc, char **argv)
{
	const char *escape = NULL;
	cap_rights_t rights;
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
				"usage: fa_wc [-n] [-e path] file...\n");
			exit(2);
		}
	}
	argc -= optind;
	argv += optind;

	if (sandbox) {
		fa = fileargs_init(argc, argv, O_RDONLY, 0,
				   cap_rights_init(&rights, CAP_READ, CAP_FSTAT,
						   CAP_FCNTL, CAP_SEEK),
				   FA_OPEN);
		if (!fa)
			err(1, "unable to open system.fileargs service");
		caph_cache_catpages();
		if (caph_limit_stdio() < 0 || caph_enter_casper() < 0)
			err(1, "unable to enter capability mode");
	}
	for (i = 0; i < argc; i++)
		cnt(argv[i]);
	if (argc > 1)
		printf(" %7lu %7lu %7lu total\n", tlines, twords, tbytes);
	if (escape && argc > 0)
		escapes(escape, argv[0]);
	if (sandbox)
		printf("sandboxed %d\n", cap_sandboxed());
	fileargs_free(fa);
	return 0;
}
