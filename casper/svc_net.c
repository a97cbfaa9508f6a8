// SPDX-License-Identifier: BSD-2-Clause
/*
 * The cap_net service. Its limits (net_proto.h) only narrow: a new mode
 * must be a subset of the old, and every list the old limits had must be
 * in the new ones, each entry allowed by the old list. connect(2) and
 * bind(2) act on the program's own socket, received with the request.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <casper/cap_net.h>
#include <sys/capsicum.h>

#include "net_proto.h"

#define MODE_ALL                                                               \
	(CAPNET_ADDR2NAME | CAPNET_NAME2ADDR | CAPNET_DEPRECATED_ADDR2NAME |   \
	 CAPNET_DEPRECATED_NAME2ADDR | CAPNET_CONNECT | CAPNET_BIND |          \
	 CAPNET_CONNECTDNS)
#define A2N (CAPNET_ADDR2NAME | CAPNET_DEPRECATED_ADDR2NAME)
#define N2A (CAPNET_NAME2ADDR | CAPNET_DEPRECATED_NAME2ADDR)
/* CAPNET_CONNECTDNS: the addresses this service resolved, the last ones. */
#define RESOLVED_MAX 64

static struct {
	struct sockaddr_storage sa;
	size_t len;
} resolved[RESOLVED_MAX];
static size_t nresolved;

static const uint16_t limit_keys[] = {
	NK_MODE,       NK_A2N_FAMILY, NK_A2N_ADDR,
	NK_N2A_FAMILY, NK_N2A_HOST,   NK_N2A_SERV,
	NK_CONNECT,    NK_BIND,	      0
};
static const enum msg_type limit_types[] = { MSG_U64,	MSG_U64,  MSG_BYTES,
					     MSG_U64,	MSG_STR,  MSG_STR,
					     MSG_BYTES, MSG_BYTES };

static int pattern_ok(const char *p)
{
	return !strcmp(p, "*") || p[0] == '=';
}

/* Does pattern p ("*" or "=value") allow v (NULL: none given)? */
static int pattern_match(const char *p, const char *v)
{
	if (!strcmp(p, "*"))
		return 1;
	return v && !strcmp(p + 1, v);
}

static int family_in(const struct msg *l, uint16_t key, uint64_t family)
{
	const struct msg_field *f;
	uint64_t v;
	size_t i;

	if (msg_count(l, key, MSG_U64) <= 0)
		return 1;
	for (i = 0; (f = msg_get(l, key, MSG_U64, i)); i++) {
		memcpy(&v, f->data, sizeof(v));
		if (v == family)
			return 1;
	}
	return 0;
}

static int addr_in(const struct msg *l, uint16_t key, const void *sa,
		   size_t len)
{
	const struct msg_field *f;
	size_t i;

	if (msg_count(l, key, MSG_BYTES) <= 0)
		return 1;
	for (i = 0; (f = msg_get(l, key, MSG_BYTES, i)); i++)
		if (net_sockaddr_match(f->data, f->len, sa, len))
			return 1;
	return 0;
}

/* Is name2addr of (host, serv) allowed? NULL: not given. */
static int name_in(const struct msg *l, const char *host, const char *serv)
{
	const char *h, *s;
	size_t i;

	if (msg_count(l, NK_N2A_HOST, MSG_STR) <= 0)
		return 1;
	for (i = 0; (h = msg_get_str_at(l, NK_N2A_HOST, i)); i++) {
		s = msg_get_str_at(l, NK_N2A_SERV, i);
		if (pattern_match(h, host) && pattern_match(s, serv))
			return 1;
	}
	return 0;
}

static int well_formed(const struct msg *l)
{
	const struct msg_field *f;
	uint16_t addrs[] = { NK_A2N_ADDR, NK_CONNECT, NK_BIND };
	uint64_t mode;
	size_t i, k;

	if (msg_only(l, limit_keys, limit_types) < 0 ||
	    msg_count(l, NK_MODE, MSG_U64) != 1 ||
	    msg_get_u64(l, NK_MODE, &mode) < 0 ||
	    (mode & ~(uint64_t)MODE_ALL) ||
	    msg_count(l, NK_N2A_HOST, MSG_STR) !=
		    msg_count(l, NK_N2A_SERV, MSG_STR))
		return 0;
	for (k = 0; k < 3; k++)
		for (i = 0; (f = msg_get(l, addrs[k], MSG_BYTES, i)); i++)
			if (!net_sockaddr_ok(f->data, f->len))
				return 0;
	for (i = 0; msg_get_str_at(l, NK_N2A_HOST, i); i++)
		if (!pattern_ok(msg_get_str_at(l, NK_N2A_HOST, i)) ||
		    !pattern_ok(msg_get_str_at(l, NK_N2A_SERV, i)))
			return 0;
	return 1;
}

