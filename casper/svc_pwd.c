// SPDX-License-Identifier: BSD-2-Clause
/*
 * The cap_pwd service. Limits: the commands allowed, the fields sent, the
 * users seen (by name or uid); each list only narrows. An entry of a user
 * outside the limits is not found (getpwent skips it), as on FreeBSD.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pwd.h>
#include <string.h>

#include <sys/capsicum.h>

#include "dblimits.h"
#include "pwd_proto.h"

static const char *const commands[] = {
	"getpwent",   "getpwnam",   "getpwuid", "getpwent_r", "getpwnam_r",
	"getpwuid_r", "setpassent", "setpwent", "endpwent",   NULL
};
/* FreeBSD's field names; pw_change, pw_class, pw_expire have no Linux field. */
static const char *const fields[] = { "pw_name",   "pw_passwd", "pw_uid",
				      "pw_gid",	   "pw_change", "pw_class",
				      "pw_gecos",  "pw_dir",	"pw_shell",
				      "pw_expire", NULL };

static const struct db_names names = { commands, fields };

static int pwd_limit(const struct msg *old, const struct msg *new)
{
	return db_limit(&names, old, new);
}

static void pack(const struct msg *l, const struct passwd *p, struct msg *out)
{
	msg_add_u64(out, PK_FOUND, 1);
	if (db_allowed(l, DK_FIELD, "pw_name"))
		msg_add_str(out, PK_PW_NAME, p->pw_name);
	if (db_allowed(l, DK_FIELD, "pw_passwd"))
		msg_add_str(out, PK_PW_PASSWD, p->pw_passwd);
	if (db_allowed(l, DK_FIELD, "pw_uid"))
		msg_add_u64(out, PK_PW_UID, p->pw_uid);
	if (db_allowed(l, DK_FIELD, "pw_gid"))
		msg_add_u64(out, PK_PW_GID, p->pw_gid);
	if (db_allowed(l, DK_FIELD, "pw_gecos"))
		msg_add_str(out, PK_PW_GECOS, p->pw_gecos);
	if (db_allowed(l, DK_FIELD, "pw_dir"))
		msg_add_str(out, PK_PW_DIR, p->pw_dir);
	if (db_allowed(l, DK_FIELD, "pw_shell"))
		msg_add_str(out, PK_PW_SHELL, p->pw_shell);
}

/* The entry if found and allowed; errno of a failed lookup. */
static int answer(const struct msg *l, struct passwd *p, struct msg *out)
{
	int error = errno;

	if (p && db_entry_allowed(l, p->pw_name, p->pw_uid))
		pack(l, p, out);
	else if (!p && error && error != ENOENT && error != ESRCH)
		return error;
	return 0;
}

static int pwd_command(const char *cmd, const struct msg *l, struct msg *in,
		       struct msg *out)
{
	const char *name = msg_get_str(in, PK_NAME);
	struct passwd *p;
	uint64_t v = 0;

	if (!db_in(commands, cmd))
		return EINVAL;
	if (!db_allowed(l, DK_CMD, cmd))
		return ENOTCAPABLE;
	errno = 0;
	if (!strncmp(cmd, "getpwent", 8)) {
		while ((p = getpwent()) &&
		       !db_entry_allowed(l, p->pw_name, p->pw_uid))
			;
		return answer(l, p, out);
	}
	if (!strncmp(cmd, "getpwnam", 8)) {
		if (!name)
			return EINVAL;
		return answer(l, getpwnam(name), out);
	}
	if (!strncmp(cmd, "getpwuid", 8)) {
		if (msg_get_u64(in, PK_UID, &v) < 0 || v > (uid_t)-1)
			return EINVAL;
		return answer(l, getpwuid((uid_t)v), out);
	}
	if (!strcmp(cmd, "setpassent") || !strcmp(cmd, "setpwent")) {
		setpwent();
		return 0;
	}
	endpwent();
	return 0;
}

const struct casper_service pwd_service = {
	.name = PWD_SERVICE,
	.limit = pwd_limit,
	.command = pwd_command,
};
