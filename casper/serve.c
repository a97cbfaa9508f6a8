// SPDX-License-Identifier: BSD-2-Clause
/*
 * The loop of every casper process: one request, one reply. The core
 * commands (clone, limit_set, limit_get) are answered here, the rest by
 * the service. A request that does not parse gets EBADMSG and the loop
 * goes on: garbage never ends the service, nor reaches its code.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <sys/capsicum.h>

#include "casper.h"

/* The limits in force: NULL until the first limit_set. */
static struct msg *limits;

static int do_clone(int *sock, struct msg *out)
{
	int sv[2];
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return errno;
	pid = fork();
	if (pid < 0) {
		close(sv[0]);
		close(sv[1]);
		return errno;
	}
	if (pid == 0) {
		/* The clone: same limits, the new channel only. */
		close(*sock);
		close(sv[0]);
		*sock = sv[1];
		return -1;
	}
	close(sv[1]);
	msg_add_fd(out, sv[0]);
	return 0;
}

static int do_limit_set(const struct casper_service *svc, struct msg *in)
{
	struct msg *new = msg_new();
	int error;

	if (!new)
		return ENOMEM;
	msg_copy_fields(new, in);
	if (new->error) {
		error = new->error;
		msg_free(new);
		return error;
	}
	error = svc->limit(limits, new);
	if (error) {
		msg_free(new);
		return error;
	}
	msg_free(limits);
	limits = new;
	return 0;
}

static int dispatch(const struct casper_service *svc, int *sock, struct msg *in,
		    struct msg *out)
{
	const char *cmd = msg_get_str(in, MK_CMD);

	if (!cmd || msg_count(in, MK_CMD, MSG_STR) != 1)
		return EBADMSG;
	if (!strcmp(cmd, "clone"))
		return do_clone(sock, out);
	if (!strcmp(cmd, "limit_set"))
		return do_limit_set(svc, in);
	if (!strcmp(cmd, "limit_get")) {
		msg_add_u64(out, MK_LIMITED, limits != NULL);
		msg_add_str(out, MK_SERVICE, svc->name);
		if (limits)
			msg_copy_fields(out, limits);
		return 0;
	}
	return svc->command(cmd, limits, in, out);
}

/* Sends out (freed) with its error. */
static void reply(int sock, struct msg *out, int error)
{
	msg_add_u64(out, MK_ERROR, (uint64_t)error);
	if (msg_send(sock, out) == 0) {
		msg_free(out);
		return;
	}
	/* Too big, or a descriptor was missing: the error alone. */
	error = out->error ? out->error : errno;
	msg_free(out);
	out = msg_new();
	if (!out)
		_exit(1);
	msg_add_u64(out, MK_ERROR, (uint64_t)(error ? error : EIO));
	if (msg_send(sock, out) < 0 && errno != EMSGSIZE)
		_exit(0);
	msg_free(out);
}

_Noreturn void casper_serve(int sock, const struct casper_service *svc)
{
	for (;;) {
		struct msg *in = msg_recv(sock, 1), *out;
		int error;

		if (!in && errno != EBADMSG && errno != ENOMEM)
			_exit(0);
		out = msg_new();
		if (!out)
			_exit(1);
		error = in ? dispatch(svc, &sock, in, out) : errno;
		msg_free(in);
		if (error < 0) {
			/* A clone's first moment: nothing to answer. */
			msg_free(out);
			continue;
		}
		reply(sock, out, error);
	}
}
