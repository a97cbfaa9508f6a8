/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CAPCTL_RESOLVE_H
#define CAPCTL_RESOLVE_H

#include <capsicum/abi.h>
#include <stdbool.h>

/*
 * The rights of one descriptor, decided exactly as the BPF side's
 * held_rights() (bpf/state.bpf.h) and CAPSICUM_OP_GET do for a descriptor
 * the fd table maps to its file: a table for capability mode only limits
 * nothing; an entry keyed by (table, fd) counts only if its file and
 * generation still match the file the fd maps to; otherwise the file's
 * floor, if its generation matches; otherwise, in a table whose copy at
 * fork did not complete, the file's low; otherwise the descriptor is
 * unrestricted. The lookups are callbacks so this runs against the pinned
 * maps or a unit test's tables; the selftest
 * daemon_capctl_fds_agrees_with_cap_rights_get compares the two.
 */
struct resolve_tables {
	void *ctx;
	/* 0 and *f set, or -1 if absent (gen 0: never limited). */
	int (*file)(void *ctx, __u64 file, struct capsicum_file *f);
	int (*fd_entry)(void *ctx, const struct capsicum_fd_key *k,
			struct capsicum_fd_rights *e);
	int (*floor)(void *ctx, const struct capsicum_floor_key *k,
		     struct capsicum_fd_rights *e);
	int (*ioctls)(void *ctx, const struct capsicum_fd_key *k,
		      struct capsicum_ioctls *l);
};

enum resolve_source {
	RESOLVE_UNRESTRICTED, /* no limit applies */
	RESOLVE_ENTRY,	      /* the descriptor's own entry */
	RESOLVE_FLOOR,	      /* the file's floor (no valid entry) */
	RESOLVE_LOW,	      /* the file's low (incomplete table, no floor) */
};

struct resolved {
	enum resolve_source source;
	__u64 rights[2];
	__u32 fcntls;
	__s32 nioctls; /* -1: every ioctl */
	__u64 ioctls[CAP_IOCTLS_MAX];
};

/*
 * `proc` is the process's table, NULL if it has none; `file` is the struct
 * file the fd maps to right now (from the iterator).
 */
void resolve_fd(const struct resolve_tables *t,
		const struct capsicum_proc *proc, int fd, __u64 file,
		struct resolved *out);

#endif
