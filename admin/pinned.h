/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CAPSICUMD_PINNED_H
#define CAPSICUMD_PINNED_H

#include <capsicum/pins.h>
#include <stddef.h>

/* What the pin directory holds, compared with this build. */
enum pinned_state {
	PINNED_NONE,	/* nothing pinned: load */
	PINNED_SAME,	/* our own build: re-use */
	PINNED_OTHER,	/* another build: refuse, or --replace */
	PINNED_UNKNOWN, /* pins without a readable stamp */
};

/*
 * Reads the version stamp; *v is filled for PINNED_SAME and PINNED_OTHER,
 * and `why` says what differs for the last two.
 */
enum pinned_state pinned_check(struct capsicum_state_version *v, char *why,
			       size_t len);

/*
 * Removes every pin under CAPSICUM_PIN_DIR and the directory: the links go
 * with their last reference and enforcement stops. Only the loader's
 * binary may do this (bpf/protect.bpf.h). 0 or -errno.
 */
int pinned_unload(void);

#endif
