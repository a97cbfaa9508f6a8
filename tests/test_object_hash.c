// SPDX-License-Identifier: GPL-2.0
/*
 * The hash stamped at build time (scripts/object_hash) is the hash of the
 * object the loader's skeleton carries: capctl, which has only the stamp,
 * and capsicumd, which loads the skeleton, agree on which build is which.
 */
#include <stdint.h>

#include <criterion/criterion.h>

#include "capsicum.skel.h"
#include "capsicum_object_hash.h"

Test(object_hash, stamp_is_the_skeletons_object)
{
	size_t n;
	const unsigned char *p = capsicum_bpf__elf_bytes(&n);
	uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a 64, as the tool */

	cr_assert_gt(n, 0);
	while (n--) {
		h ^= *p++;
		h *= 0x100000001b3ULL;
	}
	cr_expect_eq(h, CAPSICUM_OBJECT_HASH, "skeleton %#llx, stamp %#llx",
		     (unsigned long long)h,
		     (unsigned long long)CAPSICUM_OBJECT_HASH);
}
