// SPDX-License-Identifier: GPL-2.0
/*
 * include/capsicum/optable.h against what restates it:
 *
 * - doc/enforcement.md, cell by cell: a row of its table whose right
 *   column names rights and whose syscall column names table syscalls
 *   must name only rights those syscalls need (their rights, or their
 *   rule's), some right of each, and say in its "stock" and "patched"
 *   columns each kernel's verdict ("yes" for OPT_YES, "no: REASON" with
 *   the table's reason for OPT_NO, "in part: REASON" or either of those
 *   for OPT_PART, "libcapsicum only: REASON" for OPT_LIB); each table
 *   row's rights appear in the doc, with each verdict it has.
 * - the selftest rights rows (`capsicum_selftests --list` prints their
 *   rights and expectations): a row that expects ENOTCAPABLE tests
 *   exactly the rights the table gives the syscall it is named after
 *   (or rights its rule asks for), expects ENOTCAPABLE where the table
 *   says a kernel enforces it, and some row pins each gap the table
 *   lists; every enforced syscall has rows that cover its rights
 *   (check_rows below).
 * - the BPF side's syscall numbers: no NR_ define left in bpf/ names a
 *   table syscall.
 */
#define _GNU_SOURCE
#include <glob.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <linux/io_uring.h>

#include <sys/capsicum.h>
#include <capsicum/optable.h>
#include <capsicum/rights_names.h>

#include "mdtable.h"
#include "optable_doc.h"

#ifndef SELFTESTS_BIN
#error "SELFTESTS_BIN: the selftest binary (set by the Makefile)"
#endif
#ifndef MATRIX_DOC
#error "MATRIX_DOC: doc/enforcement.md (set by the Makefile)"
#endif

/* Rights as two plain words (index bits dropped) and fcntl sub-rights. */
struct rset {
	uint64_t w[2];
	uint64_t fcntls;
};

static struct rset rset_of(uint64_t v)
{
	struct rset r = { { 0, 0 }, 0 };
	uint64_t idx = (v & CAP_RIGHTS_INDEX_MASK) >> CAP_RIGHTS_INDEX_SHIFT;

	if (!idx)
		r.fcntls = v; /* no index bit: a CAP_FCNTL_* sub-right */
	else
		r.w[idx == 1 ? 0 : 1] = v & CAP_RIGHTS_BITS_MASK;
	return r;
}

static void rset_add(struct rset *a, struct rset b)
{
	a->w[0] |= b.w[0];
	a->w[1] |= b.w[1];
	a->fcntls |= b.fcntls;
}

static bool rset_empty(struct rset a)
{
	return !a.w[0] && !a.w[1] && !a.fcntls;
}

static bool rset_within(struct rset a, struct rset b)
{
	return !(a.w[0] & ~b.w[0]) && !(a.w[1] & ~b.w[1]) &&
	       !(a.fcntls & ~b.fcntls);
}

static bool rset_meets(struct rset a, struct rset b)
{
	return (a.w[0] & b.w[0]) || (a.w[1] & b.w[1]) || (a.fcntls & b.fcntls);
}

struct rule {
	const char *name;
	uint64_t may, fcntls;
};

static const struct rule rules[] = {
#define RULE_ROW(rule, may_, fcntls_, what)                                    \
	[OPT_RULE_##                                                           \
		rule] = { .name = #rule, .may = (may_), .fcntls = (fcntls_) },
	CAPSICUM_OPT_RULES(RULE_ROW)
#undef RULE_ROW
};

struct op {
	const char *name;
	int nr64, nr32;
	unsigned int fds;
	uint64_t rights;
	enum opt_rule rule;
	enum opt_verdict verdict[2]; /* stock, patched */
	const char *why[2];
};

enum { STOCK, PATCHED };

static const struct op ops[] = {
#define OP_ROW(name_, nr64_, nr32_, fds_, rights_, rule_, stock, stock_why,    \
	       patched, patched_why)                                           \
	{ .name = #name_,                                                      \
	  .nr64 = (nr64_),                                                     \
	  .nr32 = (nr32_),                                                     \
	  .fds = (fds_),                                                       \
	  .rights = (rights_),                                                 \
	  .rule = OPT_RULE_##rule_,                                            \
	  .verdict = { stock, patched },                                       \
	  .why = { stock_why, patched_why } },
	CAPSICUM_OPS(OP_ROW)
#undef OP_ROW
};

#define NOPS (sizeof(ops) / sizeof(ops[0]))

/* What the row's rights and its rule together can ask for. */
static struct rset op_may(const struct op *o)
{
	struct rset r = rset_of(o->rights);

	if (rules[o->rule].may)
		rset_add(&r, rset_of(rules[o->rule].may));
	r.fcntls |= rules[o->rule].fcntls;
	return r;
}

/* libc's and the doc's other names for table syscalls. */
static const char *const aliases[][2] = {
#define ALIAS_ROW(alias, name) { #alias, #name },
	CAPSICUM_OPT_ALIASES(ALIAS_ROW)
#undef ALIAS_ROW
};

