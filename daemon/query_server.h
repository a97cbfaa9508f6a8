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
 * QUERY_ANSWER_MAX bytes. A follower (QUERY_AUDIT_FOLLOW) has no
 * deadline; one with more than QUERY_ANSWER_MAX + QUERY_FOLLOW_BACKLOG
 * bytes unsent is closed.
 */
#define QUERY_MAX_CLIENTS 16
#define QUERY_MAX_PER_UID 4
#define QUERY_DEADLINE_S  10
/* Then the time an answer has to be read, from when it is ready. */
#define QUERY_SEND_S	     120
#define QUERY_FOLLOW_BACKLOG (64u << 10)
/* The listening socket and every client. */
#define QUERY_POLLFDS (1 + QUERY_MAX_CLIENTS)

struct query_client {
	int fd; /* -1: free slot */
	unsigned int uid, gid;
	size_t got;
	unsigned char req[sizeof(struct query_req)];
	char *out; /* the answer being sent, NULL while reading */
	size_t outlen, outoff, outcap;
	bool follow; /* streams new denials after its answer */
	struct timespec deadline;
};

struct query_server {
	int listen_fd;
	const char *path;
	const char *audit_path; /* NULL: no audit log to read */
	struct query_client c[QUERY_MAX_CLIENTS];
	int slot[QUERY_MAX_CLIENTS]; /* poll index -> client, last fill */
	int nslots;
	uint64_t answered, refused;
};

/* Binds path (mode 0666). 0 or -errno. */
int query_open(struct query_server *q, const char *path,
	       const char *audit_path);
/* A new denial, for the followers who may see it (denials' tap). */
void query_denial(void *q, const struct capsicum_denial *d);
/* Fills p (QUERY_POLLFDS at most); returns how many. */
int query_pollfds(struct query_server *q, struct pollfd *p);
/* Serves what poll reported on the fds query_pollfds() filled. */
void query_serve(struct query_server *q, const struct pollfd *p, int n);
void query_close(struct query_server *q);

#endif
