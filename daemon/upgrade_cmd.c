// SPDX-License-Identifier: GPL-2.0
/* capsicumd --upgrade: the new binary's side of the live upgrade. */
#define _GNU_SOURCE
#include "exit_codes.h"
#include "handover.h"
#include "instance.h"
#include "load.h"
#include "log.h"
#include "pinned.h"
#include "trust.h"
#include "upgrade.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* A daemon answers within a turn of its loop; TCG is slow: a bound. */
#define ANSWER_SECONDS 60

/*
 * Whether pid blocks HANDOVER_SIGNAL (it reads it from its signalfd): a
 * capsicumd from before live upgrades would die of it instead.
 */
static bool speaks_handover(pid_t pid)
{
	char path[64], line[256];
	unsigned long long mask = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "SigBlk: %llx", &mask) == 1)
			break;
	fclose(f);
	return mask & (1ULL << (HANDOVER_SIGNAL - 1));
}

/* One request to the daemon; its answer (0 or an errno), or -errno. */
static int ask(pid_t pid, int what)
{
	struct timespec left = { .tv_sec = ANSWER_SECONDS };
	union sigval v = { .sival_int = what };
	siginfo_t si;
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, HANDOVER_SIGNAL);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if (sigqueue(pid, HANDOVER_SIGNAL, v))
		return -errno;
	for (;;) {
		if (sigtimedwait(&set, &si, &left) < 0) {
			if (errno == EINTR)
				continue;
			return errno == EAGAIN ? -ETIMEDOUT : -errno;
		}
		if (si.si_pid == pid)
			return si.si_value.sival_int;
	}
}

static int get_trust(pid_t daemon);

/* Whether pid runs another file than this process (a new inode). */
static bool runs_another_binary(pid_t pid)
{
	struct exe_id self, other;
	char exe[64];

	snprintf(exe, sizeof(exe), "/proc/%d/exe", (int)pid);
	return !exe_id_of("/proc/self/exe", &self) && !exe_id_of(exe, &other) &&
	       !exe_id_eq(&self, &other);
}

/*
 * The state is this build's already. A daemon running the same file has
 * nothing to do but reopen its logs (what reload did before). A daemon
 * running an older file with the same BPF object (a package that changed
 * only the daemon) hands its trust over and re-executes this one, or a
 * restart would find its binary untrusted.
 */
static int same_build(const struct capsicum_state_version *v)
{
	pid_t daemon = instance_holder(CAPSICUMD_LOCK);
	int err, ret;

	if (daemon <= 0 || !runs_another_binary(daemon)) {
		if (daemon > 0)
			kill(daemon, SIGHUP);
		log_msg(LOG_INFO, "upgrade",
			"this build (object %016llx) is the one loaded (by pid "
			"%u): nothing to upgrade%s",
			(unsigned long long)v->object_hash, v->loader_pid,
			daemon > 0 ? "; the daemon reopens its logs" : "");
		return EXIT_OK;
	}
	if (!capsicum_trusted()) {
		ret = get_trust(daemon);
		if (ret != EXIT_OK)
			return ret;
	}
	err = ask(daemon, HANDOVER_REEXEC);
	if (err) {
		log_msg(LOG_ERR, "upgrade",
			"capsicumd pid %d did not come back as this binary: %s "
			"(its log says why)",
			(int)daemon, strerror(err < 0 ? -err : err));
		return EXIT_ERROR;
	}
	log_msg(LOG_INFO, "upgrade",
		"the loaded BPF object (%016llx) is this build's: nothing to "
		"swap; capsicumd pid %d now runs this binary, the trusted one",
		(unsigned long long)v->object_hash, (int)daemon);
	return EXIT_OK;
}

