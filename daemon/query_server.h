/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CAPSICUMD_QUERY_SERVER_H
#define CAPSICUMD_QUERY_SERVER_H

#include "query.h"

#include <poll.h>
#include <stdint.h>
#include <time.h>

/*
 * The query socket's server, non-blocking inside capsicumd's poll loop:
 * at most QUERY_MAX_CLIENTS connections, QUERY_MAX_PER_UID of one uid
 * (more are answered EBUSY and closed), each closed QUERY_DEADLINE_S
 * seconds after it was accepted whatever it did, its answer at most
 * QUERY_ANSWER_MAX bytes.
 */
#define QUERY_MAX_CLIENTS 16
#define QUERY_MAX_PER_UID 4
#define QUERY_DEADLINE_S  10
/* The listening socket and every client. */
#define QUERY_POLLFDS (1 + QUERY_MAX_CLIENTS)

struct query_client {
	int fd; /* -1: free slot */
	unsigned int uid, gid;
	size_t got;
	unsigned char req[sizeof(struct query_req)];
	char *out; /* the answer being sent, NULL while reading */
	size_t outlen, outoff;
	struct timespec deadline;
};

struct query_server {
	int listen_fd;
	const char *path;
	struct query_client c[QUERY_MAX_CLIENTS];
	int slot[QUERY_MAX_CLIENTS]; /* poll index -> client, last fill */
	int nslots;
	uint64_t answered, refused;
};

/* Binds path (mode 0666). 0 or -errno. */
int query_open(struct query_server *q, const char *path);
/* Fills p (QUERY_POLLFDS at most); returns how many. */
int query_pollfds(struct query_server *q, struct pollfd *p);
/* Serves what poll reported on the fds query_pollfds() filled. */
void query_serve(struct query_server *q, const struct pollfd *p, int n);
void query_close(struct query_server *q);

#endif
