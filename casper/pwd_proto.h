/* SPDX-License-Identifier: BSD-2-Clause */
/* What cap_pwd's client and service say to each other. */
#ifndef CASPER_PWD_PROTO_H
#define CASPER_PWD_PROTO_H

#include "dblimits.h"

#define PWD_SERVICE "system.pwd"

enum {
	/* Limits: dblimits.h's DK_* keys. Requests: */
	PK_NAME = MK_SERVICE_FIRST + 32, /* str: the login asked */
	PK_UID,				 /* u64: the uid asked */
	PK_STAYOPEN,			 /* u64 */
	/* Replies: one field per allowed field of the entry found. */
	PK_PW_NAME = MK_SERVICE_FIRST + 64,
	PK_PW_PASSWD,
	PK_PW_UID,
	PK_PW_GID,
	PK_PW_GECOS,
	PK_PW_DIR,
	PK_PW_SHELL,
	PK_FOUND, /* u64: 1 if an entry follows */
};

extern const struct casper_service pwd_service;

#endif