/* The op named by the first len bytes of name, or -1. */
static int op_index(const char *name, size_t len)
{
	for (size_t a = 0; a < sizeof(aliases) / sizeof(aliases[0]); a++)
		if (strlen(aliases[a][0]) == len &&
		    !strncmp(aliases[a][0], name, len)) {
			name = aliases[a][1];
			len = strlen(name);
		}
	for (size_t i = 0; i < NOPS; i++)
		if (strlen(ops[i].name) == len &&
		    !strncmp(ops[i].name, name, len))
			return (int)i;
	return -1;
}

/* One right name of the doc: CAP_X, or a CAP_FCNTL_* sub-right. */
static bool right_named(const char *name, struct rset *out)
{
	static const struct {
		const char *name;
		uint64_t v;
	} fcntls[] = {
		{ "CAP_FCNTL_GETFL", CAP_FCNTL_GETFL },
		{ "CAP_FCNTL_SETFL", CAP_FCNTL_SETFL },
		{ "CAP_FCNTL_GETOWN", CAP_FCNTL_GETOWN },
		{ "CAP_FCNTL_SETOWN", CAP_FCNTL_SETOWN },
	};
	cap_rights_t r;

	for (size_t i = 0; i < sizeof(fcntls) / sizeof(fcntls[0]); i++)
		if (!strcmp(name, fcntls[i].name)) {
			*out = rset_of(fcntls[i].v);
			return true;
		}
	if (strncmp(name, "CAP_", 4) || capsicum_rights_parse(name, &r))
		return false;
	out->w[0] = r.cr_rights[0] & CAP_RIGHTS_BITS_MASK;
	out->w[1] = r.cr_rights[1] & CAP_RIGHTS_BITS_MASK;
	out->fcntls = 0;
	return true;
}

/*
 * The rights a right cell names, in backticks: `CAP_A`, `CAP_A_X/Y/Z`
 * (CAP_A_X, CAP_A_Y, CAP_A_Z), `_SUFFIX` after a name (`CAP_MMAP` (+
 * `_R`), `CAP_RENAMEAT_SOURCE` / `_TARGET`). `CAP_X_*` stands for a
 * family and names nothing. Unknown names are problems.
 */
static struct rset cell_rights(const char *cell, int lineno, struct report *rep)
{
	struct rset all = { { 0, 0 }, 0 }, one;
	char prev[128] = "", name[128];

	for (const char *p = cell; (p = strchr(p, '`'));) {
		const char *end = strchr(++p, '`');
		char tok[96], *part, *save;

		if (!end)
			break;
		snprintf(tok, sizeof(tok), "%.*s", (int)(end - p), p);
		p = end + 1;
		if ((strncmp(tok, "CAP_", 4) && tok[0] != '_') ||
		    strchr(tok, '*'))
			continue;
		for (part = strtok_r(tok, "/", &save); part;
		     part = strtok_r(NULL, "/", &save)) {
			bool ok;

			if (!strncmp(part, "CAP_", 4)) {
				snprintf(name, sizeof(name), "%s", part);
				ok = right_named(name, &one);
			} else {
				/* A suffix of the name before. */
				char *us = strrchr(prev, '_');

				snprintf(name, sizeof(name), "%s%s%s", prev,
					 part[0] == '_' ? "" : "_", part);
				ok = right_named(name, &one);
				if (!ok && us && us > prev + 3) {
					snprintf(name, sizeof(name), "%.*s%s%s",
						 (int)(us - prev), prev,
						 part[0] == '_' ? "" : "_",
						 part);
					ok = right_named(name, &one);
				}
			}
			if (!ok) {
				problem(rep, "line %d: no right is called %s",
					lineno, name);
				continue;
			}
			rset_add(&all, one);
			/* Suffixes after a slash replace the last part. */
			if (!strncmp(part, "CAP_", 4) || !prev[0])
				snprintf(prev, sizeof(prev), "%s", name);
		}
	}
	return all;
}

/* The table syscalls a syscall cell names in backticks, as a mask. */
static int cell_ops(const char *cell, bool named[NOPS])
{
	int n = 0;

	memset(named, 0, NOPS * sizeof(named[0]));
	for (const char *p = cell; (p = strchr(p, '`'));) {
		const char *end = strchr(++p, '`');
		size_t len = strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789_");
		int i;

		if (!end)
			break;
		if (len && (i = op_index(p, len)) >= 0 && !named[i]) {
			named[i] = true;
			n++;
		}
		p = end + 1;
	}
	return n;
}

/* What the doc says of each table row, per kernel. */
struct seen {
	bool yes, no_why, lib_why;
	bool named;
};

static const char *verdict_word(enum opt_verdict v)
{
	switch (v) {
	case OPT_YES:
		return "yes";
	case OPT_PART:
		return "partly";
	case OPT_NO:
		return "no";
	case OPT_LIB:
		return "libcapsicum only";
	}
	return "?";
}

/*
 * One line's verdict for one kernel (kind) against the table's, for the
 * syscalls the line names.
 */
