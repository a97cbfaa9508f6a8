// SPDX-License-Identifier: BSD-2-Clause
/*
 * cap_enter() in a learning tree (doc/learn.md). The tree's supervisor,
 * `capctl run --learn`, listens on an abstract socket named by the learn
 * id; cap_enter() installs capability mode's filter with every refusal a
 * notification, and hands the filter's listener over, so the supervisor
 * records each call capability mode would refuse and lets it run. Any
 * failure falls back to capability mode's own filter: learning never
 * fails open into an unsupervised process, it only learns less.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <sys/capsicum.h>

#include "capmode.h"
#include "control.h"

/*
 * Whoever holds the listener answers the tree's calls, results included.
 * Only root may learn, so the supervisor is root: a name some other user
 * bound (after capctl went away, say) gets nothing.
 */
static bool peer_is_root(int fd)
{
	struct ucred c;
	socklen_t len = sizeof(c);

	return !getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &c, &len) &&
	       len == sizeof(c) && c.uid == 0;
}

int capsicum_learn_connect(void)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int saved = errno, fd, n;
	__u32 id = capsicum_learn_id();

	if (!id)
		return -1;
	/* Abstract: sun_path[0] is 0, the name follows, unterminated. */
	n = snprintf(a.sun_path + 1, sizeof(a.sun_path) - 1,
		     CAPSICUM_LEARN_SOCKET_PREFIX "%u", id);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 &&
	    (connect(fd, (const struct sockaddr *)&a,
		     (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 +
				 (size_t)n)) ||
	     !peer_is_root(fd))) {
		close(fd);
		fd = -1;
	}
	errno = saved;
	return fd;
}

/* Sends the listener over sock: 0, or -1. */
static int hand_over(int sock, int listener)
{
	char byte = 'L';
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} ctl;
	struct msghdr m = { .msg_iov = &iov,
			    .msg_iovlen = 1,
			    .msg_control = ctl.buf,
			    .msg_controllen = sizeof(ctl.buf) };
	struct cmsghdr *c;

	memset(&ctl, 0, sizeof(ctl));
	c = CMSG_FIRSTHDR(&m);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &listener, sizeof(int));
	return sendmsg(sock, &m, MSG_NOSIGNAL) == 1 ? 0 : -1;
}

int capsicum_capmode_install_for(int learn_sock)
{
	int listener, handed = -1;

	if (learn_sock < 0)
		return capsicum_capmode_install();
	listener = capsicum_capmode_install_learning();
	if (listener >= 0) {
		handed = hand_over(learn_sock, listener);
		close(listener);
	}
	close(learn_sock);
	if (!handed)
		return 0;
	/*
	 * Not handed over: a learning filter whose listener is gone refuses
	 * with ENOSYS; capability mode's own on top refuses with ECAPMODE
	 * (an errno action takes precedence over a notification).
	 */
	return capsicum_capmode_install();
}
