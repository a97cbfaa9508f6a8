// SPDX-License-Identifier: GPL-2.0
/* Running and listing rights rows (rows.h). */
#define _GNU_SOURCE
#include "rows.h"

#include "fixture.h"

#include <capsicum/rights_names.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capsicum.h>
#include <unistd.h>

/* A variant's child exits with the errno (below 200), or with these. */
enum {
	ROW_NO_FD = 200, /* .make failed */
	ROW_NO_LIMIT,	 /* cap_rights_limit or cap_fcntls_limit failed */
	ROW_NO_ENTER,	 /* cap_enter failed */
	ROW_ODD,	 /* the call failed with errno 0 or one of 200 and up */
};

static const char *const sub_names[] = { "CAP_FCNTL_GETFL", "CAP_FCNTL_SETFL",
					 "CAP_FCNTL_GETOWN",
					 "CAP_FCNTL_SETOWN" };
static const uint32_t sub_values[] = { CAP_FCNTL_GETFL, CAP_FCNTL_SETFL,
				       CAP_FCNTL_GETOWN, CAP_FCNTL_SETOWN };

/* A result as the rows say it: "0", "ENOTCAPABLE", "EPERM", "ROW_NO_FD". */
static const char *result_name(int r, char buf[32])
{
	static const char *const rows[] = { "ROW_NO_FD", "ROW_NO_LIMIT",
					    "ROW_NO_ENTER", "ROW_ODD" };
	const char *n;

	if (r == ENOTCAPABLE)
		return "ENOTCAPABLE";
	if (r == ECAPMODE)
		return "ECAPMODE";
	if (r >= ROW_NO_FD && r <= ROW_ODD)
		return rows[r - ROW_NO_FD];
	if (r > 0 && (n = strerrorname_np(r)))
		return n;
	snprintf(buf, 32, "%d", r);
	return buf;
}

/*
 * One variant in a child: the descriptor limited to every right but
 * `drop` (a right's bit, with its index) and, for a row with fcntls, to
 * those sub-rights but `drop_fcntl`; in capability mode if capmode. Its
 * result, or -1 if the child died.
 */
static int run_variant(const struct rights_row *row, uint64_t drop,
		       uint32_t drop_fcntl, bool capmode)
{
	pid_t pid = fork();

	if (pid == 0) {
		cap_rights_t r;
		int fd = row->make();

		if (fd < 0)
			_exit(ROW_NO_FD);
		CAP_ALL(&r);
		if (drop)
			cap_rights_clear(&r, drop);
		if (cap_rights_limit(fd, &r) ||
		    (row->fcntls &&
		     cap_fcntls_limit(fd, drop_fcntl
						  ? CAP_FCNTL_ALL & ~drop_fcntl
						  : row->fcntls)))
			_exit(ROW_NO_LIMIT);
		if (capmode && cap_enter())
			_exit(ROW_NO_ENTER);
		errno = 0;
		if (row->op(fd) == 0)
			_exit(0);
		_exit(errno > 0 && errno < ROW_NO_FD ? errno : ROW_ODD);
	}
	return selftest_wait(pid);
}

/*
 * Rights as CAP_ names joined by '|' (capsicum_rights_format's choice of
 * names; a hex word for bits no name covers), then fcntl sub-rights.
 */
static void rights_names(uint64_t rights, uint32_t fcntls, char *buf,
			 size_t len)
{
	char names[512], *p, *save;
	const char *sep = "";
	size_t at = 0;
	cap_rights_t r;

#define PUT(...)                                                               \
	(at += snprintf(at < len ? buf + at : NULL, at < len ? len - at : 0,   \
			__VA_ARGS__))
	buf[0] = '\0';
	cap_rights_init(&r);
	if (rights)
		cap_rights_set(&r, rights);
	if (rights && capsicum_rights_format(&r, names, sizeof(names)) > 0)
		for (p = strtok_r(names, ",", &save); p;
		     p = strtok_r(NULL, ",", &save), sep = "|") {
			bool hex = !strncmp(p, "0x", 2);

			PUT("%s%s", sep, hex ? "" : "CAP_");
			for (; *p; p++)
				PUT("%c", !hex && *p >= 'a' && *p <= 'z'
						  ? *p - 'a' + 'A'
						  : *p);
		}
	for (size_t i = 0; i < sizeof(sub_values) / sizeof(*sub_values); i++)
		if (fcntls & sub_values[i]) {
			PUT("%s%s", sep, sub_names[i]);
			sep = "|";
		}
#undef PUT
}

