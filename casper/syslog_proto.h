/* SPDX-License-Identifier: BSD-2-Clause */
/* What cap_syslog's client and service say to each other. */
#ifndef CASPER_SYSLOG_PROTO_H
#define CASPER_SYSLOG_PROTO_H

#include "casper.h"

#define SYSLOG_SERVICE "system.syslog"
/* A message longer than this is cut, as glibc cuts none: ours is bounded. */
#define SYSLOG_MAX 8192

enum {
	SK_PRI = MK_SERVICE_FIRST, /* u64 */
	SK_MESSAGE,		   /* str: already formatted */
	SK_IDENT,		   /* str */
	SK_LOGOPT,		   /* u64 */
	SK_FACILITY,		   /* u64 */
	SK_MASK,		   /* u64: a mask in, the old one out */
};

extern const struct casper_service syslog_service;

#endif
