// SPDX-License-Identifier: BSD-2-Clause
/*
 * cap_dns on the host through a real casper process: the resolver calls
 * under the types and families limits, which only narrow; connect and
 * bind are not this service's.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include <casper/cap_dns.h>
#include <casper/cap_net.h>
#include <libcasper.h>
#include <sys/capsicum.h>

#include "casper/dns_proto.h"

static cap_channel_t *dns_open(void)
{
	cap_channel_t *cas = cap_init(), *dns;

	cr_assert_not_null(cas);
	dns = cap_service_open(cas, DNS_SERVICE);
	cr_assert_not_null(dns);
	cap_close(cas);
	return dns;
}

static int resolve(cap_channel_t *dns, int family)
{
	struct addrinfo hints = { .ai_family = family,
				  .ai_socktype = SOCK_STREAM },
			*res;
	int e = cap_getaddrinfo(dns, family == AF_INET6 ? "::1" : "127.0.0.1",
				"80", &hints, &res);

	if (!e)
		freeaddrinfo(res);
	return e;
}

Test(casper_dns, types_and_families)
{
	const char *name2addr[] = { "NAME2ADDR" },
		   *both[] = { "NAME2ADDR", "ADDR2NAME" };
	struct sockaddr_in sin = { .sin_family = AF_INET,
				   .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	cap_channel_t *dns = dns_open();
	int inet = AF_INET, inet6 = AF_INET6;
	char host[64];

	cr_expect_eq(resolve(dns, AF_INET), 0, "no limits");
	cr_expect_not_null(cap_gethostbyname(dns, "127.0.0.1"));
	cr_assert_eq(cap_dns_type_limit(dns, name2addr, 1), 0);
	cr_expect_eq(resolve(dns, AF_INET), 0);
	errno = 0;
	cr_expect_eq(cap_getnameinfo(dns, (struct sockaddr *)&sin, sizeof(sin),
				     host, sizeof(host), NULL, 0,
				     NI_NUMERICHOST),
		     EAI_SYSTEM);
	cr_expect_eq(errno, ENOTCAPABLE);
	cr_expect_null(cap_gethostbyaddr(dns, "\177\0\0\1", 4, AF_INET));
	errno = 0;
	cr_expect_eq(cap_dns_type_limit(dns, both, 2), -1);
	cr_expect_eq(errno, ENOTCAPABLE);
	cr_assert_eq(cap_dns_family_limit(dns, &inet, 1), 0);
	cr_expect_eq(resolve(dns, AF_INET), 0, "types kept, family allowed");
	cr_expect_eq(resolve(dns, AF_INET6), EAI_SYSTEM);
	cr_expect_null(cap_gethostbyname2(dns, "::1", AF_INET6));
	errno = 0;
	cr_expect_eq(cap_dns_family_limit(dns, &inet6, 1), -1);
	cr_expect_eq(errno, ENOTCAPABLE);
	/* An empty list allows nothing. */
	cr_assert_eq(cap_dns_family_limit(dns, NULL, 0), 0);
	cr_expect_eq(resolve(dns, AF_INET), EAI_SYSTEM);
	cap_close(dns);
}

Test(casper_dns, not_a_connect_service)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	cap_channel_t *dns = dns_open();
	int s = socket(AF_INET, SOCK_STREAM, 0);

	errno = 0;
	cr_expect_eq(cap_connect(dns, s, (struct sockaddr *)&sin, sizeof(sin)),
		     -1);
	cr_expect_eq(errno, EINVAL);
	close(s);
	cap_close(dns);
}

Test(casper_dns, limit_validation)
{
	struct msg *m = msg_new();

	msg_add_u64(m, DNK_LISTED, DNK_TYPE);
	msg_add_str(m, DNK_TYPE, "CONNECT");
	cr_expect_eq(dns_service.limit(NULL, m), EINVAL);
	msg_free(m);
	m = msg_new();
	msg_add_u64(m, DNK_FAMILY, AF_INET);
	cr_expect_eq(dns_service.limit(NULL, m), EINVAL, "list not marked");
	msg_free(m);
}
