// SPDX-License-Identifier: GPL-2.0
#include "fixture.h"

#include "load.h"
#include "selftest.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <sys/capsicum.h>
#include <sys/socket.h>
#include <unistd.h>

bool fixture_loaded(void)
{
	if (access(CAPSICUM_PIN_ANSWERS, F_OK) && selftest_is_root())
		capsicum_load(CAPSICUM_PIN_DIR, NULL);
	return ASSERT_TRUE(access(CAPSICUM_PIN_ANSWERS, F_OK) == 0,
			   "capsicum programs loaded");
}

int fixture_limit_all_but(int fd, uint64_t right)
{
	cap_rights_t r;

	CAP_ALL(&r);
	cap_rights_clear(&r, right);
	return cap_rights_limit(fd, &r);
}

static int pass_over(const int sv[2], int fd, bool close_sent)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 }, c = 'x';
	struct iovec v = { &c, 1 };
	struct msghdr m = { .msg_iov = &v,
			    .msg_iovlen = 1,
			    .msg_control = cbuf,
			    .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *h = CMSG_FIRSTHDR(&m);
	int got = -1;

	h->cmsg_level = SOL_SOCKET;
	h->cmsg_type = SCM_RIGHTS;
	h->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(h), &fd, sizeof(int));
	if (sendmsg(sv[0], &m, 0) != 1 || (close_sent && close(fd)))
		return -1;
	if (recvmsg(sv[1], &m, 0) == 1) {
		h = CMSG_FIRSTHDR(&m);
		if (h)
			memcpy(&got, CMSG_DATA(h), sizeof(int));
	}
	return got;
}

int fixture_pass_over(const int sv[2], int fd)
{
	return pass_over(sv, fd, false);
}

int fixture_pass_closed(const int sv[2], int fd)
{
	return pass_over(sv, fd, true);
}

int fixture_pass_to_self(int fd)
{
	int sv[2], got;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		return -1;
	got = fixture_pass_over(sv, fd);
	close(sv[0]);
	close(sv[1]);
	return got;
}

int fixture_tcp_bound(struct sockaddr_in *a)
{
	socklen_t l = sizeof(*a);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	memset(a, 0, sizeof(*a));
	a->sin_family = AF_INET;
	a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || bind(fd, (struct sockaddr *)a, sizeof(*a)) ||
	    getsockname(fd, (struct sockaddr *)a, &l))
		return -1;
	return fd;
}

int fixture_listener(struct sockaddr_in *a)
{
	int fd = fixture_tcp_bound(a);

	return fd < 0 || listen(fd, 4) ? -1 : fd;
}

bool fixture_make_box(struct fixture_box *b)
{
	char p[128];
	int fd;

	snprintf(b->top, sizeof(b->top), "/tmp/capmode.XXXXXX");
	if (!mkdtemp(b->top))
		return false;
	snprintf(p, sizeof(p), "%s/outside", b->top);
	fd = open(p, O_WRONLY | O_CREAT, 0644);
	if (fd < 0 || close(fd))
		return false;
	snprintf(p, sizeof(p), "%s/d", b->top);
	if (mkdir(p, 0755))
		return false;
	snprintf(p, sizeof(p), "%s/d/f", b->top);
	fd = open(p, O_WRONLY | O_CREAT, 0644);
	if (fd < 0 || write(fd, "inside", 6) != 6 || close(fd))
		return false;
	snprintf(p, sizeof(p), "%s/d/abs", b->top);
	if (symlink(b->top, p))
		return false;
	snprintf(p, sizeof(p), "%s/d/loop", b->top);
	if (symlink("loop", p))
		return false;
	snprintf(p, sizeof(p), "%s/d", b->top);
	b->dfd = open(p, O_RDONLY | O_DIRECTORY);
	return b->dfd >= 0;
}
