// SPDX-License-Identifier: BSD-2-Clause
/*
 * <capsicum_helpers.h> on the host, where the BPF side is never loaded:
 * the helpers treat ENOSYS as "no Capsicum here" and succeed, as FreeBSD's
 * do, but pass every other error on; the stream rights are FreeBSD's; and
 * the caching helpers leave glibc able to work under the real capability
 * mode seccomp filter (which does install on the host): local time, and
 * libc's messages translated from a catalogue the test writes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libintl.h>
#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include <capsicum_helpers.h>

#include "lib/capmode.h"

/* A descriptor number nobody has open. */
static int closed_fd(void)
{
	int fd = open("/dev/null", O_RDONLY);

	cr_assert_geq(fd, 0);
	close(fd);
	return fd;
}

Test(caph, stream_rights_are_freebsds)
{
	cap_rights_t r, want;

	caph_stream_rights(&r, CAPH_READ);
	cap_rights_init(&want, CAP_EVENT, CAP_FCNTL, CAP_FSTAT, CAP_IOCTL,
			CAP_SEEK, CAP_READ);
	cr_expect_eq(memcmp(&r, &want, sizeof(r)), 0, "read stream");
	cr_expect_not(cap_rights_is_set(&r, CAP_WRITE));

	caph_stream_rights(&r, CAPH_WRITE | CAPH_LOOKUP);
	cap_rights_init(&want, CAP_EVENT, CAP_FCNTL, CAP_FSTAT, CAP_IOCTL,
			CAP_SEEK, CAP_WRITE, CAP_LOOKUP);
	cr_expect_eq(memcmp(&r, &want, sizeof(r)), 0, "write+lookup stream");
	cr_expect_not(cap_rights_is_set(&r, CAP_READ));
}

Test(caph, freebsd_flag_values)
{
	cr_expect_eq(CAPH_IGNORE_EBADF, 0x1);
	cr_expect_eq(CAPH_READ, 0x2);
	cr_expect_eq(CAPH_WRITE, 0x4);
	cr_expect_eq(CAPH_LOOKUP, 0x8);
	cr_expect_eq(TIOCGETA, TCGETS);
}

Test(caph, enosys_is_success)
{
	int fd = open("/dev/null", O_RDWR);
	const cap_ioctl_t cmds[] = { TIOCGWINSZ };
	cap_rights_t r;

	cr_assert_geq(fd, 0);
	/* The raw calls do fail here; the helpers must not. */
	cap_rights_init(&r, CAP_READ);
	cr_assert_eq(cap_rights_limit(fd, &r), -1);
	cr_assert_eq(errno, ENOSYS);

	cr_expect_eq(caph_rights_limit(fd, &r), 0);
	cr_expect_eq(caph_ioctls_limit(fd, cmds, 1), 0);
	cr_expect_eq(caph_fcntls_limit(fd, CAP_FCNTL_GETFL), 0);
	cr_expect_eq(caph_limit_stream(fd, CAPH_READ | CAPH_WRITE), 0);
	cr_expect_eq(caph_limit_stdio(), 0);
	cr_expect_eq(caph_enter(), 0);
	cr_expect_eq(caph_enter_casper(), 0);
	cr_expect_not(cap_sandboxed());
	close(fd);
}

Test(caph, other_errors_pass_through)
{
	int fd = closed_fd();
	cap_rights_t bad;

	errno = 0;
	cr_expect_eq(caph_limit_stream(fd, CAPH_READ), -1);
	cr_expect_eq(errno, EBADF);
	errno = 0;
	cr_expect_eq(caph_rights_limit(fd, NULL), -1);
	cr_expect_eq(errno, EINVAL);
	errno = 0;
	cr_expect_eq(caph_fcntls_limit(0, ~0U), -1);
	cr_expect_eq(errno, EINVAL);
	errno = 0;
	cr_expect_eq(caph_ioctls_limit(0, NULL, 1), -1);
	cr_expect_eq(errno, EINVAL);
	/* An invalid rights value (no version/index bits) is EINVAL too. */
	memset(&bad, 0, sizeof(bad));
	errno = 0;
	cr_expect_eq(caph_rights_limit(0, &bad), -1);
	cr_expect_eq(errno, EINVAL);
}

Test(caph, ignore_ebadf)
{
	int fd = closed_fd();

	cr_expect_eq(caph_limit_stream(fd, CAPH_WRITE | CAPH_IGNORE_EBADF), 0);
}

/* caph_limit_stdio() with every standard descriptor closed, in a child. */
Test(caph, stdio_tolerates_closed_descriptors)
{
	int status;
	pid_t pid = fork();

	cr_assert_geq(pid, 0);
	if (pid == 0) {
		close(0);
		close(1);
		close(2);
		_exit(caph_limit_stdio() == 0 && caph_limit_stdin() == -1 &&
				      errno == EBADF
			      ? 0
			      : 1);
	}
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		  "caph_limit_stdio with closed stdio: status 0x%x", status);
}

/*
 * The parent's side of a child that writes one string to p[1]: reads it
 * into out (NUL-terminated) and reaps the child; its wait status.
 */
