/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CAPCTL_LEARN_H
#define CAPCTL_LEARN_H

/*
 * capctl run --learn's accounting: the records of a learning tree (what
 * Capsicum would have refused, then allowed) summed up per descriptor
 * and missing rights, and the run's options widened by exactly what they
 * show. Pure: no system call, no allocation; the tables are fixed and a
 * record that does not fit makes the result incomplete, it is never
 * silently dropped.
 *
 * Attribution of a refusal for lack of rights (ENOTCAPABLE), by the
 * record's fd and held rights:
 *   - a --limit fd holding that limit's rights: the limit;
 *   - an --allow-dir's fd (3, 4, ...) holding the directory's rights:
 *     that directory;
 *   - another fd holding exactly a limited --allow-dir's rights: opened
 *     through it (openat); through each, if several hold those rights;
 *   - else unattributed: the suggestion is incomplete for it.
 * Capability mode's refusals (ECAPMODE) drop --capmode if the run had
 * it; otherwise the program entered capability mode itself, which no
 * option undoes.
 */
#include "args.h"

#include <capsicum/abi.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define LEARN_MAX_GROUPS  128 /* (descriptor, missing rights) pairs */
#define LEARN_MAX_CALLS	  8   /* syscalls named per pair */
#define LEARN_MAX_CAPMODE 128 /* syscalls capability mode refused */
#define LEARN_MAX_OTHER	  8   /* (error, hook) of other records */
#define LEARN_MAX_WHY	  8
#define LEARN_WHY_LEN	  160

enum learn_owner {
	LEARN_LIMIT,	 /* a --limit fd */
	LEARN_DIR,	 /* an --allow-dir's fd */
	LEARN_DERIVED,	 /* opened through one limited --allow-dir */
	LEARN_AMBIGUOUS, /* through one of several with the same rights */
	LEARN_UNATTRIBUTED,
};

/* How often a syscall (x86-64 number, -1 unknown) was seen. */
struct learn_count {
	int nr;
	unsigned long count;
};

/* The syscalls of some records: the first LEARN_MAX_CALLS by name. */
struct learn_calls {
	struct learn_count call[LEARN_MAX_CALLS];
	int ncalls;
	unsigned long other; /* records of further syscalls */
};

/* The refusals of one descriptor that lacked the same rights. */
struct learn_group {
	int fd;
	enum learn_owner owner;
	int index;	 /* the limit (LIMIT) or directory (DIR) */
	uint64_t dirs;	 /* DERIVED, AMBIGUOUS: 1 << i per --allow-dir i */
	bool bad_rights; /* the record's rights words were not valid */
	cap_rights_t held;
	cap_rights_t missing; /* needed & ~held; empty: all were held */
	unsigned long count;
	uint64_t hooks; /* 1 << CAPSICUM_HOOK_x for each hook seen */
	struct learn_calls calls;
};

/* Records neither ENOTCAPABLE nor ECAPMODE (EDQUOT, ENOMEM). */
struct learn_other {
	unsigned int error;
	unsigned int hook;
	unsigned long count;
};

struct learn {
	const struct run_opts *run; /* learn_init's r, which must outlive l */
	unsigned long records;	    /* given to learn_add, fitting or not */
	struct learn_group group[LEARN_MAX_GROUPS];
	int ngroups;
	struct learn_count capmode[LEARN_MAX_CAPMODE];
	int ncapmode;
	unsigned long capmode_records;
	struct learn_other other[LEARN_MAX_OTHER];
	int nother;
	unsigned long lost; /* records that did not fit */
	char why[LEARN_MAX_WHY][LEARN_WHY_LEN];
	int nwhy;
	unsigned long more_why; /* reasons beyond LEARN_MAX_WHY */
};

/* r: the options the run was given; kept by pointer. */
void learn_init(struct learn *l, const struct run_opts *r);
/* One record of the run's tree. 0, or -1 when full (then incomplete). */
int learn_add(struct learn *l, const struct capsicum_denial *d);
/*
 * The result misses something, said in why ("records were dropped: the
 * ring buffer was full"); a reason given again is listed once.
 */
void learn_incomplete(struct learn *l, const char *why);
/*
 * Whether the suggestion would run without any refusal the records show:
 * nothing lost or incomplete, every refusal attributed and fixable.
 */
bool learn_complete(const struct learn *l);
/* Calls fn with each reason the result is incomplete, in report order. */
void learn_reasons(const struct learn *l,
		   void (*fn)(void *ctx, const char *why), void *ctx);
/*
 * out = the run's options widened exactly by what was learnt: missing
 * rights added to the limits and directories they are attributed to,
 * --capmode dropped if it refused anything; --learn, --write-policy and
 * --policy cleared (the options are spelled out); argv kept.
 */
void learn_suggest(const struct learn *l, struct run_opts *out);
/*
 * The report: refusals by descriptor, capability mode's, other records,
 * "incomplete: WHY" lines, then "suggested: capctl run ... -- CMD ARGS",
 * shell-quoted. json: one JSON object instead. argv: the command (NULL:
 * suggested->argv).
 */
void learn_report(const struct learn *l, const struct run_opts *suggested,
		  char *const argv[], FILE *out, bool json);

#endif
