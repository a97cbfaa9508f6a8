/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * FreeBSD's cap_dns service: name resolution by a casper process, limited
 * to some directions (types) and address families. The resolver calls
 * are the ones <casper/cap_net.h> declares too. cap_dns(3).
 */
#ifndef _CAP_DNS_H_
#define _CAP_DNS_H_

#include <stddef.h>
#include <netdb.h>
#include <sys/socket.h>

#include <libcasper.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Strict ISO C modes hide these in <netdb.h>. */
struct addrinfo;
struct hostent;

struct hostent *cap_gethostbyname(cap_channel_t *chan, const char *name);
struct hostent *cap_gethostbyname2(cap_channel_t *chan, const char *name,
				   int af);
struct hostent *cap_gethostbyaddr(cap_channel_t *chan, const void *addr,
				  socklen_t len, int af);
int cap_getaddrinfo(cap_channel_t *chan, const char *hostname,
		    const char *servname, const struct addrinfo *hints,
		    struct addrinfo **res);
int cap_getnameinfo(cap_channel_t *chan, const struct sockaddr *sa,
		    socklen_t salen, char *host, size_t hostlen, char *serv,
		    size_t servlen, int flags);
int cap_dns_type_limit(cap_channel_t *chan, const char *const *types,
		       size_t ntypes);
int cap_dns_family_limit(cap_channel_t *chan, const int *families,
			 size_t nfamilies);

#ifdef __cplusplus
}
#endif

#endif /* _CAP_DNS_H_ */
