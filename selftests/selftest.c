// SPDX-License-Identifier: GPL-2.0
/*
 * Runner for the VM selftests: runs every registered SELFTEST (or those
 * named on the command line) in its own child, killed with everything it
 * forked if it hangs (run_child.h), and prints one closing line,
 * "N passed, N failed[, N skipped]", which the host collects. With --list
 * it only names every test and row (loads nothing, so it runs on the host).
 *
 *	capsicum_selftests [--list] [TEST | row:ROW | --row ROW]...
 *
 * `row:ROW` (or `--row ROW`) runs the tests that run that row, with that
 * row only (and any other row selected so).
 */
#define _GNU_SOURCE
#include "selftest.h"

#include "rows.h"
#include "run_child.h"

#include <bpf/libbpf.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * Per test, generous for TCG, and well inside the VM's own limit so the
 * boot still ends with a report; CAPSICUM_SELFTEST_TIMEOUT=SECONDS
 * overrides it.
 */
#define DEFAULT_TIMEOUT_S 300

static struct selftest *tests;
static struct selftest_rows *row_tables;
static bool failed;
/* The rows selected on the command line (NULL-ended), or NULL: all. */
static const char **rows_chosen;

void selftest_register(struct selftest *t)
{
	struct selftest **p = &tests;

	/* Keep registration order (file order) so output is stable. */
	while (*p)
		p = &(*p)->next;
	*p = t;
}

void selftest_register_rows(struct selftest_rows *r)
{
	struct selftest_rows **p = &row_tables;

	while (*p)
		p = &(*p)->next;
	*p = r;
}

bool selftest_row_selected(const char *name)
{
	if (!rows_chosen)
		return true;
	for (const char **r = rows_chosen; *r; r++)
		if (!strcmp(*r, name))
			return true;
	return false;
}

void selftest_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "    %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	failed = true;
}

void selftest_skip(const char *why)
{
	fprintf(stderr, "    skipped: %s\n", why);
	fflush(NULL);
	_exit(CHILD_SKIP);
}

bool selftest_failed(void)
{
	return failed;
}

bool selftest_is_root(void)
{
	return geteuid() == 0;
}

int selftest_wait(pid_t pid)
{
	int status;

	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static int libbpf_print(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	/* Verifier logs arrive at WARN; debug chatter stays out. */
	if (level == LIBBPF_DEBUG)
		return 0;
	fputs("    ", stderr);
	return vfprintf(stderr, fmt, ap);
}

/* The table that has a row called name, or NULL. */
static const struct selftest_rows *table_of_row(const char *name)
{
	for (const struct selftest_rows *r = row_tables; r; r = r->next)
		for (size_t i = 0; i < r->count; i++)
			if (!strcmp(*(const char *const *)((const char *)
								   r->rows +
							   i * r->size),
				    name))
				return r;
	return NULL;
}

/*
 * Whether test t runs: every test if nothing was named, else a test
 * named in tests[] or one that runs a row of rows_chosen.
 */
static bool selected(const struct selftest *t, const char **tests)
{
	if (!*tests && !rows_chosen)
		return true;
	for (const char **n = tests; *n; n++)
		if (!strcmp(*n, t->name))
			return true;
	for (const char **r = rows_chosen; r && *r; r++)
		for (const char *const *u = table_of_row(*r)->tests; *u; u++)
			if (!strcmp(*u, t->name))
				return true;
	return false;
}

/*
 * Sorts argv into test names (tests[]) and rows (rows_chosen); false if
 * a row is unknown or --row has no name.
 */
static bool parse_args(int argc, char **argv, const char **tests)
{
	const char **rows;
	size_t ntests = 0, nrows = 0;

	rows = calloc(argc, sizeof(*rows));
	if (!rows)
		return false;
	for (int i = 1; i < argc; i++) {
		const char *row = NULL;

		if (!strcmp(argv[i], "--row")) {
			if (++i == argc) {
				fprintf(stderr, "--row: which row?\n");
				return false;
			}
			row = argv[i];
		} else if (!strncmp(argv[i], "row:", 4)) {
			row = argv[i] + 4;
		} else {
			tests[ntests++] = argv[i];
			continue;
		}
		if (!table_of_row(row)) {
			fprintf(stderr, "no row is called '%s' (--list)\n",
				row);
			return false;
		}
		rows[nrows++] = row;
	}
	if (nrows)
		rows_chosen = rows;
	return true;
}

static int run_body(void *arg)
{
	struct selftest *t = arg;

	libbpf_set_print(libbpf_print);
	t->fn();
	fflush(NULL);
	return failed ? CHILD_FAIL : CHILD_PASS;
}

static unsigned int timeout_s(void)
{
	const char *env = getenv("CAPSICUM_SELFTEST_TIMEOUT");
	char *end;
	unsigned long n;

	if (!env)
		return DEFAULT_TIMEOUT_S;
	n = strtoul(env, &end, 10);
	return *end || !n || n > 86400 ? DEFAULT_TIMEOUT_S : (unsigned int)n;
}

/*
 * "test NAME" and "row NAME" lines, for tests/test_matrix.c; a rights
 * row (rows.h) says after tabs its rights and its expectations,
 * "row NAME\tRIGHTS\tstock=...\tpatched=...", for tests/test_optable.c.
 */
static int list(void)
{
	for (struct selftest *t = tests; t; t = t->next)
		printf("test %s\n", t->name);
	for (struct selftest_rows *r = row_tables; r; r = r->next)
		for (size_t i = 0; i < r->count; i++) {
			const char *row = (const char *)r->rows + i * r->size;

			printf("row ");
			if (r->rights)
				rows_list(stdout,
					  (const struct rights_row *)row);
			else
				printf("%s", *(const char *const *)row);
			putchar('\n');
		}
	return fflush(stdout) ? 1 : 0;
}

int main(int argc, char **argv)
{
	int passed = 0, nfailed = 0, skipped = 0;
	const char *who = selftest_is_root() ? "root" : "uid";
	const char **names = calloc(argc, sizeof(*names));

	if (argc == 2 && !strcmp(argv[1], "--list"))
		return list();
	if (!names || !parse_args(argc, argv, names))
		return 2;
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (struct selftest *t = tests; t; t = t->next) {
		if (!selected(t, names))
			continue;
		switch (run_child(run_body, t, timeout_s())) {
		case CHILD_PASS:
			passed++;
			printf("ok    %s (%s %d)\n", t->name, who, geteuid());
			break;
		case CHILD_SKIP:
			skipped++;
			printf("skip  %s (%s %d)\n", t->name, who, geteuid());
			break;
		case CHILD_TIMEOUT:
			nfailed++;
			printf("FAIL  %s (%s %d): timed out\n", t->name, who,
			       geteuid());
			break;
		default:
			nfailed++;
			printf("FAIL  %s (%s %d)\n", t->name, who, geteuid());
		}
	}
	printf("selftests: %d passed, %d failed, %d skipped\n", passed, nfailed,
	       skipped);
	return nfailed || passed + skipped == 0 ? 1 : 0;
}
