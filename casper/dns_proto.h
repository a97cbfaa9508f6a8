/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What cap_dns's client and service say to each other. The resolver
 * requests and replies are cap_net's (net_proto.h).
 */
#ifndef CASPER_DNS_PROTO_H
#define CASPER_DNS_PROTO_H

#include "net_proto.h"

#define DNS_SERVICE "system.dns"

enum {
	/* Limits: two lists, LISTED naming those set (empty: nothing). */
	DNK_TYPE = MK_SERVICE_FIRST, /* str: ADDR2NAME, NAME2ADDR, ADDR, NAME */
	DNK_FAMILY,		     /* u64 */
	DNK_LISTED,		     /* u64: DNK_TYPE or DNK_FAMILY */
};

extern const struct casper_service dns_service;

#endif
