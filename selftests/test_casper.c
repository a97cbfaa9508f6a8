// SPDX-License-Identifier: GPL-2.0
/*
 * libcasper with the BPF side loaded: FreeBSD-style programs
 * (selftests/programs/{fa_wc,fa_head,net_client,pwd_lookup,grp_lookup,
 * nv_pwd,syslog_msg}.c,
 * built against the installed tree through pkg-config) print in
 * capability mode what they print without Capsicum, and their escapes fail with the right errno:
 * ECAPMODE for the program's own open/connect, ENOTCAPABLE for what the
 * casper service refuses or for a right fileargs did not grant.
 *
 *   /tmp/casper.XXXXXX/
 *   |-- one     "a b c\nd\n"
 *   |-- two     "x\n"
 *   `-- secret  "s\n"   (never in the fileargs list)
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fixture.h"
#include "selftest.h"

#define PROGRAMS "/usr/libexec/capsicum/"
#define LIBDIR	 "/usr/local/lib"

/* Runs PROGRAMS/argv[0] with stdin /dev/null; its stdout in out. */
static int run(char *const argv[], char *out, size_t len)
{
	char *envp[] = { "LD_LIBRARY_PATH=" LIBDIR, NULL };
	char path[128];
	size_t got = 0;
	int res[2];
	ssize_t n;
	pid_t pid;

	snprintf(path, sizeof(path), PROGRAMS "%s", argv[0]);
	if (!ASSERT_OK(pipe(res), "pipe"))
		return -1;
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		if (null < 0 || dup2(null, 0) < 0 || dup2(res[1], 1) < 0)
			_exit(126);
		alarm(30);
		execve(path, argv, envp);
		_exit(127);
	}
	close(res[1]);
	while (got < len - 1 &&
	       (n = read(res[0], out + got, len - 1 - got)) > 0)
		got += (size_t)n;
	out[got] = '\0';
	close(res[0]);
	return selftest_wait(pid);
}

/* The sandboxed output is the plain one plus "sandboxed 1". */
static void same_output(const char *plain, const char *caph)
{
	char want[2048];

	snprintf(want, sizeof(want), "%ssandboxed 1\n", plain);
	if (!ASSERT_TRUE(!strcmp(want, caph), "same output in capmode"))
		printf("    plain '%s'\n    capmode '%s'\n", plain, caph);
}

static bool write_file(const char *path, const char *content)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	bool ok = fd >= 0 && write(fd, content, strlen(content)) ==
				     (ssize_t)strlen(content);

	if (fd >= 0)
		close(fd);
	return ok;
}

SELFTEST(casper_fileargs_wc)
{
	char dir[] = "/tmp/casper.XXXXXX", one[64], two[64], secret[64];
	char plain[2048], caph[2048], *p;

	if (!fixture_loaded())
		return;
	if (!ASSERT_TRUE(mkdtemp(dir), "mkdtemp"))
		return;
	snprintf(one, sizeof(one), "%s/one", dir);
	snprintf(two, sizeof(two), "%s/two", dir);
	snprintf(secret, sizeof(secret), "%s/secret", dir);
	ASSERT_TRUE(write_file(one, "a b c\nd\n") && write_file(two, "x\n") &&
			    write_file(secret, "s\n"),
		    "tree");
	ASSERT_EQ(run((char *[]){ "fa_wc", "-n", one, two, NULL }, plain,
		      sizeof(plain)),
		  0, "plain run");
	ASSERT_TRUE(strstr(plain, "       2       4       8 ") &&
			    strstr(plain, "       3       5      10 total"),
		    "counts");
	ASSERT_EQ(
		run((char *[]){ "fa_wc", one, two, NULL }, caph, sizeof(caph)),
		0, "sandboxed run");
	same_output(plain, caph);
	/* The escapes: the service refuses, capmode refuses, the right is not
	 * there; without Capsicum all three work. */
	ASSERT_EQ(run((char *[]){ "fa_wc", "-n", "-e", secret, one, NULL },
		      plain, sizeof(plain)),
		  0, "plain escapes");
	ASSERT_TRUE(strstr(plain, ": errno 0\nopen") &&
			    (p = strstr(plain, "flock")) &&
			    strstr(p, "errno 0\n"),
		    "plain: all work");
	ASSERT_EQ(run((char *[]){ "fa_wc", "-e", secret, one, NULL }, caph,
		      sizeof(caph)),
		  0, "sandboxed escapes");
	if (!ASSERT_TRUE(strstr(caph, "fileargs_open") &&
				 strstr(caph, ": errno 135\nopen") &&
				 strstr(caph, ": errno 134\nflock") &&
				 (p = strstr(caph, "flock")) &&
				 strstr(p, "errno 135\n") &&
				 strstr(caph, "sandboxed 1\n"),
			 "ENOTCAPABLE, ECAPMODE, ENOTCAPABLE"))
		printf("    got '%s'\n", caph);
	unlink(one);
	unlink(two);
	unlink(secret);
	rmdir(dir);
}

