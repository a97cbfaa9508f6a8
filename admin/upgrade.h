/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CAPSICUM_ADMIN_UPGRADE_H
#define CAPSICUM_ADMIN_UPGRADE_H

#include <capsicum/pins.h>
#include <stddef.h>

/* capsicum_upgrade(): nothing changed, the old state keeps enforcing. */
#define CAPSICUM_UPGRADE_REFUSED 1

/*
 * Live upgrade (doc/daemon.md, "Upgrading"): the state pinned under dir,
 * loaded by another build, is taken over by this build's BPF object
 * without unloading it. Every map is re-used (bpf_map__reuse_fd) after
 * checking its type, key and value sizes, flags and the BTF shape of key
 * and value; only the stamp is made anew, [0] this build, [1] the one
 * before (*from). Then program by program: attach the new one (a new link:
 * the kernel cannot update an LSM or tracing link in place), pin it under
 * a temporary name and rename it over the old pin, whose link then
 * detaches; so each hook runs the old or the new program at every instant,
 * both for a moment. The new stamp is renamed over version last.
 *
 * The caller must run the trusted binary (trust.h). Returns 0;
 * CAPSICUM_UPGRADE_REFUSED with why set (a map is new or changed its
 * layout: nothing was touched); or -errno with why set: failed before the
 * first swap (nothing changed), or part-way (every hook still enforced, by
 * the old or the new program; running the upgrade again completes it).
 */
int capsicum_upgrade(const char *dir, struct capsicum_state_version *from,
		     char *why, size_t len);

#endif
