/* SPDX-License-Identifier: BSD-2-Clause */
/* What fileargs' client and service say to each other. */
#ifndef CASPER_FILEARGS_PROTO_H
#define CASPER_FILEARGS_PROTO_H

#include "casper.h"

#define FILEARGS_SERVICE "system.fileargs"

enum {
	/* Limits: each once but NAME, the list of names. */
	FAK_FLAGS = MK_SERVICE_FIRST, /* u64: open(2) flags */
	FAK_MODE,		      /* u64: open(2) mode */
	FAK_OPERATIONS,		      /* u64: FA_* */
	FAK_RIGHTS,		      /* bytes: a cap_rights_t, if given */
	FAK_NAME,		      /* str: also a request's name */
	/* Replies. */
	FAK_STAT, /* bytes: a struct stat */
	FAK_PATH, /* str: a resolved path */
};

extern const struct casper_service fileargs_service;

#endif
