// SPDX-License-Identifier: GPL-2.0
/*
 * capctl run --learn's accounting (cli/learn.c) and report
 * (cli/learn_report.c): which option a refusal widens, by how much, and
 * that the report's suggestion is a command line giving that back.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <wordexp.h>

#include <criterion/criterion.h>

#include <capsicum/rights_names.h>

#include "cli/args.h"
#include "cli/learn.h"
#include "cli/run_line.h"

/* The run: capctl run --limit 0=read --limit 1=write --allow-dir ... */
static struct run_opts run;

static void setup_run(void)
{
	memset(&run, 0, sizeof(run));
	run.nlimits = 2;
	run.limits[0].fd = 0;
	cap_rights_init(&run.limits[0].rights, CAP_READ);
	run.limits[1].fd = 1;
	cap_rights_init(&run.limits[1].rights, CAP_WRITE);
	run.ndirs = 3;
	strcpy(run.dirs[0].path, "/srv/data");
	run.dirs[0].limited = true;
	cap_rights_init(&run.dirs[0].rights, CAP_READ, CAP_LOOKUP);
	strcpy(run.dirs[1].path, "/srv/open");
	strcpy(run.dirs[2].path, "/srv/logs");
	run.dirs[2].limited = true;
	cap_rights_init(&run.dirs[2].rights, CAP_WRITE, CAP_LOOKUP, CAP_CREATE);
	static char *argv[] = { "prog", "--flag", NULL };
	run.argv = argv;
}

TestSuite(learn, .init = setup_run);

static struct capsicum_denial refusal(int fd, int nr, const cap_rights_t *need,
				      const cap_rights_t *held)
{
	struct capsicum_denial d = {
		.pid = 100,
		.tid = 100,
		.fd = fd,
		.syscall_nr = nr,
		.hook = CAPSICUM_HOOK_FILE_PERMISSION,
		.error = ENOTCAPABLE,
		.learn_id = 7,
	};

	memcpy(d.needed, need->cr_rights, sizeof(d.needed));
	memcpy(d.held, held->cr_rights, sizeof(d.held));
	return d;
}

static struct capsicum_denial capmode_refusal(int nr)
{
	return (struct capsicum_denial){
		.pid = 100,
		.fd = -1,
		.syscall_nr = nr,
		.hook = CAPSICUM_HOOK_SECCOMP,
		.error = ECAPMODE,
		.learn_id = 7,
	};
}

/* learn_add of one refusal, asserted to fit. */
static void add(struct learn *l, int fd, int nr, const cap_rights_t *need,
		const cap_rights_t *held)
{
	struct capsicum_denial d = refusal(fd, nr, need, held);

	cr_assert_eq(learn_add(l, &d), 0);
}

static char *report(const struct learn *l, const struct run_opts *s, bool json)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cr_assert_not_null(f);
	learn_report(l, s, NULL, f, json);
	fclose(f);
	return buf;
}

static bool rights_eq(const cap_rights_t *a, const cap_rights_t *b)
{
	return !memcmp(a, b, sizeof(*a));
}

/* Every limit and directory as the run had it, but the ones named. */
static void expect_unchanged_but(const struct run_opts *s, int limit, int dir)
{
	for (int i = 0; i < run.nlimits; i++)
		if (i != limit)
			cr_expect(rights_eq(&s->limits[i].rights,
					    &run.limits[i].rights),
				  "limit %d changed", i);
	for (int i = 0; i < run.ndirs; i++)
		if (i != dir && run.dirs[i].limited)
			cr_expect(rights_eq(&s->dirs[i].rights,
					    &run.dirs[i].rights),
				  "dir %d changed", i);
	cr_expect_not(s->dirs[1].limited, "the unlimited directory");
}

/*
 * One refusal against the run of setup_run(): which option it widens
 * (limit or directory index, -1: none) to what, what the report says of
 * it, and whether the suggestion covers it.
 */
