/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading the Markdown tables of the doc pages, for the unit tests that hold
 * them against their sources (test_matrix.c, test_optable.c).
 */
#ifndef CAPSICUM_TESTS_MDTABLE_H
#define CAPSICUM_TESTS_MDTABLE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>

#define MAX_CELLS 16

/* What the checker found, one line per problem. */
struct report {
	char *text;
	size_t len;
	FILE *f;
	int problems;
};

static inline void problem(struct report *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline void problem(struct report *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(r->f, fmt, ap);
	va_end(ap);
	fputc('\n', r->f);
	r->problems++;
}

/*
 * Splits a table line into trimmed cells, in place. A '|' inside
 * backticks belongs to the cell. Returns the number of cells.
 */
static inline int split_cells(char *line, char **cells)
{
	int n = 0;
	bool code = false;
	char *start;

	if (*line != '|')
		return 0;
	start = ++line;
	for (char *p = line; *p; p++) {
		if (*p == '`')
			code = !code;
		if (*p != '|' || code)
			continue;
		*p = '\0';
		while (*start == ' ')
			start++;
		for (char *e = p - 1; e >= start && *e == ' '; e--)
			*e = '\0';
		if (n < MAX_CELLS)
			cells[n++] = start;
		start = p + 1;
	}
	return n;
}

static inline int column(char **cells, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(cells[i], name))
			return i;
	return -1;
}

/* The whole file as a string. */
static inline char *slurp(const char *path)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t len = 0;

	cr_assert_not_null(f, "cannot open %s", path);
	cr_assert_neq(getdelim(&buf, &len, '\0', f), -1, "read %s", path);
	fclose(f);
	return buf;
}

#endif /* CAPSICUM_TESTS_MDTABLE_H */
