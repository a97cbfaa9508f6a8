// SPDX-License-Identifier: BSD-2-Clause
/* The rights ABI values and the cap_rights_t algebra. */
#include <limits.h>
#include <signal.h>
#include <string.h>

#include <criterion/criterion.h>

#include <sys/capsicum.h>

struct fbsd_right {
	const char *name;
	uint64_t ours;	  /* our macro */
	uint64_t freebsd; /* FreeBSD 14's value, from the tsv */
};

static const struct fbsd_right fbsd[] = {
#include "freebsd_rights_table.h"
};

#define NFBSD (sizeof(fbsd) / sizeof(fbsd[0]))

#define LINUX_EXTRAS                                                           \
	(CAP_FSIGNAL | CAP_EPOLL_CTL | CAP_SETNS | CAP_PERF_EVENT | CAP_BPF_OBJ)

/* FreeBSD 14's CAP_ALL0/CAP_ALL1, straight from the tsv. */
static uint64_t fbsd_value(const char *name)
{
	size_t i;

	for (i = 0; i < NFBSD; i++) {
		if (strcmp(fbsd[i].name, name) == 0)
			return fbsd[i].freebsd;
	}
	cr_assert_fail("%s not in the FreeBSD table", name);
	return 0;
}

static int index_of(uint64_t v)
{
	return __builtin_ctzll(v >> 57);
}

static void expect_words(const cap_rights_t *r, uint64_t w0, uint64_t w1)
{
	cr_expect_eq(r->cr_rights[0], w0, "word 0: 0x%016llx, want 0x%016llx",
		     (unsigned long long)r->cr_rights[0],
		     (unsigned long long)w0);
	cr_expect_eq(r->cr_rights[1], w1, "word 1: 0x%016llx, want 0x%016llx",
		     (unsigned long long)r->cr_rights[1],
		     (unsigned long long)w1);
}

/* ABI values. */

Test(abi, table_is_complete)
{
	/* 85 rights in FreeBSD 14's sys/capsicum.h, aliases included. */
	cr_assert_eq(NFBSD, 85);
}

Test(abi, every_freebsd_value_matches)
{
	size_t i;

	for (i = 0; i < NFBSD; i++) {
		/* FreeBSD 15 values on purpose; see all0/all1 below. */
		if (!strcmp(fbsd[i].name, "CAP_ALL0") ||
		    !strcmp(fbsd[i].name, "CAP_ALL1"))
			continue;
		cr_expect_eq(fbsd[i].ours, fbsd[i].freebsd,
			     "%s: 0x%016llx, FreeBSD has 0x%016llx",
			     fbsd[i].name, (unsigned long long)fbsd[i].ours,
			     (unsigned long long)fbsd[i].freebsd);
	}
}

Test(abi, all0_is_freebsd15)
{
	uint64_t all0_14 = fbsd_value("CAP_ALL0");

	/* FreeBSD 15 grew index 0 by exactly CAP_FCHROOT, the next bit. */
	cr_expect_eq(all0_14, CAPRIGHT(0, 0x7FFFFFFFFFFULL));
	cr_expect_eq(CAP_FCHROOT, CAPRIGHT(0, 1ULL << 43));
	cr_expect_eq(all0_14 & CAP_FCHROOT & CAP_RIGHTS_BITS_MASK, 0);
	cr_expect_eq(CAP_ALL0, all0_14 | CAP_FCHROOT);
	cr_expect_eq(CAP_ALL0, 0x02000FFFFFFFFFFFULL);
}

Test(abi, all1_is_freebsd15_plus_linux)
{
	uint64_t all1_14 = fbsd_value("CAP_ALL1");

	cr_expect_eq(all1_14, CAPRIGHT(1, 0x1FFFFFULL));
	cr_expect_eq(CAP_ALL1,
		     all1_14 | CAP_INOTIFY_ADD | CAP_INOTIFY_RM | LINUX_EXTRAS);
	cr_expect_eq(CAP_ALL1, 0x05F00000007FFFFFULL);
}

Test(abi, freebsd15_additions)
{
	cr_expect_eq(CAP_INOTIFY_ADD, 0x0400000000200000ULL);
	cr_expect_eq(CAP_INOTIFY_RM, 0x0400000000400000ULL);
	cr_expect_eq(CAP_FCHROOT, 0x0200080000000000ULL);
}