static const struct {
	const char *name;
	int fd, nr;
	const char *need, *held; /* rights by name */
	int limit, dir;
	const char *want, *says;
	bool complete;
} rows[] = {
	{ "limit fd", 0, __NR_fstat, "fstat", "read", 0, -1, "read,fstat",
	  "--limit 0, holding read:\n  missing fstat: 1 time; fstat x1; "
	  "hooks file_permission\n",
	  true },
	{ "directory fd", 3, __NR_newfstatat, "fstatat", "read,lookup", -1, 0,
	  "read,lookup,fstat",
	  "/srv/data (fd 3), holding read,lookup:\n  missing fstat: 1 time; "
	  "newfstatat x1",
	  true },
	/* openat() through fd 5 (/srv/logs) gave fd 9 its rights. */
	{ "derived fd", 9, __NR_lseek, "seek", "write,create,lookup", -1, 2,
	  "write,create,lookup,seek",
	  "fd 9, opened through /srv/logs (fd 5), holding "
	  "write,create,lookup:\n  missing seek",
	  true },
	{ "unattributed fd", 7, __NR_write, "write", "read,seek", -1, -1, NULL,
	  "fd 7, holding read,seek:\n    (unattributed", false },
	/* A --limit's fd number holding other rights is someone else's. */
	{ "limit fd, other rights", 0, __NR_write, "write", "read,seek", -1, -1,
	  NULL, "fd 0, holding read,seek:\n    (unattributed", false },
	/* Only what the record needed, and only what was not held. */
	{ "narrow", 0, __NR_pread64, "read,seek", "read", 0, -1, "read,seek",
	  "--limit 0, holding read:\n  missing seek: 1 time", true },
	/* Refused with every right held: no option of ours is the cause. */
	{ "all held", 1, __NR_write, "write", "write", -1, -1, NULL,
	  "--limit 1, holding write:\n  missing none: 1 time", false },
};

static cap_rights_t rights(const char *names)
{
	cap_rights_t r;

	cr_assert_eq(capsicum_rights_parse(names, &r), 0, "%s", names);
	return r;
}

Test(learn, each_refusal_widens_its_option_only)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		cap_rights_t need = rights(rows[i].need);
		cap_rights_t held = rights(rows[i].held);
		struct learn l;
		struct run_opts s;
		cap_rights_t *got = NULL;
		char *out;

		learn_init(&l, &run);
		add(&l, rows[i].fd, rows[i].nr, &need, &held);
		learn_suggest(&l, &s);
		if (rows[i].limit >= 0)
			got = &s.limits[rows[i].limit].rights;
		if (rows[i].dir >= 0)
			got = &s.dirs[rows[i].dir].rights;
		if (got) {
			cap_rights_t want = rights(rows[i].want);

			cr_expect(rights_eq(got, &want), "%s", rows[i].name);
		}
		expect_unchanged_but(&s, rows[i].limit, rows[i].dir);
		cr_expect_eq(learn_complete(&l), rows[i].complete, "%s",
			     rows[i].name);
		out = report(&l, &s, false);
		cr_expect(strstr(out, rows[i].says), "%s:\n%s", rows[i].name,
			  out);
		cr_expect_eq(!strstr(out, "incomplete:"), rows[i].complete,
			     "%s:\n%s", rows[i].name, out);
		free(out);
	}
}

/* Records of one kind are counted together, with their syscalls. */
Test(learn, repeated_refusals_are_counted)
{
	cap_rights_t need = rights("fstat");
	struct learn l;
	struct run_opts s;
	char *out;

	learn_init(&l, &run);
	add(&l, 0, __NR_fstat, &need, &run.limits[0].rights);
	add(&l, 0, __NR_fstat, &need, &run.limits[0].rights);
	add(&l, 0, __NR_newfstatat, &need, &run.limits[0].rights);
	learn_suggest(&l, &s);
	out = report(&l, &s, false);
	cr_expect(strstr(out, "--limit 0, holding read:\n  missing fstat: 3 "
			      "times; fstat x2, newfstatat x1; hooks "
			      "file_permission\nsuggested: capctl run --limit "
			      "0=read,fstat --limit 1=write "),
		  "%s", out);
	free(out);
}

/*
 * The BPF side writes a rights word that names no right as 0 (no index
 * bits): such a record still widens its option.
 */
Test(learn, bpf_records_with_an_empty_word_widen_their_option)
{
	struct capsicum_denial d = refusal(3, __NR_openat, &run.dirs[0].rights,
					   &run.dirs[0].rights);
	cap_rights_t want;
	struct learn l;
	struct run_opts s;

	d.needed[0] = CAP_FSTAT;
	d.needed[1] = 0;
	learn_init(&l, &run);
	cr_assert_eq(learn_add(&l, &d), 0);
	learn_suggest(&l, &s);
	cap_rights_init(&want, CAP_READ, CAP_LOOKUP, CAP_FSTAT);
	cr_expect(rights_eq(&s.dirs[0].rights, &want));
	cr_expect(learn_complete(&l));
}

