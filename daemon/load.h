/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CAPSICUM_DAEMON_LOAD_H
#define CAPSICUM_DAEMON_LOAD_H

#include <stdint.h>

/*
 * Loads the Capsicum BPF programs, attaches them and pins links and maps
 * under pin_dir, so enforcement outlives the loading process. Returns 0,
 * 1 if pin_dir already holds a loaded instance (left untouched), or a
 * negative errno with a message on stderr.
 */
int capsicum_load(const char *pin_dir);

/*
 * Hash of the BPF object this binary carries, as stamped into the pinned
 * state (struct capsicum_state_version); a different hash means another
 * build whose map layouts must not be assumed.
 */
uint64_t capsicum_object_hash(void);

#endif
