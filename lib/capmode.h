/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Capability mode, the seccomp half (internal to libcapsicum, not installed).
 *
 * capmode_table.c says what each x86-64 syscall may do in capability mode;
 * capmode_filter.c turns that table into a classic-BPF seccomp program and
 * installs it.  doc/capmode.md mirrors the table and a unit test keeps the
 * two in step.  What seccomp cannot see (paths in user memory, the target of
 * a signal after fork, a sendmsg destination) is left to the BPF-LSM side.
 */
#ifndef _CAPSICUM_LIB_CAPMODE_H
#define _CAPSICUM_LIB_CAPMODE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <linux/filter.h>

/* The credentials at cap_enter() time: the only ids a set*id may name. */
struct capsicum_capmode_ids {
	uid_t ruid, euid, suid;
	gid_t rgid, egid, sgid;
};

enum capsicum_capmode_verdict {
	CAPMODE_ALLOW = 1,
	CAPMODE_ALLOW_IF, /* every check of the row holds, else ECAPMODE */
	CAPMODE_DENY,	  /* ECAPMODE */
	CAPMODE_ENOSYS,	  /* so libc falls back to a call we can inspect */
};

/*
 * One argument check.  All but CAPMODE_NULL compare the low 32 bits of the
 * argument: every checked argument is an int, pid_t, uid_t or unsigned int
 * in the kernel.  The kernel drops the high half, but the filter does not
 * ignore it: a high half other than 0 or 0xffffffff (what a zero- or
 * sign-extended 32-bit value has) fails the check, so a call is never
 * allowed on the strength of a value the kernel would truncate.
 */
enum capsicum_capmode_op {
	CAPMODE_NONE = 0,
	CAPMODE_NE,	    /* arg != value (a dirfd that is not AT_FDCWD) */
	CAPMODE_EQ,	    /* arg == value */
	CAPMODE_POSITIVE,   /* (int)arg > 0: one process, not a group */
	CAPMODE_NO_BITS,    /* (arg & value) == 0 */
	CAPMODE_NULL,	    /* the whole 64-bit argument is 0 */
	CAPMODE_ONE_OF,	    /* arg is one of set[0..nset) */
	CAPMODE_UID,	    /* arg is a uid held at entry */
	CAPMODE_UID_OR_NEG, /* ... or -1, "leave unchanged" */
	CAPMODE_GID,
	CAPMODE_GID_OR_NEG,
	CAPMODE_NONE_OF, /* (arg & value) is none of set[0..nset) */
};

struct capsicum_capmode_check {
	uint8_t arg; /* 0..5 */
	uint8_t op;  /* enum capsicum_capmode_op */
	uint32_t value;
	const uint32_t *set;
	size_t nset;
};

#define CAPMODE_MAX_CHECKS 4

struct capsicum_capmode_rule {
	const char *name; /* without sys_ or __NR_ */
	int nr;
	enum capsicum_capmode_verdict verdict;
	/* ANDed; only CAPMODE_ALLOW_IF rows have any. */
	struct capsicum_capmode_check check[CAPMODE_MAX_CHECKS];
	const char *cond; /* the checks in words, as in doc/capmode.md */
	const char *why;  /* FreeBSD counterpart or the Linux reason */
};

/* Sorted by syscall number, each number once. */
extern const struct capsicum_capmode_rule capsicum_capmode_table[];
extern const size_t capsicum_capmode_table_len;

/* Upper bound on the table, so the builder needs no allocation. */
#define CAPSICUM_CAPMODE_TABLE_MAX 512

/*
 * Builds the filter for the given ids into buf (at most max instructions)
 * and sets *len.  0, or -1 with errno: E2BIG if max (or the kernel's 4096)
 * is too small, with *len set to the size needed; EINVAL for bad arguments
 * or a malformed table.
 */
int capsicum_capmode_filter_build(const struct capsicum_capmode_ids *ids,
				  struct sock_filter *buf, size_t max,
				  size_t *len);
/*
 * The same with `refuse` (a SECCOMP_RET_* action) where the filter would
 * return ECAPMODE: a learning tree's filter notifies its supervisor.
 */
int capsicum_capmode_filter_build_as(const struct capsicum_capmode_ids *ids,
				     uint32_t refuse, struct sock_filter *buf,
				     size_t max, size_t *len);

/*
 * Sets PR_SET_NO_NEW_PRIVS and installs the filter, built for the current
 * ids, on every thread of the process (SECCOMP_FILTER_FLAG_TSYNC).
 * 0, or -1 with errno; on failure no thread got the filter.
 */
int capsicum_capmode_install(void);

/*
 * A learning tree's filter (doc/learn.md): every call the table refuses
 * notifies the listener instead (SECCOMP_RET_USER_NOTIF), on every
 * thread. The listener's fd, or -1 with errno and nothing installed.
 */
int capsicum_capmode_install_learning(void);

/*
 * A connected socket to the supervisor of the caller's learning tree, or
 * -1 (not learning, or no supervisor to reach). errno is left alone.
 */
int capsicum_learn_connect(void);

/*
 * cap_enter()'s filter: with a supervisor's socket (closed here) the
 * learning filter, its listener handed over; else, or if that fails,
 * capability mode's own. 0, or -1 with errno.
 */
int capsicum_capmode_install_for(int learn_sock);

#endif /* _CAPSICUM_LIB_CAPMODE_H */
