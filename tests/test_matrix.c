// SPDX-License-Identifier: GPL-2.0
/*
 * The enforcement matrix is checked, not trusted: every "yes" row of
 * doc/enforcement.md must name its proof in backticks, every name there
 * must be a selftest or a table row the selftest binary really has
 * (`capsicum_selftests --list`, which loads nothing and so runs on the
 * host), and every table row must be cited by some row: a "yes" row's
 * proof, or the rows a "no" row names as pinning its gap (optional).
 * One table holds both kernels: a row the stock kernels do not enforce
 * ("no" in its "stock" column) must say what the patched kernel does:
 * "yes", proven like any other, or "no: REASON".
 *
 * Only tables whose header has a "stock" or "patched" and a "proof" (or
 * "rows") column are read, so other tables in the page are left alone.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "mdtable.h"
#include "optable_doc.h"

#ifndef SELFTESTS_BIN
#error "SELFTESTS_BIN: the selftest binary (set by the Makefile)"
#endif
#ifndef MATRIX_DOC
#error "MATRIX_DOC: doc/enforcement.md (set by the Makefile)"
#endif
#ifndef SECURITY_DOC
#error "SECURITY_DOC: doc/security.md (set by the Makefile)"
#endif

#define MAX_NAMES 1024

struct names {
	char *v[MAX_NAMES];
	size_t n;
};

static bool has(const struct names *s, const char *name, size_t len)
{
	for (size_t i = 0; i < s->n; i++)
		if (strlen(s->v[i]) == len && !strncmp(s->v[i], name, len))
			return true;
	return false;
}

static void add(struct names *s, const char *name, size_t len)
{
	cr_assert_lt(s->n, MAX_NAMES, "more than %d names", MAX_NAMES);
	s->v[s->n++] = strndup(name, len);
}

/* A verdict that some form of the call is enforced. */
static bool says_yes(const char *cell)
{
	enum opt_verdict v;

	return !optable_verdict_of(cell, &v) && (v == OPT_YES || v == OPT_PART);
}

static bool says_no(const char *cell)
{
	enum opt_verdict v;

	return !optable_verdict_of(cell, &v) && (v == OPT_NO || v == OPT_LIB);
}

/* "no: WHY" or "libcapsicum only: WHY" with some WHY. */
static bool gives_reason(const char *cell)
{
	const char *colon = strchr(cell, ':');

	return says_no(cell) && colon && colon[1 + strspn(colon + 1, " ")];
}

/*
 * Checks doc against the known test and row names; rows must also be
 * cited, by a "yes" row or as the pin of a "no" row's gap. Returns the number
 * of problems, listed in r.
 */
static int check_matrix(const char *doc, const struct names *known,
			const struct names *rows, struct report *r)
{
	struct names cited = { .n = 0 };
	char *copy = strdup(doc), *rest = copy, *line, *cells[MAX_CELLS];
	int stock = -1, patched = -1, proof = -1, rows_col = -1, lineno = 0;
	bool in_table = false;

	r->f = open_memstream(&r->text, &r->len);
	/* strsep, not strtok: a blank line ends a table. */
	while ((line = strsep(&rest, "\n"))) {
		int n = split_cells(line, cells);

		lineno++;
		if (!n) {
			in_table = false;
			continue;
		}
		if (!in_table) { /* the header row */
			in_table = true;
			stock = column(cells, n, "stock");
			patched = column(cells, n, "patched");
			proof = column(cells, n, "proof");
			/* The generated index names rows, not proofs. */
			rows_col = column(cells, n, "rows");
			if (proof < 0)
				proof = rows_col;
			continue;
		}
		if ((stock < 0 && patched < 0) || proof < 0 || proof >= n ||
		    stock >= n || patched >= n || !strncmp(cells[0], "---", 3))
			continue;
		bool yes = (stock >= 0 && says_yes(cells[stock])) ||
			   (patched >= 0 && says_yes(cells[patched]));
		int names_here = 0;

		if (stock >= 0 && patched >= 0 && says_no(cells[stock]) &&
		    !says_yes(cells[patched]) && !gives_reason(cells[patched]))
			problem(r,
				"line %d (%s, %s): a stock \"no\" needs a "
				"patched \"yes\" or \"no: REASON\"",
				lineno, cells[0], cells[1]);

		for (char *p = cells[proof]; (p = strchr(p, '`'));) {
			char *end = strchr(++p, '`');

			if (!end)
				break;
			names_here++;
			if (!has(known, p, end - p))
				problem(r,
					"line %d (%s): proof `%.*s` is no "
					"selftest or row of --list",
					lineno, cells[0], (int)(end - p), p);
			else if (!has(&cited, p, end - p))
				add(&cited, p, end - p);
			p = end + 1;
		}
		if (yes && !names_here && proof != rows_col)
			problem(r, "line %d (%s, %s): \"yes\" without a proof",
				lineno, cells[0], cells[1]);
	}
	for (size_t i = 0; i < rows->n; i++)
		if (!has(&cited, rows->v[i], strlen(rows->v[i])))
			problem(r, "row `%s` is cited by no row of the doc",
				rows->v[i]);
	fclose(r->f);
	free(copy);
	for (size_t i = 0; i < cited.n; i++)
		free(cited.v[i]);
	return r->problems;
}

