// SPDX-License-Identifier: GPL-2.0
/* A fixed one-second window: simple, and its summary lines are exact. */
#include "ratelimit.h"

#define NSEC_PER_SEC 1000000000ULL

void ratelimit_init(struct ratelimit *rl, unsigned int burst)
{
	rl->burst = burst;
	rl->window_ns = 0;
	rl->used = 0;
	rl->suppressed = 0;
}

uint64_t ratelimit_roll(struct ratelimit *rl, uint64_t now_ns)
{
	uint64_t was = rl->suppressed;

	if (rl->used && now_ns - rl->window_ns < NSEC_PER_SEC)
		return 0;
	rl->window_ns = now_ns;
	rl->used = 0;
	rl->suppressed = 0;
	return was;
}

bool ratelimit_allow(struct ratelimit *rl, uint64_t now_ns)
{
	if (!rl->used)
		rl->window_ns =
			now_ns; /* the window opens with its first line */
	if (rl->used < rl->burst) {
		rl->used++;
		return true;
	}
	rl->suppressed++;
	return false;
}