static void check_verdict(const char *cell, int kind, const bool *named,
			  int lineno, struct seen seen[][2], struct report *rep)
{
	enum opt_verdict v;

	if (optable_verdict_of(cell, &v)) {
		problem(rep,
			"line %d: verdict \"%s\" is none of yes, in part, "
			"no, libcapsicum only",
			lineno, cell);
		return;
	}
	for (size_t i = 0; i < NOPS; i++) {
		const struct op *o = &ops[i];
		enum opt_verdict t = o->verdict[kind];
		char want[1024];

		if (!named[i])
			continue;
		seen[i][kind].named = true;
		/* A kernel doing part of it may say yes and no apart. */
		if (!(v == t || (t == OPT_PART && v != OPT_LIB)))
			problem(rep,
				"line %d: `%s` is \"%s\" here, \"%s\" in the "
				"table (%s)",
				lineno, o->name, verdict_word(v),
				verdict_word(t),
				kind == STOCK ? "stock" : "patched");
		optable_verdict_cell(want, sizeof(want), v, o->why[kind]);
		if (v == OPT_YES)
			seen[i][kind].yes = true;
		if (v == OPT_PART && !strcmp(cell, want))
			seen[i][kind].yes = seen[i][kind].no_why = true;
		if (v == OPT_NO && !strcmp(cell, want))
			seen[i][kind].no_why = true;
		if (v == OPT_LIB && !strcmp(cell, want))
			seen[i][kind].lib_why = true;
	}
}

/* Checks doc against the table; returns the number of problems. */
static int check_doc(const char *doc, struct report *rep)
{
	static struct seen seen[NOPS][2];
	struct rset said[NOPS];
	char *copy = strdup(doc), *rest = copy, *line, *cells[MAX_CELLS];
	int right = -1, verdict[2] = { -1, -1 }, lineno = 0;
	bool in_table = false, named[NOPS];

	memset(seen, 0, sizeof(seen));
	memset(said, 0, sizeof(said));
	rep->f = open_memstream(&rep->text, &rep->len);
	while ((line = strsep(&rest, "\n"))) {
		int n = split_cells(line, cells);
		struct rset d, any = { { 0, 0 }, 0 };

		lineno++;
		if (!n) {
			in_table = false;
			continue;
		}
		if (!in_table) {
			in_table = true;
			right = column(cells, n, "right");
			verdict[STOCK] = column(cells, n, "stock");
			verdict[PATCHED] = column(cells, n, "patched");
			continue;
		}
		if (right < 0 || (verdict[STOCK] < 0 && verdict[PATCHED] < 0) ||
		    verdict[STOCK] >= n || verdict[PATCHED] >= n || n < 2 ||
		    !strncmp(cells[0], "---", 3))
			continue;
		/*
		 * The syscall column follows the right column; "inherited:"
		 * there says how a right passes on, not what a call needs.
		 */
		d = cell_rights(cells[right], lineno, rep);
		if (rset_empty(d) || !cell_ops(cells[right + 1], named) ||
		    !strncmp(cells[right + 1], "inherited:", 10))
			continue;
		for (int k = STOCK; k <= PATCHED; k++)
			if (verdict[k] >= 0)
				check_verdict(cells[verdict[k]], k, named,
					      lineno, seen, rep);
		for (size_t i = 0; i < NOPS; i++) {
			struct rset may = op_may(&ops[i]);

			if (!named[i])
				continue;
			rset_add(&any, may);
			rset_add(&said[i], d);
			if (!rset_meets(d, may))
				problem(rep,
					"line %d: `%s` needs none of "
					"the rights the row names",
					lineno, ops[i].name);
		}
		if (!rset_within(d, any))
			problem(rep,
				"line %d (%s): a right none of its "
				"syscalls needs",
				lineno, cells[right]);
	}
	for (size_t i = 0; i < NOPS; i++) {
		const struct op *o = &ops[i];

		if (!rset_within(rset_of(o->rights), said[i]))
			problem(rep,
				"`%s`: the doc does not name all its "
				"rights (%#" PRIx64 ")",
				o->name, o->rights);
		for (int k = STOCK; k <= PATCHED; k++) {
			enum opt_verdict t = o->verdict[k];
			const struct seen *s = &seen[i][k];
			const char *which = k == STOCK ? "stock" : "patched";

			if ((t == OPT_YES || t == OPT_PART) && !s->yes)
				problem(rep, "`%s`: no \"yes\" for it (%s)",
					o->name, which);
			if ((t == OPT_NO || t == OPT_PART) && !s->no_why)
				problem(rep,
					"`%s`: no line says \"no: %s\" or "
					"\"in part: %s\" for it (%s)",
					o->name, o->why[k], o->why[k], which);
			if (t == OPT_LIB && !s->lib_why)
				problem(rep,
					"`%s`: no line says \"libcapsicum "
					"only: %s\" for it (%s)",
					o->name, o->why[k], which);
		}
	}
	fclose(rep->f);
	free(copy);
	return rep->problems;
}

