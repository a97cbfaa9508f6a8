// SPDX-License-Identifier: BSD-2-Clause
/*
 * A cat(1) sandboxed the way FreeBSD's base utilities are: limit stdio,
 * cache what libc loads lazily, enter capability mode, then work. Built
 * against the installed library through pkg-config only (Makefile), so it
 * also proves a FreeBSD-style program needs no shim. Copies stdin to
 * stdout with stdio, then reports what glibc must still manage in the
 * sandbox: isatty() and the window size of stderr, and the local time of a
 * fixed instant.
 *
 * usage: caph_cat [-n] [-T] [-e]
 *   -n  no Capsicum at all: the reference run the sandboxed output must match
 *   -T  skip caph_cache_tzdata(): the fault that shows the time test can fail
 *   -e  then try two escapes and print their errno (0 if they succeeded)
 */
#include <sys/ioctl.h>

#include <capsicum_helpers.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* 2023-11-14 22:13:20 UTC: winter time in Europe, so the zone shows. */
#define FIXED_TIME 1700000000

static void usage(void)
{
	fprintf(stderr, "usage: caph_cat [-n] [-T] [-e]\n");
	exit(2);
}

static void copy(void)
{
	char buf[4096];
	size_t n;

	while ((n = fread(buf, 1, sizeof(buf), stdin)) > 0)
		if (fwrite(buf, 1, n, stdout) != n)
			err(1, "stdout");
	if (ferror(stdin))
		err(1, "stdin");
}

static void report(void)
{
	time_t t = FIXED_TIME;
	struct winsize ws;
	char when[64];

	printf("isatty(stderr) %d\n", isatty(STDERR_FILENO));
	printf("TIOCGWINSZ(stderr) %s\n",
	       ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 ? "ok"
							  : strerror(errno));
	if (!strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S %Z",
		      localtime(&t)))
		errx(1, "strftime");
	printf("localtime %s\n", when);
}

static void escapes(void)
{
	int fd;

	printf("sandboxed %d\n", cap_sandboxed());
	errno = 0;
	fd = open("/etc/passwd", O_RDONLY);
	printf("open /etc/passwd: errno %d\n", fd < 0 ? errno : 0);
	errno = 0;
	printf("write stdin: errno %d\n",
	       write(STDIN_FILENO, "x", 1) < 0 ? errno : 0);
}

int main(int argc, char **argv)
{
	bool sandbox = true, tzdata = true, escape = false;
	int ch;

	while ((ch = getopt(argc, argv, "nTe")) != -1) {
		switch (ch) {
		case 'n':
			sandbox = false;
			break;
		case 'T':
			tzdata = false;
			break;
		case 'e':
			escape = true;
			break;
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();

	if (sandbox) {
		if (caph_limit_stdio() < 0)
			err(1, "caph_limit_stdio");
		if (tzdata)
			caph_cache_tzdata();
		caph_cache_catpages();
		if (caph_enter() < 0)
			err(1, "caph_enter");
	}
	copy();
	report();
	if (escape)
		escapes();
	if (fflush(stdout))
		err(1, "stdout");
	return 0;
}
