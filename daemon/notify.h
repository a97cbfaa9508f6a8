/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CAPSICUMD_NOTIFY_H
#define CAPSICUMD_NOTIFY_H

/*
 * sd_notify(3)'s protocol, by hand: one datagram with "READY=1" (or
 * "STOPPING=1", "STATUS=...") to the AF_UNIX socket named by
 * $NOTIFY_SOCKET ('@' for the abstract namespace). Without the variable,
 * nothing happens and 0 is returned.
 */
int notify_send(const char *state);

#endif