/*
 * Every entry of new's list key is allowed by old's; old had none, or the
 * new mode has none of the bits the list is about: yes.
 */
static int narrower(const struct msg *old, const struct msg *new, uint16_t key,
		    enum msg_type type, uint64_t bits)
{
	const struct msg_field *f;
	uint64_t v, mode = 0;
	size_t i;

	msg_get_u64(new, NK_MODE, &mode);
	if (!(mode & bits) || msg_count(old, key, type) <= 0)
		return 1;
	if (msg_count(new, key, type) <= 0)
		return 0;
	for (i = 0; (f = msg_get(new, key, type, i)); i++) {
		if (type == MSG_U64) {
			memcpy(&v, f->data, sizeof(v));
			if (!family_in(old, key, v))
				return 0;
		} else if (!addr_in(old, key, f->data, f->len))
			return 0;
	}
	return 1;
}

/* A pattern pair of new allowed by one of old: "*" only by "*". */
static int names_narrower(const struct msg *old, const struct msg *new)
{
	const char *h, *s, *oh, *os;
	uint64_t mode = 0;
	size_t i, j;
	int ok;

	msg_get_u64(new, NK_MODE, &mode);
	if (!(mode & (CAPNET_NAME2ADDR | CAPNET_DEPRECATED_NAME2ADDR)) ||
	    msg_count(old, NK_N2A_HOST, MSG_STR) <= 0)
		return 1;
	if (msg_count(new, NK_N2A_HOST, MSG_STR) <= 0)
		return 0;
	for (i = 0; (h = msg_get_str_at(new, NK_N2A_HOST, i)); i++) {
		s = msg_get_str_at(new, NK_N2A_SERV, i);
		ok = 0;
		for (j = 0; !ok && (oh = msg_get_str_at(old, NK_N2A_HOST, j));
		     j++) {
			os = msg_get_str_at(old, NK_N2A_SERV, j);
			ok = (!strcmp(oh, "*") || !strcmp(oh, h)) &&
			     (!strcmp(os, "*") || !strcmp(os, s));
		}
		if (!ok)
			return 0;
	}
	return 1;
}

static int net_limit(const struct msg *old, const struct msg *new)
{
	uint64_t om, nm;

	if (!well_formed(new))
		return EINVAL;
	if (!old)
		return 0;
	msg_get_u64(old, NK_MODE, &om);
	msg_get_u64(new, NK_MODE, &nm);
	if ((nm & ~om) || !narrower(old, new, NK_A2N_FAMILY, MSG_U64, A2N) ||
	    !narrower(old, new, NK_A2N_ADDR, MSG_BYTES, A2N) ||
	    !narrower(old, new, NK_N2A_FAMILY, MSG_U64, N2A) ||
	    !narrower(old, new, NK_CONNECT, MSG_BYTES, CAPNET_CONNECT) ||
	    !narrower(old, new, NK_BIND, MSG_BYTES, CAPNET_BIND) ||
	    !names_narrower(old, new))
		return ENOTCAPABLE;
	return 0;
}

/* No limits: everything; else the mode must have one of bits. */
static int mode_has(const struct msg *l, uint64_t bits)
{
	uint64_t mode = 0;

	if (!l)
		return 1;
	msg_get_u64(l, NK_MODE, &mode);
	return (mode & bits) != 0;
}

static int was_resolved(const void *sa, size_t len)
{
	size_t i;

	for (i = 0; i < nresolved && i < RESOLVED_MAX; i++)
		if (net_sockaddr_match(&resolved[i].sa, resolved[i].len, sa,
				       len))
			return 1;
	return 0;
}

