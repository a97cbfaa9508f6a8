// SPDX-License-Identifier: GPL-2.0
/*
 * <capsicum_helpers.h> with the BPF side loaded: the stream limits are the
 * ones the header promises and glibc works under them, and a FreeBSD-style
 * program (selftests/programs/caph_cat.c, built against the installed
 * tree through pkg-config) behaves in capability mode as it does without
 * Capsicum, while its escapes fail with the right errno.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <capsicum_helpers.h>

#include "fixture.h"
#include "selftest.h"

/* Where the Makefile puts the program and the library in the VM. */
#define CAPH_CAT "/usr/libexec/capsicum/caph_cat"
#define LIBDIR	 "/usr/local/lib"
#define INPUT	 "line one\nline two\n"

/* A pty's slave end, for isatty() to say yes to. -1 if none. */
static int open_pty(int *master)
{
	int m = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC), s;

	if (m < 0 || grantpt(m) || unlockpt(m)) {
		if (m >= 0)
			close(m);
		return -1;
	}
	s = open(ptsname(m), O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (s < 0) {
		close(m);
		return -1;
	}
	*master = m;
	return s;
}

SELFTEST(caph_limit_stream_limits)
{
	cap_ioctl_t got[8];
	cap_rights_t r, want;
	uint32_t fcntls;
	int m, s, fd;

	if (!fixture_loaded())
		return;
	s = open_pty(&m);
	if (!ASSERT_OK(s, "pty"))
		return;
	fd = dup(s);
	ASSERT_OK(caph_limit_stream(fd, CAPH_WRITE), "caph_limit_stream");
	ASSERT_OK(cap_rights_get(fd, &r), "cap_rights_get");
	caph_stream_rights(&want, CAPH_WRITE);
	ASSERT_TRUE(!memcmp(&r, &want, sizeof(r)), "caph_stream_rights()");
	ASSERT_OK(cap_fcntls_get(fd, &fcntls), "cap_fcntls_get");
	ASSERT_EQ(fcntls, CAP_FCNTL_GETFL, "fcntls");
	if (ASSERT_EQ(cap_ioctls_get(fd, got, 8), 2, "two ioctls"))
		ASSERT_TRUE(got[0] == TCGETS && got[1] == TIOCGWINSZ,
			    "TCGETS and TIOCGWINSZ");
	/* What glibc and the FreeBSD programs do on a stream works... */
	ASSERT_EQ(isatty(fd), 1, "isatty");
	ASSERT_OK(fcntl(fd, F_GETFL), "F_GETFL");
	ASSERT_EQ(write(fd, "x", 1), 1, "write");
	/* ...and no more. */
	ASSERT_ERRNO(fcntl(fd, F_SETFL, O_NONBLOCK), ENOTCAPABLE, "F_SETFL");
	ASSERT_ERRNO(ioctl(fd, TIOCSTI, "x"), ENOTCAPABLE, "TIOCSTI");
	ASSERT_ERRNO(read(fd, got, 1), ENOTCAPABLE, "read");
	close(fd);
	/*
	 * FreeBSD's list as such, without TCGETS: isatty() says no. This is
	 * why the Linux list has TCGETS, and what makes the test above fail
	 * if it lost it.
	 */
	fd = dup(s);
	ASSERT_OK(caph_ioctls_limit(fd, (cap_ioctl_t[]){ TIOCGWINSZ }, 1),
		  "TIOCGWINSZ only");
	ASSERT_EQ(isatty(fd), 0, "isatty without TCGETS");
	close(fd);
	ASSERT_OK(caph_limit_stream(s, CAPH_READ | CAPH_IGNORE_EBADF),
		  "IGNORE_EBADF on an open descriptor");
	close(s);
	ASSERT_OK(caph_limit_stream(s, CAPH_READ | CAPH_IGNORE_EBADF),
		  "IGNORE_EBADF on a closed descriptor");
	ASSERT_ERRNO(caph_limit_stream(s, CAPH_READ), EBADF, "closed");
	close(m);
}

