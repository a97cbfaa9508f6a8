/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * FreeBSD's <sys/capsicum.h> for Linux: same names, signatures and macros as
 * FreeBSD 14, so Capsicum programs and their test suites build unchanged.
 * The rights values themselves live in <capsicum/abi.h>, shared with BPF.
 */
#ifndef _SYS_CAPSICUM_H_
#define _SYS_CAPSICUM_H_

#include <capsicum/abi.h>

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct cap_rights {
	uint64_t cr_rights[CAP_RIGHTS_VERSION + 2];
};
typedef struct cap_rights cap_rights_t;

/* The index bits of a right, as FreeBSD: one-hot, 1 for word 0, 2 for 1. */
#define CAPIDXBIT(right) ((int)(((right) >> 57) & 0x1F))
#define CAPRVER(right)	 ((int)((right) >> 62))
#define CAPVER(rights)	 CAPRVER((rights)->cr_rights[0])
/* Words in cr_rights[]: the version says how many beyond the first two. */
#define CAPARSIZE(rights) (CAPVER(rights) + 2)

#define CAP_ALL(rights)                                                        \
	do {                                                                   \
		(rights)->cr_rights[0] =                                       \
			((uint64_t)CAP_RIGHTS_VERSION << 62) | CAP_ALL0;       \
		(rights)->cr_rights[1] = CAP_ALL1;                             \
	} while (0)

#define CAP_NONE(rights)                                                       \
	do {                                                                   \
		(rights)->cr_rights[0] =                                       \
			((uint64_t)CAP_RIGHTS_VERSION << 62) |                 \
			CAPRIGHT(0, 0ULL);                                     \
		(rights)->cr_rights[1] = CAPRIGHT(1, 0ULL);                    \
	} while (0)

typedef unsigned long cap_ioctl_t;
/* A CAP_FCNTL_* mask, as cap_fcntls_limit() and cap_fcntls_get() take it. */
typedef uint32_t cap_fcntl_t;

/* cap_ioctls_get() result for a descriptor with no ioctl allowlist. */
#ifdef SSIZE_MAX
#define CAP_IOCTLS_ALL SSIZE_MAX
#else /* strict ISO C hides SSIZE_MAX */
#define CAP_IOCTLS_ALL ((ssize_t)(~(size_t)0 >> 1))
#endif

/*
 * The variadic forms append a 0ULL sentinel so the functions know where the
 * list ends.  As on FreeBSD the cap_rights_t pointer is part of __VA_ARGS__,
 * so a call naming no rights, cap_rights_init(&r), still expands validly.
 */
#define cap_rights_init(...)                                                   \
	__cap_rights_init(CAP_RIGHTS_VERSION, __VA_ARGS__, 0ULL)
#define cap_rights_set(...)    __cap_rights_set(__VA_ARGS__, 0ULL)
#define cap_rights_clear(...)  __cap_rights_clear(__VA_ARGS__, 0ULL)
#define cap_rights_is_set(...) __cap_rights_is_set(__VA_ARGS__, 0ULL)

cap_rights_t *__cap_rights_init(int version, cap_rights_t *rights, ...);
cap_rights_t *__cap_rights_set(cap_rights_t *rights, ...);
cap_rights_t *__cap_rights_clear(cap_rights_t *rights, ...);
bool __cap_rights_is_set(const cap_rights_t *rights, ...);

bool cap_rights_is_valid(const cap_rights_t *rights);
cap_rights_t *cap_rights_merge(cap_rights_t *dst, const cap_rights_t *src);
cap_rights_t *cap_rights_remove(cap_rights_t *dst, const cap_rights_t *src);
bool cap_rights_contains(const cap_rights_t *big, const cap_rights_t *little);
bool cap_rights_is_empty(const cap_rights_t *rights);

/* Descriptor rights: narrow only; widening fails with ENOTCAPABLE. */
int cap_rights_limit(int fd, const cap_rights_t *rights);
#define cap_rights_get(fd, rights)                                             \
	__cap_rights_get(CAP_RIGHTS_VERSION, (fd), (rights))
int __cap_rights_get(int version, int fd, cap_rights_t *rights);

int cap_fcntls_limit(int fd, uint32_t fcntlrights);
int cap_fcntls_get(int fd, uint32_t *fcntlrightsp);

int cap_ioctls_limit(int fd, const cap_ioctl_t *cmds, size_t ncmds);
ssize_t cap_ioctls_get(int fd, cap_ioctl_t *cmds, size_t maxcmds);

/* Capability mode. */
int cap_enter(void);
int cap_getmode(unsigned int *modep);
bool cap_sandboxed(void);

#ifdef __cplusplus
}
#endif

#endif /* _SYS_CAPSICUM_H_ */
