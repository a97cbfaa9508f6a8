// SPDX-License-Identifier: BSD-2-Clause
/* The program's side of cap_net (cap_net(3)). */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <casper/cap_net.h>

#include "net_proto.h"

struct cap_net_limit {
	cap_channel_t *chan;
	struct msg *limits;
};

static int sock_call(cap_channel_t *chan, const char *cmd, int s,
		     const struct sockaddr *sa, socklen_t len)
{
	struct msg *req;
	int fd;

	if (!sa || !net_sockaddr_ok(sa, len)) {
		errno = EINVAL;
		return -1;
	}
	fd = dup(s);
	if (fd < 0)
		return -1;
	req = casper_request(cmd);
	if (!req) {
		close(fd);
		return -1;
	}
	msg_add_bytes(req, NK_ADDR, sa, len);
	msg_add_fd(req, fd);
	return casper_call_void(chan, req);
}

int cap_bind(cap_channel_t *chan, int s, const struct sockaddr *addr,
	     socklen_t addrlen)
{
	return sock_call(chan, "bind", s, addr, addrlen);
}

int cap_connect(cap_channel_t *chan, int s, const struct sockaddr *name,
		socklen_t namelen)
{
	return sock_call(chan, "connect", s, name, namelen);
}

static int eai_of(const struct msg *rep, int *eai)
{
	uint64_t v;

	if (msg_get_u64(rep, NK_EAI, &v) < 0 || (int64_t)v < -1000 ||
	    (int64_t)v > 0) {
		errno = EBADMSG;
		*eai = EAI_SYSTEM;
		return -1;
	}
	*eai = (int)(int64_t)v;
	return 0;
}

int cap_getaddrinfo(cap_channel_t *chan, const char *hostname,
		    const char *servname, const struct addrinfo *hints,
		    struct addrinfo **res)
{
	struct msg *req = casper_request("getaddrinfo"), *rep;
	int eai;

	if (!req)
		return EAI_MEMORY;
	if (hostname)
		msg_add_str(req, NK_HOST, hostname);
	if (servname)
		msg_add_str(req, NK_SERV, servname);
	if (hints) {
		msg_add_u64(req, NK_FLAGS, (uint64_t)(int64_t)hints->ai_flags);
		msg_add_u64(req, NK_FAMILY,
			    (uint64_t)(int64_t)hints->ai_family);
		msg_add_u64(req, NK_SOCKTYPE,
			    (uint64_t)(int64_t)hints->ai_socktype);
		msg_add_u64(req, NK_PROTOCOL,
			    (uint64_t)(int64_t)hints->ai_protocol);
	}
	rep = casper_call(chan, req);
	if (!rep)
		return EAI_SYSTEM;
	if (eai_of(rep, &eai) == 0 && eai == 0)
		eai = netdb_unpack_addrinfo(rep, res);
	msg_free(rep);
	return eai;
}

int cap_getnameinfo(cap_channel_t *chan, const struct sockaddr *sa,
		    socklen_t salen, char *host, size_t hostlen, char *serv,
		    size_t servlen, int flags)
{
	struct msg *req, *rep;
	const char *h, *s;
	int eai;

	if (!sa || !net_sockaddr_ok(sa, salen))
		return EAI_FAMILY;
	req = casper_request("getnameinfo");
	if (!req)
		return EAI_MEMORY;
	msg_add_bytes(req, NK_ADDR, sa, salen);
	msg_add_u64(req, NK_FLAGS, (uint64_t)(int64_t)flags);
	msg_add_u64(req, NK_LENGTH,
		    (host && hostlen ? 1u : 0u) | (serv && servlen ? 2u : 0u));
	rep = casper_call(chan, req);
	if (!rep)
		return EAI_SYSTEM;
	if (eai_of(rep, &eai) == 0 && eai == 0) {
		h = msg_get_str(rep, NK_HOST);
		s = msg_get_str(rep, NK_SERV);
		if ((host && hostlen && !h) || (serv && servlen && !s)) {
			errno = EBADMSG;
			eai = EAI_SYSTEM;
		} else if ((h && strlen(h) >= hostlen) ||
			   (s && strlen(s) >= servlen))
			eai = EAI_OVERFLOW;
		else {
			if (h)
				strcpy(host, h);
			if (s)
				strcpy(serv, s);
		}
	}
	msg_free(rep);
	return eai;
}

