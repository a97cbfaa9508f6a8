// SPDX-License-Identifier: GPL-2.0
/* capctl's side of capsicumd's query socket (admin/query.h). */
#define _GNU_SOURCE
#include "ask.h"

#include "args.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

/* capsicumd answers within its own deadline; this is the backstop. */
#define ASK_TIMEOUT_MS 60000

static int connect_daemon(void)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX,
				 .sun_path = CAPSICUMD_QUERY_SOCK };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&a, sizeof(a))) {
		int err = errno;

		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}

/* Reads the whole answer, at most QUERY_ANSWER_MAX bytes. */
static ssize_t read_answer(int fd, char *buf, size_t max)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	size_t n = 0;
	ssize_t got;

	for (;;) {
		if (poll(&p, 1, ASK_TIMEOUT_MS) != 1) {
			errno = ETIMEDOUT;
			return -1;
		}
		got = read(fd, buf + n, max - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -1;
		if (!got || (n += (size_t)got) == max)
			return (ssize_t)n;
	}
}

static int answer_error(const struct query_answer_head *h, pid_t pid)
{
	switch (h->error) {
	case ESRCH:
		fprintf(stderr, "capctl: no process %d\n", pid);
		return CAPCTL_EXIT_ERROR;
	case EACCES:
	case EPERM:
		fprintf(stderr,
			"capctl: pid %d is not yours: capsicumd shows a user "
			"only their own processes (same uid, not "
			"non-dumpable); run as root to see it\n",
			pid);
		return CAPCTL_EXIT_DENIED;
	case ENOPKG:
		fprintf(stderr, "capctl: Capsicum is not loaded\n");
		return CAPCTL_EXIT_UNLOADED;
	case ESTALE:
		fprintf(stderr, "capctl: the pinned state comes from another "
				"build than capsicumd's\n");
		return CAPCTL_EXIT_VERSION;
	case EBUSY:
		fprintf(stderr, "capctl: capsicumd is busy with other "
				"queries; try again\n");
		return CAPCTL_EXIT_ERROR;
	default:
		fprintf(stderr, "capctl: capsicumd: %s\n", strerror(h->error));
		return CAPCTL_EXIT_ERROR;
	}
}

int ask_open(enum query_op op, pid_t pid, struct query_answer_head *head,
	     int *out)
{
	struct query_req req = { .magic = QUERY_MAGIC, .op = op, .pid = pid };
	struct pollfd p = { .events = POLLIN };
	ssize_t n = -1;
	int fd = connect_daemon();

	if (fd < 0) {
		fprintf(stderr,
			"capctl: the pinned state and the audit log are "
			"root's, and capsicumd, which answers users, cannot be "
			"asked (%s: %s)\n",
			CAPSICUMD_QUERY_SOCK, strerror(errno));
		return CAPCTL_EXIT_DENIED;
	}
	p.fd = fd;
	if (write(fd, &req, sizeof(req)) == sizeof(req)) {
		if (poll(&p, 1, ASK_TIMEOUT_MS) == 1)
			n = recv(fd, head, sizeof(*head), MSG_WAITALL);
		else
			errno = ETIMEDOUT;
	}
	if (n < 0) {
		fprintf(stderr, "capctl: asking capsicumd: %s\n",
			strerror(errno));
		close(fd);
		return CAPCTL_EXIT_ERROR;
	}
	if (n != sizeof(*head) || head->magic != QUERY_MAGIC) {
		fprintf(stderr, "capctl: capsicumd's answer is malformed\n");
		close(fd);
		return CAPCTL_EXIT_ERROR;
	}
	if (head->error) {
		close(fd);
		return answer_error(head, pid);
	}
	if (head->flags & QUERY_TRUNCATED)
		fprintf(stderr,
			"capctl: the answer is cut at %u records "
			"(capsicumd's bound)\n",
			head->count);
	*out = fd;
	return CAPCTL_EXIT_OK;
}

int ask_daemon(enum query_op op, pid_t pid, struct query_answer_head *head,
	       void **rec, size_t *len)
{
	char *buf;
	ssize_t n;
	int fd, ret = ask_open(op, pid, head, &fd);

	*rec = NULL;
	*len = 0;
	if (ret)
		return ret;
	buf = malloc(QUERY_ANSWER_MAX);
	n = buf ? read_answer(fd, buf, QUERY_ANSWER_MAX) : -1;
	close(fd);
	if (n < 0) {
		fprintf(stderr, "capctl: asking capsicumd: %s\n",
			strerror(errno));
		free(buf);
		return CAPCTL_EXIT_ERROR;
	}
	*rec = buf;
	*len = (size_t)n;
	return CAPCTL_EXIT_OK;
}
