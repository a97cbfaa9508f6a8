/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CAPSICUMD_PROBE_H
#define CAPSICUMD_PROBE_H

#include <stddef.h>

/*
 * Can this kernel run Capsicum? Checks that bpf is an active LSM, that the
 * kernel has BTF, then loads, attaches and triggers a trial program
 * (bpf/probe.bpf.c) and checks that it fired. Returns 0, or -1 with one
 * line in `why` saying what is missing and how to fix it.
 */
int probe_kernel(char *why, size_t len);

#endif
