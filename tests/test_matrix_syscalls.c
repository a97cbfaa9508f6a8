// SPDX-License-Identifier: GPL-2.0
/*
 * The matrix against the BPF side's own tables: every syscall of
 * include/capsicum/optable.h (rights on descriptors, which the BPF side
 * expands) or that bpf/uapi.bpf.h numbers for the hooks (lookups
 * through a dirfd, capability mode) is named in doc/enforcement.md (or,
 * for the capability-mode forms, doc/capmode.md), so a syscall the
 * programs start to handle cannot go undocumented. The patched kernel's
 * fget hook knows no other syscall: fget_need_of (bpf/fget.bpf.h)
 * expands the same table (its dirfd walk check needs no number).
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <capsicum/optable.h>
#include <criterion/criterion.h>

/* slurp(): the test runs from the repository root. */
#include "mdtable.h"

/* Is `name` in backticks, alone or as a call, in doc? */
static bool documented(const char *doc, const char *name)
{
	char a[80], b[80];

	snprintf(a, sizeof(a), "`%s`", name);
	snprintf(b, sizeof(b), "`%s(", name);
	return strstr(doc, a) || strstr(doc, b);
}

/*
 * Checks every "#define NR_name" of header against the docs; misses, or
 * -1 if the header defines none (the numbers moved: follow them).
 */
static int check(const char *header, const char *doc1, const char *doc2)
{
	char *h = slurp(header), *p = h, name[64];
	int missing = 0, seen = 0;

	while ((p = strstr(p, "#define NR_"))) {
		p += strlen("#define NR_");
		if (sscanf(p, "%63[a-z0-9_]", name) != 1)
			continue;
		seen++;
		if (!documented(doc1, name) &&
		    !(doc2 && documented(doc2, name))) {
			cr_log_error("%s: NR_%s is in no matrix row", header,
				     name);
			missing++;
		}
	}
	free(h);
	return seen ? missing : -1;
}

Test(matrix_syscalls, bpf_rights_table_is_documented)
{
	static const char *const names[] = {
#define OP_NAME(name, ...) #name,
		CAPSICUM_OPS(OP_NAME)
#undef OP_NAME
	};
	char *matrix = slurp("doc/enforcement.md");
	int missing = 0;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!documented(matrix, names[i])) {
			cr_log_error("optable.h: %s is in no matrix row",
				     names[i]);
			missing++;
		}
	cr_expect_eq(missing, 0);
	free(matrix);
}

Test(matrix_syscalls, bpf_lookup_table_is_documented)
{
	char *matrix = slurp("doc/enforcement.md");
	char *capmode = slurp("doc/capmode.md");

	cr_expect_eq(check("bpf/uapi.bpf.h", matrix, capmode), 0);
	free(matrix);
	free(capmode);
}

/* The check itself: an undocumented name is found. */
Test(matrix_syscalls, a_missing_name_is_caught)
{
	cr_expect(!documented("| `read` | yes |", "pread64"));
	cr_expect(documented("| `read`, `readv` |", "readv"));
	cr_expect(documented("`mmap(PROT_EXEC)`", "mmap"));
}
