// SPDX-License-Identifier: BSD-2-Clause
/*
 * The casper process: what cap_init() forks. It holds nothing of the
 * program but its channel (descriptors closed, signals reset), and forks
 * one process per cap_service_open(), which runs that service alone on a
 * new channel. cap_service_limit() narrows the names it will open.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <sys/capsicum.h>

#include "casper.h"

enum { ZK_NAME = MK_SERVICE_FIRST };

/* A channel's descriptor, at 3, alone: stdio goes to /dev/null. */
static void only_channel(int sock)
{
	int null;

	/* Out of the way of stdio first: sock may be 0, 1 or 2. */
	sock = fcntl(sock, F_DUPFD_CLOEXEC, 10);
	null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (sock < 0 || null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 ||
	    dup2(null, 2) < 0)
		_exit(1);
	if (dup3(sock, 3, O_CLOEXEC) < 0)
		_exit(1);
	if (close_range(4, ~0U, 0) < 0)
		_exit(1);
}

/*
 * What every casper process gives up: the program's signal handlers and
 * mask, privileges gained by exec, a core dump or ptrace by others of the
 * uid. Children are reaped by the kernel.
 */
static void restrict_process(const char *name)
{
	struct sigaction sa = { .sa_handler = SIG_DFL };
	char comm[16] = "casper";
	sigset_t none;
	int sig;

	for (sig = 1; sig < NSIG; sig++)
		sigaction(sig, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGCHLD, &sa, NULL);
	sigaction(SIGPIPE, &sa, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (name) {
		/* "system.fileargs" -> "cap.fileargs" */
		const char *dot = strrchr(name, '.');

		strcpy(comm, "cap.");
		strncat(comm, dot ? dot + 1 : name, sizeof(comm) - 5);
	}
	prctl(PR_SET_NAME, comm, 0, 0, 0);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		_exit(1);
}

_Noreturn void casper_process(int sock)
{
	only_channel(sock);
	restrict_process(NULL);
	casper_serve(3, &casper_zygote);
}

static int names_contain(const struct msg *names, const char *name)
{
	const char *n;
	size_t i;

	for (i = 0; (n = msg_get_str_at(names, ZK_NAME, i)); i++)
		if (!strcmp(n, name))
			return 1;
	return 0;
}

static int zygote_limit(const struct msg *old, const struct msg *new)
{
	const char *n;
	size_t i;

	if (msg_only(new, (uint16_t[]){ ZK_NAME, 0 },
		     (enum msg_type[]){ MSG_STR }) < 0)
		return EINVAL;
	for (i = 0; (n = msg_get_str_at(new, ZK_NAME, i)); i++)
		if (old && !names_contain(old, n))
			return ENOTCAPABLE;
	return 0;
}

static int zygote_open(const struct msg *limits, struct msg *in,
		       struct msg *out)
{
	const char *name = msg_get_str(in, ZK_NAME);
	const struct casper_service *svc;
	int sv[2];
	pid_t pid;

	if (!name)
		return EINVAL;
	if (limits && !names_contain(limits, name))
		return ENOTCAPABLE;
	svc = casper_service_find(name);
	if (!svc)
		return ENOENT;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return errno;
	pid = fork();
	if (pid < 0) {
		close(sv[0]);
		close(sv[1]);
		return errno;
	}
	if (pid == 0) {
		only_channel(sv[1]);
		restrict_process(name);
		casper_serve(3, svc);
	}
	close(sv[1]);
	msg_add_fd(out, sv[0]);
	return 0;
}

static int zygote_command(const char *cmd, const struct msg *limits,
			  struct msg *in, struct msg *out)
{
	if (!strcmp(cmd, "open"))
		return zygote_open(limits, in, out);
	return EINVAL;
}

const struct casper_service casper_zygote = {
	.name = "casper",
	.limit = zygote_limit,
	.command = zygote_command,
};
