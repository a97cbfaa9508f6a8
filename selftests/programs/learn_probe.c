// SPDX-License-Identifier: GPL-2.0
/*
 * A small program for capctl run --learn's selftests (test_learn.c): it
 * reads a file and lists a directory through the first directory capctl
 * run passed (fd 3), writes both to stdout, and connects to a loopback
 * port. Raw syscalls only, each checked: libc's stdio would stat stdout
 * and carry on when that is refused, and a learnt right must be one the
 * run cannot do without. Exit 0, or the errno of the first step that
 * failed (ENOTCAPABLE, ECAPMODE, ...), the step named on stderr.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define DIR_FD 3

static _Noreturn void fail(const char *step)
{
	int e = errno;

	if (write(2, step, strlen(step)) < 0 || write(2, " failed\n", 8) < 0)
		_exit(e ? e : 1);
	_exit(e ? e : 1);
}

static void put(const char *buf, size_t len)
{
	if (write(1, buf, len) != (ssize_t)len)
		fail("write stdout");
}

int main(int argc, char **argv)
{
	char buf[4096];
	struct sockaddr_in a = { .sin_family = AF_INET };
	struct stat st;
	ssize_t n;
	int f, d, s;

	if (argc != 2)
		return 2;
	f = openat(DIR_FD, "data", O_RDONLY | O_CLOEXEC);
	if (f < 0)
		fail("openat data");
	if (fstat(f, &st))
		fail("fstat data");
	n = read(f, buf, sizeof(buf));
	if (n < 0)
		fail("read data");
	put(buf, (size_t)n);
	d = openat(DIR_FD, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (d < 0)
		fail("openat .");
	/* Entries' names, in the order the directory gives them. */
	while ((n = syscall(SYS_getdents64, d, buf, sizeof(buf))) > 0) {
		for (long off = 0; off < n;) {
			unsigned short reclen;
			const char *name = buf + off + 19;

			memcpy(&reclen, buf + off + 16, sizeof(reclen));
			put(name, strlen(name));
			put("\n", 1);
			off += reclen;
		}
	}
	if (n < 0)
		fail("getdents64");
	s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		fail("socket");
	a.sin_port = htons((unsigned short)atoi(argv[1]));
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(s, (const struct sockaddr *)&a, sizeof(a)))
		fail("connect");
	put("connected\n", 10);
	return 0;
}
