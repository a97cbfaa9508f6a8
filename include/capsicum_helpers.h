/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * FreeBSD's <capsicum_helpers.h> for Linux: the same static inline helpers
 * with the same names, flags and semantics (capsicum_helpers(3)), so
 * FreeBSD's sandboxed utilities build unchanged. Being inline, they use
 * only libcapsicum's public API.
 *
 * Where glibc differs from FreeBSD's libc, the helpers do what makes the
 * sandboxed program behave as it does on FreeBSD: the stream ioctl list
 * holds the commands glibc itself issues (TCGETS for isatty()), and
 * caph_cache_catpages() loads what strerror() reads lazily. What glibc
 * loads lazily that no helper can cache is listed in capsicum_helpers(3).
 */
#ifndef _CAPSICUM_HELPERS_H_
#define _CAPSICUM_HELPERS_H_

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <sys/capsicum.h>

#ifdef __cplusplus
extern "C" {
#endif

/* caph_limit_stream() and caph_stream_rights() flags, FreeBSD's values. */
#define CAPH_IGNORE_EBADF 0x0001
#define CAPH_READ	  0x0002
#define CAPH_WRITE	  0x0004
#define CAPH_LOOKUP	  0x0008

/*
 * FreeBSD's termios ioctl names, for the programs that list them in their
 * own cap_ioctls_limit() calls: Linux's commands of the same meaning.
 * FIODTYPE (FreeBSD's device-type query) has no Linux counterpart and is
 * left undefined, so a program that needs it fails to build rather than
 * issue some other command.
 */
#ifndef TIOCGETA
#define TIOCGETA TCGETS
#endif
#ifndef TIOCSETA
#define TIOCSETA TCSETS
#endif
#ifndef TIOCSETAW
#define TIOCSETAW TCSETSW
#endif
#ifndef TIOCSETAF
#define TIOCSETAF TCSETSF
#endif

/*
 * Declared here too because strict ISO C modes (-std=c11) hide it in
 * <time.h>. C++ compilers define _GNU_SOURCE, and a redeclaration there
 * would differ from glibc's in its exception specification.
 */
#ifndef __cplusplus
extern void tzset(void);
#endif

/*
 * The rights of a stdio stream: poll/select it, fcntl(F_GETFL) and fstat it
 * (fdopen() and the stdio buffer setup do), seek it (ftell, and glibc's
 * exit() syncs the offset of input streams), its ioctls, plus what the
 * flags add.
 */
static inline void caph_stream_rights(cap_rights_t *rights, int flags)
{
	cap_rights_init(rights, CAP_EVENT, CAP_FCNTL, CAP_FSTAT, CAP_IOCTL,
			CAP_SEEK);
	if (flags & CAPH_READ)
		cap_rights_set(rights, CAP_READ);
	if (flags & CAPH_WRITE)
		cap_rights_set(rights, CAP_WRITE);
	if (flags & CAPH_LOOKUP)
		cap_rights_set(rights, CAP_LOOKUP);
}

/*
 * ENOSYS means "this system has no Capsicum" (here: the BPF side is not
 * loaded); FreeBSD's helpers then succeed so the program runs unsandboxed
 * rather than not at all, and so do these.
 */
static inline int caph_rights_limit(int fd, const cap_rights_t *rights)
{
	if (cap_rights_limit(fd, rights) < 0 && errno != ENOSYS)
		return -1;
	return 0;
}

static inline int caph_ioctls_limit(int fd, const cap_ioctl_t *cmds,
				    size_t ncmds)
{
	if (cap_ioctls_limit(fd, cmds, ncmds) < 0 && errno != ENOSYS)
		return -1;
	return 0;
}

static inline int caph_fcntls_limit(int fd, uint32_t fcntlrights)
{
	if (cap_fcntls_limit(fd, fcntlrights) < 0 && errno != ENOSYS)
		return -1;
	return 0;
}

static inline int caph_enter(void)
{
	if (cap_enter() < 0 && errno != ENOSYS)
		return -1;
	return 0;
}

/*
 * FreeBSD's enters capability mode only when libcasper is real: its
 * fallback (CASPER_SUPPORT 0) runs the services in-process, which
 * capability mode would break. This project's <libcasper.h> is real and
 * defines it as 1, so this is caph_enter(); a fallback libcasper that
 * defines it as 0 gets FreeBSD's no-op.
 */
static inline int caph_enter_casper(void)
{
#if defined(CASPER_SUPPORT) && !CASPER_SUPPORT
	return 0;
#else
	return caph_enter();
#endif
}

static inline int caph_limit_stream(int fd, int flags)
{
	/*
	 * FreeBSD's list is TIOCGETA, TIOCGWINSZ, FIODTYPE. glibc's isatty()
	 * and tcgetattr() ask TCGETS (TIOCGETA above); FIODTYPE has no Linux
	 * counterpart, and nothing in glibc needs one.
	 */
	const cap_ioctl_t cmds[] = { TCGETS, TIOCGWINSZ };
	cap_rights_t rights;

	caph_stream_rights(&rights, flags);
	if (cap_rights_limit(fd, &rights) < 0 && errno != ENOSYS) {
		if (errno == EBADF && (flags & CAPH_IGNORE_EBADF))
			return 0;
		return -1;
	}
	if (caph_ioctls_limit(fd, cmds, sizeof(cmds) / sizeof(cmds[0])) < 0)
		return -1;
	if (caph_fcntls_limit(fd, CAP_FCNTL_GETFL) < 0)
		return -1;
	return 0;
}

static inline int caph_limit_stdin(void)
{
	return caph_limit_stream(STDIN_FILENO, CAPH_READ);
}

static inline int caph_limit_stdout(void)
{
	return caph_limit_stream(STDOUT_FILENO, CAPH_WRITE);
}

static inline int caph_limit_stderr(void)
{
	return caph_limit_stream(STDERR_FILENO, CAPH_WRITE);
}

/* Closed standard descriptors are fine here, as on FreeBSD. */
static inline int caph_limit_stdio(void)
{
	if (caph_limit_stream(STDIN_FILENO, CAPH_READ | CAPH_IGNORE_EBADF) ||
	    caph_limit_stream(STDOUT_FILENO, CAPH_WRITE | CAPH_IGNORE_EBADF) ||
	    caph_limit_stream(STDERR_FILENO, CAPH_WRITE | CAPH_IGNORE_EBADF))
		return -1;
	return 0;
}

/*
 * glibc reads the zone file (TZ, or /etc/localtime) in tzset() and, as
 * long as TZ keeps its value, never again: localtime() and strftime() then
 * work in capability mode, where the file can no longer be opened.
 */
static inline void caph_cache_tzdata(void)
{
	tzset();
}

/*
 * FreeBSD opens libc's NLS catalogue. glibc has none: strerror(),
 * strsignal() and err(3) translate through gettext, which loads libc's
 * message catalogue for the LC_MESSAGES locale setlocale() chose, and the
 * gconv module converting it to the locale's codeset, at the first
 * message. Asking for one message loads both now. In the C locale nothing
 * is loaded, now or later.
 */
static inline void caph_cache_catpages(void)
{
	int saved = errno;

	(void)strerror(ENOENT);
	errno = saved;
}

#ifdef __cplusplus
}
#endif

#endif /* _CAPSICUM_HELPERS_H_ */