static int child_output(int p[2], pid_t pid, char *out, size_t len)
{
	ssize_t n;
	int status;

	close(p[1]);
	n = read(p[0], out, len - 1);
	out[n > 0 ? n : 0] = '\0';
	close(p[0]);
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	return status;
}

/*
 * The local time of a fixed instant in a child under the capability mode
 * filter, TZ set, with or without caph_cache_tzdata() before entering.
 */
static void localtime_in_capmode(bool cache, char *out, size_t len)
{
	int p[2], status;
	pid_t pid;

	cr_assert_eq(pipe(p), 0);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		time_t t = 1700000000;
		char buf[64] = "";

		close(p[0]);
		setenv("TZ", "Europe/Berlin", 1);
		if (cache)
			caph_cache_tzdata();
		if (capsicum_capmode_install())
			_exit(1);
		strftime(buf, sizeof(buf), "%H:%M %Z", localtime(&t));
		_exit(write(p[1], buf, strlen(buf)) < 0 ? 2 : 0);
	}
	status = child_output(p, pid, out, len);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		  "child status 0x%x", status);
}

Test(caph, tzdata_makes_localtime_work_in_capmode)
{
	char cached[64], uncached[64];

	if (access("/usr/share/zoneinfo/Europe/Berlin", R_OK))
		cr_skip_test("no tzdata on this host");
	localtime_in_capmode(true, cached, sizeof(cached));
	cr_expect_str_eq(cached, "23:13 CET");
	/* Without it glibc's lazy load is refused: the test can fail. */
	localtime_in_capmode(false, uncached, sizeof(uncached));
	cr_expect_str_neq(uncached, "23:13 CET");
}

/*
 * A one-message libc catalogue for language "xx" under dir, in ISO-8859-1
 * so that gettext also needs a gconv conversion to the UTF-8 locale:
 * "No such file or directory" becomes CATPAGES_XX.
 */
#define CATPAGES_XX "Datei fehlt \xc3\xbc" /* the u-umlaut in UTF-8 */
static bool write_libc_mo(const char *dir)
{
	const char *ids[] = { "", "No such file or directory" };
	const char *strs[] = {
		"Content-Type: text/plain; charset=ISO-8859-1\n",
		"Datei fehlt \xfc",
	};
	uint32_t head[7] = { 0x950412de, 0, 2, 28, 28 + 16, 0, 28 + 32 };
	uint32_t tab[8], at = head[6];
	char path[256];
	FILE *f;

	for (int i = 0; i < 4; i++) {
		const char *str = i < 2 ? ids[i] : strs[i - 2];

		tab[2 * i] = (uint32_t)strlen(str);
		tab[2 * i + 1] = at;
		at += (uint32_t)strlen(str) + 1;
	}
	snprintf(path, sizeof(path), "%s/xx", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/xx/LC_MESSAGES", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/xx/LC_MESSAGES/libc.mo", dir);
	f = fopen(path, "wb");
	if (!f)
		return false;
	fwrite(head, sizeof(head), 1, f);
	fwrite(tab, sizeof(tab), 1, f);
	for (int i = 0; i < 4; i++) {
		const char *str = i < 2 ? ids[i] : strs[i - 2];

		fwrite(str, strlen(str) + 1, 1, f);
	}
	return fclose(f) == 0;
}

static void remove_libc_mo(const char *dir)
{
	const char *parts[] = { "/xx/LC_MESSAGES/libc.mo", "/xx/LC_MESSAGES",
				"/xx", "" };
	char path[256];

	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", dir, parts[i]);
		remove(path);
	}
}

/* strerror(ENOENT) in capability mode, LANGUAGE=xx, a UTF-8 locale. */
static void strerror_in_capmode(bool cache, char *out, size_t len)
{
	char dir[] = "/tmp/caph-mo-XXXXXX";
	int p[2], status;
	pid_t pid;

	cr_assert(mkdtemp(dir) && write_libc_mo(dir), "catalogue");
	cr_assert_eq(pipe(p), 0);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		const char *msg;

		close(p[0]);
		setenv("LANGUAGE", "xx", 1);
		if (!setlocale(LC_ALL, "C.UTF-8") ||
		    !bindtextdomain("libc", dir))
			_exit(3);
		if (cache)
			caph_cache_catpages();
		if (capsicum_capmode_install())
			_exit(1);
		msg = strerror(ENOENT);
		_exit(write(p[1], msg, strlen(msg)) < 0 ? 2 : 0);
	}
	status = child_output(p, pid, out, len);
	remove_libc_mo(dir);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		  "child status 0x%x", status);
}

Test(caph, catpages_makes_strerror_translate_in_capmode)
{
	char cached[128], uncached[128];

	strerror_in_capmode(true, cached, sizeof(cached));
	cr_expect_str_eq(cached, CATPAGES_XX);
	/* Without it the catalogue cannot be opened: the test can fail. */
	strerror_in_capmode(false, uncached, sizeof(uncached));
	cr_expect_str_eq(uncached, "No such file or directory");
}

Test(caph, catpages_keeps_errno)
{
	errno = EPERM;
	caph_cache_catpages();
	cr_expect_eq(errno, EPERM);
}