Test(abi, linux_extras_are_separate)
{
	const uint64_t extras[] = { CAP_FSIGNAL, CAP_EPOLL_CTL, CAP_SETNS,
				    CAP_PERF_EVENT, CAP_BPF_OBJ };
	/* Every bit FreeBSD 14 or 15 uses in index 1. */
	uint64_t freebsd1 = CAP_INOTIFY_ADD | CAP_INOTIFY_RM, seen = 0;
	size_t i;

	for (i = 0; i < NFBSD; i++) {
		if (index_of(fbsd[i].freebsd) == 1)
			freebsd1 |= fbsd[i].freebsd;
	}
	freebsd1 &= CAP_RIGHTS_BITS_MASK;
	for (i = 0; i < sizeof(extras) / sizeof(extras[0]); i++) {
		uint64_t bits = extras[i] & CAP_RIGHTS_BITS_MASK;

		cr_expect_eq(CAPIDXBIT(extras[i]), 2, "extra %zu not index 1",
			     i);
		cr_expect_eq(__builtin_popcountll(bits), 1);
		cr_expect_eq(bits & freebsd1, 0, "extra %zu hits FreeBSD", i);
		cr_expect_eq(bits & seen, 0, "extra %zu reused", i);
		/* Top of the usable bits, where FreeBSD will reach last. */
		cr_expect_geq(__builtin_ctzll(bits), 52);
		cr_expect_leq(__builtin_ctzll(bits), 56);
		seen |= bits;
	}
	cr_expect_eq(CAP_FSIGNAL, CAPRIGHT(1, 1ULL << 56));
	cr_expect_eq(CAP_EPOLL_CTL, CAPRIGHT(1, 1ULL << 55));
	cr_expect_eq(CAP_SETNS, CAPRIGHT(1, 1ULL << 54));
	cr_expect_eq(CAP_PERF_EVENT, CAPRIGHT(1, 1ULL << 53));
	cr_expect_eq(CAP_BPF_OBJ, CAPRIGHT(1, 1ULL << 52));
}

Test(abi, every_right_within_all)
{
	size_t i;

	for (i = 0; i < NFBSD; i++) {
		uint64_t v = fbsd[i].ours;
		uint64_t all = index_of(v) == 0 ? CAP_ALL0 : CAP_ALL1;

		cr_expect_eq(v & all, v, "%s outside CAP_ALL", fbsd[i].name);
	}
}

Test(abi, layout_macros)
{
	cap_rights_t r;

	cr_expect_eq(CAP_RIGHTS_VERSION_00, 0);
	cr_expect_eq(CAP_RIGHTS_VERSION, 0);
	cr_expect_eq(sizeof(cap_rights_t), 16);
	cr_expect_eq(CAPRIGHT(0, 0x1ULL), 0x0200000000000001ULL);
	cr_expect_eq(CAPRIGHT(1, 0x1ULL), 0x0400000000000001ULL);
	cr_expect_eq(CAPIDXBIT(CAP_READ), 1);
	cr_expect_eq(CAPIDXBIT(CAP_IOCTL), 2);
	cr_expect_eq(CAPIDXBIT(0xC000000000000000ULL), 0);
	CAP_ALL(&r);
	expect_words(&r, CAP_ALL0, CAP_ALL1);
	cr_expect_eq(CAPVER(&r), 0);
	CAP_NONE(&r);
	expect_words(&r, CAPRIGHT(0, 0ULL), CAPRIGHT(1, 0ULL));
	r.cr_rights[0] |= 1ULL << 62;
	cr_expect_eq(CAPVER(&r), 1);
}

Test(abi, errnos_and_sub_rights)
{
	cr_expect_eq(ECAPMODE, 134);
	cr_expect_eq(ENOTCAPABLE, 135);
	cr_expect_eq(CAP_FCNTL_GETFL, 1 << 3);
	cr_expect_eq(CAP_FCNTL_SETFL, 1 << 4);
	cr_expect_eq(CAP_FCNTL_GETOWN, 1 << 5);
	cr_expect_eq(CAP_FCNTL_SETOWN, 1 << 6);
	cr_expect_eq(CAP_FCNTL_ALL, 0x78);
	cr_expect_eq(CAP_IOCTLS_MAX, 256);
	cr_expect_eq(CAP_IOCTLS_ALL, SSIZE_MAX);
	cr_expect_eq(sizeof(cap_ioctl_t), sizeof(unsigned long));
}

/* init / set / clear / is_set. */