/* Answers each connection's line with "echo " and it; count of them. */
static pid_t echo_server(int s, int count)
{
	pid_t pid = fork();

	if (pid != 0)
		return pid;
	alarm(60);
	while (count-- > 0) {
		char buf[128] = "echo ";
		int c = accept(s, NULL, NULL);
		ssize_t n;

		if (c < 0)
			_exit(1);
		n = read(c, buf + 5, sizeof(buf) - 6);
		if (n > 0 && write(c, buf, (size_t)n + 5) < 0)
			_exit(1);
		close(c);
	}
	_exit(0);
}

/* A loopback listener; its port in *port. */
static int listener(unsigned *port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET,
				   .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(sin);
	int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (s < 0 || bind(s, (struct sockaddr *)&sin, sizeof(sin)) ||
	    listen(s, 8) || getsockname(s, (struct sockaddr *)&sin, &len))
		return -1;
	*port = ntohs(sin.sin_port);
	return s;
}

SELFTEST(casper_net_client)
{
	char plain[1024], caph[1024], port[8], other[8];
	unsigned p1, p2;
	int s, s2;
	pid_t srv;

	if (!fixture_loaded())
		return;
	s = listener(&p1);
	s2 = listener(&p2);
	if (!ASSERT_OK(s, "listener") || !ASSERT_OK(s2, "second listener"))
		return;
	snprintf(port, sizeof(port), "%u", p1);
	snprintf(other, sizeof(other), "%u", p2);
	/* Plain, sandboxed, and the two escape runs. */
	srv = echo_server(s, 4);
	ASSERT_EQ(run((char *[]){ "net_client", "-n", "127.0.0.1", port, NULL },
		      plain, sizeof(plain)),
		  0, "plain run");
	ASSERT_TRUE(!strcmp(plain, "echo hello\n"), "the server answered");
	ASSERT_EQ(run((char *[]){ "net_client", "127.0.0.1", port, NULL }, caph,
		      sizeof(caph)),
		  0, "sandboxed run");
	same_output(plain, caph);
	ASSERT_EQ(run((char *[]){ "net_client", "-e", other, "127.0.0.1", port,
				  NULL },
		      caph, sizeof(caph)),
		  0, "sandboxed escapes");
	if (!ASSERT_TRUE(strstr(caph, "getaddrinfo 127.0.0.1:") &&
				 strstr(caph, ": errno 135\ncap_connect") &&
				 strstr(caph, ": errno 135\nconnect") &&
				 strstr(caph, ": errno 134\nsandboxed 1\n"),
			 "ENOTCAPABLE, ENOTCAPABLE, ECAPMODE"))
		printf("    got '%s'\n", caph);
	/* Without Capsicum the other port is reachable (its listener queues).
	 */
	ASSERT_EQ(run((char *[]){ "net_client", "-n", "-e", other, "127.0.0.1",
				  port, NULL },
		      plain, sizeof(plain)),
		  0, "plain escapes");
	if (!ASSERT_TRUE(strstr(plain, ": errno 0\ncap_connect") &&
				 strstr(plain, ": errno 0\nconnect") &&
				 strstr(plain, ": errno 0\ncap_connect") &&
				 strstr(plain, "connect 127.0.0.1:"),
			 "plain: all work"))
		printf("    got '%s'\n", plain);
	ASSERT_EQ(selftest_wait(srv), 0, "server served four");
	close(s);
	close(s2);
}

