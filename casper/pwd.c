// SPDX-License-Identifier: BSD-2-Clause
/* The program's side of cap_pwd (cap_pwd(3)). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <casper/cap_pwd.h>

#include "pwd_proto.h"

/*
 * The reply's entry into pwd and buf: 0 and *result (NULL: none found),
 * or an errno. Fields the limits withhold are NULL strings and -1 ids.
 */
static int unpack(const struct msg *rep, struct passwd *pwd, char *buf,
		  size_t size, struct passwd **result)
{
	uint64_t found = 0, uid = (uint64_t)-1, gid = (uint64_t)-1;
	size_t pos = 0;

	*result = NULL;
	if (msg_get_u64(rep, PK_FOUND, &found) < 0 || found != 1)
		return 0;
	msg_get_u64(rep, PK_PW_UID, &uid);
	msg_get_u64(rep, PK_PW_GID, &gid);
	if ((uid > UINT32_MAX && uid != (uint64_t)-1) ||
	    (gid > UINT32_MAX && gid != (uint64_t)-1))
		return EBADMSG;
	memset(pwd, 0, sizeof(*pwd));
	pwd->pw_uid = (uid_t)uid;
	pwd->pw_gid = (gid_t)gid;
	if (db_put(&pwd->pw_name, msg_get_str(rep, PK_PW_NAME), buf, size,
		   &pos) ||
	    db_put(&pwd->pw_passwd, msg_get_str(rep, PK_PW_PASSWD), buf, size,
		   &pos) ||
	    db_put(&pwd->pw_gecos, msg_get_str(rep, PK_PW_GECOS), buf, size,
		   &pos) ||
	    db_put(&pwd->pw_dir, msg_get_str(rep, PK_PW_DIR), buf, size,
		   &pos) ||
	    db_put(&pwd->pw_shell, msg_get_str(rep, PK_PW_SHELL), buf, size,
		   &pos))
		return ERANGE;
	*result = pwd;
	return 0;
}

static int lookup_r(cap_channel_t *chan, struct msg *req, struct passwd *pwd,
		    char *buf, size_t size, struct passwd **result)
{
	struct msg *rep = casper_call(chan, req);
	int error;

	*result = NULL;
	if (!rep)
		return errno;
	error = unpack(rep, pwd, buf, size, result);
	msg_free(rep);
	return error;
}

/* The non-reentrant calls' entry, per thread, as glibc's is static. */
static __thread struct {
	struct passwd pwd;
	char buf[4096];
} last;

static struct passwd *lookup(cap_channel_t *chan, struct msg *req)
{
	struct passwd *res;
	int error = lookup_r(chan, req, &last.pwd, last.buf, sizeof(last.buf),
			     &res);

	if (error)
		errno = error;
	return res;
}

static struct msg *by_name(const char *cmd, const char *name)
{
	struct msg *req = casper_request(cmd);

	if (req && name)
		msg_add_str(req, PK_NAME, name);
	return req;
}

static struct msg *by_uid(const char *cmd, uid_t uid)
{
	struct msg *req = casper_request(cmd);

	if (req)
		msg_add_u64(req, PK_UID, uid);
	return req;
}

struct passwd *cap_getpwent(cap_channel_t *chan)
{
	return lookup(chan, casper_request("getpwent"));
}

struct passwd *cap_getpwnam(cap_channel_t *chan, const char *login)
{
	return lookup(chan, by_name("getpwnam", login));
}

struct passwd *cap_getpwuid(cap_channel_t *chan, uid_t uid)
{
	return lookup(chan, by_uid("getpwuid", uid));
}

int cap_getpwent_r(cap_channel_t *chan, struct passwd *pwd, char *buffer,
		   size_t bufsize, struct passwd **result)
{
	return lookup_r(chan, casper_request("getpwent_r"), pwd, buffer,
			bufsize, result);
}

int cap_getpwnam_r(cap_channel_t *chan, const char *name, struct passwd *pwd,
		   char *buffer, size_t bufsize, struct passwd **result)
{
	return lookup_r(chan, by_name("getpwnam_r", name), pwd, buffer, bufsize,
			result);
}

int cap_getpwuid_r(cap_channel_t *chan, uid_t uid, struct passwd *pwd,
		   char *buffer, size_t bufsize, struct passwd **result)
{
	return lookup_r(chan, by_uid("getpwuid_r", uid), pwd, buffer, bufsize,
			result);
}

int cap_setpassent(cap_channel_t *chan, int stayopen)
{
	struct msg *req = casper_request("setpassent");

	if (req)
		msg_add_u64(req, PK_STAYOPEN, stayopen != 0);
	/* FreeBSD's returns 1 on success, 0 on failure. */
	return casper_call_void(chan, req) == 0;
}

void cap_setpwent(cap_channel_t *chan)
{
	(void)casper_call_void(chan, casper_request("setpwent"));
}

void cap_endpwent(cap_channel_t *chan)
{
	(void)casper_call_void(chan, casper_request("endpwent"));
}

int cap_pwd_limit_cmds(cap_channel_t *chan, const char *const *cmds,
		       size_t ncmds)
{
	return db_limit_strs(chan, DK_CMD, cmds, ncmds);
}

int cap_pwd_limit_fields(cap_channel_t *chan, const char *const *fields,
			 size_t nfields)
{
	return db_limit_strs(chan, DK_FIELD, fields, nfields);
}

int cap_pwd_limit_users(cap_channel_t *chan, const char *const *names,
			size_t nnames, uid_t *uids, size_t nuids)
{
	struct msg *m = db_replace_list(chan, DK_NAME);
	size_t i;

	if (!m)
		return -1;
	for (i = 0; i < nnames; i++)
		msg_add_str(m, DK_NAME, names[i]);
	for (i = 0; i < nuids; i++)
		msg_add_u64(m, DK_ID, uids[i]);
	return casper_limit_set(chan, m);
}