Test(optable, doc_rights_and_verdicts_match_the_table)
{
	struct report r = { .problems = 0 };
	char *doc = slurp(MATRIX_DOC);

	cr_expect_eq(check_doc(doc, &r), 0,
		     "%s disagrees with include/capsicum/optable.h:\n%s",
		     MATRIX_DOC, r.text);
	free(r.text);
	free(doc);
}

/* The table is well formed: one row per name, one rights word a row. */
Test(optable, rows_are_well_formed)
{
	for (size_t i = 0; i < NOPS; i++) {
		uint64_t idx = ops[i].rights & CAP_RIGHTS_INDEX_MASK;

		cr_expect(idx && !(idx & (idx - 1)),
			  "%s: rights of more than one word", ops[i].name);
		cr_expect_geq(ops[i].nr64, 0, "%s: no x86-64 number",
			      ops[i].name);
		for (size_t j = 0; j < i; j++) {
			cr_expect(strcmp(ops[i].name, ops[j].name),
				  "%s: two rows", ops[i].name);
			cr_expect_neq(ops[i].nr64, ops[j].nr64,
				      "%s and %s: one x86-64 number",
				      ops[i].name, ops[j].name);
		}
		cr_expect((ops[i].verdict[STOCK] == OPT_YES) ==
				  !*ops[i].why[STOCK],
			  "%s: a stock reason exactly when not \"yes\"",
			  ops[i].name);
		cr_expect((ops[i].verdict[PATCHED] == OPT_YES) ==
				  !*ops[i].why[PATCHED],
			  "%s: a patched reason exactly when not \"yes\"",
			  ops[i].name);
	}
}

/*
 * bpf/'s NR_name defines name no table syscall: its number comes from
 * its row (bpf/optable.bpf.h's enum), so a second statement of it could
 * only drift. The headers that decide descriptor rights define none at
 * all.
 */
Test(optable, bpf_syscall_numbers_come_from_the_table)
{
	static const char *const own[] = { "bpf/syscalls.bpf.h",
					   "bpf/fget.bpf.h",
					   "bpf/optable.bpf.h" };
	glob_t g;

	/* Every BPF header, so a define cannot hide in a new one. */
	cr_assert_eq(glob("bpf/*.bpf.[ch]", 0, NULL, &g), 0, "bpf/ headers");
	for (size_t h = 0; h < g.gl_pathc; h++) {
		const char *header = g.gl_pathv[h];
		char *text = slurp(header), *p = text, name[64];
		int i;

		while ((p = strstr(p, "#define NR_"))) {
			p += strlen("#define NR_");
			if (sscanf(p, "%63[a-z0-9_]", name) != 1)
				continue;
			i = op_index(name, strlen(name));
			cr_expect_lt(i, 0,
				     "%s: NR_%s: the table's row gives it "
				     "(bpf/optable.bpf.h)",
				     header, name);
			for (size_t k = 0; k < sizeof(own) / sizeof(own[0]);
			     k++)
				cr_expect(strcmp(header, own[k]),
					  "%s: NR_%s: take it from the table "
					  "(a row, or bpf/optable.bpf.h)",
					  header, name);
		}
		free(text);
	}
	globfree(&g);
}

/*
 * A rights cell of `--list`: CAP_ names (or hex words) joined by '|',
 * CAP_FCNTL_* sub-rights among them. False if a name is unknown.
 */
static bool list_rights(const char *cell, struct rset *out)
{
	char *copy = strdup(cell), *p, *save;
	bool ok = true;

	memset(out, 0, sizeof(*out));
	for (p = strtok_r(copy, "|", &save); p && ok;
	     p = strtok_r(NULL, "|", &save)) {
		struct rset one;
		cap_rights_t r;

		if (!strncmp(p, "0x", 2) && !capsicum_rights_parse(p, &r)) {
			one.w[0] = r.cr_rights[0] & CAP_RIGHTS_BITS_MASK;
			one.w[1] = r.cr_rights[1] & CAP_RIGHTS_BITS_MASK;
			one.fcntls = 0;
		} else if (!right_named(p, &one)) {
			ok = false;
		}
		rset_add(out, one);
	}
	free(copy);
	return ok && !rset_empty(*out);
}

/* What a variant of a row gives, as the row says it. */
enum result { R_ZERO, R_NOTCAP, R_CAPMODE, R_EBADF, R_OTHER };

/* A row's expectation on one kernel: with, without, and in capmode. */
struct expect {
	enum result with, without, cm_with, cm_without;
};

static enum result result_of(const char *s, size_t len)
{
	if (len == 1 && *s == '0')
		return R_ZERO;
	if (len == 11 && !strncmp(s, "ENOTCAPABLE", len))
		return R_NOTCAP;
	if (len == 8 && !strncmp(s, "ECAPMODE", len))
		return R_CAPMODE;
	if (len == 5 && !strncmp(s, "EBADF", len))
		return R_EBADF;
	return R_OTHER;
}

