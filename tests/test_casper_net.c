// SPDX-License-Identifier: BSD-2-Clause
/*
 * cap_net on the host through a real casper process: connect and bind
 * only where the limits say, name resolution only of the names and
 * families allowed, and limits that only narrow.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include <casper/cap_net.h>
#include <libcasper.h>
#include <sys/capsicum.h>

#include "casper/net_proto.h"

static cap_channel_t *net_open(void)
{
	cap_channel_t *cas = cap_init(), *net;

	cr_assert_not_null(cas);
	net = cap_service_open(cas, NET_SERVICE);
	cr_assert_not_null(net);
	cap_close(cas);
	return net;
}

/* A listening loopback socket; its address in *sin. */
static int listener(struct sockaddr_in *sin)
{
	socklen_t len = sizeof(*sin);
	int s = socket(AF_INET, SOCK_STREAM, 0);

	*sin = (struct sockaddr_in){ .sin_family = AF_INET,
				     .sin_addr.s_addr =
					     htonl(INADDR_LOOPBACK) };
	cr_assert_eq(bind(s, (struct sockaddr *)sin, sizeof(*sin)), 0);
	cr_assert_eq(listen(s, 4), 0);
	cr_assert_eq(getsockname(s, (struct sockaddr *)sin, &len), 0);
	return s;
}

Test(casper_net, connect_within_limits)
{
	cap_channel_t *net = net_open();
	struct sockaddr_in ok, other;
	int l1 = listener(&ok), l2 = listener(&other), s;
	cap_net_limit_t *limit;

	limit = cap_net_limit_init(net, CAPNET_CONNECT);
	cap_net_limit_connect(limit, (struct sockaddr *)&ok, sizeof(ok));
	cr_assert_eq(cap_net_limit(limit), 0);
	s = socket(AF_INET, SOCK_STREAM, 0);
	errno = 0;
	cr_expect_eq(
		cap_connect(net, s, (struct sockaddr *)&other, sizeof(other)),
		-1);
	cr_expect_eq(errno, ENOTCAPABLE);
	cr_expect_eq(cap_connect(net, s, (struct sockaddr *)&ok, sizeof(ok)), 0,
		     "connect: %s", strerror(errno));
	cr_expect_eq(write(s, "x", 1), 1, "our own socket is connected");
	close(s);
	/* bind is not in the mode. */
	s = socket(AF_INET, SOCK_STREAM, 0);
	errno = 0;
	cr_expect_eq(cap_bind(net, s, (struct sockaddr *)&other, sizeof(other)),
		     -1);
	cr_expect_eq(errno, ENOTCAPABLE);
	close(s);
	/* Widening: another address, another mode bit, no list at all. */
	limit = cap_net_limit_init(net, CAPNET_CONNECT);
	cap_net_limit_connect(limit, (struct sockaddr *)&other, sizeof(other));
	errno = 0;
	cr_expect_eq(cap_net_limit(limit), -1);
	cr_expect_eq(errno, ENOTCAPABLE);
	limit = cap_net_limit_init(net, CAPNET_CONNECT | CAPNET_BIND);
	cap_net_limit_connect(limit, (struct sockaddr *)&ok, sizeof(ok));
	cr_expect_eq(cap_net_limit(limit), -1);
	cr_expect_eq(errno, ENOTCAPABLE);
	cr_expect_eq(cap_net_limit(cap_net_limit_init(net, CAPNET_CONNECT)),
		     -1);
	cr_expect_eq(errno, ENOTCAPABLE);
	/* Narrowing to nothing works, and then connect is refused. */
	cr_expect_eq(cap_net_limit(cap_net_limit_init(net, 0)), 0);
	s = socket(AF_INET, SOCK_STREAM, 0);
	errno = 0;
	cr_expect_eq(cap_connect(net, s, (struct sockaddr *)&ok, sizeof(ok)),
		     -1);
	cr_expect_eq(errno, ENOTCAPABLE);
	close(s);
	close(l1);
	close(l2);
	cap_close(net);
}

Test(casper_net, port_zero_allows_any_port)
{
	struct sockaddr_in any = { .sin_family = AF_INET,
				   .sin_addr.s_addr = htonl(INADDR_LOOPBACK) },
			   a;
	cap_channel_t *net = net_open();
	cap_net_limit_t *limit = cap_net_limit_init(net, CAPNET_CONNECT);
	int l = listener(&a), s = socket(AF_INET, SOCK_STREAM, 0);

	cap_net_limit_connect(limit, (struct sockaddr *)&any, sizeof(any));
	cr_assert_eq(cap_net_limit(limit), 0);
	cr_expect_eq(cap_connect(net, s, (struct sockaddr *)&a, sizeof(a)), 0);
	close(s);
	close(l);
	cap_close(net);
}

