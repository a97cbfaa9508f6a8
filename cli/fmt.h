/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CAPCTL_FMT_H
#define CAPCTL_FMT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/capsicum.h>

/*
 * What a descriptor is, from its /proc/PID/fd/N link: "socket", "pipe",
 * "anon_inode" (eventfd, epoll, ...), "path" for anything with a name,
 * "other" otherwise.
 */
const char *fd_kind(const char *target);

/* Rights as names ("read,seek"); "none" for no right, "all" for CAP_ALL. */
int rights_display(const cap_rights_t *r, char *buf, size_t len);

/* fcntl sub-rights: "getfl,setfl"; "none"; "all" for CAP_FCNTL_ALL. */
int fcntls_format(uint32_t fcntls, char *buf, size_t len);

/* The index in cap_fcntl_names of bit CAP_FCNTL_x, for JSON arrays. */
struct fcntl_name {
	uint32_t bit;
	const char *name;
};
extern const struct fcntl_name cap_fcntl_names[4];

#endif