/* The names `capsicum_selftests --list` knows: tests and table rows. */
static void load_known(struct names *known, struct names *rows)
{
	FILE *list = popen(SELFTESTS_BIN " --list", "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;

	cr_assert_not_null(list, "cannot run %s --list", SELFTESTS_BIN);
	while ((len = getline(&line, &cap, list)) > 0) {
		bool row = !strncmp(line, "row ", 4);

		if (line[len - 1] == '\n')
			line[--len] = '\0';
		/* A row's right follows a tab (tests/test_optable.c). */
		if (row && strchr(line, '\t'))
			*strchr(line, '\t') = '\0';
		if (row || !strncmp(line, "test ", 5)) {
			const char *name = line + (row ? 4 : 5);

			/* A cited name must mean one thing. */
			cr_expect_not(has(known, name, strlen(name)),
				      "name `%s` listed twice", name);
			add(known, name, strlen(name));
			if (row)
				add(rows, name, strlen(name));
		}
	}
	free(line);
	cr_assert_eq(pclose(list), 0, "%s --list failed", SELFTESTS_BIN);
	cr_assert_gt(rows->n, 0, "--list named no rows");
}

Test(matrix, every_yes_names_an_existing_proof)
{
	struct names known = { .n = 0 }, rows = { .n = 0 };
	struct report r = { .problems = 0 };
	char *doc;

	load_known(&known, &rows);
	doc = slurp(MATRIX_DOC);
	cr_expect_eq(check_matrix(doc, &known, &rows, &r), 0,
		     "%s disagrees with the selftests:\n%s", MATRIX_DOC,
		     r.text);
	free(r.text);
	free(doc);
}

/*
 * doc/security.md's escape table: each escape names the selftests that
 * keep it closed, and those must exist; "none" only where the row says
 * the escape is not closed.
 */
Test(matrix, every_escape_names_existing_selftests)
{
	struct names known = { .n = 0 }, rows = { .n = 0 };
	char *doc, *rest, *line, *cells[MAX_CELLS];
	int test = -1, closed = -1, escapes = 0;

	load_known(&known, &rows);
	doc = slurp(SECURITY_DOC);
	rest = doc;
	while ((line = strsep(&rest, "\n"))) {
		int n = split_cells(line, cells);

		if (!n) {
			test = -1;
			continue;
		}
		if (test < 0 && column(cells, n, "escape") == 0) {
			test = column(cells, n, "selftest");
			closed = column(cells, n, "closed by");
			continue;
		}
		if (test < 0 || closed < 0 || test >= n ||
		    !strncmp(cells[0], "---", 3))
			continue;
		escapes++;
		if (!strcmp(cells[test], "none")) {
			cr_expect(!strncmp(cells[closed], "not closed", 10),
				  "escape \"%s\" has no selftest but does not "
				  "say it is not closed",
				  cells[0]);
			continue;
		}
		cr_expect(strchr(cells[test], '`'),
			  "escape \"%s\" names no test", cells[0]);
		for (char *p = cells[test]; (p = strchr(p, '`'));) {
			char *end = strchr(++p, '`');

			if (!end)
				break;
			cr_expect(has(&known, p, end - p),
				  "escape \"%s\": `%.*s` is no selftest",
				  cells[0], (int)(end - p), p);
			p = end + 1;
		}
	}
	cr_expect_gt(escapes, 0, "%s has no escape table", SECURITY_DOC);
	free(doc);
}

/* The checker itself, on small pages: each kind of problem is caught. */
static const char fixture_head[] =
	"intro with a | pipe\n\n"
	"| right | syscall | stock | patched | proof |\n"
	"|---|---|---|---|---|\n";

static int check_fixture(const char *table_rows)
{
	static const char *const names[] = { "t_one", "row a", "row b" };
	struct names known = { .n = 0 }, rows = { .n = 0 };
	struct report r = { .problems = 0 };
	char *doc;
	int n;

	for (size_t i = 0; i < 3; i++)
		add(&known, names[i], strlen(names[i]));
	add(&rows, "row a", 5);
	add(&rows, "row b", 5);
	cr_assert_gt(asprintf(&doc, "%s%s", fixture_head, table_rows), 0);
	n = check_matrix(doc, &known, &rows, &r);
	free(r.text);
	free(doc);
	return n;
}

Test(matrix, checker_accepts_a_proven_page)
{
	cr_expect_eq(
		check_fixture(
			"| `CAP_A` | `a|b` | yes | yes | rows `row a`, "
			"`row b`, `t_one` |\n"
			"| `CAP_B` | b | no: no hook | no: none either | |\n"),
		0);
}

Test(matrix, checker_catches_yes_without_proof)
{
	cr_expect_eq(
		check_fixture("| `CAP_A` | a | yes | yes | `row a`, `row b` |\n"
			      "| `CAP_B` | b | yes (partly) | yes | |\n"),
		1);
}

Test(matrix, checker_catches_an_unknown_name)
{
	cr_expect_eq(
		check_fixture("| `CAP_A` | a | yes | yes | `row a`, `row b`, "
			      "`row c` |\n"),
		1);
}

Test(matrix, checker_catches_an_uncited_row)
{
	cr_expect_eq(
		check_fixture("| `CAP_A` | a | yes | yes | `row a` |\n"
			      "| `CAP_B` | b | no | no: none either | |\n"),
		1);
}

Test(matrix, checker_takes_a_no_rows_pin_of_its_gap)
{
	/* A "no" row may name the rows that pin its gap: they must exist. */
	cr_expect_eq(check_fixture("| `CAP_A` | a | yes | yes | `row a` |\n"
				   "| `CAP_B` | b | no | no: none either | "
				   "`row b` pins it |\n"),
		     0);
	cr_expect_eq(
		check_fixture("| `CAP_A` | a | yes | yes | `row a`, `row b` |\n"
			      "| `CAP_B` | b | no | no: none either | `row z` "
			      "pins it |\n"),
		1);
}

Test(matrix, checker_wants_a_patched_verdict_for_a_stock_no)
{
	/* A stock "no" is a patched "yes" (proven) or a "no" that says why. */
	cr_expect_eq(check_fixture("| `CAP_A` | a | no: no hook | yes | "
				   "`row a`, `row b` |\n"),
		     0);
	cr_expect_eq(check_fixture("| `CAP_A` | a | yes | yes | `row a`, "
				   "`row b` |\n"
				   "| `CAP_B` | b | no: no hook | no | |\n"),
		     1);
	cr_expect_eq(check_fixture("| `CAP_A` | a | yes | yes | `row a`, "
				   "`row b` |\n"
				   "| `CAP_B` | b | no: no hook | n/a | |\n"),
		     1);
}