Test(learn, ambiguous_fd_widens_each_directory)
{
	struct learn l;
	struct run_opts s;
	cap_rights_t need, want;
	char *out;

	run.dirs[2].rights = run.dirs[0].rights;
	learn_init(&l, &run);
	cap_rights_init(&need, CAP_READ, CAP_MMAP_R);
	add(&l, 12, __NR_mmap, &need, &run.dirs[0].rights);
	learn_suggest(&l, &s);
	cap_rights_init(&want, CAP_READ, CAP_LOOKUP, CAP_MMAP_R);
	cr_expect(rights_eq(&s.dirs[0].rights, &want));
	cr_expect(rights_eq(&s.dirs[2].rights, &want));
	out = report(&l, &s, false);
	cr_expect(strstr(out, "fd 12, opened through /srv/data (fd 3) or "
			      "/srv/logs (fd 5), holding read,lookup:\n"),
		  "%s", out);
	cr_expect(strstr(out, "could not tell these directories apart"), "%s",
		  out);
	free(out);
}

Test(learn, capmode_refusals_drop_capmode)
{
	struct learn l;
	struct run_opts s;
	struct capsicum_denial open = capmode_refusal(__NR_open);
	struct capsicum_denial sock = capmode_refusal(__NR_socket);
	char *out;

	run.capmode = true;
	learn_init(&l, &run);
	cr_assert_eq(learn_add(&l, &open), 0);
	cr_assert_eq(learn_add(&l, &open), 0);
	cr_assert_eq(learn_add(&l, &sock), 0);
	learn_suggest(&l, &s);
	cr_expect_not(s.capmode);
	expect_unchanged_but(&s, -1, -1);
	cr_expect(learn_complete(&l));
	out = report(&l, &s, false);
	cr_expect(strstr(out, "capability mode (--capmode) refused 3 calls: "
			      "open x2, socket x1\n  the suggestion drops "
			      "--capmode\n"),
		  "%s", out);
	free(out);

	/* Without --capmode the program entered it: nothing to drop. */
	run.capmode = false;
	learn_init(&l, &run);
	cr_assert_eq(learn_add(&l, &open), 0);
	learn_suggest(&l, &s);
	cr_expect_not(s.capmode);
	cr_expect_not(learn_complete(&l));
	out = report(&l, &s, false);
	cr_expect(strstr(out, "(entered by the program itself) refused 1 "
			      "call: open x1\n"),
		  "%s", out);
	cr_expect(strstr(out, "cannot fix them"), "%s", out);
	free(out);
}

Test(learn, a_full_table_is_incomplete_never_silent)
{
	static struct learn l;
	cap_rights_t need;
	struct capsicum_denial d;
	char *out;

	learn_init(&l, &run);
	cap_rights_init(&need, CAP_FSTAT);
	for (int fd = 100; fd < 100 + LEARN_MAX_GROUPS; fd++)
		add(&l, fd, __NR_fstat, &need, &run.dirs[0].rights);
	d = refusal(1000, __NR_fstat, &need, &run.dirs[0].rights);
	cr_expect_eq(learn_add(&l, &d), -1);
	/* A group already there still counts. */
	d.fd = 100;
	cr_expect_eq(learn_add(&l, &d), 0);
	cr_expect_eq(l.records, LEARN_MAX_GROUPS + 2);
	cr_expect_eq(l.lost, 1);
	cr_expect_not(learn_complete(&l));
	out = report(&l, &run, false);
	cr_expect(strstr(out, "incomplete: 1 records did not fit"), "%s", out);
	free(out);
}

Test(learn, reasons_given_are_listed_once)
{
	struct learn l;
	struct run_opts s;
	char *out;

	learn_init(&l, &run);
	cr_expect(learn_complete(&l));
	learn_incomplete(&l, "records were dropped: the ring buffer was full");
	learn_incomplete(&l, "records were dropped: the ring buffer was full");
	cr_expect_not(learn_complete(&l));
	learn_suggest(&l, &s);
	out = report(&l, &s, false);
	cr_expect(strstr(out, "nothing would have been refused\nincomplete: "
			      "records were dropped: the ring buffer was "
			      "full\nsuggested: "),
		  "%s", out);
	cr_expect_null(strstr(strstr(out, "ring buffer") + 1, "ring buffer"),
		       "%s", out);
	free(out);
}

/* The words of the "suggested: " line, as a shell would split them. */
static char **suggested_words(const char *out, wordexp_t *w)
{
	const char *line = strstr(out, "suggested: ");
	char text[8192];

	cr_assert_not_null(line, "%s", out);
	line += strlen("suggested: ");
	snprintf(text, sizeof(text), "%.*s", (int)strcspn(line, "\n"), line);
	cr_assert_eq(wordexp(text, w, WRDE_NOCMD | WRDE_UNDEF), 0, "%s", text);
	return w->we_wordv;
}

