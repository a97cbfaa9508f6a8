// SPDX-License-Identifier: GPL-2.0
/* capctl's side of capsicumd's query socket (daemon/query.h). */
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

int ask_daemon(enum query_op op, pid_t pid, struct query_answer_head *head,
	       void **rec, size_t *len)
{
	struct query_req req = { .magic = QUERY_MAGIC, .op = op, .pid = pid };
	size_t max = sizeof(*head) + QUERY_ANSWER_MAX;
	char *buf = malloc(max);
	ssize_t n;
	int fd;

	*rec = NULL;
	*len = 0;
	if (!buf)
		return CAPCTL_EXIT_ERROR;
	fd = connect_daemon();
	if (fd < 0) {
		fprintf(stderr,
			"capctl: the pinned state is root's, and capsicumd, "
			"which answers users, cannot be asked (%s: %s)\n",
			CAPSICUMD_QUERY_SOCK, strerror(errno));
		free(buf);
		return CAPCTL_EXIT_DENIED;
	}
	if (write(fd, &req, sizeof(req)) != sizeof(req) ||
	    (n = read_answer(fd, buf, max)) < 0) {
		fprintf(stderr, "capctl: asking capsicumd: %s\n",
			strerror(errno));
		close(fd);
		free(buf);
		return CAPCTL_EXIT_ERROR;
	}
	close(fd);
	if ((size_t)n < sizeof(*head) ||
	    (memcpy(head, buf, sizeof(*head)), head->magic != QUERY_MAGIC)) {
		fprintf(stderr, "capctl: capsicumd's answer is malformed\n");
		free(buf);
		return CAPCTL_EXIT_ERROR;
	}
	if (head->error) {
		free(buf);
		return answer_error(head, pid);
	}
	if (head->flags & QUERY_TRUNCATED)
		fprintf(stderr,
			"capctl: the answer is cut at %u records "
			"(capsicumd's bound)\n",
			head->count);
	*len = (size_t)n - sizeof(*head);
	memmove(buf, buf + sizeof(*head), *len);
	*rec = buf;
	return CAPCTL_EXIT_OK;
}
