/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The live upgrade between two capsicumd (doc/daemon.md, "Upgrading").
 * Only the running, trusted daemon can give trust to a new binary: the
 * protection hooks refuse the pinned objects to every other one. So the
 * new binary (`capsicumd --upgrade`) signals the running daemon with
 * sigqueue(SIGUSR1); the daemon answers the same way (si_value: 0 or an
 * errno). First request: the daemon makes the file now at its own path
 * the trusted binary, if the sender runs that very file. Second request,
 * once the state is the new build's, or (HANDOVER_REEXEC) once the file
 * at its path, trusted now, carries the same BPF object: the daemon
 * re-executes that file (same pid, lock held throughout), which re-uses
 * the state and answers once it serves, so --upgrade returns when the new
 * daemon is ready.
 */
#ifndef CAPSICUMD_HANDOVER_H
#define CAPSICUMD_HANDOVER_H

#include "trust.h"

#include <limits.h>
#include <sys/signalfd.h>

#define HANDOVER_SIGNAL SIGUSR1
/* The request, in si_value: hand the trust over, or re-execute. */
enum { HANDOVER_TRUST = 0, HANDOVER_REEXEC = 1 };
/* Set across the re-exec: whom the new image answers once it serves. */
#define HANDOVER_PEER_ENV "CAPSICUMD_UPGRADE_PEER"

struct handover {
	char path[PATH_MAX]; /* our binary's path when we started */
	struct exe_id self;  /* and the file it was then */
	char **argv;	     /* to re-execute, without --background */
};

/* At start, before anything replaces our binary: 0 or -errno. */
int handover_init(struct handover *h, int argc, char **argv);

/* The running daemon's side: one request from si's sender. */
void handover_serve(struct handover *h, const struct signalfd_siginfo *si);

/*
 * In a re-executed daemon: answers the upgrader (0 once serving, or the
 * errno that stopped us). Nothing if we were not re-executed.
 */
void handover_ready(int err);

/* capsicumd --upgrade: the new binary's side. Returns an exit code. */
int handover_upgrade(void);

#endif
