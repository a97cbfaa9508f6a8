/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CAPSICUMD_DENIALS_H
#define CAPSICUMD_DENIALS_H

#include "ratelimit.h"

#include <capsicum/abi.h>
#include <stdint.h>
#include <stdio.h>

/*
 * The denial stream: every record of the pinned ring buffer goes to the
 * audit log in full, and to the log as a human line, rate-limited.
 */
struct denials {
	struct ring_buffer *rb;
	int map_fd;  /* kept open: libbpf's epoll watches it */
	FILE *audit; /* NULL: no audit log */
	const char *audit_path;
	struct ratelimit rl;
	uint64_t received;   /* records read from the ring buffer */
	uint64_t logged;     /* of which written to the log */
	uint64_t suppressed; /* of which left out by the rate limit */
	unsigned int budget; /* records left in this drain */
	/* Sees every record after the audit log has it; may be NULL. */
	void (*tap)(void *ctx, const struct capsicum_denial *rec);
	void *tap_ctx;
};

/* Opens the pinned ring buffer (needs a writable fd: the loader only). */
int denials_open(struct denials *d, const char *audit_path,
		 unsigned int per_second);
/* The fd to poll for new records. */
int denials_fd(const struct denials *d);
/*
 * Consumes what is there, up to a budget per call (the rest at the next);
 * closes an expired rate-limit window.
 */
int denials_drain(struct denials *d);
/* SIGHUP: reopen the audit log (after logrotate moved it). */
int denials_reopen(struct denials *d);
void denials_close(struct denials *d);

#endif
