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
	/*
	 * Our build's stamp, still named loading: its loader died (or is
	 * still running) between its first pin and its last, the rename
	 * to version. capsicum_load_finish() completes it if it can.
	 */
	PINNED_UNFINISHED,
};

/*
 * Reads the version stamp (or the loading one); *v is filled for
 * PINNED_SAME, PINNED_OTHER and PINNED_UNFINISHED, and `why` says what
 * differs for PINNED_OTHER and PINNED_UNKNOWN. An empty pin directory is
 * PINNED_NONE: a loader killed before its first pin left it.
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
