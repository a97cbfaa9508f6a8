/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What capsicumd pins under CAPSICUM_PIN_DIR, and the two small maps it
 * adds to the BPF side: the version stamp of the pinned state and the set
 * of BPF objects the protection hooks guard (bpf/protect.bpf.h). Shared by
 * bpf/, admin/, daemon/ and cli/. Includable from BPF C like abi.h.
 */
#ifndef _CAPSICUM_PINS_H
#define _CAPSICUM_PINS_H

#include <capsicum/abi.h>

/* Read-only (0400 root) pins for capctl, as answers (abi.h) is. */
#define CAPSICUM_PIN_VERSION CAPSICUM_PIN_DIR "/version"
/*
 * The same stamp while a load is pinning: pinned first, renamed to
 * version last (atomically), so a loader killed half-way leaves a state
 * that says which build and binary made it (doc/daemon.md, "Pins").
 */
#define CAPSICUM_PIN_LOADING CAPSICUM_PIN_DIR "/loading"
#define CAPSICUM_PIN_PROCS   CAPSICUM_PIN_DIR "/cap_procs"
#define CAPSICUM_PIN_FDS     CAPSICUM_PIN_DIR "/cap_fds"
#define CAPSICUM_PIN_FLOORS  CAPSICUM_PIN_DIR "/cap_floors"
#define CAPSICUM_PIN_FILES   CAPSICUM_PIN_DIR "/cap_files"
#define CAPSICUM_PIN_IOCTLS  CAPSICUM_PIN_DIR "/cap_ioctls"
#define CAPSICUM_PIN_BSS     CAPSICUM_PIN_DIR "/bss"
/* The ring buffer: only the loader's binary may map it writable. */
#define CAPSICUM_PIN_DENIALS CAPSICUM_PIN_DIR "/denials"
/* Kill requests for doomed pdfork children: read by the loader only. */
#define CAPSICUM_PIN_PD_KILLS CAPSICUM_PIN_DIR "/pd_kills"

/*
 * A pdfork() child without PD_DAEMON lost its last descriptor (doc/daemon.md,
 * "Process descriptors"): capsicumd sends it SIGKILL, since no BPF helper
 * before Linux 6.13 can signal another task. The global tgid names it; its
 * start time tells it from a later process given the same number.
 */
struct capsicum_pd_kill {
	__u64 start_boottime; /* task_struct.start_boottime of its leader, ns */
	__u32 tgid;	      /* in the initial PID namespace */
	__u32 pad;
};
/*
 * capsicumd's SIGKILL carries si_code SI_QUEUE, si_errno this magic and
 * the event's start_boottime in si_value: the task_kill hook refuses such
 * a signal (EPERM) unless its target is that child, still doomed.
 */
#define CAPSICUM_PD_KILL_MAGIC 0x4350444b /* "CPDK" */

/*
 * Stamp of the pinned state, the value of the one-entry "version" array.
 * A daemon or capctl built from another BPF object must not interpret the
 * pinned maps (their layouts may differ): object_hash is a hash of the BPF
 * object the state was loaded from, compared byte for byte.
 */
#define CAPSICUM_STATE_MAGIC 0x4341505354415445ULL /* "CAPSTATE" */
struct capsicum_state_version {
	__u64 magic;
	__u32 abi_version;  /* CAPSICUM_ABI_VERSION of the loader */
	__u32 loader_pid;   /* who loaded (informational) */
	__u64 object_hash;  /* FNV-1a 64 of the BPF object's ELF bytes */
	__u64 loaded_at_ns; /* CLOCK_BOOTTIME of the load */
	__u64 exe_ino;	    /* the loader's binary: the one trusted binary */
	__u32 exe_dev;	    /* kernel dev_t (major << 20 | minor) */
	__u32 pad;
};

/* Keys of the "cap_protected" hash: BPF object ids the hooks guard. */
enum capsicum_protected_kind {
	CAPSICUM_PROTECT_MAP = 1,
	CAPSICUM_PROTECT_PROG = 2,
	CAPSICUM_PROTECT_LINK = 3,
};
struct capsicum_protected_key {
	__u32 kind;
	__u32 id;
};

#endif /* _CAPSICUM_PINS_H */