Test(init, empty)
{
	cap_rights_t r;

	memset(&r, 0xA5, sizeof(r));
	cr_expect_eq(cap_rights_init(&r), &r);
	expect_words(&r, 0x0200000000000000ULL, 0x0400000000000000ULL);
	cr_expect(cap_rights_is_valid(&r));
	cr_expect(cap_rights_is_empty(&r));
}

Test(init, both_words)
{
	cap_rights_t r;

	cap_rights_init(&r, CAP_READ, CAP_IOCTL, CAP_SEEK, CAP_BPF_OBJ);
	expect_words(&r, CAP_READ | CAP_SEEK, CAP_IOCTL | CAP_BPF_OBJ);
	cr_expect(cap_rights_is_valid(&r));
}

Test(init, every_right)
{
	size_t i;

	for (i = 0; i < NFBSD; i++) {
		cap_rights_t r;
		uint64_t v = fbsd[i].ours;

		cap_rights_init(&r, v);
		cr_expect(cap_rights_is_valid(&r), "%s", fbsd[i].name);
		cr_expect(cap_rights_is_set(&r, v), "%s", fbsd[i].name);
		cr_expect_eq(r.cr_rights[index_of(v)], v, "%s", fbsd[i].name);
		cr_expect_eq(r.cr_rights[1 - index_of(v)],
			     CAPRIGHT(1 - index_of(v), 0ULL));
	}
}

Test(set, adds_and_returns)
{
	cap_rights_t r;

	cap_rights_init(&r, CAP_READ);
	cr_expect_eq(cap_rights_set(&r, CAP_WRITE, CAP_PDKILL), &r);
	expect_words(&r, CAP_READ | CAP_WRITE, CAP_PDKILL);
	/* Setting what is already there changes nothing. */
	cap_rights_set(&r, CAP_READ);
	expect_words(&r, CAP_READ | CAP_WRITE, CAP_PDKILL);
}

Test(clear, removes_only_right_bits)
{
	cap_rights_t r;

	cap_rights_init(&r, CAP_PREAD, CAP_WRITE, CAP_EVENT);
	cr_expect_eq(cap_rights_clear(&r, CAP_READ, CAP_EVENT), &r);
	/* Index bits survive: the words still say where they belong. */
	expect_words(&r, CAP_SEEK | CAP_WRITE, CAPRIGHT(1, 0ULL));
	cr_expect(cap_rights_is_valid(&r));
	/* A composite takes all its bits, shared ones included. */
	cap_rights_clear(&r, CAP_PWRITE);
	expect_words(&r, CAPRIGHT(0, 0ULL), CAPRIGHT(1, 0ULL));
}

Test(clear, component_of_composite)
{
	cap_rights_t r;

	cap_rights_init(&r, CAP_MKDIRAT);
	cap_rights_clear(&r, CAP_LOOKUP);
	expect_words(&r, CAPRIGHT(0, 0x800000ULL), CAPRIGHT(1, 0ULL));
	cr_expect_not(cap_rights_is_set(&r, CAP_MKDIRAT));
	cr_expect(cap_rights_is_valid(&r));
}

Test(clear, every_right_from_all)
{
	size_t i;

	for (i = 0; i < NFBSD; i++) {
		cap_rights_t r;

		CAP_ALL(&r);
		cap_rights_clear(&r, fbsd[i].ours);
		cr_expect_not(cap_rights_is_set(&r, fbsd[i].ours), "%s",
			      fbsd[i].name);
		cr_expect(cap_rights_is_valid(&r), "%s", fbsd[i].name);
	}
}

Test(is_set, all_or_nothing)
{
	cap_rights_t r;

	cap_rights_init(&r, CAP_READ, CAP_SEEK, CAP_IOCTL);
	cr_expect(cap_rights_is_set(&r, CAP_READ));
	cr_expect(cap_rights_is_set(&r, CAP_PREAD, CAP_IOCTL));
	cr_expect(cap_rights_is_set(&r, CAP_SEEK_TELL));
	cr_expect_not(cap_rights_is_set(&r, CAP_WRITE));
	cr_expect_not(cap_rights_is_set(&r, CAP_READ, CAP_WRITE));
	cr_expect_not(cap_rights_is_set(&r, CAP_IOCTL, CAP_PDKILL));
	/* Part of a composite is not the composite. */
	cr_expect_not(cap_rights_is_set(&r, CAP_MMAP_R));
	/* No rights asked for: vacuously true, as on FreeBSD. */
	cr_expect(cap_rights_is_set(&r));
}

