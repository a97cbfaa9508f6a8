/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the live upgrade (upgrade.c) shares with the loader (load.c): the
 * same preparation of the skeleton for this kernel, the same protection of
 * object ids and the same stamp. Needs capsicum.skel.h included first.
 */
#ifndef CAPSICUM_ADMIN_LOAD_INTERNAL_H
#define CAPSICUM_ADMIN_LOAD_INTERNAL_H

#include <capsicum/pins.h>
#include <stdint.h>

struct btf;
struct capsicum_bpf;

/* Between open and load: the kernel's variants, the programs that fit. */
void capsicum_load_prepare(struct capsicum_bpf *skel, const struct btf *btf);
/* Adds the id of the map, program or link fd to skel's cap_protected. */
int capsicum_protect_id(struct capsicum_bpf *skel, uint32_t kind, int fd);
/* This build and this process as a stamp: hash, pid, binary, time. */
void capsicum_stamp_fill(struct capsicum_state_version *v);

#endif
