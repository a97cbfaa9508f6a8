// SPDX-License-Identifier: BSD-2-Clause
/*
 * cap_syslog on the host through a real casper process: with LOG_PERROR
 * the message, formatted by the caller (%m with its errno), reaches the
 * caller's stderr through the service; setlogmask answers the old mask.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include <casper/cap_syslog.h>
#include <libcasper.h>

#include "casper/syslog_proto.h"

Test(casper_syslog, perror_reaches_our_stderr)
{
	cap_channel_t *cas = cap_init(), *chan;
	int p[2], saved = dup(2);
	char buf[256] = "";
	ssize_t n;

	cr_assert_not_null(cas);
	chan = cap_service_open(cas, SYSLOG_SERVICE);
	cr_assert_not_null(chan);
	cap_close(cas);
	cr_assert_eq(pipe(p), 0);
	cr_assert_geq(dup2(p[1], 2), 0);
	cap_openlog(chan, "casper-test", LOG_PERROR | LOG_NDELAY, LOG_USER);
	dup2(saved, 2);
	errno = ENOENT;
	cap_syslog(chan, LOG_ERR, "hello %d: %m", 42);
	cr_expect_eq(errno, ENOENT, "errno kept");
	cap_closelog(chan);
	close(p[1]);
	cr_assert_eq(fcntl(p[0], F_SETFL, O_NONBLOCK), 0);
	n = read(p[0], buf, sizeof(buf) - 1);
	cr_assert_gt(n, 0);
	buf[n] = '\0';
	cr_expect(strstr(buf, "casper-test") != NULL, "got '%s'", buf);
	cr_expect(strstr(buf, "hello 42: No such file or directory") != NULL,
		  "got '%s'", buf);
	cr_expect_eq(cap_setlogmask(chan, LOG_UPTO(LOG_ERR)), 0xff);
	cr_expect_eq(cap_setlogmask(chan, 0), LOG_UPTO(LOG_ERR));
	close(p[0]);
	cap_close(chan);
}

Test(casper_syslog, malformed_requests)
{
	struct msg *in = msg_new(), *out = msg_new();

	cr_expect_eq(syslog_service.limit(NULL, in), 0, "empty limit");
	msg_add_u64(in, SK_PRI, LOG_ERR);
	cr_expect_eq(syslog_service.limit(NULL, in), EINVAL, "any other");
	cr_expect_eq(syslog_service.command("syslog", NULL, in, out), EINVAL,
		     "no message");
	msg_free(in);
	in = msg_new();
	msg_add_u64(in, SK_PRI, 1u << 30);
	msg_add_str(in, SK_MESSAGE, "x");
	cr_expect_eq(syslog_service.command("syslog", NULL, in, out), EINVAL,
		     "bad priority");
	msg_free(in);
	in = msg_new();
	msg_add_u64(in, SK_LOGOPT, LOG_PERROR);
	msg_add_u64(in, SK_FACILITY, LOG_USER);
	cr_expect_eq(syslog_service.command("openlog", NULL, in, out), EINVAL,
		     "LOG_PERROR without a descriptor");
	msg_free(in);
	msg_free(out);
}