SELFTEST(casper_pwd_lookup)
{
	char plain[1024], caph[1024];

	if (!fixture_loaded())
		return;
	ASSERT_EQ(run((char *[]){ "pwd_lookup", "-n", "root", "user", NULL },
		      plain, sizeof(plain)),
		  0, "plain run");
	ASSERT_TRUE(!strcmp(plain, "root uid=0 gid=0 dir=/root shell=/bin/sh\n"
				   "  uid root\n"
				   "user uid=1000 gid=1000 dir=/home/user "
				   "shell=/bin/sh\n"
				   "  uid user\n"),
		    "the VM's users");
	ASSERT_EQ(run((char *[]){ "pwd_lookup", "root", "user", NULL }, caph,
		      sizeof(caph)),
		  0, "sandboxed run");
	same_output(plain, caph);
	ASSERT_EQ(run((char *[]){ "pwd_lookup", "-e", "user", "root", NULL },
		      caph, sizeof(caph)),
		  0, "sandboxed escapes");
	if (!ASSERT_TRUE(strstr(caph, "user: no such user\n") &&
				 strstr(caph, "getpwent: none errno 135\n"),
			 "user outside the limits, getpwent refused"))
		printf("    got '%s'\n", caph);
}

SELFTEST(casper_grp_lookup)
{
	char plain[1024], caph[1024];

	if (!fixture_loaded())
		return;
	ASSERT_EQ(run((char *[]){ "grp_lookup", "-n", "root", "user", NULL },
		      plain, sizeof(plain)),
		  0, "plain run");
	ASSERT_TRUE(!strcmp(plain, "root gid=0 mem=\n"
				   "  gid root\n"
				   "user gid=1000 mem=\n"
				   "  gid user\n"),
		    "the VM's groups");
	ASSERT_EQ(run((char *[]){ "grp_lookup", "root", "user", NULL }, caph,
		      sizeof(caph)),
		  0, "sandboxed run");
	same_output(plain, caph);
	ASSERT_EQ(run((char *[]){ "grp_lookup", "-n", "-e", "user", "root",
				  NULL },
		      plain, sizeof(plain)),
		  0, "plain escapes");
	ASSERT_TRUE(strstr(plain, "getgrnam root: entry\n") != NULL,
		    "plain: libc's getgrnam works");
	ASSERT_EQ(run((char *[]){ "grp_lookup", "-e", "user", "root", NULL },
		      caph, sizeof(caph)),
		  0, "sandboxed escapes");
	/* FreeBSD's: a group outside the limits is not found, errno 0. */
	if (!ASSERT_TRUE(strstr(caph, "user: no such group errno 0\n") &&
				 strstr(caph, "getgrnam root: none\n"),
			 "group outside the limits, libc's getgrnam refused"))
		printf("    got '%s'\n", caph);
}

/* cap_limit_set() with FreeBSD's cap_pwd nvlist, then a wider one. */
SELFTEST(casper_nv_pwd)
{
	char plain[1024], caph[1024];

	if (!fixture_loaded())
		return;
	ASSERT_EQ(run((char *[]){ "nv_pwd", "-n", "root", NULL }, plain,
		      sizeof(plain)),
		  0, "plain run");
	ASSERT_TRUE(!strcmp(plain, "root uid=0 dir=/root\n"), "root");
	ASSERT_EQ(run((char *[]){ "nv_pwd", "root", NULL }, caph, sizeof(caph)),
		  0, "sandboxed run");
	same_output(plain, caph);
	ASSERT_EQ(run((char *[]){ "nv_pwd", "-e", "user", "root", NULL }, caph,
		      sizeof(caph)),
		  0, "sandboxed escapes");
	if (!ASSERT_TRUE(
		    strstr(caph, "user: no such user\n") &&
			    strstr(caph, "wider limit_set: -1 errno 135\n"),
		    "user outside the nvlist limits, widening refused"))
		printf("    got '%s'\n", caph);
}

