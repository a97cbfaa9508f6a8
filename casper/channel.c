// SPDX-License-Identifier: BSD-2-Clause
/* The program's side of libcasper: channels and the calls over them. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sys/capsicum.h>

#include "casper.h"

struct msg *casper_request(const char *cmd)
{
	struct msg *m = msg_new();

	if (m)
		msg_add_str(m, MK_CMD, cmd);
	return m;
}

struct msg *casper_call(const cap_channel_t *chan, struct msg *req)
{
	struct msg *rep;
	uint64_t error;

	if (!req)
		return NULL;
	if (!chan) {
		msg_free(req);
		errno = EINVAL;
		return NULL;
	}
	if (msg_send(chan->sock, req) < 0) {
		msg_free(req);
		return NULL;
	}
	msg_free(req);
	rep = msg_recv(chan->sock, 1);
	if (!rep)
		return NULL;
	if (msg_get_u64(rep, MK_ERROR, &error) < 0 || error > 4095) {
		msg_free(rep);
		errno = EBADMSG;
		return NULL;
	}
	if (error) {
		msg_free(rep);
		errno = (int)error;
		return NULL;
	}
	return rep;
}

int casper_call_void(const cap_channel_t *chan, struct msg *req)
{
	struct msg *rep = casper_call(chan, req);

	if (!rep)
		return -1;
	msg_free(rep);
	return 0;
}

cap_channel_t *cap_wrap(int sock, int flags)
{
	cap_channel_t *chan;

	if (sock < 0) {
		errno = EBADF;
		return NULL;
	}
	chan = malloc(sizeof(*chan));
	if (!chan)
		return NULL;
	chan->sock = sock;
	chan->flags = flags;
	return chan;
}

int cap_unwrap(cap_channel_t *chan, int *flags)
{
	int sock = chan->sock;

	if (flags)
		*flags = chan->flags;
	free(chan);
	return sock;
}

int cap_sock(const cap_channel_t *chan)
{
	return chan->sock;
}

void cap_close(cap_channel_t *chan)
{
	int saved = errno;

	if (!chan)
		return;
	close(chan->sock);
	free(chan);
	errno = saved;
}

/* A request whose reply hands over a new channel's socket. */
static cap_channel_t *call_for_channel(const cap_channel_t *chan,
				       struct msg *req)
{
	struct msg *rep = casper_call(chan, req);
	cap_channel_t *c;
	int fd;

	if (!rep)
		return NULL;
	fd = msg_take_fd(rep, 0);
	msg_free(rep);
	if (fd < 0) {
		errno = EBADMSG;
		return NULL;
	}
	c = cap_wrap(fd, chan->flags);
	if (!c)
		close(fd);
	return c;
}

cap_channel_t *cap_service_open(const cap_channel_t *chan, const char *name)
{
	struct msg *req;

	if (!chan || !name) {
		errno = EINVAL;
		return NULL;
	}
	req = casper_request("open");
	if (req)
		msg_add_str(req, MK_SERVICE_FIRST, name);
	return call_for_channel(chan, req);
}

cap_channel_t *cap_clone(const cap_channel_t *chan)
{
	if (!chan) {
		errno = EINVAL;
		return NULL;
	}
	return call_for_channel(chan, casper_request("clone"));
}

int cap_service_limit(const cap_channel_t *chan, const char *const *names,
		      size_t nnames)
{
	struct msg *limits = msg_new();
	size_t i;

	if (!limits)
		return -1;
	for (i = 0; i < nnames; i++)
		msg_add_str(limits, MK_SERVICE_FIRST, names[i]);
	return casper_limit_set(chan, limits);
}

void msg_copy_fields(struct msg *dst, const struct msg *src)
{
	size_t i;

	for (i = 0; i < src->nfields; i++) {
		const struct msg_field *f = &src->fields[i];
		uint64_t v;

		if (f->key < MK_SERVICE_FIRST)
			continue;
		/* Re-adding keeps the bounds checks in one place. */
		if (f->type == MSG_STR)
			msg_add_str(dst, f->key, (const char *)f->data);
		else if (f->type == MSG_U64) {
			memcpy(&v, f->data, sizeof(v));
			msg_add_u64(dst, f->key, v);
		} else
			msg_add_bytes(dst, f->key, f->data, f->len);
	}
}

int casper_limit_set(const cap_channel_t *chan, struct msg *limits)
{
	struct msg *req;

	if (!limits)
		return -1;
	req = casper_request("limit_set");
	if (req)
		msg_copy_fields(req, limits);
	msg_free(limits);
	return casper_call_void(chan, req);
}

int casper_limit_get(const cap_channel_t *chan, struct msg **limits)
{
	struct msg *rep = casper_call(chan, casper_request("limit_get"));
	uint64_t limited = 0;

	if (!rep)
		return -1;
	if (msg_get_u64(rep, MK_LIMITED, &limited) < 0 || !limited) {
		msg_free(rep);
		*limits = NULL;
		return 0;
	}
	*limits = msg_new();
	if (*limits)
		msg_copy_fields(*limits, rep);
	msg_free(rep);
	return *limits ? 0 : -1;
}

cap_channel_t *cap_init(void)
{
	cap_channel_t *chan;
	int sv[2], status;
	pid_t pid;

	/* The casper process must be able to open what the services need. */
	if (cap_sandboxed()) {
		errno = ECAPMODE;
		return NULL;
	}
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return NULL;
	/*
	 * Twice, so that the casper process is init's child: no zombie is
	 * left to the program, which may be in capability mode by then.
	 */
	pid = fork();
	if (pid == 0) {
		close(sv[0]);
		pid = fork();
		if (pid == 0)
			casper_process(sv[1]);
		_exit(pid < 0 ? 1 : 0);
	}
	close(sv[1]);
	if (pid < 0 || waitpid(pid, &status, 0) != pid || status != 0) {
		close(sv[0]);
		errno = pid < 0 ? errno : EAGAIN;
		return NULL;
	}
	chan = cap_wrap(sv[0], 0);
	if (!chan)
		close(sv[0]);
	return chan;
}
