/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What cap_net's client and service say to each other, and the pieces of
 * netdb answers both ends pack and unpack (netdb_pack.c).
 */
#ifndef CASPER_NET_PROTO_H
#define CASPER_NET_PROTO_H

#include <netdb.h>
#include <sys/socket.h>

#include "casper.h"

#define NET_SERVICE "system.net"

enum {
	/* Limits. MODE once; the rest lists, absent meaning "any". */
	NK_MODE = MK_SERVICE_FIRST, /* u64: CAPNET_* */
	NK_A2N_FAMILY,		    /* u64 */
	NK_A2N_ADDR,		    /* bytes: a sockaddr */
	NK_N2A_FAMILY,		    /* u64 */
	NK_N2A_HOST,		    /* str: "*" (any) or "=" name; paired */
	NK_N2A_SERV,		    /* str: the same, with the i-th host */
	NK_CONNECT,		    /* bytes: a sockaddr */
	NK_BIND,		    /* bytes: a sockaddr */
	/* Requests and replies. */
	NK_HOST = MK_SERVICE_FIRST + 32, /* str */
	NK_SERV,			 /* str */
	NK_FLAGS,			 /* u64 */
	NK_FAMILY,			 /* u64 */
	NK_SOCKTYPE,			 /* u64 */
	NK_PROTOCOL,			 /* u64 */
	NK_ADDR,			 /* bytes: a sockaddr, or an address */
	NK_AI,				 /* bytes: struct net_ai, repeated */
	NK_CANON,			 /* str */
	NK_EAI,				 /* u64: a getaddrinfo() error */
	NK_HERRNO,			 /* u64: h_errno */
	NK_ALIAS,			 /* str, repeated */
	NK_LENGTH,			 /* u64: h_length */
};

/* One addrinfo on the wire: its numbers, then ai_addrlen bytes. */
struct net_ai {
	int32_t flags, family, socktype, protocol;
	unsigned char addr[];
};

extern const struct casper_service net_service;

/* A sockaddr the limits may hold: a known size for its family. */
int net_sockaddr_ok(const void *sa, size_t len);
/* Does limit sockaddr la allow sa? A port of 0 in la allows any port. */
int net_sockaddr_match(const void *la, size_t lalen, const void *sa,
		       size_t salen);

/* getaddrinfo()'s answer into out, only of families allowed. */
void netdb_pack_addrinfo(struct msg *out, const struct addrinfo *res);
/* The answer as freeaddrinfo() frees it; EAI_MEMORY or EAI_SYSTEM. */
int netdb_unpack_addrinfo(const struct msg *rep, struct addrinfo **res);
void netdb_pack_hostent(struct msg *out, const struct hostent *h);
/* Into the calling thread's buffer, NULL if rep is malformed. */
struct hostent *netdb_unpack_hostent(const struct msg *rep);

#endif
