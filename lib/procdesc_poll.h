/* SPDX-License-Identifier: BSD-2-Clause */
/* poll()'s POLLHUP for process descriptors (lib/procdesc_poll.c). */
#ifndef _CAPSICUM_LIB_PROCDESC_POLL_H
#define _CAPSICUM_LIB_PROCDESC_POLL_H

/*
 * The process uses process descriptors: from now on poll() looks for
 * them among the descriptors it is given.
 */
void capsicum_pd_used(void);

#endif
