/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The control-plane fuzzer (test_fuzz_control.c): a seeded generator of raw
 * requests (fuzz_req.c) sent on a zoo of descriptors of every type
 * (fuzz_zoo.c), and a checker (fuzz_check.c) run after every input: no
 * descriptor's rights widened, every right a descriptor lacks is refused
 * when tried, no kernel warning, the BPF side's counters consistent.
 */
#ifndef CAPSICUM_SELFTEST_FUZZ_H
#define CAPSICUM_SELFTEST_FUZZ_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/capsicum.h>
#include <sys/types.h>

/* splitmix64: a whole run follows from its seed. */
static inline uint64_t fuzz_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

/* Uniform enough in [0, n) for n far below 2^32. */
static inline uint32_t fuzz_below(uint64_t *s, uint32_t n)
{
	return (uint32_t)(fuzz_next(s) % n);
}

/* The descriptor types, one slot each. */
enum fuzz_kind {
	FK_REG,
	FK_DIR,
	FK_PIPE_R,
	FK_PIPE_W,
	FK_UNIX_A,
	FK_UNIX_B,
	FK_TCP,
	FK_UDP,
	FK_EVENTFD,
	FK_TIMERFD,
	FK_SIGNALFD,
	FK_EPOLL,
	FK_MEMFD,
	FK_PIDFD,
	FK_URING,
	FK_OPATH,
	FK_BPFMAP,
	FK_DUP_REG,  /* a dup of FK_REG's descriptor: a sibling */
	FK_DUP_PIPE, /* a dup of FK_PIPE_W's */
	FK_COUNT,
};

struct fuzz_zoo {
	int fd[FK_COUNT];
	char dir[64];	   /* a private directory holding the file "f" */
	pid_t child;	   /* a child for the pidfd, killed at the end */
	int child_go;	   /* its pipe: it waits on the other end */
	bool child_doomed; /* a watch was accepted: it may die any time */
	int past_limit;	   /* RLIMIT_NOFILE's soft limit: never a descriptor */
};

const char *fuzz_kind_name(enum fuzz_kind k);
/* Makes every slot; false (with a failed assertion) if one cannot be. */
bool fuzz_zoo_init(struct fuzz_zoo *z);
/* Closes slot k and makes it again (-1 if that fails, e.g. capmode). */
void fuzz_zoo_reopen(struct fuzz_zoo *z, enum fuzz_kind k);
void fuzz_zoo_free(struct fuzz_zoo *z);

/* What one descriptor holds, by the public API. */
struct fuzz_rights {
	cap_rights_t rights;
	uint32_t fcntls;
	ssize_t nioctls; /* CAP_IOCTLS_ALL or the count */
	cap_ioctl_t ioctls[CAP_IOCTLS_MAX];
};

/* cap_rights_get, cap_fcntls_get and cap_ioctls_get of fd: 0 or -errno. */
int fuzz_rights_get(int fd, struct fuzz_rights *r);
/* Is `after` within `before` (rights, fcntls, ioctl list)? */
bool fuzz_rights_within(const struct fuzz_rights *before,
			const struct fuzz_rights *after);
bool fuzz_rights_equal(const struct fuzz_rights *a,
		       const struct fuzz_rights *b);

/*
 * Tries the operations of slot k's type whose rights we can see enforced
 * in every mode: each must fail with ENOTCAPABLE exactly when `held`
 * lacks its right. Returns the number of failed checks; *denied counts
 * the operations refused.
 */
int fuzz_probe(struct fuzz_zoo *z, enum fuzz_kind k,
	       const struct fuzz_rights *held, unsigned int *denied);

/* The BPF side's counters (the pinned bss), when this process may read. */
struct fuzz_counters {
	uint64_t denials, dropped, protect_denied, tables_created, quota;
	uint64_t pd_kill_requests, pd_kill_dropped;
	int64_t live_tables, tracked_files, pd_doomed, pd_files_live;
};
/* -1 if the pinned bss cannot be opened (uid 1000 may not). */
int fuzz_counters_open(void);
int fuzz_counters_read(int fd, struct fuzz_counters *c);
/*
 * Counters must stay sane (no signed one below zero, drops within
 * denials) and monotonic ones must not go back; `denied` more denials
 * than before, at least. The number of failed checks.
 */
int fuzz_counters_check(const struct fuzz_counters *before,
			const struct fuzz_counters *after, unsigned int denied,
			bool exact);

/* /dev/kmsg, positioned at its end; -1 if this process may not read it. */
int fuzz_kmsg_open(void);
/* Reads what the kernel logged since; the number of warning lines. */
int fuzz_kmsg_scan(int fd);

/* One worker's run: its zoo and what the checker knows so far. */
struct fuzz_stats {
	uint64_t inputs, requests, accepted, denied_probes;
};
struct fuzz_run {
	struct fuzz_zoo zoo;
	struct fuzz_rights cur[FK_COUNT]; /* after the last input */
	struct fuzz_counters ctr;
	int kmsg, bss; /* -1: not readable here, not checked */
	bool capmode;  /* an ENTER was accepted */
	bool verbose;  /* print every input (CAPSICUM_FUZZ_VERBOSE=1) */
	char *req_page, *ioc_page; /* each followed by an inaccessible page */
	struct fuzz_stats st;
};

/* kmsg and bss as fuzz_kmsg_open()/fuzz_counters_open() gave them. */
bool fuzz_run_init(struct fuzz_run *r, int kmsg, int bss);
/* Probes every descriptor; failed checks. *denied (if set) += refusals. */
int fuzz_sweep(struct fuzz_run *r, unsigned int *denied);
/*
 * Generates one input from *seed (a raw request on one descriptor, or a
 * descriptor move), runs it and checks everything after it. Returns the
 * number of failed checks, each reported with the input.
 */
int fuzz_one(struct fuzz_run *r, uint64_t *seed);
void fuzz_run_free(struct fuzz_run *r);

#endif