/*
 * Runs caph_cat with `flags` ("" for none): stdin a socket holding INPUT
 * (read-write, as a terminal stdin is: only its rights can refuse a
 * write), stdout a pipe read into out, stderr the slave of a pty. Its exit
 * status.
 */
static int run_caph_cat(const char *flags, char *out, size_t len)
{
	char *envp[] = { "TZ=Europe/Berlin", "LD_LIBRARY_PATH=" LIBDIR, NULL };
	char *argv[] = { "caph_cat", (char *)flags, NULL };
	int in[2], res[2], m, s, status;
	size_t got = 0;
	ssize_t n;
	pid_t pid;

	if (!*flags)
		argv[1] = NULL;
	s = open_pty(&m);
	if (!ASSERT_OK(s, "pty") ||
	    !ASSERT_OK(socketpair(AF_UNIX, SOCK_STREAM, 0, in), "socketpair") ||
	    !ASSERT_OK(pipe(res), "pipe"))
		return -1;
	/* Fits in the socket buffer: written before the child runs. */
	if (!ASSERT_EQ(write(in[0], INPUT, strlen(INPUT)), strlen(INPUT),
		       "input") ||
	    !ASSERT_OK(shutdown(in[0], SHUT_WR), "shutdown"))
		return -1;
	pid = fork();
	if (pid == 0) {
		if (dup2(in[1], 0) < 0 || dup2(res[1], 1) < 0 || dup2(s, 2) < 0)
			_exit(126);
		execve(CAPH_CAT, argv, envp);
		_exit(127);
	}
	close(in[1]);
	close(res[1]);
	while (got < len - 1 &&
	       (n = read(res[0], out + got, len - 1 - got)) > 0)
		got += (size_t)n;
	out[got] = '\0';
	close(res[0]);
	status = selftest_wait(pid);
	close(in[0]);
	close(s);
	close(m);
	return status;
}

SELFTEST(caph_cat_runs_sandboxed_as_unsandboxed)
{
	const char *want = INPUT "isatty(stderr) 1\n"
				 "TIOCGWINSZ(stderr) ok\n"
				 "localtime 2023-11-14 23:13:20 CET\n";
	char plain[512], caph[512], notz[512];

	if (!fixture_loaded())
		return;
	ASSERT_EQ(run_caph_cat("-n", plain, sizeof(plain)), 0, "plain run");
	if (!ASSERT_TRUE(!strcmp(plain, want), "plain output"))
		printf("    got '%s'\n", plain);
	ASSERT_EQ(run_caph_cat("", caph, sizeof(caph)), 0, "sandboxed run");
	if (!ASSERT_TRUE(!strcmp(caph, plain), "same output in capmode"))
		printf("    got '%s'\n", caph);
	/*
	 * Without caph_cache_tzdata() the zone file cannot be read once in
	 * capability mode: the comparison above can fail.
	 */
	ASSERT_EQ(run_caph_cat("-T", notz, sizeof(notz)), 0, "run without tz");
	ASSERT_TRUE(strcmp(notz, plain) && !strstr(notz, "CET"),
		    "no local time without caph_cache_tzdata()");
}

SELFTEST(caph_cat_escapes_fail)
{
	char plain[512], caph[512];

	if (!fixture_loaded())
		return;
	ASSERT_EQ(run_caph_cat("-ne", plain, sizeof(plain)), 0, "plain run");
	/* Unsandboxed both work. */
	ASSERT_TRUE(strstr(plain, "sandboxed 0\n") &&
			    strstr(plain, "open /etc/passwd: errno 0\n") &&
			    strstr(plain, "write stdin: errno 0\n"),
		    "plain escapes");
	ASSERT_EQ(run_caph_cat("-e", caph, sizeof(caph)), 0, "sandboxed run");
	if (!ASSERT_TRUE(
		    strstr(caph, "sandboxed 1\n") &&
			    strstr(caph, "open /etc/passwd: errno 134\n") &&
			    strstr(caph, "write stdin: errno 135\n"),
		    "ECAPMODE and ENOTCAPABLE"))
		printf("    got '%s'\n", caph);
}
