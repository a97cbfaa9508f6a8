// SPDX-License-Identifier: BSD-2-Clause
/*
 * The cap_rights_t algebra, with FreeBSD's semantics (libc's
 * subr_capability.c).  Misuse aborts, as FreeBSD's assertions do: quietly
 * ignoring a bad right would, for cap_rights_clear(), leave a right granted
 * that the caller believes is gone.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/capsicum.h>

static const uint64_t all_rights[CAP_RIGHTS_VERSION + 2] = {
	CAP_ALL0,
	CAP_ALL1,
};

static int nwords(const cap_rights_t *rights)
{
	return CAPVER(rights) + 2;
}

/* Word a right or rights word belongs to, or -1 if not exactly one. */
static int word_of(uint64_t right)
{
	unsigned int idx = CAPIDXBIT(right);

	if (idx == 0 || (idx & (idx - 1)) != 0)
		return -1;
	return __builtin_ctz(idx);
}

static void __attribute__((noreturn, format(printf, 2, 3)))
rights_abort(const char *fn, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "libcapsicum: %s: ", fn);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

static void check_version(const char *fn, const cap_rights_t *rights)
{
	if (CAPVER(rights) != CAP_RIGHTS_VERSION_00)
		rights_abort(fn, "unsupported cap_rights_t version %d",
			     CAPVER(rights));
}

static void check_valid(const char *fn, const cap_rights_t *rights)
{
	if (!cap_rights_is_valid(rights))
		rights_abort(fn, "invalid cap_rights_t {0x%016llx, 0x%016llx}",
			     (unsigned long long)rights->cr_rights[0],
			     (unsigned long long)rights->cr_rights[1]);
}

/*
 * Word index for one right argument.  Version bits in a right would be ORed
 * into word 0's version field, so they are as fatal as a bad index.
 */
static int right_word(const char *fn, const cap_rights_t *rights,
		      uint64_t right)
{
	int i = word_of(right);

	if (i < 0 || i >= nwords(rights) ||
	    (right >> CAP_RIGHTS_VERSION_SHIFT) != 0)
		rights_abort(fn, "invalid right 0x%016llx",
			     (unsigned long long)right);
	if (CAPIDXBIT(rights->cr_rights[i]) != CAPIDXBIT(right))
		rights_abort(fn, "cap_rights_t word %d has index bits 0x%x", i,
			     CAPIDXBIT(rights->cr_rights[i]));
	return i;
}

static void rights_vset(const char *fn, cap_rights_t *rights, va_list ap)
{
	uint64_t right;

	check_version(fn, rights);
	while ((right = va_arg(ap, uint64_t)) != 0) {
		int i = right_word(fn, rights, right);

		rights->cr_rights[i] |= right;
	}
}

cap_rights_t *__cap_rights_init(int version, cap_rights_t *rights, ...)
{
	va_list ap;
	int i;

	if (version != CAP_RIGHTS_VERSION_00)
		rights_abort("cap_rights_init", "unsupported version %d",
			     version);
	memset(rights, 0, sizeof(*rights));
	rights->cr_rights[0] = (uint64_t)version << CAP_RIGHTS_VERSION_SHIFT;
	for (i = 0; i < version + 2; i++)
		rights->cr_rights[i] |= CAPRIGHT(i, 0ULL);

	va_start(ap, rights);
	rights_vset("cap_rights_init", rights, ap);
	va_end(ap);
	return rights;
}

cap_rights_t *__cap_rights_set(cap_rights_t *rights, ...)
{
	va_list ap;

	va_start(ap, rights);
	rights_vset("cap_rights_set", rights, ap);
	va_end(ap);
	return rights;
}

cap_rights_t *__cap_rights_clear(cap_rights_t *rights, ...)
{
	va_list ap;
	uint64_t right;

	check_version("cap_rights_clear", rights);
	va_start(ap, rights);
	while ((right = va_arg(ap, uint64_t)) != 0) {
		int i = right_word("cap_rights_clear", rights, right);

		/* Keep the index bits: the word must still say where it is. */
		rights->cr_rights[i] &= ~(right & CAP_RIGHTS_BITS_MASK);
	}
	va_end(ap);
	return rights;
}

bool __cap_rights_is_set(const cap_rights_t *rights, ...)
{
	va_list ap;
	uint64_t right;
	bool set = true;

	check_version("cap_rights_is_set", rights);
	va_start(ap, rights);
	while ((right = va_arg(ap, uint64_t)) != 0) {
		int i = right_word("cap_rights_is_set", rights, right);

		/* Keep going after a miss so every argument is checked. */
		if ((rights->cr_rights[i] & right) != right)
			set = false;
	}
	va_end(ap);
	return set;
}

bool cap_rights_is_valid(const cap_rights_t *rights)
{
	int i;

	if (CAPVER(rights) != CAP_RIGHTS_VERSION_00)
		return false;
	if (nwords(rights) >
	    (int)(sizeof(rights->cr_rights) / sizeof(rights->cr_rights[0])))
		return false;
	for (i = 0; i < nwords(rights); i++) {
		uint64_t w = rights->cr_rights[i];

		if (word_of(w) != i)
			return false;
		/* Only word 0 carries the version. */
		if (i > 0 && (w >> CAP_RIGHTS_VERSION_SHIFT) != 0)
			return false;
		if ((w & CAP_RIGHTS_BITS_MASK & ~all_rights[i]) != 0)
			return false;
	}
	return true;
}

cap_rights_t *cap_rights_merge(cap_rights_t *dst, const cap_rights_t *src)
{
	int i;

	check_valid("cap_rights_merge", dst);
	check_valid("cap_rights_merge", src);
	for (i = 0; i < nwords(dst); i++)
		dst->cr_rights[i] |= src->cr_rights[i];
	return dst;
}

cap_rights_t *cap_rights_remove(cap_rights_t *dst, const cap_rights_t *src)
{
	int i;

	check_valid("cap_rights_remove", dst);
	check_valid("cap_rights_remove", src);
	for (i = 0; i < nwords(dst); i++)
		dst->cr_rights[i] &=
			~(src->cr_rights[i] & CAP_RIGHTS_BITS_MASK);
	return dst;
}

bool cap_rights_contains(const cap_rights_t *big, const cap_rights_t *little)
{
	int i;

	check_version("cap_rights_contains", big);
	check_version("cap_rights_contains", little);
	for (i = 0; i < nwords(big); i++) {
		if ((big->cr_rights[i] & little->cr_rights[i]) !=
		    little->cr_rights[i])
			return false;
	}
	return true;
}

bool cap_rights_is_empty(const cap_rights_t *rights)
{
	int i;

	for (i = 0; i < nwords(rights) && i < CAP_RIGHTS_VERSION + 2; i++) {
		if ((rights->cr_rights[i] & CAP_RIGHTS_BITS_MASK) != 0)
			return false;
	}
	return true;
}
