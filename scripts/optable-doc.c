// SPDX-License-Identifier: GPL-2.0
/*
 * capsicum_selftests --list | optable-doc: doc/enforcement.md's index of
 * the operation table (tests/optable_doc.h), for `make doc-tables`.
 */
#include "tests/optable_doc.h"

int main(void)
{
	if (optable_doc_write(stdin, stdout)) {
		fprintf(stderr, "optable-doc: no rows on stdin "
				"(capsicum_selftests --list)\n");
		return 1;
	}
	return 0;
}