/* Misuse aborts, as FreeBSD's assertions do. */

Test(abort, init_bad_version, .signal = SIGABRT)
{
	cap_rights_t r;

	__cap_rights_init(1, &r, CAP_READ, 0ULL);
}

Test(abort, set_no_index_bit, .signal = SIGABRT)
{
	cap_rights_t r;

	cap_rights_init(&r);
	cap_rights_set(&r, 0x1ULL);
}

Test(abort, set_two_index_bits, .signal = SIGABRT)
{
	cap_rights_t r;

	cap_rights_init(&r);
	cap_rights_set(&r, CAP_READ | CAP_IOCTL);
}

Test(abort, set_index_past_array, .signal = SIGABRT)
{
	cap_rights_t r;

	cap_rights_init(&r);
	cap_rights_set(&r, CAPRIGHT(2, 0x1ULL));
}

Test(abort, set_version_bits_in_right, .signal = SIGABRT)
{
	cap_rights_t r;

	cap_rights_init(&r);
	cap_rights_set(&r, (1ULL << 62) | CAP_READ);
}

Test(abort, init_invalid_right, .signal = SIGABRT)
{
	cap_rights_t r;

	cap_rights_init(&r, CAP_READ, 0x4ULL);
}

Test(abort, clear_invalid_right, .signal = SIGABRT)
{
	cap_rights_t r;

	/* Skipping it would leave CAP_READ granted. */
	cap_rights_init(&r, CAP_READ);
	cap_rights_clear(&r, CAP_READ & CAP_RIGHTS_BITS_MASK);
}

Test(abort, is_set_invalid_right, .signal = SIGABRT)
{
	cap_rights_t r;

	cap_rights_init(&r, CAP_READ);
	cap_rights_is_set(&r, CAPRIGHT(3, 0x1ULL));
}

Test(abort, set_on_bad_version, .signal = SIGABRT)
{
	cap_rights_t r;

	cap_rights_init(&r);
	r.cr_rights[0] |= 2ULL << 62;
	cap_rights_set(&r, CAP_READ);
}

Test(abort, set_on_swapped_words, .signal = SIGABRT)
{
	cap_rights_t r;

	cap_rights_init(&r);
	r.cr_rights[0] = CAPRIGHT(1, 0ULL);
	cap_rights_set(&r, CAP_READ);
}

Test(abort, merge_invalid_src, .signal = SIGABRT)
{
	cap_rights_t a, b;

	cap_rights_init(&a);
	cap_rights_init(&b);
	b.cr_rights[1] |= 1ULL << 30;
	cap_rights_merge(&a, &b);
}

Test(abort, remove_invalid_dst, .signal = SIGABRT)
{
	cap_rights_t a, b;

	cap_rights_init(&a);
	cap_rights_init(&b);
	a.cr_rights[0] = 0;
	cap_rights_remove(&a, &b);
}

Test(abort, contains_bad_version, .signal = SIGABRT)
{
	cap_rights_t a, b;

	cap_rights_init(&a);
	cap_rights_init(&b);
	b.cr_rights[0] |= 3ULL << 62;
	cap_rights_contains(&a, &b);
}

/* is_valid. */

Test(is_valid, accepts)
{
	cap_rights_t r;

	cap_rights_init(&r);
	cr_expect(cap_rights_is_valid(&r));
	CAP_ALL(&r);
	cr_expect(cap_rights_is_valid(&r));
	CAP_NONE(&r);
	cr_expect(cap_rights_is_valid(&r));
}

