/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one trusted binary of the pinned state (doc/daemon.md, "Who is the
 * daemon"): the protection hooks compare current's executable with the
 * device and inode in the state's bss. The live upgrade moves that trust
 * from the running daemon's binary to the new one installed at its path.
 */
#ifndef CAPSICUM_ADMIN_TRUST_H
#define CAPSICUM_ADMIN_TRUST_H

#include <stdbool.h>
#include <stdint.h>

/* A binary as the hooks know it: the kernel's dev_t and the inode. */
struct exe_id {
	uint32_t dev;
	uint64_t ino;
};

/* The binary at path (stat follows links: /proc/PID/exe works): 0/-errno. */
int exe_id_of(const char *path, struct exe_id *id);
static inline bool exe_id_eq(const struct exe_id *a, const struct exe_id *b)
{
	return a->dev == b->dev && a->ino == b->ino;
}

/*
 * Whether this process runs the trusted binary: the hooks give it a
 * writable fd of the pinned bss, and no one else.
 */
bool capsicum_trusted(void);

/*
 * Makes id the trusted binary (the caller must be the trusted one): the
 * two fields are found by name in the pinned bss's own BTF, so a binary
 * of another build writes them where the loaded state has them. The old
 * binary stops being trusted at once. 0 or -errno.
 */
int capsicum_trust_exe(const struct exe_id *id);

/* The trusted binary recorded in the pinned state's bss: 0 or -errno. */
int capsicum_trusted_exe(struct exe_id *id);

#endif
