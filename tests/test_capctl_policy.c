// SPDX-License-Identifier: GPL-2.0
/*
 * capctl run's policy file (cli/policy.c): written and read back, its
 * errors and bounds. --policy on the command line: test_capctl_args.c.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "cli/args.h"
#include "cli/policy.h"

/* A private directory for the files of one test. */
static char dir[64];

static void make_dir(void)
{
	strcpy(dir, "/tmp/capctl-policy-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
}

static void remove_dir(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.')
			unlinkat(dirfd(d), e->d_name, 0);
	if (d)
		closedir(d);
	rmdir(dir);
}

TestSuite(policy, .init = make_dir, .fini = remove_dir);

static const char *file(const char *name)
{
	static char path[128];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

static const char *write_file(const char *name, const char *text)
{
	const char *path = file(name);
	FILE *f = fopen(path, "w");

	cr_assert_not_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

static int entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	cr_assert_not_null(d);
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

static void expect_same(const struct run_opts *a, const struct run_opts *b)
{
	cr_assert_eq(a->nlimits, b->nlimits);
	for (int i = 0; i < a->nlimits; i++) {
		cr_expect_eq(a->limits[i].fd, b->limits[i].fd);
		cr_expect_arr_eq(&a->limits[i].rights, &b->limits[i].rights,
				 sizeof(cap_rights_t));
	}
	cr_assert_eq(a->ndirs, b->ndirs);
	for (int i = 0; i < a->ndirs; i++) {
		cr_expect_str_eq(a->dirs[i].path, b->dirs[i].path);
		cr_expect_eq(a->dirs[i].limited, b->dirs[i].limited);
		if (a->dirs[i].limited)
			cr_expect_arr_eq(&a->dirs[i].rights, &b->dirs[i].rights,
					 sizeof(cap_rights_t));
	}
	cr_expect_eq(a->capmode, b->capmode);
	cr_expect_eq(a->allow_procfs, b->allow_procfs);
}

Test(policy, written_then_read_is_the_same)
{
	static char *argv[] = { "capctl",      "run",
				"--limit",     "0=read,fstat",
				"--limit",     "2=none",
				"--allow-dir", "/srv/my data=lookup,read",
				"--allow-dir", "/var/#x=y",
				"--allow-dir", "/a=b=seek",
				"--capmode",   "--allow-procfs",
				"--",	       "prog",
				"--x",	       "a\nb",
				NULL };
	static struct capctl_args a;
	static struct run_opts back;
	struct run_opts *r = &a.run;
	char err[256], text[4096];
	const char *path = file("p.policy");
	FILE *f;
	size_t n;

	cr_assert_eq(capctl_parse(sizeof(argv) / sizeof(argv[0]) - 1, argv, &a,
				  err, sizeof(err)),
		     0, "%s", err);
	cr_assert_eq(r->ndirs, 3);
	cr_assert_not(r->dirs[1].limited);
	cr_assert_eq(policy_write(r, path, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(entries(), 1, "no temporary file left");
	cr_assert_eq(policy_read(path, &back, err, sizeof(err)), 0, "%s", err);
	expect_same(r, &back);
	f = fopen(path, "r");
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	/* The command is named in the header, quoted on its line. */
	cr_expect(strstr(text, "# capctl policy, learnt by capctl run --learn "
			       "from the command:\n#   prog --x $'a\\nb'\n"),
		  "%s", text);
	cr_expect(strstr(text, "\nlimit 0=read,fstat\nlimit 2=none\n"), "%s",
		  text);
	cr_expect(strstr(text, "\nallow-dir /srv/my data=read,lookup\n"
			       "allow-dir /var/#x=y\nallow-dir /a=b=seek\n"),
		  "%s", text);
	cr_expect_null(strstr(text, "\nprog"), "%s", text);

	/* Written again over the first: replaced whole. */
	r->capmode = false;
	r->ndirs = 0;
	cr_assert_eq(policy_write(r, path, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(policy_read(path, &back, err, sizeof(err)), 0, "%s", err);
	expect_same(r, &back);
	cr_expect_eq(entries(), 1);
}

/* Paths a line cannot hold are refused, and nothing is left behind. */
Test(policy, unwritable_paths_are_refused)
{
	static struct run_opts r;
	char err[256];

	r.ndirs = 1;
	strcpy(r.dirs[0].path, "/tmp/new\nline");
	cr_expect_eq(policy_write(&r, file("p"), err, sizeof(err)), -1);
	cr_expect(strstr(err, "cannot hold"), "%s", err);
	strcpy(r.dirs[0].path, " /tmp");
	cr_expect_eq(policy_write(&r, file("p"), err, sizeof(err)), -1);
	cr_expect_eq(entries(), 0);
	r.ndirs = 0;
	cr_expect_eq(policy_write(&r, "/nonexistent/dir/p", err, sizeof(err)),
		     -1);
	cr_expect(strstr(err, "/nonexistent/dir/p"), "%s", err);
}

Test(policy, comments_blanks_and_a_line_without_newline)
{
	static struct run_opts r;
	char err[256];
	const char *path = write_file("p", "# top\n\n  \t\n  limit 1=write  \n"
					   "\t# indented comment\n"
					   "allow-dir\t/tmp\r\ncapmode");

	cr_assert_eq(policy_read(path, &r, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(r.nlimits, 1);
	cr_expect_eq(r.limits[0].fd, 1);
	cr_expect_eq(r.ndirs, 1);
	cr_expect_str_eq(r.dirs[0].path, "/tmp");
	cr_expect(r.capmode);
	cr_expect_not(r.allow_procfs);
}

Test(policy, errors_name_the_line)
{
	static const struct {
		const char *text, *err;
	} rows[] = {
		{ "# c\n\nfrob 1\n", ":3: unknown line \"frob\"" },
		{ "limit 0=read\nlimit 0=write\n",
		  ":2: fd 0 is limited twice" },
		{ "limit 0=bogus\n", ":1: limit 0=bogus: expected FD=RIGHTS" },
		{ "limit\n", ":1: limit : expected FD=RIGHTS" },
		{ "capmode\ncapmode now\n", ":2: capmode takes no argument" },
		{ "allow-procfs x\n", ":1: allow-procfs takes no argument" },
		{ "allow-dir\n", ":1: allow-dir : expected PATH[=RIGHTS]" },
		{ "limit 0=read # stdin\n", ":1: limit 0=read # stdin" },
	};
	char err[256];

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		static struct run_opts r;
		const char *path = write_file("p", rows[i].text);

		cr_expect_eq(policy_read(path, &r, err, sizeof(err)), -1,
			     "row %zu", i);
		cr_expect(!strncmp(err, path, strlen(path)) &&
				  strstr(err, rows[i].err),
			  "row %zu: %s", i, err);
	}
}

Test(policy, bounds)
{
	static struct run_opts r;
	char err[256];
	char *text = malloc(POLICY_MAX_LINE + 64);
	const char *path;
	size_t o = 0;

	cr_assert_not_null(text);
	for (int i = 0; i <= CAPCTL_MAX_LIMITS; i++)
		o += (size_t)sprintf(text + o, "limit %d=read\n", i);
	path = write_file("p", text);
	cr_expect_eq(policy_read(path, &r, err, sizeof(err)), -1);
	cr_expect(strstr(err, ":65: at most 64 limit lines"), "%s", err);

	o = (size_t)sprintf(text, "capmode\nallow-dir /");
	memset(text + o, 'x', POLICY_MAX_LINE);
	strcpy(text + o + POLICY_MAX_LINE, "\n");
	path = write_file("p", text);
	cr_expect_eq(policy_read(path, &r, err, sizeof(err)), -1);
	cr_expect(strstr(err, ":2: longer than 8191 bytes"), "%s", err);
	free(text);

	cr_expect_eq(policy_read(file("missing"), &r, err, sizeof(err)), -1);
	cr_expect(strstr(err, "No such file"), "%s", err);
}