/* Checks one variant; false (and says so) if it gave something else. */
static bool check(const struct rights_row *row, const char *variant,
		  uint64_t drop, uint32_t drop_fcntl, bool capmode, int want,
		  bool patched)
{
	int got = run_variant(row, drop, drop_fcntl, capmode);
	char what[96] = "", a[32], b[32];

	if (got == want)
		return true;
	if (drop || drop_fcntl)
		rights_names(drop, drop_fcntl, what, sizeof(what));
	selftest_fail(__FILE__, __LINE__,
		      "row '%s', %s%s%s: %s, expected %s (%s kernel)",
		      row->name, variant, *what ? " " : "", what,
		      got < 0 ? "child died" : result_name(got, a),
		      result_name(want, b), patched ? "patched" : "stock");
	return false;
}

/* The variants `without` takes away, each in turn; false on a failure. */
static bool check_without(const struct rights_row *row, bool capmode, int want,
			  bool patched)
{
	uint64_t idx = row->rights & CAP_RIGHTS_INDEX_MASK;
	uint64_t bits = row->rights & CAP_RIGHTS_BITS_MASK;
	const char *variant = capmode ? "capmode_without" : "without";
	bool ok = true;

	for (int b = 0; b < 64; b++)
		if (bits & (1ULL << b))
			ok &= check(row, variant, idx | (1ULL << b), 0, capmode,
				    want, patched);
	for (int b = 0; b < 32; b++)
		if (row->fcntls & (1U << b))
			ok &= check(row, variant, 0, 1U << b, capmode, want,
				    patched);
	return ok;
}

static const struct row_expect *expect_of(const struct rights_row *row,
					  bool patched)
{
	return patched && row->patched.set ? &row->patched : &row->stock;
}

void rows_run(const struct rights_row *rows, size_t n)
{
	bool patched = fixture_patched_kernel();

	unsigned int kernel = fixture_kernel_version();

	for (size_t i = 0; i < n; i++) {
		const struct rights_row *row = &rows[i];
		const struct row_expect *e = expect_of(row, patched);
		struct row_expect older;
		char a[32];

		if (!selftest_row_selected(row->name))
			continue;
		if (!ASSERT_TRUE(e->set, row->name) ||
		    !ASSERT_TRUE(row->rights || row->fcntls, row->name))
			continue;
		if (row->since && kernel < row->since) {
			older = *e;
			older.with = older.without = row->unknown;
			e = &older;
			printf("    row '%s': not before %u.%u, expects %s\n",
			       row->name, row->since >> 8, row->since & 0xff,
			       result_name(row->unknown, a));
		}
		check(row, "with", 0, 0, false, e->with, patched);
		check_without(row, false, e->without, patched);
		check(row, "capmode_with", 0, 0, true, e->capmode_with,
		      patched);
		check_without(row, true, e->capmode_without, patched);
	}
}

static void list_expect(FILE *out, const char *kernel,
			const struct row_expect *e)
{
	char a[32], b[32], c[32], d[32];

	fprintf(out, "\t%s=%s,%s,%s,%s", kernel, result_name(e->with, a),
		result_name(e->without, b), result_name(e->capmode_with, c),
		result_name(e->capmode_without, d));
}

/* The row, tab, its rights, its expectations: for --list. */
void rows_list(FILE *out, const struct rights_row *row)
{
	char names[1024];

	rights_names(row->rights, row->fcntls, names, sizeof(names));
	fprintf(out, "%s\t%s", row->name, names);
	list_expect(out, "stock", expect_of(row, false));
	list_expect(out, "patched", expect_of(row, true));
}
