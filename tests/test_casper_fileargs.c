// SPDX-License-Identifier: BSD-2-Clause
/*
 * fileargs on the host, through a real casper process (no BPF side: the
 * rights limit is ENOSYS, which the service tolerates): only the listed
 * names and the granted operations, limits set once, garbage refused
 * without harm. The limit logic is also tried on the service's functions
 * directly.
 *
 *   tmp/
 *   |-- a      "hello\n"
 *   `-- b      "other\n"   (never listed)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include <casper/cap_fileargs.h>
#include <libcasper.h>

#include "casper/fileargs_proto.h"

static char dir[] = "/tmp/casper-fa-XXXXXX";
static char a[PATH_MAX], b[PATH_MAX];

static void tree(void)
{
	int fd;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(a, sizeof(a), "%s/a", dir);
	snprintf(b, sizeof(b), "%s/b", dir);
	fd = open(a, O_WRONLY | O_CREAT, 0644);
	cr_assert_eq(write(fd, "hello\n", 6), 6);
	close(fd);
	fd = open(b, O_WRONLY | O_CREAT, 0644);
	cr_assert_eq(write(fd, "other\n", 6), 6);
	close(fd);
}

static void untree(void)
{
	unlink(a);
	unlink(b);
	rmdir(dir);
}

TestSuite(casper_fileargs, .init = tree, .fini = untree);

Test(casper_fileargs, listed_names_only)
{
	char *argv[] = { a, NULL };
	char buf[16] = "", path[PATH_MAX];
	cap_rights_t rights;
	struct stat sb;
	fileargs_t *fa;
	FILE *f;
	int fd;

	cap_rights_init(&rights, CAP_READ, CAP_FSTAT);
	fa = fileargs_init(1, argv, O_RDONLY, 0, &rights, FA_OPEN | FA_LSTAT);
	cr_assert_not_null(fa, "fileargs_init: %s", strerror(errno));
	fd = fileargs_open(fa, a);
	cr_assert_geq(fd, 0, "open: %s", strerror(errno));
	cr_expect_eq(read(fd, buf, sizeof(buf)), 6);
	cr_expect_str_eq(buf, "hello\n");
	/* Not close-on-exec: O_CLOEXEC was not among the flags. */
	cr_expect_eq(fcntl(fd, F_GETFD), 0);
	close(fd);
	f = fileargs_fopen(fa, a, "r");
	cr_assert_not_null(f);
	cr_expect_not_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	cr_expect_eq(fileargs_lstat(fa, a, &sb), 0);
	cr_expect_eq(sb.st_size, 6);
	errno = 0;
	cr_expect_eq(fileargs_open(fa, b), -1);
	cr_expect_eq(errno, ENOTCAPABLE);
	errno = 0;
	cr_expect_eq(fileargs_lstat(fa, "a", &sb), -1, "names match exactly");
	cr_expect_eq(errno, ENOTCAPABLE);
	errno = 0;
	cr_expect_null(fileargs_realpath(fa, a, path), "FA_REALPATH not given");
	cr_expect_eq(errno, ENOTCAPABLE);
	fileargs_free(fa);
}

Test(casper_fileargs, realpath_and_cloexec)
{
	char *argv[] = { a, b, NULL }, path[PATH_MAX], *p;
	fileargs_t *fa = fileargs_init(2, argv, O_RDONLY | O_CLOEXEC, 0, NULL,
				       FA_OPEN | FA_REALPATH);
	int fd;

	cr_assert_not_null(fa);
	p = fileargs_realpath(fa, b, path);
	cr_expect_eq(p, path);
	cr_expect_str_eq(path, b);
	p = fileargs_realpath(fa, a, NULL);
	cr_expect_str_eq(p, a);
	free(p);
	fd = fileargs_open(fa, b);
	cr_assert_geq(fd, 0);
	cr_expect_eq(fcntl(fd, F_GETFD), FD_CLOEXEC);
	close(fd);
	errno = 0;
	cr_expect_eq(fileargs_lstat(fa, a, &(struct stat){ 0 }), -1);
	cr_expect_eq(errno, ENOTCAPABLE, "FA_LSTAT not given");
	fileargs_free(fa);
}

Test(casper_fileargs, no_names_refuses_all)
{
	fileargs_t *fa = fileargs_init(0, NULL, O_RDONLY, 0, NULL, FA_OPEN);

	cr_assert_not_null(fa);
	errno = 0;
	cr_expect_eq(fileargs_open(fa, a), -1);
	cr_expect_eq(errno, ENOTCAPABLE);
	fileargs_free(fa);
}

/* Clones keep the limits; fileargs_wrap() over a clone works. */
Test(casper_fileargs, clone_keeps_limits)
{
	char *argv[] = { a, NULL };
	cap_channel_t *cas = cap_init(), *chan;
	fileargs_t *fa, *fb;
	int fd, flags;

	cr_assert_not_null(cas);
	fa = fileargs_cinit(cas, 1, argv, O_RDONLY, 0, NULL, FA_OPEN);
	cr_assert_not_null(fa);
	chan = fileargs_unwrap(fa, &flags);
	cr_expect_eq(flags, O_RDONLY);
	fb = fileargs_wrap(cap_clone(chan), flags);
	cap_close(chan);
	fd = fileargs_open(fb, a);
	cr_expect_geq(fd, 0);
	close(fd);
	errno = 0;
	cr_expect_eq(fileargs_open(fb, b), -1);
	cr_expect_eq(errno, ENOTCAPABLE);
	fileargs_free(fb);
	cap_close(cas);
}

