// SPDX-License-Identifier: BSD-2-Clause
/* The program's side of fileargs (cap_fileargs(3)). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <casper/cap_fileargs.h>
#include <sys/nv.h>

#include "fileargs_proto.h"

struct fileargs {
	/* NULL when fileargs_init() had no names: everything is refused. */
	cap_channel_t *chan;
	int fdflags;
};

fileargs_t *fileargs_wrap(cap_channel_t *chan, int fdflags)
{
	fileargs_t *fa = malloc(sizeof(*fa));

	if (!fa)
		return NULL;
	fa->chan = chan;
	fa->fdflags = fdflags;
	return fa;
}

cap_channel_t *fileargs_unwrap(fileargs_t *fa, int *fdflags)
{
	cap_channel_t *chan = fa->chan;

	if (fdflags)
		*fdflags = fa->fdflags;
	free(fa);
	return chan;
}

fileargs_t *fileargs_cinit(cap_channel_t *cas, int argc, char *argv[],
			   int flags, mode_t mode, cap_rights_t *rightsp,
			   int operations)
{
	cap_channel_t *chan;
	struct msg *limits;
	fileargs_t *fa;
	int i, saved;

	if (argc <= 0 || !argv)
		return fileargs_wrap(NULL, flags);
	chan = cap_service_open(cas, FILEARGS_SERVICE);
	if (!chan)
		return NULL;
	limits = msg_new();
	if (!limits)
		goto fail;
	msg_add_u64(limits, FAK_FLAGS, (uint64_t)(unsigned)flags);
	msg_add_u64(limits, FAK_MODE, (uint64_t)mode);
	msg_add_u64(limits, FAK_OPERATIONS, (uint64_t)(unsigned)operations);
	if (rightsp)
		msg_add_bytes(limits, FAK_RIGHTS, rightsp, sizeof(*rightsp));
	for (i = 0; i < argc; i++)
		msg_add_str(limits, FAK_NAME, argv[i]);
	if (casper_limit_set(chan, limits) < 0)
		goto fail;
	fa = fileargs_wrap(chan, flags);
	if (fa)
		return fa;
fail:
	saved = errno;
	cap_close(chan);
	errno = saved;
	return NULL;
}

fileargs_t *fileargs_init(int argc, char *argv[], int flags, mode_t mode,
			  cap_rights_t *rightsp, int operations)
{
	cap_channel_t *cas;
	fileargs_t *fa;
	int saved;

	if (argc <= 0 || !argv)
		return fileargs_wrap(NULL, flags);
	cas = cap_init();
	if (!cas)
		return NULL;
	fa = fileargs_cinit(cas, argc, argv, flags, mode, rightsp, operations);
	saved = errno;
	cap_close(cas);
	errno = saved;
	return fa;
}

fileargs_t *fileargs_cinitnv(cap_channel_t *cas, nvlist_t *limits)
{
	cap_channel_t *chan;
	fileargs_t *fa;
	int flags, saved;

	/* No limits: as fileargs_init() with no names, all refused. */
	if (!limits)
		return fileargs_wrap(NULL, 0);
	if (!cas || nvlist_error(limits) ||
	    !nvlist_exists_number(limits, "flags")) {
		saved = nvlist_error(limits);
		nvlist_destroy(limits);
		errno = saved ? saved : EINVAL;
		return NULL;
	}
	chan = cap_service_open(cas, FILEARGS_SERVICE);
	if (!chan) {
		nvlist_destroy(limits);
		return NULL;
	}
	flags = (int)nvlist_get_number(limits, "flags");
	/* cap_limit_set() consumes the limits, success or not. */
	if (cap_limit_set(chan, limits) < 0)
		goto fail;
	fa = fileargs_wrap(chan, flags);
	if (fa)
		return fa;
fail:
	saved = errno;
	cap_close(chan);
	errno = saved;
	return NULL;
}

fileargs_t *fileargs_initnv(nvlist_t *limits)
{
	cap_channel_t *cas;
	fileargs_t *fa;
	int saved;

	if (!limits)
		return fileargs_wrap(NULL, 0);
	cas = cap_init();
	if (!cas) {
		nvlist_destroy(limits);
		return NULL;
	}
	fa = fileargs_cinitnv(cas, limits);
	saved = errno;
	cap_close(cas);
	errno = saved;
	return fa;
}

/* A request naming name, or NULL (errno ENOTCAPABLE if there is no channel). */
static struct msg *call(fileargs_t *fa, const char *cmd, const char *name)
{
	struct msg *req;

	if (!fa || !name) {
		errno = EINVAL;
		return NULL;
	}
	if (!fa->chan) {
		errno = ENOTCAPABLE;
		return NULL;
	}
	req = casper_request(cmd);
	if (req)
		msg_add_str(req, FAK_NAME, name);
	return casper_call(fa->chan, req);
}

int fileargs_open(fileargs_t *fa, const char *name)
{
	struct msg *rep = call(fa, "open", name);
	int fd;

	if (!rep)
		return -1;
	fd = msg_take_fd(rep, 0);
	msg_free(rep);
	if (fd < 0) {
		errno = EBADMSG;
		return -1;
	}
	/* It arrives close-on-exec; keep that only if it was asked. */
	if (!(fa->fdflags & O_CLOEXEC) && fcntl(fd, F_SETFD, 0) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

FILE *fileargs_fopen(fileargs_t *fa, const char *name, const char *mode)
{
	int fd = fileargs_open(fa, name), saved;
	FILE *f;

	if (fd < 0)
		return NULL;
	f = fdopen(fd, mode);
	if (!f) {
		saved = errno;
		close(fd);
		errno = saved;
	}
	return f;
}

int fileargs_lstat(fileargs_t *fa, const char *name, struct stat *sb)
{
	struct msg *rep;
	const struct msg_field *f;

	if (!sb) {
		errno = EFAULT;
		return -1;
	}
	rep = call(fa, "lstat", name);
	if (!rep)
		return -1;
	f = msg_get(rep, FAK_STAT, MSG_BYTES, 0);
	if (!f || f->len != sizeof(*sb)) {
		msg_free(rep);
		errno = EBADMSG;
		return -1;
	}
	memcpy(sb, f->data, sizeof(*sb));
	msg_free(rep);
	return 0;
}

char *fileargs_realpath(fileargs_t *fa, const char *pathname,
			char *reserved_path)
{
	struct msg *rep = call(fa, "realpath", pathname);
	const char *path;
	char *res = NULL;

	if (!rep)
		return NULL;
	path = msg_get_str(rep, FAK_PATH);
	if (!path || strlen(path) >= PATH_MAX)
		errno = EBADMSG;
	else if (reserved_path)
		res = strcpy(reserved_path, path);
	else
		res = strdup(path);
	msg_free(rep);
	return res;
}

void fileargs_free(fileargs_t *fa)
{
	int saved = errno;

	if (!fa)
		return;
	if (fa->chan)
		cap_close(fa->chan);
	free(fa);
	errno = saved;
}