SELFTEST(casper_fileargs_head)
{
	char dir[] = "/tmp/casper.XXXXXX", one[64], two[64], secret[64];
	char plain[2048], caph[2048];

	if (!fixture_loaded() || !ASSERT_TRUE(mkdtemp(dir), "mkdtemp"))
		return;
	snprintf(one, sizeof(one), "%s/one", dir);
	snprintf(two, sizeof(two), "%s/two", dir);
	snprintf(secret, sizeof(secret), "%s/secret", dir);
	ASSERT_TRUE(write_file(one, "1\n2\n3\n4\n") &&
			    write_file(two, "x\ny\n") &&
			    write_file(secret, "s\n"),
		    "tree");
	ASSERT_EQ(run((char *[]){ "fa_head", "-N", "-n", "2", one, two, NULL },
		      plain, sizeof(plain)),
		  0, "plain run");
	if (!ASSERT_TRUE(strstr(plain, "/one <==\n1\n2\n\n==> ") &&
				 strstr(plain, "/two <==\nx\ny\n"),
			 "two lines of each"))
		printf("    got '%s'\n", plain);
	ASSERT_EQ(run((char *[]){ "fa_head", "-n", "2", one, two, NULL }, caph,
		      sizeof(caph)),
		  0, "sandboxed run");
	same_output(plain, caph);
	ASSERT_EQ(run((char *[]){ "fa_head", "-N", "-e", secret, one, NULL },
		      plain, sizeof(plain)),
		  0, "plain escapes");
	ASSERT_TRUE(strstr(plain, "fileargs_open: errno 0\nopen: errno 0\n"
				  "flock: errno 0\n"),
		    "plain: all work");
	ASSERT_EQ(run((char *[]){ "fa_head", "-e", secret, one, NULL }, caph,
		      sizeof(caph)),
		  0, "sandboxed escapes");
	if (!ASSERT_TRUE(strstr(caph, "fileargs_open: errno 135\n"
				      "open: errno 134\nflock: errno 135\n"
				      "sandboxed 1\n"),
			 "ENOTCAPABLE, ECAPMODE, ENOTCAPABLE"))
		printf("    got '%s'\n", caph);
	unlink(one);
	unlink(two);
	unlink(secret);
	rmdir(dir);
}

/*
 * The next datagram on the log socket, within a bound (TCG is slow; not a
 * synchronisation: the program has exited when this is called).
 */
static bool log_line(int s, char *buf, size_t len)
{
	struct pollfd p = { .fd = s, .events = POLLIN };
	ssize_t n;

	if (poll(&p, 1, 10000) != 1 || (n = recv(s, buf, len - 1, 0)) < 0)
		return false;
	buf[n] = '\0';
	return true;
}

/*
 * cap_syslog: the message logged after caph_enter_casper() arrives at
 * /dev/log as the one syslog(3) logs without Capsicum, and the program's
 * own connect to /dev/log fails with ECAPMODE. Root binds /dev/log.
 */
SELFTEST(casper_syslog_message)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	char plain[256], caph[256], line[512];
	int s;

	if (!fixture_loaded())
		return;
	if (!selftest_is_root()) {
		selftest_skip("binding /dev/log needs root");
		return;
	}
	strcpy(sun.sun_path, "/dev/log");
	s = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (!ASSERT_OK(s, "socket"))
		return;
	if (bind(s, (struct sockaddr *)&sun, sizeof(sun))) {
		if (errno == EADDRINUSE)
			selftest_skip("a log daemon has /dev/log");
		else
			ASSERT_OK(-1, "bind /dev/log");
		close(s);
		return;
	}
	ASSERT_EQ(run((char *[]){ "syslog_msg", "-N", "plain-hello", NULL },
		      plain, sizeof(plain)),
		  0, "plain run");
	ASSERT_TRUE(!strcmp(plain, "connect: errno 0\n"), "plain connects");
	if (ASSERT_TRUE(log_line(s, line, sizeof(line)), "plain message"))
		ASSERT_TRUE(strstr(line, "syslog_msg: plain-hello"),
			    "plain text");
	ASSERT_EQ(run((char *[]){ "syslog_msg", "casper-hello", NULL }, caph,
		      sizeof(caph)),
		  0, "sandboxed run");
	if (!ASSERT_TRUE(!strcmp(caph, "connect: errno 134\nsandboxed 1\n"),
			 "ECAPMODE for the program's own connect"))
		printf("    got '%s'\n", caph);
	if (ASSERT_TRUE(log_line(s, line, sizeof(line)), "casper's message"))
		if (!ASSERT_TRUE(strstr(line, "syslog_msg: casper-hello"),
				 "the same line through cap_syslog"))
			printf("    got '%s'\n", line);
	close(s);
	unlink("/dev/log");
}