/* "KERNEL=W,WO,CW,CWO" into *e; false if it is not that. */
static bool expect_of(const char *cell, const char *kernel, struct expect *e)
{
	enum result *r[] = { &e->with, &e->without, &e->cm_with,
			     &e->cm_without };
	size_t klen = strlen(kernel);
	const char *p = cell;

	if (strncmp(p, kernel, klen) || p[klen] != '=')
		return false;
	p += klen + 1;
	for (size_t i = 0; i < 4; i++) {
		size_t len = strcspn(p, ",");

		if (!len || (i < 3 && p[len] != ','))
			return false;
		*r[i] = result_of(p, len);
		p += len + (i < 3);
	}
	return !*p;
}

/* What the rows of one table syscall say, per kernel. */
struct op_rows {
	bool claimed;	       /* some row expects ENOTCAPABLE somewhere */
	struct rset tested[2]; /* rights rows expect ENOTCAPABLE without */
	bool gap[2];	       /* a claiming row expects the call to pass */
};

/*
 * Table syscalls no row tests, and why. Every other syscall a kernel
 * enforces (OPT_YES) has rows.
 */
static const char *const unrowed[][2] = {
	{ "fchmodat2", "Linux 6.6 and up, not on 6.1: the fchmodat rows "
		       "prove its hook" },
	{ "pidfd_send_signal", "procdesc_rights (a process descriptor's "
			       "kill, with its own child)" },
};

/*
 * Checks the rights rows of `capsicum_selftests --list` against the
 * table; returns the number of problems:
 *
 * - each row is named after a table syscall (its first word), its rights
 *   parse, the call works with them (`with` is 0 on both kernels, 0 or
 *   ECAPMODE in capability mode);
 * - a row that expects ENOTCAPABLE anywhere tests exactly the table's
 *   rights for its syscall (rule "none") or rights the rule can ask for;
 *   where the table says a kernel enforces the syscall (OPT_YES) it
 *   expects ENOTCAPABLE without them there (ECAPMODE in capability mode
 *   allowed);
 * - a row that expects no ENOTCAPABLE (a right not needed) names rights
 *   the syscall or its rule could need;
 * - per syscall: the rows expecting ENOTCAPABLE on a kernel that
 *   enforces it cover all its table rights; on a kernel that does not
 *   (OPT_NO, OPT_LIB), some row pins the gap (`without` is 0); every
 *   syscall some kernel enforces has rows, but those of unrowed[].
 */
/* "SYSCALL i386 ..." or "SYSCALL x32 ...": the call's compat form. */
static bool compat_row(const char *name)
{
	const char *w = name + strcspn(name, " ");
	size_t len = *w ? strcspn(w + 1, " ") : 0;

	return (len == 4 && !strncmp(w + 1, "i386", 4)) ||
	       (len == 3 && !strncmp(w + 1, "x32", 3));
}

