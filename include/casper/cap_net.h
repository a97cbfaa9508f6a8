/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * FreeBSD's cap_net service: name resolution, connect(2) and bind(2) done
 * by a casper process, within limits that only narrow. cap_net(3).
 */
#ifndef _CAP_NET_H_
#define _CAP_NET_H_

#include <stddef.h>
#include <stdint.h>
#include <netdb.h>
#include <sys/socket.h>

#include <libcasper.h>

#ifdef __cplusplus
extern "C" {
#endif

/* cap_net_limit_init() modes, FreeBSD's values. */
#define CAPNET_ADDR2NAME	    0x01
#define CAPNET_NAME2ADDR	    0x02
#define CAPNET_DEPRECATED_ADDR2NAME 0x04
#define CAPNET_DEPRECATED_NAME2ADDR 0x08
#define CAPNET_CONNECT		    0x10
#define CAPNET_BIND		    0x20
#define CAPNET_CONNECTDNS	    0x40

typedef struct cap_net_limit cap_net_limit_t;
/* Strict ISO C modes hide these in <netdb.h>. */
struct addrinfo;
struct hostent;

int cap_bind(cap_channel_t *chan, int s, const struct sockaddr *addr,
	     socklen_t addrlen);
int cap_connect(cap_channel_t *chan, int s, const struct sockaddr *name,
		socklen_t namelen);
int cap_getaddrinfo(cap_channel_t *chan, const char *hostname,
		    const char *servname, const struct addrinfo *hints,
		    struct addrinfo **res);
int cap_getnameinfo(cap_channel_t *chan, const struct sockaddr *sa,
		    socklen_t salen, char *host, size_t hostlen, char *serv,
		    size_t servlen, int flags);
struct hostent *cap_gethostbyname(cap_channel_t *chan, const char *name);
struct hostent *cap_gethostbyname2(cap_channel_t *chan, const char *name,
				   int af);
struct hostent *cap_gethostbyaddr(cap_channel_t *chan, const void *addr,
				  socklen_t len, int af);

cap_net_limit_t *cap_net_limit_init(cap_channel_t *chan, uint64_t mode);
int cap_net_limit(cap_net_limit_t *limit);
void cap_net_free(cap_net_limit_t *limit);
cap_net_limit_t *cap_net_limit_addr2name_family(cap_net_limit_t *limit,
						int *family, size_t size);
cap_net_limit_t *cap_net_limit_addr2name(cap_net_limit_t *limit,
					 const struct sockaddr *sa,
					 socklen_t salen);
cap_net_limit_t *cap_net_limit_name2addr_family(cap_net_limit_t *limit,
						int *family, size_t size);
cap_net_limit_t *cap_net_limit_name2addr(cap_net_limit_t *limit,
					 const char *name, const char *serv);
cap_net_limit_t *cap_net_limit_connect(cap_net_limit_t *limit,
				       const struct sockaddr *sa,
				       socklen_t salen);
cap_net_limit_t *cap_net_limit_bind(cap_net_limit_t *limit,
				    const struct sockaddr *sa, socklen_t salen);

#ifdef __cplusplus
}
#endif

#endif /* _CAP_NET_H_ */
