/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CAPSICUMD_PD_KILLS_H
#define CAPSICUMD_PD_KILLS_H

#include <stdint.h>

/*
 * Kill requests for pdfork children whose last descriptor closed
 * (struct capsicum_pd_kill): each gets SIGKILL through a pidfd, marked so
 * that the BPF side's task_kill hook lets it reach that child only.
 */
struct pd_kills {
	struct ring_buffer *rb;
	int map_fd;	   /* kept open: libbpf's epoll watches it */
	uint64_t received; /* requests read from the ring buffer */
	uint64_t killed;   /* of which the SIGKILL was delivered */
	uint64_t gone;	   /* of which the child was gone (or refused) */
	uint64_t failed;   /* of which the kill failed otherwise */
};

/* Opens the pinned ring buffer (the loader's binary only may). */
int pd_kills_open(struct pd_kills *k);
/* The fd to poll for new requests. */
int pd_kills_fd(const struct pd_kills *k);
/* Serves every request there is. */
int pd_kills_drain(struct pd_kills *k);
void pd_kills_close(struct pd_kills *k);

#endif