static int check_rows(FILE *list, struct report *rep, int *nrows)
{
	static struct op_rows seen[NOPS];
	char *line = NULL;
	size_t cap = 0;

	memset(seen, 0, sizeof(seen));
	*nrows = 0;
	rep->f = open_memstream(&rep->text, &rep->len);
	while (getline(&line, &cap, list) > 0) {
		char *cells[5] = { NULL }, *save, *name;
		struct expect e[2];
		struct rset right;
		bool claim = false;
		size_t len;
		int n = 0, i;

		if (strncmp(line, "row ", 4) || !strchr(line, '\t'))
			continue; /* a test, or a row without rights */
		line[strcspn(line, "\n")] = '\0';
		for (char *c = strtok_r(line + 4, "\t", &save); c && n < 5;
		     c = strtok_r(NULL, "\t", &save))
			cells[n++] = c;
		name = cells[0];
		(*nrows)++;
		if (n != 4 || !expect_of(cells[2], "stock", &e[STOCK]) ||
		    !expect_of(cells[3], "patched", &e[PATCHED])) {
			problem(rep,
				"row `%s`: not NAME, RIGHTS, stock=..., "
				"patched=...",
				name);
			continue;
		}
		if (!list_rights(cells[1], &right)) {
			problem(rep, "row `%s`: rights \"%s\" do not parse",
				name, cells[1]);
			continue;
		}
		len = strcspn(name, " ");
		if (len == 8 && !strncmp(name, "io_uring", 8))
			continue; /* uring_rows_match_the_header_and_the_doc */
		i = op_index(name, len);
		if (i < 0) {
			problem(rep, "row `%s`: `%.*s` is no table syscall",
				name, (int)len, name);
			continue;
		}
		for (int k = STOCK; k <= PATCHED; k++) {
			/*
			 * The stock kernels may refuse a compat call with
			 * every right (its registers unread: fail closed),
			 * or not have it (x32 is off in Debian's).
			 */
			if (k == STOCK && compat_row(name))
				;
			else if (e[k].with != R_ZERO ||
				 (e[k].cm_with != R_ZERO &&
				  e[k].cm_with != R_CAPMODE))
				problem(rep,
					"row `%s`: the call must work with its "
					"rights (%s)",
					name, k == STOCK ? "stock" : "patched");
			claim |= e[k].without == R_NOTCAP ||
				 e[k].cm_without == R_NOTCAP;
		}
		if (claim && ops[i].rule == OPT_RULE_none &&
		    !(rset_within(right, rset_of(ops[i].rights)) &&
		      rset_within(rset_of(ops[i].rights), right)))
			problem(rep,
				"row `%s` tests %s, the table gives `%s` "
				"%#" PRIx64 " (rule none: exactly those)",
				name, cells[1], ops[i].name, ops[i].rights);
		else if (!rset_within(right, op_may(&ops[i])))
			problem(rep,
				"row `%s` tests %s, which the table does not "
				"give `%s` (rights %#" PRIx64 ", rule %s)",
				name, cells[1], ops[i].name, ops[i].rights,
				rules[ops[i].rule].name);
		if (!claim)
			continue;
		seen[i].claimed = true;
		for (int k = STOCK; k <= PATCHED; k++) {
			/* Nor does a stock compat form count either way. */
			if (k == STOCK && compat_row(name))
				continue;
			if (ops[i].verdict[k] == OPT_YES &&
			    (e[k].without != R_NOTCAP ||
			     (e[k].cm_without != R_NOTCAP &&
			      e[k].cm_without != R_CAPMODE)))
				problem(rep,
					"row `%s`: the table says the %s "
					"kernel enforces `%s`, the row does "
					"not expect ENOTCAPABLE without %s",
					name, k == STOCK ? "stock" : "patched",
					ops[i].name, cells[1]);
			if (e[k].without == R_NOTCAP)
				rset_add(&seen[i].tested[k], right);
			if (e[k].without == R_ZERO)
				seen[i].gap[k] = true;
		}
	}
	free(line);
	for (size_t i = 0; i < NOPS; i++) {
		const struct op *o = &ops[i];
		bool enforced = false, exempt = false;

		for (size_t u = 0; u < sizeof(unrowed) / sizeof(unrowed[0]);
		     u++)
			exempt |= !strcmp(unrowed[u][0], o->name);
		for (int k = STOCK; k <= PATCHED; k++) {
			const char *which = k == STOCK ? "stock" : "patched";

			enforced |= o->verdict[k] == OPT_YES;
			if (!seen[i].claimed)
				continue;
			if (o->verdict[k] == OPT_YES &&
			    !rset_within(rset_of(o->rights), seen[i].tested[k]))
				problem(rep,
					"`%s`: no row tests all its rights "
					"(%#" PRIx64 ") on the %s kernel",
					o->name, o->rights, which);
			if ((o->verdict[k] == OPT_NO ||
			     o->verdict[k] == OPT_LIB) &&
			    !seen[i].gap[k])
				problem(rep,
					"`%s`: the table says the %s kernel "
					"does not enforce it, no row pins that",
					o->name, which);
		}
		if (enforced && !seen[i].claimed && !exempt)
			problem(rep, "`%s`: no row tests it", o->name);
		if (exempt && seen[i].claimed)
			problem(rep,
				"`%s`: rows test it, drop it from "
				"unrowed[]",
				o->name);
	}
	fclose(rep->f);
	return rep->problems;
}

Test(optable, selftest_rows_test_the_rights_the_table_gives)
{
	FILE *list = popen(SELFTESTS_BIN " --list", "r");
	struct report r = { .problems = 0 };
	int rows;

	cr_assert_not_null(list, "cannot run %s --list", SELFTESTS_BIN);
	cr_expect_eq(check_rows(list, &r, &rows), 0,
		     "the selftest rows disagree with "
		     "include/capsicum/optable.h:\n%s",
		     r.text);
	free(r.text);
	cr_assert_eq(pclose(list), 0, "%s --list failed", SELFTESTS_BIN);
	cr_expect_gt(rows, 0, "--list printed no rights row");
}

/* check_rows() on a --list of rows: the number of problems. */
static int check_rows_fixture(const char *rows)
{
	struct report r = { .problems = 0 };
	FILE *f = fmemopen((void *)rows, strlen(rows), "r");
	int n, nrows;

	cr_assert_not_null(f);
	n = check_rows(f, &r, &nrows);
	fclose(f);
	free(r.text);
	return n;
}

#define ROW_YES                                                                \
	"\tstock=0,ENOTCAPABLE,0,ENOTCAPABLE\t"                                \
	"patched=0,ENOTCAPABLE,0,ENOTCAPABLE\n"

