/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The microbenchmark's shared types. An operation (ops.c) opens what it
 * needs once, then is timed as a loop of calls; a configuration
 * (configs.c) is what the process or the kernel has in place while the
 * loop runs. capsicum_bench.c orders the configurations so that each
 * starts from a known state, and prints one line per measurement.
 */
#ifndef CAPSICUM_BENCH_H
#define CAPSICUM_BENCH_H

#include <stdbool.h>
#include <sys/capsicum.h>

/* The tree every file operation works in, built before any config. */
#define BENCH_DIR     "/tmp/bench"
#define BENCH_FILE    BENCH_DIR "/a/b/c/file"
#define BENCH_DIRFD   BENCH_DIR "/a"
#define BENCH_DIR_REL "b/c/file"
#define BENCH_STAT_REL "a/b/c/file" /* from BENCH_DIR */
#define BENCH_EXIT0   "/usr/bin/bench_exit0"
#define BENCH_MAX_FDS 4

struct op_state {
	/* Descriptors the operation uses, -1 where unused. */
	int fd[BENCH_MAX_FDS];
	/* Rights each fd needs for the operation, for config (c). */
	cap_rights_t rights[BENCH_MAX_FDS];
	/* The TCP helper: connects clients on request (ops.c). */
	int helper_req, helper_ack, helper_pid;
};

struct op {
	const char *name;
	/* Calls per timed loop (see the table in ops.c). */
	int iters;
	/* Impossible in capability mode (global namespaces). */
	bool needs_global;
	/* Without setup: one descriptor of path, opened with oflags. */
	const char *path;
	int oflags;
	__u64 need;
	/* Opens descriptors and fills rights; 0 or -errno. NULL: none. */
	int (*setup)(struct op_state *st);
	/* Untimed work before each loop of n calls (queueing connections). */
	int (*prepare)(struct op_state *st, int n);
	/* One operation; 0 or -errno. */
	int (*run)(struct op_state *st);
	/* Untimed work after each loop. */
	int (*finish)(struct op_state *st);
};

extern const struct op bench_ops[];
extern const int bench_nops;

void op_state_init(struct op_state *st);
/* Sets an op up: its own setup, or one descriptor of its path. */
int op_setup(const struct op *op, struct op_state *st);
void op_state_close(struct op_state *st);

/* Builds BENCH_DIR; 0 or -errno. */
int bench_make_tree(void);

/* Configurations applied in a child after every op's setup: 0 or -errno. */
int config_limit(struct op_state *states, int n);
int config_capmode(void);
int config_landlock(void);
int config_seccomp(void);
int config_seccomp_allow(void);

/*
 * The floor: an empty program on every hook the Capsicum object attaches
 * to, derived from that object (floor.c). Returns the number of links
 * attached or -errno; floor_detach closes them all.
 */
int floor_attach(void);
void floor_detach(void);
/* 0 if the hooks of the floor are exactly the links capsicum_load pinned. */
int floor_check_pinned(const char *pin_dir);

#endif
