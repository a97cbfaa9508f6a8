// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "optable_doc.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sys/capsicum.h>
#include <capsicum/optable.h>
#include <capsicum/rights_names.h>

struct doc_op {
	const char *name;
	uint64_t rights;
	enum opt_verdict verdict[2]; /* stock, patched */
	const char *why[2];
};

static const struct doc_op doc_ops[] = {
#define DOC_OP(name_, nr64, nr32, fds, rights_, rule, stock, stock_why,        \
	       patched, patched_why)                                           \
	{ .name = #name_,                                                      \
	  .rights = (rights_),                                                 \
	  .verdict = { stock, patched },                                       \
	  .why = { stock_why, patched_why } },
	CAPSICUM_OPS(DOC_OP)
#undef DOC_OP
};

/* The io_uring rows, named `io_uring NAME` in the index and the rows. */
static const struct doc_op doc_uring_ops[] = {
#define DOC_URING_OP(name_, opcode, rights_, rule, stock, stock_why, patched,  \
		     patched_why)                                              \
	{ .name = #name_,                                                      \
	  .rights = (rights_),                                                 \
	  .verdict = { stock, patched },                                       \
	  .why = { stock_why, patched_why } },
	CAPSICUM_URING_OPS(DOC_URING_OP)
#undef DOC_URING_OP
};

static const char *const doc_aliases[][2] = {
#define DOC_ALIAS(alias, name) { #alias, #name },
	CAPSICUM_OPT_ALIASES(DOC_ALIAS)
#undef DOC_ALIAS
};

#define MAX_ROWS 1024

/* The table syscall a row is named after: its first word, or an alias. */
static bool row_of(const char *row, const char *op)
{
	size_t len = strcspn(row, " ");

	for (size_t a = 0; a < sizeof(doc_aliases) / sizeof(doc_aliases[0]);
	     a++)
		if (strlen(doc_aliases[a][0]) == len &&
		    !strncmp(doc_aliases[a][0], row, len))
			return !strcmp(doc_aliases[a][1], op);
	return strlen(op) == len && !strncmp(op, row, len);
}

/* The row's rights, each primitive in backticks. */
static void rights_cell(FILE *out, uint64_t rights)
{
	const struct capsicum_right_name *tab;
	size_t n = capsicum_rights_table(&tab);
	uint64_t idx = rights & CAP_RIGHTS_INDEX_MASK;
	uint64_t left = rights & CAP_RIGHTS_BITS_MASK;
	const char *sep = "";

	/* The widest first: CAP_SEEK, not CAP_SEEK_TELL and its own bit. */
	for (int k = 64; k > 0 && left; k--)
		for (size_t i = 0; i < n && left; i++) {
			uint64_t bits = tab[i].value & CAP_RIGHTS_BITS_MASK;

			if (!tab[i].primitive ||
			    __builtin_popcountll(bits) != k ||
			    (tab[i].value & CAP_RIGHTS_INDEX_MASK) != idx ||
			    (bits & ~(rights & CAP_RIGHTS_BITS_MASK)) ||
			    !(bits & left))
				continue;
			fprintf(out, "%s`%s`", sep, tab[i].name);
			left &= ~bits;
			sep = " + ";
		}
}

/* A row `io_uring NAME ...` of the opcode NAME. */
static bool uring_row_of(const char *row, const char *op)
{
	size_t len;

	if (strncmp(row, "io_uring ", 9))
		return false;
	len = strcspn(row + 9, " ");
	return strlen(op) == len && !strncmp(op, row + 9, len);
}

static void rows_cell(FILE *out, const char *op, char *const *rows,
		      size_t nrows, bool uring)
{
	const char *sep = "rows ";

	for (size_t i = 0; i < nrows; i++)
		if (uring ? uring_row_of(rows[i], op) : row_of(rows[i], op)) {
			fprintf(out, "%s`%s`", sep, rows[i]);
			sep = ", ";
		}
}

void optable_verdict_cell(char *buf, size_t len, enum opt_verdict v,
			  const char *why)
{
	switch (v) {
	case OPT_YES:
		snprintf(buf, len, "yes");
		break;
	case OPT_PART:
		snprintf(buf, len, "in part: %s", why);
		break;
	case OPT_NO:
		snprintf(buf, len, "no: %s", why);
		break;
	case OPT_LIB:
		snprintf(buf, len, "libcapsicum only: %s", why);
		break;
	}
}

int optable_verdict_of(const char *cell, enum opt_verdict *v)
{
	if (!strncmp(cell, "yes", 3))
		*v = OPT_YES;
	else if (!strncmp(cell, "in part:", 8))
		*v = OPT_PART;
	else if (!strncmp(cell, "no", 2))
		*v = OPT_NO;
	else if (!strncmp(cell, "libcapsicum only", 16))
		*v = OPT_LIB;
	else
		return -1;
	return 0;
}

static void verdict_cell(FILE *out, enum opt_verdict v, const char *why)
{
	char cell[1024];

	optable_verdict_cell(cell, sizeof(cell), v, why);
	fputs(cell, out);
}

/*
 * One table, a line per row: its rights, its verdict on the stock kernels
 * and on the patched one, and the selftest rows named after it, which
 * prove a "yes" and pin a "no".
 */
static void table(FILE *out, char *const *rows, size_t nrows)
{
	fputs("| right | syscall | stock | patched | rows |\n"
	      "|---|---|---|---|---|\n",
	      out);
	for (size_t i = 0; i < sizeof(doc_ops) / sizeof(doc_ops[0]); i++) {
		const struct doc_op *o = &doc_ops[i];

		fputs("| ", out);
		rights_cell(out, o->rights);
		fprintf(out, " | `%s` | ", o->name);
		verdict_cell(out, o->verdict[0], o->why[0]);
		fputs(" | ", out);
		verdict_cell(out, o->verdict[1], o->why[1]);
		fputs(" | ", out);
		rows_cell(out, o->name, rows, nrows, false);
		fputs(" |\n", out);
	}
	for (size_t i = 0; i < sizeof(doc_uring_ops) / sizeof(doc_uring_ops[0]);
	     i++) {
		const struct doc_op *o = &doc_uring_ops[i];

		fputs("| ", out);
		if (o->rights)
			rights_cell(out, o->rights);
		else
			fputs("(none)", out);
		fprintf(out, " | io_uring `%s` | ", o->name);
		verdict_cell(out, o->verdict[0], o->why[0]);
		fputs(" | ", out);
		verdict_cell(out, o->verdict[1], o->why[1]);
		fputs(" | ", out);
		rows_cell(out, o->name, rows, nrows, true);
		fputs(" |\n", out);
	}
}

int optable_doc_write(FILE *list, FILE *out)
{
	char *rows[MAX_ROWS], *l = NULL;
	size_t nrows = 0, cap = 0;
	ssize_t len;

	while ((len = getline(&l, &cap, list)) > 0 && nrows < MAX_ROWS)
		if (!strncmp(l, "row ", 4))
			rows[nrows++] = strndup(l + 4, strcspn(l + 4, "\t\n"));
	free(l);
	if (!nrows)
		return -1;
	table(out, rows, nrows);
	for (size_t i = 0; i < nrows; i++)
		free(rows[i]);
	return 0;
}
