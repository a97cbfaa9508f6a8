// SPDX-License-Identifier: GPL-2.0
/*
 * capctl run: starts an unmodified program with limited descriptors and,
 * with --capmode, in capability mode. Allowed directories are opened
 * first and placed at fds 3, 4, ... in order, listed in $CAPCTL_DIRS as
 * "3:/path,4:/other". Capability mode forbids execve, so the program is
 * opened beforehand and started with execveat(fd, "", AT_EMPTY_PATH),
 * which needs CAP_FEXECVE on that descriptor.
 */
#define _GNU_SOURCE
#include "commands.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capsicum.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

extern char **environ;

/* Exit code for a failed Capsicum call: ENOSYS means not loaded. */
static int capsicum_failure(const char *what, int fd)
{
	int e = errno;

	if (fd >= 0)
		fprintf(stderr, "capctl: run: %s on fd %d: %s\n", what, fd,
			strerror(e));
	else
		fprintf(stderr, "capctl: run: %s: %s\n", what, strerror(e));
	if (e == ENOSYS) {
		fprintf(stderr, "capctl: run: %s\n",
			fd < 0 ? "capability mode is not available (cap_enter "
				 "returned ENOSYS): Capsicum is not loaded "
				 "or this build has no capability mode yet"
			       : "Capsicum is not loaded (start capsicumd)");
		return CAPCTL_EXIT_UNLOADED;
	}
	return CAPCTL_EXIT_ERROR;
}

/* Opens the directories at 3, 4, ... and exports CAPCTL_DIRS. */
static int open_dirs(const struct run_opts *r)
{
	char *list = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&list, &len);
	int fds[CAPCTL_MAX_DIRS];

	if (!m)
		return -1;
	/* Open all first, high, so placing one cannot close another. */
	for (int i = 0; i < r->ndirs; i++) {
		int fd = open(r->dirs[i].path,
			      O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		struct statfs fs;
		char msg[512];
		int verdict = 0;

		if (fd < 0 || fstatfs(fd, &fs)) {
			fprintf(stderr, "capctl: run: --allow-dir %s: %s\n",
				r->dirs[i].path, strerror(errno));
			verdict = -1;
		} else {
			verdict = allow_dir_fs_check(
				r->dirs[i].path, (long)fs.f_type,
				r->allow_procfs, msg, sizeof(msg));
			if (verdict)
				fprintf(stderr, "capctl: run: %s\n", msg);
		}
		if (verdict < 0) {
			if (fd >= 0)
				close(fd);
			fclose(m);
			free(list);
			return -1;
		}
		fds[i] = fcntl(fd, F_DUPFD_CLOEXEC, 1000);
		close(fd);
		if (fds[i] < 0) {
			fclose(m);
			free(list);
			return -1;
		}
	}
	for (int i = 0; i < r->ndirs; i++) {
		int want = CAPCTL_FIRST_DIR_FD + i;

		if (dup2(fds[i], want) != want)
			return -1;
		close(fds[i]);
		fprintf(m, "%s%d:%s", i ? "," : "", want, r->dirs[i].path);
		if (r->dirs[i].limited &&
		    cap_rights_limit(want, &r->dirs[i].rights))
			return -2 - want;
	}
	fclose(m);
	if (r->ndirs)
		setenv("CAPCTL_DIRS", list, 1);
	free(list);
	return 0;
}

/* The program's path: as given if it has a '/', else found on $PATH. */
static int find_program(const char *name, char *out, size_t len)
{
	const char *path = getenv("PATH");

	if (strchr(name, '/')) {
		snprintf(out, len, "%s", name);
		return 0;
	}
	if (!path)
		path = "/usr/bin:/bin";
	while (*path) {
		size_t n = strcspn(path, ":");

		snprintf(out, len, "%.*s/%s", (int)n, n ? path : ".", name);
		if (!access(out, X_OK))
			return 0;
		path += n;
		if (*path)
			path++;
	}
	errno = ENOENT;
	return -1;
}

static int exec_failure(const char *name)
{
	int e = errno;

	fprintf(stderr, "capctl: run: %s: %s\n", name, strerror(e));
	return e == ENOENT ? CAPCTL_EXIT_NOTFOUND : CAPCTL_EXIT_NOEXEC;
}

int cmd_run(const struct capctl_args *a)
{
	if (a->run.learn)
		return cmd_run_learn(a);
	return run_exec(&a->run);
}

int run_exec(const struct run_opts *r)
{
	char prog[4096];
	int exe = -1, err;

	err = open_dirs(r);
	if (err == -1)
		return CAPCTL_EXIT_ERROR;
	if (err < -1)
		return capsicum_failure("cap_rights_limit", -2 - err);
	if (r->capmode) {
		cap_rights_t fexec;

		if (find_program(r->argv[0], prog, sizeof(prog)))
			return exec_failure(r->argv[0]);
		exe = open(prog, O_RDONLY | O_CLOEXEC);
		if (exe < 0)
			return exec_failure(prog);
		cap_rights_init(&fexec, CAP_FEXECVE, CAP_READ, CAP_MMAP_RX,
				CAP_FSTAT);
		if (cap_rights_limit(exe, &fexec))
			return capsicum_failure("cap_rights_limit", exe);
	}
	for (int i = 0; i < r->nlimits; i++)
		if (cap_rights_limit(r->limits[i].fd, &r->limits[i].rights))
			return capsicum_failure("cap_rights_limit",
						r->limits[i].fd);
	if (!r->capmode) {
		execvp(r->argv[0], r->argv);
		return exec_failure(r->argv[0]);
	}
	if (cap_enter())
		return capsicum_failure("cap_enter", -1);
	syscall(SYS_execveat, exe, "", r->argv, environ, AT_EMPTY_PATH);
	return exec_failure(prog);
}