static void remember(const struct addrinfo *res)
{
	for (; res; res = res->ai_next) {
		size_t i = nresolved++ % RESOLVED_MAX;

		if (!net_sockaddr_ok(res->ai_addr, res->ai_addrlen))
			continue;
		memcpy(&resolved[i].sa, res->ai_addr, res->ai_addrlen);
		resolved[i].len = res->ai_addrlen;
	}
}

/* connect or bind of the socket sent with the request. */
static int sock_op(const struct msg *l, struct msg *in, int bind_op)
{
	const struct msg_field *a = msg_get(in, NK_ADDR, MSG_BYTES, 0);
	int fd, allowed, r, error;

	if (!a || in->nfds != 1 || !net_sockaddr_ok(a->data, a->len))
		return EINVAL;
	if (bind_op)
		allowed = mode_has(l, CAPNET_BIND) &&
			  (!l || addr_in(l, NK_BIND, a->data, a->len));
	else
		allowed = (mode_has(l, CAPNET_CONNECT) &&
			   (!l || addr_in(l, NK_CONNECT, a->data, a->len))) ||
			  (l && mode_has(l, CAPNET_CONNECTDNS) &&
			   was_resolved(a->data, a->len));
	if (!allowed)
		return ENOTCAPABLE;
	fd = msg_take_fd(in, 0);
	r = bind_op ? bind(fd, (const struct sockaddr *)a->data, a->len)
		    : connect(fd, (const struct sockaddr *)a->data, a->len);
	error = r < 0 ? errno : 0;
	close(fd);
	return error;
}

static int get_int(const struct msg *in, uint16_t key, int *v)
{
	uint64_t u = 0;

	if (msg_count(in, key, MSG_U64) > 1 ||
	    (msg_get_u64(in, key, &u) == 0 && (int64_t)u != (int)(int64_t)u))
		return -1;
	*v = (int)(int64_t)u;
	return 0;
}

static int do_getaddrinfo(const struct msg *l, const struct msg *in,
			  struct msg *out)
{
	const char *host = msg_get_str(in, NK_HOST),
		   *serv = msg_get_str(in, NK_SERV);
	struct addrinfo hints = { 0 }, *res = NULL, *r, **p;
	int eai;

	if (get_int(in, NK_FLAGS, &hints.ai_flags) ||
	    get_int(in, NK_FAMILY, &hints.ai_family) ||
	    get_int(in, NK_SOCKTYPE, &hints.ai_socktype) ||
	    get_int(in, NK_PROTOCOL, &hints.ai_protocol))
		return EINVAL;
	if (!mode_has(l, CAPNET_NAME2ADDR) ||
	    (l && (!name_in(l, host, serv) ||
		   (hints.ai_family != AF_UNSPEC &&
		    !family_in(l, NK_N2A_FAMILY, (uint64_t)hints.ai_family)))))
		return ENOTCAPABLE;
	eai = getaddrinfo(host, serv, &hints, &res);
	if (eai == EAI_SYSTEM)
		return errno;
	/* Only the allowed families. */
	for (p = &res; l && *p;) {
		r = *p;
		if (family_in(l, NK_N2A_FAMILY, (uint64_t)r->ai_family)) {
			p = &r->ai_next;
			continue;
		}
		*p = r->ai_next;
		r->ai_next = NULL;
		freeaddrinfo(r);
	}
	if (!eai && !res)
		eai = EAI_FAMILY;
	msg_add_u64(out, NK_EAI, (uint64_t)(int64_t)eai);
	if (!eai) {
		netdb_pack_addrinfo(out, res);
		if (l && mode_has(l, CAPNET_CONNECTDNS))
			remember(res);
		freeaddrinfo(res);
	}
	return 0;
}

static int do_getnameinfo(const struct msg *l, const struct msg *in,
			  struct msg *out)
{
	const struct msg_field *a = msg_get(in, NK_ADDR, MSG_BYTES, 0);
	char host[NI_MAXHOST], serv[NI_MAXSERV];
	sa_family_t family;
	int flags = 0, eai;
	uint64_t want = 0;

