// SPDX-License-Identifier: BSD-2-Clause
/*
 * Linux's POSIX capability headers, then ours, in one file. Our rights once
 * reused CAP_PERFMON and CAP_BPF (38 and 39 there): this file then failed
 * to build (-Werror on the redefinition) or, in the other order, silently
 * took the other header's value. test_headers_capsicum_first.c is the
 * other order; together they make the build the test.
 */
#if defined(__has_include)
#if __has_include(<sys/capability.h>)
#include <sys/capability.h> /* libcap, where installed */
#endif
#endif
#include <linux/capability.h>

#include <linux/capsicum.h>
#include <sys/capsicum.h>

#include <criterion/criterion.h>

Test(headers, posix_capabilities_first)
{
	cr_expect_eq(CAP_PERFMON, 38);
	cr_expect_eq(CAP_BPF, 39);
	cr_expect_eq(CAP_PERF_EVENT, CAPRIGHT(1, 1ULL << 53));
	cr_expect_eq(CAP_BPF_OBJ, CAPRIGHT(1, 1ULL << 52));
	cr_expect_eq(CAP_SETNS, CAPRIGHT(1, 1ULL << 54));
}
