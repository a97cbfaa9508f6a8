/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CAPSICUMD_COUNTERS_H
#define CAPSICUMD_COUNTERS_H

#include <stdint.h>

/* The BPF side's counters, from its pinned bss (read-only fd). */
struct capsicum_counters {
	uint64_t denials;	  /* every denial reported */
	uint64_t denials_dropped; /* of which the ring buffer had no room for */
	uint64_t protect_denied;  /* refused accesses to our BPF objects */
	int64_t live_tables;	  /* processes with a rights table */
	int64_t tracked_files;	  /* files with a generation */
	uint64_t tables_created;  /* table ids handed out since load */
	uint64_t quota_refusals;  /* stores refused by a uid's quota */
	uint64_t pd_kill_requests; /* pdfork children to kill, for capsicumd */
	uint64_t pd_kill_dropped; /* of which the ring buffer had no room for */
};

/*
 * 0 or -errno. Only meaningful when the pinned state is this build's
 * (pinned_check() == PINNED_SAME): the bss layout is the build's own.
 */
int counters_read(struct capsicum_counters *c);

#endif
