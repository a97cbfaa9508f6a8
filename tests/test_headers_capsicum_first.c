// SPDX-License-Identifier: BSD-2-Clause
/*
 * Ours first, then Linux's POSIX capability headers: the other order of
 * test_headers_posix_first.c. Also the 2014 spellings <linux/capsicum.h>
 * adds, mapped onto this project's values.
 */
#include <linux/capsicum.h>
#include <sys/capsicum.h>

#include <linux/capability.h>
#if defined(__has_include)
#if __has_include(<sys/capability.h>)
#include <sys/capability.h> /* libcap, where installed */
#endif
#endif

#include <criterion/criterion.h>

Test(headers, capsicum_first)
{
	cr_expect_eq(CAP_PERFMON, 38);
	cr_expect_eq(CAP_BPF, 39);
	cr_expect_eq(CAP_PERF_EVENT, CAPRIGHT(1, 1ULL << 53));
	cr_expect_eq(CAP_BPF_OBJ, CAPRIGHT(1, 1ULL << 52));
}

Test(headers, spelling_of_2014)
{
	cap_rights_t r;

	cr_expect_eq(CAP_NOTIFY, CAP_INOTIFY_ADD | CAP_INOTIFY_RM);
	CAP_SET_ALL(&r);
	cr_expect(CAP_IS_ALL(&r));
	cr_expect_eq(CAPARSIZE(&r), 2);
	cr_expect_eq(CAPRVER(r.cr_rights[0]), CAP_RIGHTS_VERSION_00);
	cr_expect_eq(CAPIDXBIT(CAP_FSIGNAL), 2);
	CAP_SET_NONE(&r);
	cr_expect(!CAP_IS_ALL(&r));
	cr_expect(cap_rights_is_empty(&r));
	cap_rights_set(&r, CAP_NOTIFY, CAP_SETNS, CAP_EPOLL_CTL, CAP_FSIGNAL);
	cr_expect(cap_rights_is_set(&r, CAP_INOTIFY_RM, CAP_SETNS));

	cap_fcntl_t f = CAP_FCNTL_GETFL;
	cr_expect_eq(sizeof(f), sizeof(uint32_t));
	cr_expect_eq(CAP_IOCTLS_ALL, SSIZE_MAX);
}