static struct hostent *hostent_call(cap_channel_t *chan, struct msg *req)
{
	struct msg *rep = casper_call(chan, req);
	struct hostent *h = NULL;
	uint64_t herr;

	if (!rep) {
		h_errno = NETDB_INTERNAL;
		return NULL;
	}
	if (msg_get_u64(rep, NK_HERRNO, &herr) < 0 || herr > 16)
		h_errno = NETDB_INTERNAL;
	else if (herr)
		h_errno = (int)herr;
	else if (!(h = netdb_unpack_hostent(rep)))
		h_errno = NETDB_INTERNAL;
	msg_free(rep);
	return h;
}

struct hostent *cap_gethostbyname2(cap_channel_t *chan, const char *name,
				   int af)
{
	struct msg *req = casper_request("gethostbyname");

	if (req && name) {
		msg_add_str(req, NK_HOST, name);
		msg_add_u64(req, NK_FAMILY, (uint64_t)(int64_t)af);
	}
	return hostent_call(chan, req);
}

struct hostent *cap_gethostbyname(cap_channel_t *chan, const char *name)
{
	return cap_gethostbyname2(chan, name, AF_INET);
}

struct hostent *cap_gethostbyaddr(cap_channel_t *chan, const void *addr,
				  socklen_t len, int af)
{
	struct msg *req = casper_request("gethostbyaddr");

	if (req && addr) {
		msg_add_bytes(req, NK_ADDR, addr, len);
		msg_add_u64(req, NK_FAMILY, (uint64_t)(int64_t)af);
	}
	return hostent_call(chan, req);
}

cap_net_limit_t *cap_net_limit_init(cap_channel_t *chan, uint64_t mode)
{
	cap_net_limit_t *l = malloc(sizeof(*l));

	if (!l)
		return NULL;
	l->chan = chan;
	l->limits = msg_new();
	if (!l->limits) {
		free(l);
		return NULL;
	}
	msg_add_u64(l->limits, NK_MODE, mode);
	return l;
}

int cap_net_limit(cap_net_limit_t *limit)
{
	cap_channel_t *chan = limit->chan;
	struct msg *limits = limit->limits;

	free(limit);
	return casper_limit_set(chan, limits);
}

void cap_net_free(cap_net_limit_t *limit)
{
	if (!limit)
		return;
	msg_free(limit->limits);
	free(limit);
}

static cap_net_limit_t *families(cap_net_limit_t *limit, uint16_t key,
				 int *family, size_t size)
{
	size_t i;

	for (i = 0; i < size; i++)
		msg_add_u64(limit->limits, key, (uint64_t)(int64_t)family[i]);
	return limit;
}

cap_net_limit_t *cap_net_limit_addr2name_family(cap_net_limit_t *limit,
						int *family, size_t size)
{
	return families(limit, NK_A2N_FAMILY, family, size);
}

cap_net_limit_t *cap_net_limit_name2addr_family(cap_net_limit_t *limit,
						int *family, size_t size)
{
	return families(limit, NK_N2A_FAMILY, family, size);
}

cap_net_limit_t *cap_net_limit_addr2name(cap_net_limit_t *limit,
					 const struct sockaddr *sa,
					 socklen_t salen)
{
	msg_add_bytes(limit->limits, NK_A2N_ADDR, sa, salen);
	return limit;
}

/* "*" for any (NULL), else "=" and the value. */
static void add_pattern(struct msg *m, uint16_t key, const char *v)
{
	char *p;

	if (!v) {
		msg_add_str(m, key, "*");
		return;
	}
	if (asprintf(&p, "=%s", v) < 0) {
		m->error = ENOMEM;
		return;
	}
	msg_add_str(m, key, p);
	free(p);
}

cap_net_limit_t *cap_net_limit_name2addr(cap_net_limit_t *limit,
					 const char *name, const char *serv)
{
	add_pattern(limit->limits, NK_N2A_HOST, name);
	add_pattern(limit->limits, NK_N2A_SERV, serv);
	return limit;
}

cap_net_limit_t *cap_net_limit_connect(cap_net_limit_t *limit,
				       const struct sockaddr *sa,
				       socklen_t salen)
{
	msg_add_bytes(limit->limits, NK_CONNECT, sa, salen);
	return limit;
}

cap_net_limit_t *cap_net_limit_bind(cap_net_limit_t *limit,
				    const struct sockaddr *sa, socklen_t salen)
{
	msg_add_bytes(limit->limits, NK_BIND, sa, salen);
	return limit;
}
