// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "policy.h"

#include "run_line.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FAIL(...)                                                              \
	do {                                                                   \
		snprintf(err, len, __VA_ARGS__);                               \
		return -1;                                                     \
	} while (0)

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * Whether the line "allow-dir WORD" reads back as d: the reader trims
 * blanks and a line ends at its newline, so such paths cannot be kept.
 */
static bool dir_fits_a_line(const struct allow_dir *d, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = d->path; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return false;
	return n && !blank(word[0]) && !blank(word[n - 1]) &&
	       n + sizeof("allow-dir \n") <= POLICY_MAX_LINE;
}

static void write_header(FILE *f, const struct run_opts *r)
{
	fputs("# capctl policy, learnt by capctl run --learn from the "
	      "command:\n#  ",
	      f);
	for (size_t i = 0; r->argv && r->argv[i]; i++) {
		fputc(' ', f);
		/* Quoted on one line: a newline would end the comment. */
		shell_quote(f, r->argv[i]);
	}
	fputs("\n# Review it before use: capctl run --policy FILE -- CMD "
	      "[ARGS]\n",
	      f);
}

static int write_body(FILE *f, const struct run_opts *r, char *err, size_t len)
{
	char word[POLICY_MAX_LINE];

	if (r->capmode)
		fputs("capmode\n", f);
	if (r->allow_procfs)
		fputs("allow-procfs\n", f);
	for (int i = 0; i < r->nlimits; i++) {
		limit_word(&r->limits[i], word, sizeof(word));
		fprintf(f, "limit %s\n", word);
	}
	if (r->ndirs)
		fputs("# directories, opened in this order at fds 3, 4, ...\n",
		      f);
	for (int i = 0; i < r->ndirs; i++) {
		allow_dir_word(&r->dirs[i], word, sizeof(word));
		if (!dir_fits_a_line(&r->dirs[i], word))
			FAIL("--allow-dir %s: a policy line cannot hold this "
			     "path (control characters, blanks at either end "
			     "or too long)",
			     r->dirs[i].path);
		fprintf(f, "allow-dir %s\n", word);
	}
	return 0;
}

int policy_write(const struct run_opts *r, const char *path, char *err,
		 size_t len)
{
	char tmp[4096 + 16];
	FILE *f;
	int fd;

	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp))
		FAIL("%s: path too long", path);
	fd = mkstemp(tmp);
	if (fd < 0)
		FAIL("%s: cannot create a temporary file beside it: %s", path,
		     strerror(errno));
	/* Read by people and other tools; it holds no secret. */
	fchmod(fd, 0644);
	f = fdopen(fd, "w");
	if (!f) {
		snprintf(err, len, "%s: %s", tmp, strerror(errno));
		close(fd);
		unlink(tmp);
		return -1;
	}
	write_header(f, r);
	if (write_body(f, r, err, len)) {
		fclose(f);
		unlink(tmp);
		return -1;
	}
	/* The data reaches the disk before the name points at it. */
	if (fflush(f) || ferror(f) || fsync(fd)) {
		snprintf(err, len, "%s: %s", tmp, strerror(errno));
		fclose(f);
		unlink(tmp);
		return -1;
	}
	if (fclose(f) || rename(tmp, path)) {
		snprintf(err, len, "%s: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* One line, blanks trimmed, not a comment: applied to r. */
static int read_line(char *line, struct run_opts *r, const char *where,
		     char *err, size_t len)
{
	char *arg = line + strcspn(line, " \t");

	if (*arg) {
		*arg++ = '\0';
		while (blank(*arg))
			arg++;
	}
	if (!strcmp(line, "capmode") || !strcmp(line, "allow-procfs")) {
		if (*arg)
			FAIL("%s: %s takes no argument", where, line);
		if (line[0] == 'c')
			r->capmode = true;
		else
			r->allow_procfs = true;
	} else if (!strcmp(line, "limit")) {
		struct fd_limit l;

		if (parse_limit(arg, &l))
			FAIL("%s: limit %s: expected FD=RIGHTS (e.g. "
			     "3=read,seek)",
			     where, arg);
		for (int i = 0; i < r->nlimits; i++)
			if (r->limits[i].fd == l.fd)
				FAIL("%s: fd %d is limited twice", where, l.fd);
		if (r->nlimits == CAPCTL_MAX_LIMITS)
			FAIL("%s: at most %d limit lines", where,
			     CAPCTL_MAX_LIMITS);
		r->limits[r->nlimits++] = l;
	} else if (!strcmp(line, "allow-dir")) {
		if (r->ndirs == CAPCTL_MAX_DIRS)
			FAIL("%s: at most %d allow-dir lines", where,
			     CAPCTL_MAX_DIRS);
		if (parse_allow_dir(arg, &r->dirs[r->ndirs]))
			FAIL("%s: allow-dir %s: expected PATH[=RIGHTS]", where,
			     arg);
		r->ndirs++;
	} else {
		FAIL("%s: unknown line \"%s\" (expected limit, allow-dir, "
		     "capmode or allow-procfs)",
		     where, line);
	}
	return 0;
}

int policy_read(const char *path, struct run_opts *r, char *err, size_t len)
{
	char line[POLICY_MAX_LINE], where[4096 + 16];
	FILE *f = fopen(path, "re");
	int rc = 0;

	if (!f)
		FAIL("--policy %s: %s", path, strerror(errno));
	r->nlimits = 0;
	r->ndirs = 0;
	r->capmode = false;
	r->allow_procfs = false;
	for (unsigned n = 1; !rc && fgets(line, sizeof(line), f); n++) {
		size_t end = strlen(line);
		char *s = line;

		if ((!end || line[end - 1] != '\n') && !feof(f)) {
			snprintf(err, len, "%s:%u: longer than %d bytes", path,
				 n, POLICY_MAX_LINE - 1);
			rc = -1;
			break;
		}
		while (end && (blank(line[end - 1]) || line[end - 1] == '\n' ||
			       line[end - 1] == '\r'))
			line[--end] = '\0';
		while (blank(*s))
			s++;
		if (!*s || *s == '#')
			continue;
		snprintf(where, sizeof(where), "%s:%u", path, n);
		rc = read_line(s, r, where, err, len);
	}
	if (!rc && ferror(f)) {
		snprintf(err, len, "--policy %s: %s", path, strerror(errno));
		rc = -1;
	}
	fclose(f);
	return rc;
}
