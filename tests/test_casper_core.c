// SPDX-License-Identifier: BSD-2-Clause
/*
 * libcasper's core on the host: the casper process opens known services
 * only, cap_service_limit() narrows the names, a clone keeps the limit,
 * unknown commands are refused, a channel wraps and unwraps.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include <libcasper.h>
#include <sys/capsicum.h>

#include "casper/casper.h"

Test(casper_core, service_names_narrow)
{
	const char *pwd[] = { "system.pwd" },
		   *both[] = { "system.pwd", "system.net" };
	cap_channel_t *cas = cap_init(), *c, *clone;

	cr_assert_not_null(cas);
	errno = 0;
	cr_expect_null(cap_service_open(cas, "system.nosuch"));
	cr_expect_eq(errno, ENOENT);
	cr_assert_eq(cap_service_limit(cas, pwd, 1), 0);
	errno = 0;
	cr_expect_null(cap_service_open(cas, "system.net"));
	cr_expect_eq(errno, ENOTCAPABLE);
	errno = 0;
	cr_expect_eq(cap_service_limit(cas, both, 2), -1);
	cr_expect_eq(errno, ENOTCAPABLE);
	c = cap_service_open(cas, "system.pwd");
	cr_expect_not_null(c);
	cap_close(c);
	clone = cap_clone(cas);
	cr_assert_not_null(clone);
	errno = 0;
	cr_expect_null(cap_service_open(clone, "system.net"));
	cr_expect_eq(errno, ENOTCAPABLE, "the clone keeps the limit");
	cap_close(clone);
	cap_close(cas);
}

Test(casper_core, unknown_command_and_wrap)
{
	cap_channel_t *cas = cap_init(), *w;
	int flags = 0, sock;

	cr_assert_not_null(cas);
	errno = 0;
	cr_expect_null(casper_call(cas, casper_request("rm")));
	cr_expect_eq(errno, EINVAL);
	sock = cap_unwrap(cas, &flags);
	w = cap_wrap(sock, 7);
	cr_assert_not_null(w);
	cr_expect_eq(cap_sock(w), sock);
	cap_close(w);
}
