// SPDX-License-Identifier: BSD-2-Clause
/*
 * netdb answers on the wire, both ways. Unpacking trusts nothing: every
 * length is checked against the structure it fills.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/un.h>

#include "net_proto.h"

int net_sockaddr_ok(const void *sa, size_t len)
{
	sa_family_t family;

	if (len < sizeof(family) || len > sizeof(struct sockaddr_storage))
		return 0;
	memcpy(&family, sa, sizeof(family));
	switch (family) {
	case AF_INET:
		return len == sizeof(struct sockaddr_in);
	case AF_INET6:
		return len == sizeof(struct sockaddr_in6);
	case AF_UNIX:
		return len <= sizeof(struct sockaddr_un);
	}
	return 0;
}

int net_sockaddr_match(const void *la, size_t lalen, const void *sa,
		       size_t salen)
{
	struct sockaddr_in l4, s4;
	struct sockaddr_in6 l6, s6;
	sa_family_t lf, sf;

	if (!net_sockaddr_ok(la, lalen) || !net_sockaddr_ok(sa, salen))
		return 0;
	memcpy(&lf, la, sizeof(lf));
	memcpy(&sf, sa, sizeof(sf));
	if (lf != sf)
		return 0;
	switch (lf) {
	case AF_INET:
		memcpy(&l4, la, sizeof(l4));
		memcpy(&s4, sa, sizeof(s4));
		return l4.sin_addr.s_addr == s4.sin_addr.s_addr &&
		       (l4.sin_port == 0 || l4.sin_port == s4.sin_port);
	case AF_INET6:
		memcpy(&l6, la, sizeof(l6));
		memcpy(&s6, sa, sizeof(s6));
		return !memcmp(&l6.sin6_addr, &s6.sin6_addr,
			       sizeof(l6.sin6_addr)) &&
		       (l6.sin6_port == 0 || l6.sin6_port == s6.sin6_port);
	}
	/* AF_UNIX: the same path. */
	return lalen == salen && !memcmp(la, sa, lalen);
}

void netdb_pack_addrinfo(struct msg *out, const struct addrinfo *res)
{
	unsigned char
		buf[sizeof(struct net_ai) + sizeof(struct sockaddr_storage)];
	struct net_ai ai;
	const struct addrinfo *r;

	for (r = res; r; r = r->ai_next) {
		if (!net_sockaddr_ok(r->ai_addr, r->ai_addrlen))
			continue;
		ai = (struct net_ai){ r->ai_flags, r->ai_family, r->ai_socktype,
				      r->ai_protocol };
		memcpy(buf, &ai, sizeof(ai));
		memcpy(buf + sizeof(ai), r->ai_addr, r->ai_addrlen);
		msg_add_bytes(out, NK_AI, buf, sizeof(ai) + r->ai_addrlen);
	}
	if (res && res->ai_canonname)
		msg_add_str(out, NK_CANON, res->ai_canonname);
}

int netdb_unpack_addrinfo(const struct msg *rep, struct addrinfo **res)
{
	const struct msg_field *f;
	const char *canon = msg_get_str(rep, NK_CANON);
	struct addrinfo *head = NULL, **tail = &head, *a;
	struct net_ai ai;
	size_t i, alen;

	for (i = 0; (f = msg_get(rep, NK_AI, MSG_BYTES, i)); i++) {
		if (f->len < sizeof(ai) ||
		    !net_sockaddr_ok(f->data + sizeof(ai), f->len - sizeof(ai)))
			goto bad;
		memcpy(&ai, f->data, sizeof(ai));
		alen = f->len - sizeof(ai);
		/* As glibc allocates: the address in the same block. */
		a = calloc(1, sizeof(*a) + sizeof(struct sockaddr_storage));
		if (!a)
			goto nomem;
		*a = (struct addrinfo){ .ai_flags = ai.flags,
					.ai_family = ai.family,
					.ai_socktype = ai.socktype,
					.ai_protocol = ai.protocol,
					.ai_addrlen = (socklen_t)alen,
					.ai_addr = (struct sockaddr *)(a + 1) };
		memcpy(a->ai_addr, f->data + sizeof(ai), alen);
		*tail = a;
		tail = &a->ai_next;
	}
	if (!head)
		goto bad;
	if (canon && !(head->ai_canonname = strdup(canon)))
		goto nomem;
	*res = head;
	return 0;
nomem:
	if (head)
		freeaddrinfo(head);
	return EAI_MEMORY;
bad:
	if (head)
		freeaddrinfo(head);
	errno = EBADMSG;
	return EAI_SYSTEM;
}

void netdb_pack_hostent(struct msg *out, const struct hostent *h)
{
	size_t i;

	msg_add_str(out, NK_HOST, h->h_name ? h->h_name : "");
	for (i = 0; h->h_aliases && h->h_aliases[i]; i++)
		msg_add_str(out, NK_ALIAS, h->h_aliases[i]);
	msg_add_u64(out, NK_FAMILY, (uint64_t)h->h_addrtype);
	msg_add_u64(out, NK_LENGTH, (uint64_t)h->h_length);
	for (i = 0; h->h_addr_list && h->h_addr_list[i]; i++)
		msg_add_bytes(out, NK_ADDR, h->h_addr_list[i],
			      (size_t)h->h_length);
}

#define HOSTENT_MAX 32

/* The last answer of this thread, as gethostbyname()'s static one. */
static __thread struct {
	struct hostent h;
	char *aliases[HOSTENT_MAX + 1];
	char *addrs[HOSTENT_MAX + 1];
	char names[HOSTENT_MAX + 1][256];
	unsigned char data[HOSTENT_MAX][16];
} he;

struct hostent *netdb_unpack_hostent(const struct msg *rep)
{
	const char *name = msg_get_str(rep, NK_HOST), *s;
	const struct msg_field *f;
	uint64_t family, length;
	size_t i;

	if (!name || strlen(name) > 255 ||
	    msg_get_u64(rep, NK_FAMILY, &family) < 0 ||
	    msg_get_u64(rep, NK_LENGTH, &length) < 0 ||
	    (family != AF_INET && family != AF_INET6) ||
	    length != (family == AF_INET ? 4 : 16))
		return NULL;
	strcpy(he.names[HOSTENT_MAX], name);
	for (i = 0; i < HOSTENT_MAX && (s = msg_get_str_at(rep, NK_ALIAS, i));
	     i++) {
		if (strlen(s) > 255)
			return NULL;
		he.aliases[i] = strcpy(he.names[i], s);
	}
	he.aliases[i] = NULL;
	for (i = 0;
	     i < HOSTENT_MAX && (f = msg_get(rep, NK_ADDR, MSG_BYTES, i));
	     i++) {
		if (f->len != length)
			return NULL;
		he.addrs[i] = memcpy(he.data[i], f->data, length);
	}
	he.addrs[i] = NULL;
	he.h = (struct hostent){ .h_name = he.names[HOSTENT_MAX],
				 .h_aliases = he.aliases,
				 .h_addrtype = (int)family,
				 .h_length = (int)length,
				 .h_addr_list = he.addrs };
	return &he.h;
}