Test(optable, row_checker_catches_a_wrong_right_or_expectation)
{
	/* Alone, a writev row leaves every other syscall unrowed. */
	int good = check_rows_fixture("row writev\tCAP_WRITE" ROW_YES);

	cr_expect_gt(check_rows_fixture("row writev\tCAP_READ" ROW_YES), good,
		     "a right the table does not give");
	cr_expect_gt(
		check_rows_fixture("row writev\tCAP_WRITE|CAP_SEEK" ROW_YES),
		good, "more than the table gives (rule none)");
	cr_expect_gt(check_rows_fixture("row writev\tCAP_WRITE\t"
					"stock=0,0,0,0\tpatched=0,"
					"ENOTCAPABLE,0,ENOTCAPABLE\n"),
		     good, "stock enforces writev: the row must say so");
	cr_expect_gt(check_rows_fixture("row writev\tCAP_WRITE\t"
					"stock=EPERM,ENOTCAPABLE,0,"
					"ENOTCAPABLE\tpatched=0,ENOTCAPABLE,"
					"0,ENOTCAPABLE\n"),
		     good, "the call must work with its rights");
	/* Its compat form may be refused, or missing, on a stock kernel. */
	cr_expect_eq(check_rows_fixture("row writev\tCAP_WRITE" ROW_YES
					"row writev i386\tCAP_WRITE\t"
					"stock=ENOTCAPABLE,ENOTCAPABLE,"
					"ECAPMODE,ECAPMODE\tpatched=0,"
					"ENOTCAPABLE,ECAPMODE,ECAPMODE\n"),
		     good, "a compat form refused on stock");
	cr_expect_gt(check_rows_fixture("row writev\tCAP_WRITE" ROW_YES
					"row writev i386\tCAP_WRITE\t"
					"stock=0,ENOTCAPABLE,0,ENOTCAPABLE\t"
					"patched=ENOSYS,ENOTCAPABLE,ECAPMODE,"
					"ECAPMODE\n"),
		     good, "but it must work with its rights on patched");
	cr_expect_gt(check_rows_fixture("row nosuch\tCAP_WRITE" ROW_YES), good,
		     "no table syscall");
	cr_expect_gt(check_rows_fixture("row writev\tCAP_NOSUCH" ROW_YES), good,
		     "an unknown right");
	/* lseek: stock does not enforce it; a row must pin that. */
	cr_expect_gt(check_rows_fixture("row lseek\tCAP_SEEK" ROW_YES), good,
		     "lseek enforced on stock, against the table");
	cr_expect_eq(
		check_rows_fixture("row lseek\tCAP_SEEK\tstock=0,0,0,0\t"
				   "patched=0,ENOTCAPABLE,0,ENOTCAPABLE\n"),
		good, "lseek's gap pinned on stock");
	/* pread64 needs CAP_READ and CAP_SEEK: one row of each is enough. */
	cr_expect_eq(check_rows_fixture("row pread\tCAP_PREAD" ROW_YES), good,
		     "pread");
	cr_expect_gt(check_rows_fixture("row pread\tCAP_READ" ROW_YES), good,
		     "pread without its CAP_SEEK");
	/* A right not needed: no ENOTCAPABLE, a right the rule may ask. */
	cr_expect_eq(check_rows_fixture("row preadv2 at -1\tCAP_SEEK\t"
					"stock=0,0,0,0\tpatched=0,0,0,0\n"),
		     good + 1, "preadv2 then has no row claiming it");
}

/* The checker itself, on small pages. */
static int check_fixture(const char *rows)
{
	struct report r = { .problems = 0 };
	char *doc;
	int n;

	cr_assert_gt(asprintf(&doc,
			      "| right | syscall | stock | proof |\n"
			      "|---|---|---|---|\n%s",
			      rows),
		     0);
	n = check_doc(doc, &r);
	free(r.text);
	free(doc);
	return n;
}

Test(optable, checker_catches_a_wrong_right_and_verdict)
{
	/* With no rows every table row is missing: compare with a good one. */
	int none = check_fixture("");
	int good = check_fixture("| `CAP_WRITE` | `writev` | yes | x |\n");

	cr_expect_lt(good, none, "writev's right and verdict are found");
	cr_expect_gt(check_fixture("| `CAP_READ` | `writev` | yes | x |\n"),
		     good, "a wrong right is caught");
	cr_expect_gt(check_fixture("| `CAP_WRITE` | `writev` | no: x | |\n"),
		     good, "a wrong verdict is caught");
	cr_expect_gt(check_fixture("| `CAP_NOSUCH` | `writev` | yes | x |\n"),
		     good, "an unknown right is caught");
}

/*
 * The io_uring rows: the opcode is the kernel's (where the host's
 * <linux/io_uring.h> has it), and doc/enforcement.md says, after
 * naming the opcode in backticks, the right the table gives it. Each
 * opcode the patched kernel enforces has a selftest row `io_uring NAME
 * ...` of its rights (rights its rule can ask for) that expects the
 * refusal there: the lookup fails, so the completion is -EBADF.
 */
/*
 * Opcodes the patched kernel decides by their row that no selftest row
 * exercises yet (doc/enforcement.md lists them as "hook, untested"),
 * ending in NULL: none now, every row has its selftest rows.
 */
static const char *const uring_unrowed[] = {
	NULL,
};