/* Gets the trust from the running daemon. */
static int get_trust(pid_t daemon)
{
	struct exe_id old;
	int err;

	if (daemon <= 0) {
		log_msg(LOG_ERR, "upgrade",
			"no capsicumd is running: only the running daemon can "
			"hand its trust to a new binary (the protection hooks "
			"refuse the pinned objects to any other, root "
			"included); start the daemon of the loaded build and "
			"run capsicumd --upgrade again, or use --replace, "
			"which unloads first (sandboxes lose their "
			"restrictions)");
		return EXIT_NO_DAEMON;
	}
	if (!speaks_handover(daemon)) {
		log_msg(LOG_ERR, "upgrade",
			"capsicumd pid %d predates live upgrades (it would die "
			"of the request): stop it, then 'capsicumd --replace' "
			"(sandboxes lose their restrictions), or reboot",
			(int)daemon);
		return EXIT_VERSION;
	}
	/* Readable by root: a state we cannot read, we do not ask for. */
	err = capsicum_trusted_exe(&old);
	if (err) {
		log_msg(LOG_ERR, "upgrade",
			"cannot read the trusted binary from %s: %s",
			CAPSICUM_PIN_BSS, strerror(-err));
		return EXIT_ERROR;
	}
	err = ask(daemon, HANDOVER_TRUST);
	if (err) {
		log_msg(LOG_ERR, "upgrade",
			"capsicumd pid %d did not hand its trust over: %s "
			"(its log says why)",
			(int)daemon, strerror(err < 0 ? -err : err));
		return err == EPERM || err == EACCES ? EXIT_DENIED : EXIT_ERROR;
	}
	return EXIT_OK;
}

int handover_upgrade(void)
{
	struct capsicum_state_version v, from;
	bool borrowed = false;
	char why[768];
	pid_t daemon = 0;
	int err, ret;

	switch (pinned_check(&v, why, sizeof(why))) {
	case PINNED_NONE:
		log_msg(LOG_ERR, "upgrade",
			"nothing is loaded under %s: nothing to upgrade (start "
			"capsicumd to load this build)",
			CAPSICUM_PIN_DIR);
		return EXIT_ERROR;
	case PINNED_SAME:
		return same_build(&v);
	case PINNED_UNFINISHED:
	case PINNED_UNKNOWN:
		log_msg(LOG_ERR, "upgrade", "%s: not upgrading it",
			why[0] ? why : "an unfinished load of this build");
		return EXIT_VERSION;
	case PINNED_OTHER:
		break;
	}
	/* Without a daemon we hold the lock: no one loads meanwhile. */
	err = instance_lock(CAPSICUMD_LOCK, &daemon);
	if (err && err != -EWOULDBLOCK) {
		log_msg(LOG_ERR, "upgrade", "cannot lock %s: %s",
			CAPSICUMD_LOCK, strerror(-err));
		return EXIT_ERROR;
	}
	if (!capsicum_trusted()) {
		ret = get_trust(err ? daemon : 0);
		if (ret != EXIT_OK)
			return ret;
		borrowed = true;
	}
	err = capsicum_upgrade(CAPSICUM_PIN_DIR, &from, why, sizeof(why));
	if (err == CAPSICUM_UPGRADE_REFUSED) {
		/*
		 * The trust stays with this binary, the one installed: the
		 * old one is usually deleted, and this one can still
		 * --replace if the operator so decides.
		 */
		log_msg(LOG_ERR, "upgrade",
			"%s; upgrade refused: the loaded state (object "
			"%016llx) keeps enforcing, untouched%s; to change "
			"builds, stop the daemon and run 'capsicumd "
			"--replace' (sandboxes lose their restrictions), or "
			"reboot",
			why, (unsigned long long)from.object_hash,
			borrowed ? ", and this binary is now its trusted one"
				 : "");
		return EXIT_VERSION;
	}
	if (err) {
		log_msg(LOG_ERR, "upgrade", "%s", why);
		return EXIT_ERROR;
	}
	log_msg(LOG_INFO, "upgrade",
		"upgraded the state under %s from object %016llx (loaded by "
		"pid %u) to %016llx with no window: every map re-used, every "
		"hook swapped",
		CAPSICUM_PIN_DIR, (unsigned long long)from.object_hash,
		from.loader_pid, (unsigned long long)capsicum_object_hash());
	if (daemon > 0) {
		err = ask(daemon, HANDOVER_REEXEC);
		if (err)
			log_msg(LOG_WARNING, "upgrade",
				"capsicumd pid %d did not come back as the new "
				"binary: %s; restart it (the state stays "
				"upgraded and enforcing)",
				(int)daemon, strerror(err < 0 ? -err : err));
		else
			log_msg(LOG_INFO, "upgrade",
				"capsicumd pid %d serves again, as the new "
				"binary",
				(int)daemon);
	}
	return EXIT_OK;
}
