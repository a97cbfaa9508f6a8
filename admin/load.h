/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CAPSICUM_DAEMON_LOAD_H
#define CAPSICUM_DAEMON_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <syslog.h> /* the priorities of capsicum_load_log_fn */

/*
 * Sizes of the shared tables and the per-uid quota (doc/design.md,
 * "Quota"; capsicumd's --max-fds and friends). Fixed at load: a state
 * re-used from its pins keeps the values it was loaded with.
 */
struct capsicum_load_opts {
	uint32_t max_fds;	 /* cap_fds entries */
	uint32_t max_floors;	 /* cap_floors entries, and cap_files */
	uint32_t max_ioctls;	 /* cap_ioctls lists */
	int64_t uid_quota;	 /* fds, floors and files entries per uid */
	int64_t uid_ioctl_quota; /* ioctl lists per uid */
	int64_t root_quota;	 /* entries for uid 0; < 0: exempt */
};

/* The defaults: 65,536 / 65,536 / 4,096; 16,384 and 1,024; root exempt. */
void capsicum_load_opts_default(struct capsicum_load_opts *o);

/*
 * A message naming what is wrong with o (a quota of 0 or above what it
 * bounds, a size of 0), or NULL.
 */
const char *capsicum_load_opts_check(const struct capsicum_load_opts *o);

/*
 * Loads the Capsicum BPF programs, attaches them and pins links and maps
 * under pin_dir, so enforcement outlives the loading process. o NULL: the
 * defaults. Returns 0, 1 if pin_dir already holds a loaded instance or
 * an unfinished one (left untouched), or a negative errno with a message
 * through the load log.
 * All or nothing: on failure nothing it made stays pinned or attached.
 * The maps keep their names (pins.h) under pin_dir; the readers of this
 * library (pinned.h, state.h, counters.h) read CAPSICUM_PIN_DIR's only.
 */
int capsicum_load(const char *pin_dir, const struct capsicum_load_opts *o);

/*
 * Where capsicum_load's messages go (a syslog priority and one line):
 * stderr, "capsicum: " first, while fn is NULL. capsicumd sends them to
 * its own log, so --syslog and --log see why a load failed.
 */
typedef void capsicum_load_log_fn(int priority, const char *msg);
void capsicum_load_set_log(capsicum_load_log_fn *fn);

/*
 * A test hook (capsicumd's CAPSICUMD_TEST_STOP_BEFORE_VERSION): called
 * when everything is pinned but the stamp is still named loading, the
 * window a killed loader leaves unfinished. NULL: none.
 */
typedef void capsicum_load_hook_fn(void);
void capsicum_load_set_before_version(capsicum_load_hook_fn *fn);

/*
 * Completes a load whose loader died before renaming pin_dir/loading to
 * version: if every pin a complete state of this build has on this kernel
 * is there (every program and its link, every map), renames it and
 * returns 0. Else returns how many are missing, the first named in
 * missing, and touches nothing; or a negative errno (-EPERM: only the
 * binary that loaded the state may rename its pins). The caller checks
 * first that the stamp is this build's and its loader gone.
 */
int capsicum_load_finish(const char *pin_dir, char *missing, size_t len);

/*
 * Hash of the BPF object this binary carries, as stamped into the pinned
 * state (struct capsicum_state_version); a different hash means another
 * build whose map layouts must not be assumed.
 */
uint64_t capsicum_object_hash(void);

struct btf;
struct bpf_program;
/*
 * Whether the loader leaves prog out on this kernel (and the bench's
 * floor with it): an optional program, SEC("?..."), whose attach point or
 * kfunc this kernel's BTF lacks, or one the kernel makes unnecessary.
 * Ask before changing prog's autoload: libbpf marks an optional program
 * by leaving it out of the load.
 */
bool capsicum_prog_absent(const struct btf *btf,
			  const struct bpf_program *prog);

#endif