/*
 * A program that talks to the service itself: garbage, a second limit
 * that would add a name, a request before any limit. Every one is an
 * error, and the service still answers and still refuses b.
 */
Test(casper_fileargs, garbage_and_widening)
{
	cap_channel_t *cas = cap_init(), *chan;
	char *argv[] = { a, NULL };
	struct msg *req, *rep;
	fileargs_t *fa;
	int sock, fd;

	cr_assert_not_null(cas);
	chan = cap_service_open(cas, FILEARGS_SERVICE);
	cr_assert_not_null(chan);
	sock = cap_sock(chan);
	/* Before limits: nothing. */
	req = casper_request("open");
	msg_add_str(req, FAK_NAME, b);
	errno = 0;
	cr_expect_null(casper_call(chan, req));
	cr_expect_eq(errno, ENOTCAPABLE);
	cap_close(chan);

	fa = fileargs_cinit(cas, 1, argv, O_RDONLY, 0, NULL, FA_OPEN);
	cr_assert_not_null(fa);
	chan = fileargs_unwrap(fa, NULL);
	sock = cap_sock(chan);
	for (int i = 0; i < 64; i++) {
		unsigned char junk[64];

		for (size_t j = 0; j < sizeof(junk); j++)
			junk[j] = (unsigned char)(i * 31 + j * 7);
		cr_assert_eq(send(sock, junk, (size_t)(i + 1), 0), i + 1);
		rep = msg_recv(sock, 1);
		cr_assert_not_null(rep, "the service answers garbage");
		uint64_t e = 0;
		msg_get_u64(rep, MK_ERROR, &e);
		cr_expect_eq(e, EBADMSG);
		msg_free(rep);
	}
	/* Two names, two commands, a name of the wrong type. */
	req = casper_request("open");
	msg_add_str(req, FAK_NAME, a);
	msg_add_str(req, FAK_NAME, b);
	errno = 0;
	cr_expect_null(casper_call(chan, req));
	cr_expect_eq(errno, EINVAL);
	req = casper_request("open");
	msg_add_str(req, MK_CMD, "open");
	msg_add_str(req, FAK_NAME, b);
	errno = 0;
	cr_expect_null(casper_call(chan, req));
	cr_expect_eq(errno, EBADMSG);
	/* Widening the list. */
	req = msg_new();
	msg_add_u64(req, FAK_FLAGS, O_RDONLY);
	msg_add_u64(req, FAK_MODE, 0);
	msg_add_u64(req, FAK_OPERATIONS, FA_OPEN);
	msg_add_str(req, FAK_NAME, b);
	errno = 0;
	cr_expect_eq(casper_limit_set(chan, req), -1);
	cr_expect_eq(errno, ENOTCAPABLE);
	fa = fileargs_wrap(chan, 0);
	errno = 0;
	cr_expect_eq(fileargs_open(fa, b), -1);
	cr_expect_eq(errno, ENOTCAPABLE);
	fd = fileargs_open(fa, a);
	cr_expect_geq(fd, 0, "still serving");
	close(fd);
	fileargs_free(fa);
	cap_close(cas);
}

/* The limit function itself: what a first limit must look like. */
Test(casper_fileargs, limit_validation)
{
	struct msg *m = msg_new();
	cap_rights_t bad;

	memset(&bad, 0xff, sizeof(bad));
	msg_add_u64(m, FAK_FLAGS, O_RDONLY);
	msg_add_u64(m, FAK_MODE, 0);
	cr_expect_eq(fileargs_service.limit(NULL, m), EINVAL, "no operations");
	msg_add_u64(m, FAK_OPERATIONS, FA_OPEN);
	cr_expect_eq(fileargs_service.limit(NULL, m), 0);
	cr_expect_eq(fileargs_service.limit(m, m), ENOTCAPABLE, "set once");
	msg_add_bytes(m, FAK_RIGHTS, &bad, sizeof(bad));
	cr_expect_eq(fileargs_service.limit(NULL, m), EINVAL, "bad rights");
	msg_free(m);
	m = msg_new();
	msg_add_u64(m, FAK_FLAGS, O_RDONLY);
	msg_add_u64(m, FAK_MODE, 0);
	msg_add_u64(m, FAK_OPERATIONS, 8);
	cr_expect_eq(fileargs_service.limit(NULL, m), EINVAL, "unknown op");
	msg_free(m);
	m = msg_new();
	msg_add_u64(m, FAK_FLAGS, O_RDONLY);
	msg_add_u64(m, FAK_MODE, 0);
	msg_add_u64(m, FAK_OPERATIONS, FA_OPEN);
	msg_add_u64(m, 99, 0);
	cr_expect_eq(fileargs_service.limit(NULL, m), EINVAL, "unknown key");
	msg_free(m);
}
