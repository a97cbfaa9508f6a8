// SPDX-License-Identifier: BSD-2-Clause
/*
 * A daemon's logging sandboxed as FreeBSD's are: the cap_syslog service
 * opened before capability mode, one message logged through it after.
 * Built against the installed tree through pkg-config only (Makefile).
 *
 * usage: syslog_msg [-N] MESSAGE
 *   -N  no Capsicum: the reference run, with syslog(3) itself
 * Then prints the errno of a direct connect() to /dev/log (0 if it
 * worked), the escape capability mode refuses.
 */
#include <sys/socket.h>
#include <sys/un.h>

#include <capsicum_helpers.h>
#include <casper/cap_syslog.h>
#include <err.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

static int connect_log(void)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int s = socket(AF_UNIX, SOCK_DGRAM, 0), ret;

	if (s < 0)
		return errno;
	strcpy(sun.sun_path, "/dev/log");
	ret = connect(s, (struct sockaddr *)&sun, sizeof(sun)) < 0 ? errno : 0;
	close(s);
	return ret;
}

int main(int argc, char **argv)
{
	cap_channel_t *capcas, *chan = NULL;
	bool sandbox = true;
	int ch;

	while ((ch = getopt(argc, argv, "N")) != -1) {
		if (ch != 'N') {
			fprintf(stderr, "usage: syslog_msg [-N] message\n");
			return 2;
		}
		sandbox = false;
	}
	if (optind != argc - 1) {
		fprintf(stderr, "usage: syslog_msg [-N] message\n");
		return 2;
	}
	if (sandbox) {
		capcas = cap_init();
		if (!capcas)
			err(1, "cap_init");
		chan = cap_service_open(capcas, "system.syslog");
		cap_close(capcas);
		if (!chan)
			err(1, "cap_service_open(system.syslog)");
		cap_openlog(chan, "syslog_msg", LOG_NDELAY, LOG_USER);
		if (caph_limit_stdio() < 0 || caph_enter_casper() < 0)
			err(1, "unable to enter capability mode");
		cap_syslog(chan, LOG_NOTICE, "%s", argv[optind]);
	} else {
		openlog("syslog_msg", LOG_NDELAY, LOG_USER);
		syslog(LOG_NOTICE, "%s", argv[optind]);
		closelog();
	}
	printf("connect: errno %d\n", connect_log());
	if (sandbox) {
		printf("sandboxed %d\n", cap_sandboxed());
		cap_close(chan);
	}
	return 0;
}
