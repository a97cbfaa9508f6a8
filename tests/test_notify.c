// SPDX-License-Identifier: GPL-2.0
/*
 * capsicumd's readiness message for systemd (Type=notify): the datagram
 * the sd_notify protocol expects, on a path or an abstract socket, and
 * nothing when $NOTIFY_SOCKET is unset.
 */
#define _GNU_SOURCE
#include "daemon/notify.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

/* A datagram socket bound at name ('@' first: abstract); its fd. */
static int listen_at(const char *name)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	size_t n = strlen(name);
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	cr_assert_geq(fd, 0);
	memcpy(sa.sun_path, name, n);
	if (name[0] == '@')
		sa.sun_path[0] = '\0';
	cr_assert_eq(
		bind(fd, (struct sockaddr *)&sa,
		     (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n)),
		0, "bind %s: %s", name, strerror(errno));
	return fd;
}

static void expect_message(int fd, const char *want)
{
	char buf[64];
	ssize_t n = recv(fd, buf, sizeof(buf) - 1, MSG_DONTWAIT);

	cr_assert_gt(n, 0, "no datagram: %s", strerror(errno));
	buf[n] = '\0';
	cr_expect_str_eq(buf, want);
}

Test(notify, ready_on_a_path)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/tmp/capsicum-notify.%d", getpid());
	unlink(path);
	fd = listen_at(path);
	setenv("NOTIFY_SOCKET", path, 1);
	cr_expect_eq(notify_send("READY=1"), 0);
	expect_message(fd, "READY=1");
	close(fd);
	unlink(path);
}

Test(notify, ready_on_an_abstract_socket)
{
	char name[64];
	int fd;

	snprintf(name, sizeof(name), "@capsicum-notify.%d", getpid());
	fd = listen_at(name);
	setenv("NOTIFY_SOCKET", name, 1);
	cr_expect_eq(notify_send("STOPPING=1"), 0);
	expect_message(fd, "STOPPING=1");
	close(fd);
}

Test(notify, nothing_without_systemd)
{
	unsetenv("NOTIFY_SOCKET");
	cr_expect_eq(notify_send("READY=1"), 0);
	setenv("NOTIFY_SOCKET", "relative", 1);
	cr_expect_eq(notify_send("READY=1"), -EINVAL, "not a socket address");
}
