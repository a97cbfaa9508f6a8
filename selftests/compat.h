/* SPDX-License-Identifier: GPL-2.0 */
/*
 * i386 and x32 syscalls from this x86-64 process, for the tests of how
 * the hooks treat them: int $0x80 (i386 numbers and registers, 32-bit
 * pointers) and x32 numbers (__X32_SYSCALL_BIT, x86-64 registers).
 */
#ifndef CAPSICUM_SELFTEST_COMPAT_H
#define CAPSICUM_SELFTEST_COMPAT_H

#include <stddef.h>

#define X32_BIT 0x40000000L

/* An i386 syscall (int $0x80): its result, -errno on failure. */
long i386_syscall(long nr, long a, long b, long c, long d, long e);

/*
 * A page below 4 GiB (MAP_32BIT) for an i386 call's pointers, the same
 * one on each call (and in forked children); NULL if none.
 */
void *compat_low_page(void);

/* The same with three arguments. */
static inline long int80(long nr, long a, long b, long c)
{
	return i386_syscall(nr, a, b, c, 0, 0);
}

/* A syscall's raw result as libc returns it: 0, or -1 with errno. */
int compat_result(long ret);

#endif
