// SPDX-License-Identifier: GPL-2.0
/*
 * Capsicum for Linux: the BPF side. One object, one skeleton; the parts
 * live in headers by concern:
 *   state.bpf.h       maps, the rights lookup, denial reports
 *   syscalls.bpf.h    which fd and right a syscall implies
 *   syscalls_at.bpf.h which dirfd and right a path syscall implies
 *   beneath.bpf.h     is a resolved object beneath a directory?
 *   control.bpf.h     the control plane (limit / get / mode)
 *   hooks_at.bpf.h    *at() lookups: rights, beneath, capability mode
 *   hooks_file.bpf.h  file, inode and exec hooks
 *   hooks_sock.bpf.h  socket hooks
 *   hooks_task.bpf.h  signals and process descriptors
 *   sigio.bpf.h       signals through a descriptor's owner
 *   aio.bpf.h         stock kernels: an AIO fsync's CAP_FSYNC
 *   track.bpf.h       dup/accept/openat/close/fork/exec/exit bookkeeping
 *   protect.bpf.h     the pinned objects and their path
 *   fget.bpf.h        the patched kernel's descriptor-lookup hook
 *   fdinfo.bpf.h      the patched kernel's rights in /proc/PID/fdinfo
 */
#include "state.bpf.h"
#include "syscalls.bpf.h"
#include "control.bpf.h"
#include "hooks_at.bpf.h"
#include "hooks_file.bpf.h"
#include "hooks_sock.bpf.h"
#include "hooks_task.bpf.h"
#include "aio.bpf.h"
#include "track.bpf.h"
#include "protect.bpf.h"
#include "fget.bpf.h"
#include "fdinfo.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/*
 * Only to make a second build for the live-upgrade selftest (Makefile,
 * capsicumd-variant*): 1 changes nothing but the object's bytes, so its
 * hash; 2 also grows the bss, a layout an upgrade must refuse.
 */
#ifndef CAPSICUM_BUILD_VARIANT
#define CAPSICUM_BUILD_VARIANT 0
#endif
const volatile __u32 build_variant = CAPSICUM_BUILD_VARIANT;
#if CAPSICUM_BUILD_VARIANT == 2
__u64 build_variant_grown[4];
#endif