Test(learn, suggestion_parses_back_to_the_suggested_options)
{
	static char *argv[] = { "my prog", "it's", "$HOME", "*", "", NULL };
	static struct capctl_args a;
	struct learn l;
	struct run_opts s;
	cap_rights_t need;
	char err[256], *out;
	wordexp_t w;

	run.argv = argv;
	strcpy(run.dirs[1].path, "/srv/o pen=read"); /* no rights, though */
	run.allow_procfs = true;
	learn_init(&l, &run);
	cap_rights_init(&need, CAP_FSTAT);
	add(&l, 0, __NR_fstat, &need, &run.limits[0].rights);
	add(&l, 11, __NR_fstat, &need, &run.dirs[2].rights);
	learn_suggest(&l, &s);
	out = report(&l, &s, false);
	suggested_words(out, &w);
	cr_assert_eq(
		capctl_parse((int)w.we_wordc, w.we_wordv, &a, err, sizeof(err)),
		0, "%s", err);
	cr_expect_eq(a.cmd, CMD_RUN);
	cr_assert_eq(a.run.nlimits, s.nlimits);
	for (int i = 0; i < s.nlimits; i++) {
		cr_expect_eq(a.run.limits[i].fd, s.limits[i].fd);
		cr_expect(rights_eq(&a.run.limits[i].rights,
				    &s.limits[i].rights));
	}
	cr_assert_eq(a.run.ndirs, s.ndirs);
	for (int i = 0; i < s.ndirs; i++) {
		cr_expect_eq(a.run.dirs[i].limited, s.dirs[i].limited);
		if (s.dirs[i].limited) {
			cr_expect_str_eq(a.run.dirs[i].path, s.dirs[i].path);
			cr_expect(rights_eq(&a.run.dirs[i].rights,
					    &s.dirs[i].rights));
		}
	}
	/* "/srv/o pen=read" unlimited is written as the same directory. */
	cr_expect_str_eq(a.run.dirs[1].path, "/srv/o pen=read/");
	cr_expect_eq(a.run.capmode, s.capmode);
	cr_expect(a.run.allow_procfs);
	cr_expect_not(a.run.learn);
	for (int i = 0; argv[i] || a.run.argv[i]; i++)
		cr_expect_str_eq(a.run.argv[i], argv[i]);
	wordfree(&w);
	free(out);
}

static char *quoted(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	shell_quote(f, s);
	fclose(f);
	return buf;
}

Test(learn, awkward_arguments_are_quoted)
{
	static const struct {
		const char *arg, *want;
	} rows[] = {
		{ "plain-word_1.txt", "plain-word_1.txt" },
		{ "a=b:c,d/e@f%g+h", "a=b:c,d/e@f%g+h" },
		{ "", "''" },
		{ "two words", "'two words'" },
		{ "it's", "'it'\\''s'" },
		{ "$HOME", "'$HOME'" },
		{ "~", "'~'" },
		{ "a;rm -rf /", "'a;rm -rf /'" },
		{ "`x`", "'`x`'" },
		{ "caf\xc3\xa9", "'caf\xc3\xa9'" },
		{ "line\nbreak", "$'line\\nbreak'" },
		{ "tab\tq'\\\x01", "$'tab\\tq\\'\\\\\\x01'" },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		char *q = quoted(rows[i].arg);
		wordexp_t w;

		cr_expect_str_eq(q, rows[i].want, "row %zu", i);
		/* A shell reads the ones without control characters back. */
		if (!strchr(q, '$') || q[0] == '\'') {
			cr_assert_eq(wordexp(q, &w, WRDE_NOCMD | WRDE_UNDEF), 0,
				     "%s", q);
			cr_expect_eq(w.we_wordc, 1, "%s", q);
			cr_expect_str_eq(w.we_wordv[0], rows[i].arg, "%s", q);
			wordfree(&w);
		}
		free(q);
	}
}

/*
 * A strict reader of one JSON value (RFC 8259): returns the text after
 * it, or NULL if it is not JSON.
 */
static const char *json_value(const char *p, int depth);

static const char *json_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

static const char *json_str(const char *p)
{
	if (*p++ != '"')
		return NULL;
	for (; *p != '"'; p++) {
		if ((unsigned char)*p < 0x20)
			return NULL;
		if (*p != '\\')
			continue;
		p++;
		if (*p == 'u') {
			for (int i = 1; i <= 4; i++)
				if (!strchr("0123456789abcdefABCDEF", p[i]) ||
				    !p[i])
					return NULL;
			p += 4;
		} else if (!*p || !strchr("\"\\/bfnrt", *p)) {
			return NULL;
		}
	}
	return p + 1;
}

