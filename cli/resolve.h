/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CAPCTL_RESOLVE_H
#define CAPCTL_RESOLVE_H

#include <capsicum/abi.h>
#include <stdbool.h>

/*
 * The rights of one descriptor, decided exactly as the BPF side's
 * held_rights() (bpf/state.bpf.h) and CAPSICUM_OP_GET do: an entry keyed
 * by (table, fd) counts only if its file and generation still match the
 * file the fd maps to; otherwise the file's floor, if its generation
 * matches; otherwise the descriptor is unrestricted. The lookups are
 * callbacks so this runs against the pinned maps or a unit test's tables.
 */
struct resolve_tables {
	void *ctx;
	/* 0 and *gen set, or -1 if absent (gen 0: never limited). */
	int (*file_gen)(void *ctx, __u64 file, __u64 *gen);
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