	if (!a || !net_sockaddr_ok(a->data, a->len) ||
	    get_int(in, NK_FLAGS, &flags))
		return EINVAL;
	memcpy(&family, a->data, sizeof(family));
	if (!mode_has(l, CAPNET_ADDR2NAME) ||
	    (l && (!family_in(l, NK_A2N_FAMILY, family) ||
		   !addr_in(l, NK_A2N_ADDR, a->data, a->len))))
		return ENOTCAPABLE;
	/* Which parts were asked: bit 0 the host, bit 1 the service. */
	msg_get_u64(in, NK_LENGTH, &want);
	eai = getnameinfo(
		(const struct sockaddr *)a->data, a->len,
		(want & 1) ? host : NULL, (want & 1) ? sizeof(host) : 0,
		(want & 2) ? serv : NULL, (want & 2) ? sizeof(serv) : 0, flags);
	if (eai == EAI_SYSTEM)
		return errno;
	msg_add_u64(out, NK_EAI, (uint64_t)(int64_t)eai);
	if (!eai && (want & 1))
		msg_add_str(out, NK_HOST, host);
	if (!eai && (want & 2))
		msg_add_str(out, NK_SERV, serv);
	return 0;
}

static int do_gethostbyname(const struct msg *l, const struct msg *in,
			    struct msg *out)
{
	const char *name = msg_get_str(in, NK_HOST);
	struct hostent *h;
	int family = AF_INET;

	if (!name || get_int(in, NK_FAMILY, &family) ||
	    (family != AF_INET && family != AF_INET6))
		return EINVAL;
	if (!mode_has(l, CAPNET_DEPRECATED_NAME2ADDR) ||
	    (l && (!name_in(l, name, NULL) ||
		   !family_in(l, NK_N2A_FAMILY, (uint64_t)family))))
		return ENOTCAPABLE;
	h = gethostbyname2(name, family);
	msg_add_u64(out, NK_HERRNO, h ? 0 : (uint64_t)h_errno);
	if (h)
		netdb_pack_hostent(out, h);
	return 0;
}

static int do_gethostbyaddr(const struct msg *l, const struct msg *in,
			    struct msg *out)
{
	const struct msg_field *a = msg_get(in, NK_ADDR, MSG_BYTES, 0);
	struct sockaddr_in6 s6 = { .sin6_family = AF_INET6 };
	struct sockaddr_in s4 = { .sin_family = AF_INET };
	struct hostent *h;
	int family = 0, ok;

	if (!a || get_int(in, NK_FAMILY, &family) ||
	    !((family == AF_INET && a->len == 4) ||
	      (family == AF_INET6 && a->len == 16)))
		return EINVAL;
	if (family == AF_INET) {
		memcpy(&s4.sin_addr, a->data, 4);
		ok = !l || addr_in(l, NK_A2N_ADDR, &s4, sizeof(s4));
	} else {
		memcpy(&s6.sin6_addr, a->data, 16);
		ok = !l || addr_in(l, NK_A2N_ADDR, &s6, sizeof(s6));
	}
	if (!mode_has(l, CAPNET_DEPRECATED_ADDR2NAME) || !ok ||
	    (l && !family_in(l, NK_A2N_FAMILY, (uint64_t)family)))
		return ENOTCAPABLE;
	h = gethostbyaddr(a->data, a->len, family);
	msg_add_u64(out, NK_HERRNO, h ? 0 : (uint64_t)h_errno);
	if (h)
		netdb_pack_hostent(out, h);
	return 0;
}

static int net_command(const char *cmd, const struct msg *limits,
		       struct msg *in, struct msg *out)
{
	if (!strcmp(cmd, "connect"))
		return sock_op(limits, in, 0);
	if (!strcmp(cmd, "bind"))
		return sock_op(limits, in, 1);
	if (!strcmp(cmd, "getaddrinfo"))
		return do_getaddrinfo(limits, in, out);
	if (!strcmp(cmd, "getnameinfo"))
		return do_getnameinfo(limits, in, out);
	if (!strcmp(cmd, "gethostbyname"))
		return do_gethostbyname(limits, in, out);
	if (!strcmp(cmd, "gethostbyaddr"))
		return do_gethostbyaddr(limits, in, out);
	return EINVAL;
}

const struct casper_service net_service = {
	.name = NET_SERVICE,
	.limit = net_limit,
	.command = net_command,
};
