// SPDX-License-Identifier: GPL-2.0
/* The running daemon's side of the live upgrade (handover.h). */
#define _GNU_SOURCE
#include "handover.h"

#include "instance.h"
#include "load.h"
#include "log.h"
#include "pinned.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int handover_init(struct handover *h, int argc, char **argv)
{
	ssize_t n = readlink("/proc/self/exe", h->path, sizeof(h->path) - 1);
	int j = 0;

	if (n < 0)
		return -errno;
	h->path[n] = '\0';
	h->argv = calloc((size_t)argc + 1, sizeof(*h->argv));
	if (!h->argv)
		return -ENOMEM;
	/* The re-executed image is the daemon: it must not fork again. */
	for (int i = 0; i < argc; i++)
		if (strcmp(argv[i], "--background"))
			h->argv[j++] = argv[i];
	return exe_id_of("/proc/self/exe", &h->self);
}

static void answer(pid_t pid, int err)
{
	union sigval v = { .sival_int = err };

	if (sigqueue(pid, HANDOVER_SIGNAL, v))
		log_msg(LOG_WARNING, "upgrade", "cannot answer pid %d: %s",
			(int)pid, strerror(errno));
}

/*
 * Becomes the file at our path, if it is `want` (the binary the stamp or
 * the bss names): the new image answers peer once it serves.
 */
static void reexec(struct handover *h, pid_t peer, const struct exe_id *want,
		   const char *why)
{
	struct exe_id at;
	char env[16];
	int err;

	if (exe_id_of(h->path, &at) || !exe_id_eq(&at, want) ||
	    exe_id_eq(&at, &h->self)) {
		log_msg(LOG_ERR, "upgrade",
			"%s, but %s is not that binary (or is this one); not "
			"re-executing",
			why, h->path);
		answer(peer, ESTALE);
		return;
	}
	log_msg(LOG_INFO, "upgrade", "%s: re-executing %s (pid %d stays)", why,
		h->path, (int)getpid());
	/* The new image answers once it serves (handover_ready). */
	snprintf(env, sizeof(env), "%d", (int)peer);
	setenv(HANDOVER_PEER_ENV, env, 1);
	instance_lock_keep_on_exec();
	execv(h->path, h->argv);
	err = errno;
	unsetenv(HANDOVER_PEER_ENV);
	log_msg(LOG_ERR, "upgrade", "re-executing %s failed: %s; serving on",
		h->path, strerror(err));
	answer(peer, err);
}

void handover_ready(int err)
{
	const char *peer = getenv(HANDOVER_PEER_ENV);

	if (!peer)
		return;
	answer((pid_t)atoi(peer), err);
	unsetenv(HANDOVER_PEER_ENV);
}

void handover_serve(struct handover *h, const struct signalfd_siginfo *si)
{
	pid_t peer = (pid_t)si->ssi_pid;
	struct capsicum_state_version v;
	struct exe_id at, sender;
	char why[512], exe[64];
	int err;

	if (si->ssi_code != SI_QUEUE || si->ssi_uid != 0) {
		log_msg(LOG_WARNING, "upgrade",
			"ignoring signal %u from pid %d (uid %u): only root's "
			"capsicumd --upgrade asks this",
			si->ssi_signo, (int)peer, si->ssi_uid);
		return;
	}
	snprintf(exe, sizeof(exe), "/proc/%d/exe", (int)peer);
	switch (pinned_check(&v, why, sizeof(why))) {
	case PINNED_SAME:
		if (si->ssi_int != HANDOVER_REEXEC)
			break;
		/* Same object, new binary: the sender says so, and runs it. */
		err = capsicum_trusted_exe(&at) ?: exe_id_of(exe, &sender);
		if (!err && !exe_id_eq(&at, &sender))
			err = -EACCES;
		if (err) {
			log_msg(LOG_ERR, "upgrade",
				"not re-executing for pid %d: %s", (int)peer,
				strerror(-err));
			answer(peer, -err);
			return;
		}
		reexec(h, peer, &at,
		       "the binary at our path, trusted now, carries this "
		       "same BPF object");
		return;
	case PINNED_OTHER:
		at = (struct exe_id){ .dev = v.exe_dev, .ino = v.exe_ino };
		snprintf(why, sizeof(why),
			 "the pinned state was upgraded to object %016llx by "
			 "pid %u",
			 (unsigned long long)v.object_hash, v.loader_pid);
		reexec(h, peer, &at, why);
		return;
	default:
		log_msg(LOG_ERR, "upgrade", "refusing pid %d: %s", (int)peer,
			why);
		answer(peer, EBADMSG);
		return;
	}
	err = exe_id_of(h->path, &at) ?: exe_id_of(exe, &sender);
	if (!err && !exe_id_eq(&at, &sender))
		err = EACCES;
	else if (!err && exe_id_eq(&at, &h->self))
		err = EALREADY;
	else if (err)
		err = -err;
	if (!err)
		err = -capsicum_trust_exe(&at);
	if (err) {
		log_msg(LOG_ERR, "upgrade", "not handing over to pid %d: %s%s",
			(int)peer, strerror(err),
			err == EACCES  ? " (it does not run the binary "
					 "installed at our path)"
			: err == EPERM ? " (this daemon's binary is no longer "
					 "the trusted one: an earlier upgrade "
					 "took the trust)"
			: err == EALREADY ? " (the binary at our path is this "
					    "daemon's own)"
					  : "");
		answer(peer, err);
		return;
	}
	log_msg(LOG_WARNING, "upgrade",
		"trust handed to %s (device %u, inode %llu) for the upgrade by "
		"pid %d; this binary is no longer trusted",
		h->path, at.dev, (unsigned long long)at.ino, (int)peer);
	answer(peer, 0);
}