static const char *json_container(const char *p, int depth, char close)
{
	p = json_ws(p + 1);
	if (*p == close)
		return p + 1;
	for (;;) {
		if (close == '}') {
			p = json_str(json_ws(p));
			if (!p || *(p = json_ws(p)) != ':')
				return NULL;
			p++;
		}
		p = json_value(p, depth + 1);
		if (!p)
			return NULL;
		p = json_ws(p);
		if (*p == close)
			return p + 1;
		if (*p++ != ',')
			return NULL;
	}
}

static const char *json_value(const char *p, int depth)
{
	char *end;

	p = json_ws(p);
	if (depth > 32)
		return NULL;
	if (*p == '{')
		return json_container(p, depth, '}');
	if (*p == '[')
		return json_container(p, depth, ']');
	if (*p == '"')
		return json_str(p);
	for (const char *const *k =
		     (const char *const[]){ "true", "false", "null", NULL };
	     *k; k++)
		if (!strncmp(p, *k, strlen(*k)))
			return p + strlen(*k);
	if (*p != '-' && (*p < '0' || *p > '9'))
		return NULL;
	strtod(p, &end);
	return end == p ? NULL : end;
}

Test(learn, json_report_is_one_valid_object)
{
	struct learn l;
	struct run_opts s;
	struct capsicum_denial open = capmode_refusal(__NR_open);
	struct capsicum_denial quota = { .error = EDQUOT,
					 .hook = CAPSICUM_HOOK_QUOTA };
	cap_rights_t need, held;
	char *out;
	const char *end;

	static char *argv[] = { "prog", "a \"quoted\"\narg", NULL };
	run.argv = argv;
	run.capmode = true;
	learn_init(&l, &run);
	cap_rights_init(&need, CAP_FSTAT);
	cap_rights_init(&held, CAP_EVENT);
	add(&l, 0, __NR_fstat, &need, &run.limits[0].rights);
	add(&l, 3, -1, &need, &run.dirs[0].rights);
	add(&l, 8, __NR_fstat, &need, &held);
	cr_assert_eq(learn_add(&l, &open), 0);
	cr_assert_eq(learn_add(&l, &quota), 0);
	learn_incomplete(&l, "a \"reason\"");
	learn_suggest(&l, &s);
	out = report(&l, &s, true);
	end = json_value(out, 0);
	cr_assert_not_null(end, "%s", out);
	cr_expect_str_eq(json_ws(end), "", "one object: %s", out);
	cr_expect(strstr(out, "\"records\":5,"), "%s", out);
	cr_expect(strstr(out, "{\"fd\":0,\"attribution\":\"limit\",\"what\":"
			      "\"--limit 0\",\"held\":\"read\",\"refusals\":"
			      "[{\"missing\":\"fstat\",\"count\":1,"
			      "\"syscalls\":[{\"name\":\"fstat\",\"nr\":5,"
			      "\"count\":1}],\"other_syscalls\":0,\"hooks\":"
			      "[\"file_permission\"]}]}"),
		  "%s", out);
	cr_expect(strstr(out, "\"attribution\":\"dir\""), "%s", out);
	cr_expect(strstr(out, "{\"name\":\"?\",\"nr\":-1,"), "%s", out);
	cr_expect(strstr(out, "\"attribution\":\"unattributed\""), "%s", out);
	cr_expect(strstr(out, "\"capmode\":{\"entered_by\":\"capctl\","
			      "\"count\":1,\"syscalls\":[{\"name\":\"open\","
			      "\"nr\":2,\"count\":1}],\"dropped\":true}"),
		  "%s", out);
	cr_expect(strstr(out, "\"error_name\":\"EDQUOT\",\"hook\":\"quota\""),
		  "%s", out);
	cr_expect(strstr(out, "\"complete\":false,\"incomplete\":[\"a "
			      "\\\"reason\\\"\","),
		  "%s", out);
	cr_expect(strstr(out, "\"suggested\":[\"capctl\",\"run\",\"--limit\","
			      "\"0=read,fstat\",\"--limit\",\"1=write\","
			      "\"--allow-dir\",\"/srv/data=read,lookup,fstat\","
			      "\"--allow-dir\",\"/srv/open\",\"--allow-dir\","
			      "\"/srv/logs=write,create,lookup\",\"--\","
			      "\"prog\",\"a \\\"quoted\\\"\\narg\"]}\n"),
		  "%s", out);
	free(out);
}