Test(is_valid, rejects)
{
	static const struct {
		uint64_t w0, w1;
		const char *why;
	} bad[] = {
		{ (1ULL << 62) | CAPRIGHT(0, 0), CAPRIGHT(1, 0), "version 1" },
		{ (2ULL << 62) | CAPRIGHT(0, 0), CAPRIGHT(1, 0), "version 2" },
		{ (3ULL << 62) | CAPRIGHT(0, 0), CAPRIGHT(1, 0), "version 3" },
		{ CAPRIGHT(1, 0), CAPRIGHT(0, 0), "words swapped" },
		{ 0, CAPRIGHT(1, 0), "word 0 without index" },
		{ CAPRIGHT(0, 0), 0, "word 1 without index" },
		{ CAPRIGHT(0, 0) | CAPRIGHT(1, 0), CAPRIGHT(1, 0),
		  "two index bits" },
		{ CAPRIGHT(0, 0), CAPRIGHT(2, 0), "word 1 index 2" },
		{ CAPRIGHT(0, 0), (1ULL << 62) | CAPRIGHT(1, 0),
		  "version bits in word 1" },
		{ CAPRIGHT(0, 1ULL << 44), CAPRIGHT(1, 0), "bit 44 of word 0" },
		{ CAPRIGHT(0, 1ULL << 56), CAPRIGHT(1, 0), "bit 56 of word 0" },
		{ CAPRIGHT(0, 0), CAPRIGHT(1, 1ULL << 23), "bit 23 of word 1" },
		{ CAPRIGHT(0, 0), CAPRIGHT(1, 1ULL << 51), "bit 51 of word 1" },
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cap_rights_t r = { { bad[i].w0, bad[i].w1 } };

		cr_expect_not(cap_rights_is_valid(&r), "%s", bad[i].why);
	}
}

/* merge / remove / contains / is_empty. */

Test(merge, unions)
{
	cap_rights_t a, b;

	cap_rights_init(&a, CAP_READ, CAP_EVENT);
	cap_rights_init(&b, CAP_WRITE, CAP_SETNS);
	cr_expect_eq(cap_rights_merge(&a, &b), &a);
	expect_words(&a, CAP_READ | CAP_WRITE, CAP_EVENT | CAP_SETNS);
	expect_words(&b, CAP_WRITE, CAP_SETNS);
	cr_expect(cap_rights_is_valid(&a));
}

Test(remove, subtracts_keeping_index)
{
	cap_rights_t a, b;

	cap_rights_init(&a, CAP_PREAD, CAP_WRITE, CAP_EVENT, CAP_IOCTL);
	cap_rights_init(&b, CAP_READ, CAP_EVENT, CAP_FSTAT);
	cr_expect_eq(cap_rights_remove(&a, &b), &a);
	expect_words(&a, CAP_SEEK | CAP_WRITE, CAP_IOCTL);
	cap_rights_remove(&a, &a);
	expect_words(&a, CAPRIGHT(0, 0ULL), CAPRIGHT(1, 0ULL));
	cr_expect(cap_rights_is_valid(&a));
}

Test(contains, subset)
{
	cap_rights_t big, little, none;

	cap_rights_init(&big, CAP_PREAD, CAP_WRITE, CAP_IOCTL);
	cap_rights_init(&little, CAP_READ, CAP_IOCTL);
	cap_rights_init(&none);
	cr_expect(cap_rights_contains(&big, &little));
	cr_expect(cap_rights_contains(&big, &big));
	cr_expect(cap_rights_contains(&big, &none));
	cr_expect(cap_rights_contains(&none, &none));
	cr_expect_not(cap_rights_contains(&little, &big));
	cr_expect_not(cap_rights_contains(&none, &little));
	/* A miss in word 1 alone counts. */
	cap_rights_set(&little, CAP_PDKILL);
	cr_expect_not(cap_rights_contains(&big, &little));
}

Test(contains, all_contains_every_right)
{
	cap_rights_t all, r;
	size_t i;

	CAP_ALL(&all);
	for (i = 0; i < NFBSD; i++) {
		cap_rights_init(&r, fbsd[i].ours);
		cr_expect(cap_rights_contains(&all, &r), "%s", fbsd[i].name);
	}
	cap_rights_init(&r, CAP_FCHROOT, CAP_INOTIFY_ADD, CAP_INOTIFY_RM,
			CAP_FSIGNAL, CAP_EPOLL_CTL, CAP_SETNS, CAP_PERF_EVENT,
			CAP_BPF_OBJ);
	cr_expect(cap_rights_contains(&all, &r));
}

Test(is_empty, words)
{
	cap_rights_t r;

	cap_rights_init(&r);
	cr_expect(cap_rights_is_empty(&r));
	CAP_NONE(&r);
	cr_expect(cap_rights_is_empty(&r));
	cap_rights_set(&r, CAP_BPF_OBJ);
	cr_expect_not(cap_rights_is_empty(&r));
	cap_rights_clear(&r, CAP_BPF_OBJ);
	cr_expect(cap_rights_is_empty(&r));
	cap_rights_set(&r, CAP_READ);
	cr_expect_not(cap_rights_is_empty(&r));
	CAP_ALL(&r);
	cr_expect_not(cap_rights_is_empty(&r));
}
