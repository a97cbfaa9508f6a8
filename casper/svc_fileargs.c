// SPDX-License-Identifier: BSD-2-Clause
/*
 * The fileargs service: opens, lstat()s and resolves the names of its
 * limits, nothing else. Limits are set once (a second limit_set is
 * ENOTCAPABLE, as FreeBSD's); before that every request is ENOTCAPABLE.
 * A descriptor is limited to the limits' rights before it is sent, so it
 * reaches the program with no more.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sys/capsicum.h>

#include <casper/cap_fileargs.h>

#include "fileargs_proto.h"

#define FA_ALL (FA_OPEN | FA_LSTAT | FA_REALPATH)

static const uint16_t limit_keys[] = { FAK_FLAGS,  FAK_MODE, FAK_OPERATIONS,
				       FAK_RIGHTS, FAK_NAME, 0 };
static const enum msg_type limit_types[] = { MSG_U64, MSG_U64, MSG_U64,
					     MSG_BYTES, MSG_STR };

static int fileargs_limit(const struct msg *old, const struct msg *new)
{
	const struct msg_field *r;
	uint64_t ops, flags, mode;

	if (old)
		return ENOTCAPABLE;
	if (msg_only(new, limit_keys, limit_types) < 0 ||
	    msg_count(new, FAK_FLAGS, MSG_U64) != 1 ||
	    msg_count(new, FAK_MODE, MSG_U64) != 1 ||
	    msg_count(new, FAK_OPERATIONS, MSG_U64) != 1 ||
	    msg_count(new, FAK_RIGHTS, MSG_BYTES) > 1)
		return EINVAL;
	msg_get_u64(new, FAK_FLAGS, &flags);
	msg_get_u64(new, FAK_MODE, &mode);
	msg_get_u64(new, FAK_OPERATIONS, &ops);
	if ((ops & ~(uint64_t)FA_ALL) || flags > INT_MAX || mode > 07777)
		return EINVAL;
	r = msg_get(new, FAK_RIGHTS, MSG_BYTES, 0);
	if (r &&
	    (r->len != sizeof(cap_rights_t) ||
	     !cap_rights_is_valid((const cap_rights_t *)(const void *)r->data)))
		return EINVAL;
	return 0;
}

/* The request's name, if the limits allow op on it; else NULL and *error. */
static const char *allowed(const struct msg *limits, const struct msg *in,
			   uint64_t op, int *error)
{
	const char *name = msg_get_str(in, FAK_NAME), *n;
	uint64_t ops = 0;
	size_t i;

	*error = ENOTCAPABLE;
	if (!limits)
		return NULL;
	if (!name || msg_count(in, FAK_NAME, MSG_STR) != 1) {
		*error = EINVAL;
		return NULL;
	}
	msg_get_u64(limits, FAK_OPERATIONS, &ops);
	if (!(ops & op))
		return NULL;
	for (i = 0; (n = msg_get_str_at(limits, FAK_NAME, i)); i++)
		if (!strcmp(n, name))
			return name;
	return NULL;
}

static int fa_open(const struct msg *limits, const struct msg *in,
		   struct msg *out)
{
	const struct msg_field *r;
	uint64_t flags = 0, mode = 0;
	cap_rights_t rights;
	const char *name;
	int fd, error;

	name = allowed(limits, in, FA_OPEN, &error);
	if (!name)
		return error;
	r = msg_get(limits, FAK_RIGHTS, MSG_BYTES, 0);
	msg_get_u64(limits, FAK_FLAGS, &flags);
	msg_get_u64(limits, FAK_MODE, &mode);
	fd = open(name, (int)flags | O_CLOEXEC, (mode_t)mode);
	if (fd < 0)
		return errno;
	if (r) {
		memcpy(&rights, r->data, sizeof(rights));
		/* ENOSYS: no Capsicum here, the program has none either. */
		if (cap_rights_limit(fd, &rights) < 0 && errno != ENOSYS) {
			error = errno;
			close(fd);
			return error;
		}
	}
	msg_add_fd(out, fd);
	return 0;
}

static int fa_lstat(const struct msg *limits, const struct msg *in,
		    struct msg *out)
{
	struct stat sb;
	const char *name;
	int error;

	name = allowed(limits, in, FA_LSTAT, &error);
	if (!name)
		return error;
	if (lstat(name, &sb) < 0)
		return errno;
	msg_add_bytes(out, FAK_STAT, &sb, sizeof(sb));
	return 0;
}

static int fa_realpath(const struct msg *limits, const struct msg *in,
		       struct msg *out)
{
	char path[PATH_MAX];
	const char *name;
	int error;

	name = allowed(limits, in, FA_REALPATH, &error);
	if (!name)
		return error;
	if (!realpath(name, path))
		return errno;
	msg_add_str(out, FAK_PATH, path);
	return 0;
}

static int fileargs_command(const char *cmd, const struct msg *limits,
			    struct msg *in, struct msg *out)
{
	if (!strcmp(cmd, "open"))
		return fa_open(limits, in, out);
	if (!strcmp(cmd, "lstat"))
		return fa_lstat(limits, in, out);
	if (!strcmp(cmd, "realpath"))
		return fa_realpath(limits, in, out);
	return EINVAL;
}

const struct casper_service fileargs_service = {
	.name = FILEARGS_SERVICE,
	.limit = fileargs_limit,
	.command = fileargs_command,
};