Test(casper_net, name2addr_and_addr2name)
{
	struct addrinfo hints = { .ai_family = AF_INET,
				  .ai_socktype = SOCK_STREAM },
			*res;
	cap_channel_t *net = net_open();
	cap_net_limit_t *limit;
	struct sockaddr_in *sin;
	char host[64], serv[16];
	int inet = AF_INET, inet6 = AF_INET6;

	limit = cap_net_limit_init(net, CAPNET_NAME2ADDR | CAPNET_ADDR2NAME);
	cap_net_limit_name2addr(limit, "127.0.0.1", NULL);
	cap_net_limit_name2addr_family(limit, &inet, 1);
	cr_assert_eq(cap_net_limit(limit), 0);
	cr_assert_eq(cap_getaddrinfo(net, "127.0.0.1", "80", &hints, &res), 0);
	sin = (struct sockaddr_in *)res->ai_addr;
	cr_expect_eq(sin->sin_port, htons(80));
	cr_expect_eq(sin->sin_addr.s_addr, htonl(INADDR_LOOPBACK));
	cr_expect_null(res->ai_next);
	cr_expect_eq(cap_getnameinfo(net, res->ai_addr, res->ai_addrlen, host,
				     sizeof(host), serv, sizeof(serv),
				     NI_NUMERICHOST | NI_NUMERICSERV),
		     0);
	cr_expect_str_eq(host, "127.0.0.1");
	cr_expect_str_eq(serv, "80");
	freeaddrinfo(res);
	errno = 0;
	cr_expect_eq(cap_getaddrinfo(net, "127.0.0.2", "80", &hints, &res),
		     EAI_SYSTEM);
	cr_expect_eq(errno, ENOTCAPABLE);
	hints.ai_family = AF_INET6;
	errno = 0;
	cr_expect_eq(cap_getaddrinfo(net, "127.0.0.1", "80", &hints, &res),
		     EAI_SYSTEM);
	cr_expect_eq(errno, ENOTCAPABLE);
	/* Deprecated calls are other mode bits. */
	cr_expect_null(cap_gethostbyname(net, "127.0.0.1"));
	limit = cap_net_limit_init(net, CAPNET_NAME2ADDR);
	cap_net_limit_name2addr(limit, "127.0.0.1", "80");
	cap_net_limit_name2addr_family(limit, &inet6, 1);
	errno = 0;
	cr_expect_eq(cap_net_limit(limit), -1, "another family");
	cr_expect_eq(errno, ENOTCAPABLE);
	limit = cap_net_limit_init(net, CAPNET_NAME2ADDR);
	cap_net_limit_name2addr(limit, NULL, "80");
	cap_net_limit_name2addr_family(limit, &inet, 1);
	cr_expect_eq(cap_net_limit(limit), -1, "any name");
	limit = cap_net_limit_init(net, CAPNET_NAME2ADDR);
	cap_net_limit_name2addr(limit, "127.0.0.1", "80");
	cap_net_limit_name2addr_family(limit, &inet, 1);
	cr_expect_eq(cap_net_limit(limit), 0, "one port of the name");
	hints.ai_family = AF_INET;
	cr_expect_eq(cap_getaddrinfo(net, "127.0.0.1", "81", &hints, &res),
		     EAI_SYSTEM);
	cr_expect_eq(cap_getnameinfo(net,
				     (struct sockaddr *)&(struct sockaddr_in){
					     .sin_family = AF_INET },
				     sizeof(struct sockaddr_in), host,
				     sizeof(host), NULL, 0, NI_NUMERICHOST),
		     EAI_SYSTEM, "ADDR2NAME dropped");
	cap_close(net);
}

Test(casper_net, hostent_and_connectdns)
{
	struct addrinfo hints = { .ai_family = AF_INET,
				  .ai_socktype = SOCK_STREAM },
			*res;
	cap_channel_t *net = net_open();
	struct sockaddr_in a, *r;
	int l = listener(&a), s;
	char port[8];
	struct hostent *h;

	h = cap_gethostbyname(net, "127.0.0.1");
	cr_assert_not_null(h, "no limits: all");
	cr_expect_eq(h->h_addrtype, AF_INET);
	cr_expect_eq(memcmp(h->h_addr_list[0], "\177\0\0\1", 4), 0);
	h = cap_gethostbyaddr(net, "\177\0\0\1", 4, AF_INET);
	cr_expect(h != NULL || h_errno != NETDB_INTERNAL);
	cr_assert_eq(cap_net_limit(cap_net_limit_init(
			     net, CAPNET_NAME2ADDR | CAPNET_CONNECTDNS)),
		     0);
	s = socket(AF_INET, SOCK_STREAM, 0);
	errno = 0;
	cr_expect_eq(cap_connect(net, s, (struct sockaddr *)&a, sizeof(a)), -1,
		     "not resolved yet");
	cr_expect_eq(errno, ENOTCAPABLE);
	snprintf(port, sizeof(port), "%u", ntohs(a.sin_port));
	cr_assert_eq(cap_getaddrinfo(net, "127.0.0.1", port, &hints, &res), 0);
	r = (struct sockaddr_in *)res->ai_addr;
	cr_expect_eq(cap_connect(net, s, (struct sockaddr *)r, sizeof(*r)), 0);
	freeaddrinfo(res);
	close(s);
	close(l);
	cap_close(net);
}

/* The limit function on malformed limits. */
Test(casper_net, limit_validation)
{
	struct msg *m = msg_new();

	cr_expect_eq(net_service.limit(NULL, m), EINVAL, "no mode");
	msg_add_u64(m, NK_MODE, 0x80);
	cr_expect_eq(net_service.limit(NULL, m), EINVAL, "unknown mode bit");
	msg_free(m);
	m = msg_new();
	msg_add_u64(m, NK_MODE, CAPNET_CONNECT);
	msg_add_bytes(m, NK_CONNECT, "\2\0", 2);
	cr_expect_eq(net_service.limit(NULL, m), EINVAL, "short sockaddr");
	msg_free(m);
	m = msg_new();
	msg_add_u64(m, NK_MODE, CAPNET_NAME2ADDR);
	msg_add_str(m, NK_N2A_HOST, "=x");
	cr_expect_eq(net_service.limit(NULL, m), EINVAL, "host without serv");
	msg_add_str(m, NK_N2A_SERV, "x");
	cr_expect_eq(net_service.limit(NULL, m), EINVAL, "bad pattern");
	msg_free(m);
}
