// SPDX-License-Identifier: BSD-2-Clause
/*
 * The cap_grp service. Limits (dblimits.h): the commands allowed, the
 * fields sent, the groups seen (by name or gid); each list only narrows.
 * A group outside the limits is not found (getgrent skips it).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <string.h>

#include <sys/capsicum.h>

#include "grp_proto.h"

static const char *const commands[] = {
	"getgrent",   "getgrnam",    "getgrgid", "getgrent_r", "getgrnam_r",
	"getgrgid_r", "setgroupent", "setgrent", "endgrent",   NULL
};
static const char *const fields[] = { "gr_name", "gr_passwd", "gr_gid",
				      "gr_mem", NULL };
static const struct db_names names = { commands, fields };

static int grp_limit(const struct msg *old, const struct msg *new)
{
	return db_limit(&names, old, new);
}

static void pack(const struct msg *l, const struct group *g, struct msg *out)
{
	size_t i;

	msg_add_u64(out, GK_FOUND, 1);
	if (db_allowed(l, DK_FIELD, "gr_name"))
		msg_add_str(out, GK_GR_NAME, g->gr_name);
	if (db_allowed(l, DK_FIELD, "gr_passwd"))
		msg_add_str(out, GK_GR_PASSWD, g->gr_passwd);
	if (db_allowed(l, DK_FIELD, "gr_gid"))
		msg_add_u64(out, GK_GR_GID, g->gr_gid);
	if (!db_allowed(l, DK_FIELD, "gr_mem"))
		return;
	for (i = 0; g->gr_mem && g->gr_mem[i] && i < GRP_MAX_MEMBERS; i++)
		msg_add_str(out, GK_GR_MEM, g->gr_mem[i]);
	msg_add_u64(out, GK_GR_NMEM, i);
}

static int answer(const struct msg *l, struct group *g, struct msg *out)
{
	int error = errno;

	if (g && db_entry_allowed(l, g->gr_name, g->gr_gid))
		pack(l, g, out);
	else if (!g && error && error != ENOENT && error != ESRCH)
		return error;
	return 0;
}

static int grp_command(const char *cmd, const struct msg *l, struct msg *in,
		       struct msg *out)
{
	const char *name = msg_get_str(in, GK_NAME);
	struct group *g;
	uint64_t v = 0;

	if (!db_in(commands, cmd))
		return EINVAL;
	if (!db_allowed(l, DK_CMD, cmd))
		return ENOTCAPABLE;
	errno = 0;
	if (!strncmp(cmd, "getgrent", 8)) {
		while ((g = getgrent()) &&
		       !db_entry_allowed(l, g->gr_name, g->gr_gid))
			;
		return answer(l, g, out);
	}
	if (!strncmp(cmd, "getgrnam", 8)) {
		if (!name)
			return EINVAL;
		return answer(l, getgrnam(name), out);
	}
	if (!strncmp(cmd, "getgrgid", 8)) {
		if (msg_get_u64(in, GK_GID, &v) < 0 || v > (gid_t)-1)
			return EINVAL;
		return answer(l, getgrgid((gid_t)v), out);
	}
	if (!strcmp(cmd, "setgroupent") || !strcmp(cmd, "setgrent")) {
		setgrent();
		return 0;
	}
	endgrent();
	return 0;
}

const struct casper_service grp_service = {
	.name = GRP_SERVICE,
	.limit = grp_limit,
	.command = grp_command,
};
