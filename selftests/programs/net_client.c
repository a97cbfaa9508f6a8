// SPDX-License-Identifier: BSD-2-Clause
/*
 * A network client sandboxed with cap_net: the casper service may resolve
 * HOST:PORT and connect only to what it resolved (CAPNET_CONNECTDNS); the
 * program, in capability mode, sends a line and prints the answer.
 *
 * usage: net_client [-n] [-e PORT] HOST PORT
 *   -n       no Capsicum: the reference run
 *   -e PORT  then try to reach HOST:PORT too, and print the errno of
 *            cap_getaddrinfo, cap_connect and connect (0 if they worked)
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <capsicum_helpers.h>
#include <casper/cap_net.h>
#include <err.h>
#include <errno.h>
#include <netdb.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static cap_channel_t *net;

static int resolve(const char *host, const char *port, struct addrinfo **res)
{
	struct addrinfo hints = { .ai_family = AF_INET,
				  .ai_socktype = SOCK_STREAM };

	return net ? cap_getaddrinfo(net, host, port, &hints, res)
		   : getaddrinfo(host, port, &hints, res);
}

static int do_connect(int s, const struct sockaddr *sa, socklen_t len)
{
	return net ? cap_connect(net, s, sa, len) : connect(s, sa, len);
}

static void talk(const char *host, const char *port)
{
	struct addrinfo *res;
	char buf[256];
	ssize_t n;
	int s, e;

	e = resolve(host, port, &res);
	if (e)
		errx(1, "%s:%s: %s", host, port, gai_strerror(e));
	s = socket(res->ai_family, res->ai_socktype, res->ai_protocol);
	if (s < 0 || do_connect(s, res->ai_addr, res->ai_addrlen) < 0)
		err(1, "connect %s:%s", host, port);
	freeaddrinfo(res);
	if (write(s, "hello\n", 6) != 6)
		err(1, "write");
	while ((n = read(s, buf, sizeof(buf))) > 0)
		fwrite(buf, 1, (size_t)n, stdout);
	close(s);
}

/* errno of an attempt, 0 if it worked. */
static void escapes(const char *host, const char *port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	struct addrinfo *res;
	int s, e;

	errno = 0;
	e = resolve(host, port, &res);
	printf("getaddrinfo %s:%s: errno %d\n", host, port,
	       e == 0		 ? 0
	       : e == EAI_SYSTEM ? errno
				 : -1);
	if (!e)
		freeaddrinfo(res);
	inet_pton(AF_INET, host, &sin.sin_addr);
	sin.sin_port = htons((uint16_t)atoi(port));
	s = socket(AF_INET, SOCK_STREAM, 0);
	errno = 0;
	printf("cap_connect %s:%s: errno %d\n", host, port,
	       do_connect(s, (struct sockaddr *)&sin, sizeof(sin)) < 0 ? errno
								       : 0);
	close(s);
	s = socket(AF_INET, SOCK_STREAM, 0);
	errno = 0;
	printf("connect %s:%s: errno %d\n", host, port,
	       connect(s, (struct sockaddr *)&sin, sizeof(sin)) < 0 ? errno
								    : 0);
	close(s);
}

int main(int argc, char **argv)
{
	const char *escape = NULL;
	bool sandbox = true;
	cap_net_limit_t *limit;
	cap_channel_t *cas;
	int ch, family = AF_INET;

	while ((ch = getopt(argc, argv, "ne:")) != -1) {
		switch (ch) {
		case 'n':
			sandbox = false;
			break;
		case 'e':
			escape = optarg;
			break;
		default:
			fprintf(stderr,
				"usage: net_client [-n] [-e port] host port\n");
			exit(2);
		}
	}
	if (argc - optind != 2)
		errx(2, "usage: net_client [-n] [-e port] host port");

	if (sandbox) {
		cas = cap_init();
		if (!cas)
			err(1, "cap_init");
		net = cap_service_open(cas, "system.net");
		if (!net)
			err(1, "unable to open system.net service");
		cap_close(cas);
		limit = cap_net_limit_init(net, CAPNET_NAME2ADDR |
							CAPNET_CONNECTDNS);
		if (!limit)
			err(1, "cap_net_limit_init");
		cap_net_limit_name2addr(limit, argv[optind], argv[optind + 1]);
		cap_net_limit_name2addr_family(limit, &family, 1);
		if (cap_net_limit(limit) < 0)
			err(1, "cap_net_limit");
		caph_cache_catpages();
		if (caph_limit_stdio() < 0 || caph_enter_casper() < 0)
			err(1, "unable to enter capability mode");
	}
	talk(argv[optind], argv[optind + 1]);
	if (escape)
		escapes(argv[optind], escape);
	if (sandbox)
		printf("sandboxed %d\n", cap_sandboxed());
	return 0;
}
