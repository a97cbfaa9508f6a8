/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Rights rows: one operation on one descriptor, the rights it needs, and
 * what each variant of it must give, stated in the row.
 *
 * A row runs in fresh children, each on a fresh descriptor from .make:
 *
 *   with      the descriptor limited to every right (and, for a row with
 *             .fcntls, to exactly those fcntl sub-rights);
 *   without   once per right in .rights (per bit: CAP_PREAD is CAP_READ's
 *             bit and CAP_SEEK_TELL's and CAP_SEEK's own) and per
 *             sub-right in .fcntls: every right but that one;
 *
 * then both again after cap_enter() ("capmode_with", "capmode_without").
 * Each variant gives 0 (the call worked) or the errno it failed with, and
 * must give what the row's expectation says: .stock on Debian's kernels,
 * .patched on the patched one (kernel/; .stock there too if the row has
 * no .patched). So a row the stock kernel cannot enforce pins the gap
 * (`without` gives 0) and the enforcement the patched kernel adds.
 *
 * `capsicum_selftests --list` prints every row, its rights and its
 * expectations; tests/test_optable.c holds them against
 * include/capsicum/optable.h: a row is named after its syscall (the
 * first word of .name, or libc's name for it), and a row that expects
 * ENOTCAPABLE anywhere tests exactly the rights the table gives that
 * syscall (rule "none"), or rights its rule can ask for. A row that
 * expects no ENOTCAPABLE anywhere proves a right is not needed.
 */
#ifndef CAPSICUM_SELFTEST_ROWS_H
#define CAPSICUM_SELFTEST_ROWS_H

#include "selftest.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What one row gives in each variant: 0 or an errno (ENOTCAPABLE, ...). */
struct row_expect {
	bool set; /* false: no expectation of its own (.patched as .stock) */
	int with, without, capmode_with, capmode_without;
};

/* An expectation, in the order of the variants. */
#define EXPECT(with_, without_, capmode_with_, capmode_without_)               \
	{                                                                      \
		.set = true, .with = (with_), .without = (without_),           \
		.capmode_with = (capmode_with_),                               \
		.capmode_without = (capmode_without_)                          \
	}

struct rights_row {
	const char *name; /* "SYSCALL[ form...]": see above */
	/*
	 * The rights the call needs (one rights word): each is taken away
	 * in turn. 0 for a row of fcntl sub-rights only.
	 */
	uint64_t rights;
	uint32_t fcntls;   /* CAP_FCNTL_* sub-rights, likewise */
	int (*make)(void); /* the descriptor, or -1 */
	int (*op)(int fd); /* the call: 0, or -1 with errno */
	struct row_expect stock, patched;
	/*
	 * The first kernel with the operation (FIXTURE_KERNEL(6, 11)), 0
	 * for all: on an older one `with` and `without` give .unknown
	 * instead, the kernel's answer to an operation it does not have
	 * (EINVAL for an io_uring opcode it does not know), and the run
	 * says so. Capability mode's variants stay as the row says.
	 */
	unsigned int since;
	int unknown;
};

/*
 * Registers a static array of rights rows, run by the SELFTEST named
 * test (a string): `row:NAME` on the command line runs that test with
 * that row only.
 */
#define SELFTEST_RIGHTS_ROWS(tbl, test)                                        \
	_Static_assert(__builtin_types_compatible_p(__typeof__((tbl)[0]),      \
						    const struct rights_row),  \
		       #tbl ": rights rows are const struct rights_row");      \
	SELFTEST_ROWS_OF(tbl, true, test)

/*
 * Runs each selected row's variants and checks each against the row's
 * expectation for this kernel; a failed row says which variant gave what.
 */
void rows_run(const struct rights_row *rows, size_t n);

/* "NAME\tRIGHTS\tstock=W,WO,CW,CWO\tpatched=W,WO,CW,CWO", for --list. */
void rows_list(FILE *out, const struct rights_row *row);

#endif
