/* SPDX-License-Identifier: BSD-2-Clause */
/* What cap_grp's client and service say to each other. */
#ifndef CASPER_GRP_PROTO_H
#define CASPER_GRP_PROTO_H

#include "dblimits.h"

#define GRP_SERVICE "system.grp"
/* Members sent of one group, at most. */
#define GRP_MAX_MEMBERS 512

enum {
	/* Limits: dblimits.h's DK_* keys. Requests: */
	GK_NAME = MK_SERVICE_FIRST + 32, /* str: the group asked */
	GK_GID,				 /* u64: the gid asked */
	GK_STAYOPEN,			 /* u64 */
	/* Replies: one field per allowed field of the entry found. */
	GK_GR_NAME = MK_SERVICE_FIRST + 64,
	GK_GR_PASSWD,
	GK_GR_GID,
	GK_GR_MEM, /* str, repeated; GK_GR_NMEM says the list was sent */
	GK_GR_NMEM,
	GK_FOUND, /* u64: 1 if an entry follows */
};

extern const struct casper_service grp_service;

#endif