Test(optable, uring_rows_match_the_header_and_the_doc)
{
	static struct {
		const char *name;
		int opcode;
		uint64_t rights;
		enum opt_rule rule;
		enum opt_verdict patched;
		bool rowed;
	} uring[] = {
#define URING_ROW(name_, opcode_, rights_, rule_, stock, stock_why, patched_,  \
		  patched_why)                                                 \
	{ #name_, (opcode_), (rights_), OPT_RULE_##rule_, patched_, false },
		CAPSICUM_URING_OPS(URING_ROW)
#undef URING_ROW
	};
	const size_t n = sizeof(uring) / sizeof(uring[0]);
	FILE *list = popen(SELFTESTS_BIN " --list", "r");
	char *doc = slurp(MATRIX_DOC), *line = NULL;
	size_t cap = 0;

	cr_assert_not_null(list, "cannot run %s --list", SELFTESTS_BIN);
	for (size_t i = 0; i < n; i++) {
		char tick[64], name[64] = "";
		const char *p;
		struct rset r = { { 0, 0 }, 0 };

		if (!strcmp(uring[i].name, "URING_CMD"))
			cr_expect_eq(uring[i].opcode, IORING_OP_URING_CMD,
				     "URING_CMD's opcode");
		if (!strcmp(uring[i].name, "SPLICE"))
			cr_expect_eq(uring[i].opcode, IORING_OP_SPLICE,
				     "SPLICE's opcode");
		snprintf(tick, sizeof(tick), "`%s`", uring[i].name);
		p = strstr(doc, tick);
		cr_expect_not_null(p, "%s: `%s` is not in the doc", MATRIX_DOC,
				   uring[i].name);
		if (!p || !uring[i].rights ||
		    !(p = strstr(p + strlen(tick), "`CAP_")))
			continue;
		sscanf(p + 1, "%63[A-Z_]", name);
		cr_expect(right_named(name, &r) &&
				  rset_within(r, rset_of(uring[i].rights)),
			  "%s: `%s` needs %s in the doc, %#" PRIx64
			  " in the table",
			  MATRIX_DOC, uring[i].name, name, uring[i].rights);
	}
	while (getline(&line, &cap, list) > 0) {
		char *cells[4] = { NULL }, *save, op[64] = "";
		struct expect e[2];
		struct rset right;
		int k = 0;

		if (strncmp(line, "row io_uring ", 13) || !strchr(line, '\t'))
			continue;
		line[strcspn(line, "\n")] = '\0';
		for (char *c = strtok_r(line + 4, "\t", &save); c && k < 4;
		     c = strtok_r(NULL, "\t", &save))
			cells[k++] = c;
		sscanf(cells[0] + 9, "%63[A-Z_]", op);
		cr_assert(k == 4 && list_rights(cells[1], &right) &&
				  expect_of(cells[2], "stock", &e[STOCK]) &&
				  expect_of(cells[3], "patched", &e[PATCHED]),
			  "row `%s`: not NAME, RIGHTS, stock=, patched=",
			  cells[0]);
		for (size_t i = 0; i < n; i++) {
			struct rset may = rset_of(uring[i].rights);

			if (strcmp(op, uring[i].name))
				continue;
			rset_add(&may, rset_of(rules[uring[i].rule].may));
			cr_expect(rset_within(right, may),
				  "row `%s` tests %s, which the table does "
				  "not give %s",
				  cells[0], cells[1], uring[i].name);
			cr_expect(e[PATCHED].with == R_ZERO,
				  "row `%s`: works with its rights", cells[0]);
			if (e[PATCHED].without == R_EBADF)
				uring[i].rowed = true;
		}
	}
	for (size_t i = 0; i < n; i++) {
		bool exempt = false;

		for (size_t u = 0; uring_unrowed[u]; u++)
			exempt |= !strcmp(uring_unrowed[u], uring[i].name);
		cr_expect(!exempt || !uring[i].rowed,
			  "io_uring %s has rows: drop it from uring_unrowed[]",
			  uring[i].name);
		cr_expect(uring[i].patched != OPT_YES || !uring[i].rights ||
				  uring[i].rowed || exempt,
			  "io_uring %s: the patched kernel enforces it, no "
			  "row `io_uring %s ...` expects its refusal",
			  uring[i].name, uring[i].name);
	}
	free(line);
	free(doc);
	cr_assert_eq(pclose(list), 0, "%s --list failed", SELFTESTS_BIN);
}

/* doc/enforcement.md's index is what the table and the rows give now. */
Test(optable, doc_index_is_generated_from_the_table)
{
	FILE *list = popen(SELFTESTS_BIN " --list", "r"), *gen;
	char *doc = slurp(MATRIX_DOC), *want = NULL, *begin, *end;
	size_t len = 0;

	cr_assert_not_null(list);
	gen = open_memstream(&want, &len);
	cr_assert_eq(optable_doc_write(list, gen), 0, "no rows listed");
	pclose(list);
	fclose(gen);
	begin = strstr(doc, OPTABLE_DOC_BEGIN "\n");
	end = begin ? strstr(begin, "\n" OPTABLE_DOC_END) : NULL;
	cr_assert(begin && end, "%s: no index markers", MATRIX_DOC);
	begin += strlen(OPTABLE_DOC_BEGIN "\n");
	cr_expect(end + 1 - begin == (ptrdiff_t)len &&
			  !memcmp(begin, want, len),
		  "%s's index of the table is stale: run make doc-tables",
		  MATRIX_DOC);
	free(want);
	free(doc);
}
