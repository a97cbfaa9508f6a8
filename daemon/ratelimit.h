/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CAPSICUMD_RATELIMIT_H
#define CAPSICUMD_RATELIMIT_H

#include <stdbool.h>
#include <stdint.h>

/*
 * At most `burst` log lines per one-second window; what is left out is
 * counted so the log can say "suppressed K" once the window is over.
 */
struct ratelimit {
	unsigned int burst;
	uint64_t window_ns; /* start of the current window */
	unsigned int used;
	uint64_t suppressed; /* in the current window */
};

void ratelimit_init(struct ratelimit *rl, unsigned int burst);
/* May one more line go out at now_ns? Counts it either way. Call
 * ratelimit_roll first, so an expired window is closed and summarised. */
bool ratelimit_allow(struct ratelimit *rl, uint64_t now_ns);
/*
 * If the window of now_ns is a later one, starts it and returns how many
 * lines the previous window suppressed; 0 otherwise.
 */
uint64_t ratelimit_roll(struct ratelimit *rl, uint64_t now_ns);

#endif
