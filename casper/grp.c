// SPDX-License-Identifier: BSD-2-Clause
/* The program's side of cap_grp (cap_grp(3)). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdalign.h>
#include <stdint.h>
#include <string.h>

#include <casper/cap_grp.h>

#include "grp_proto.h"

/*
 * The reply's entry into grp and buf: gr_mem's pointers first (aligned),
 * then the strings. 0 and *result (NULL: none found), or an errno. Fields
 * the limits withhold are NULL (gr_mem too) and a gid of -1.
 */
static int unpack(const struct msg *rep, struct group *grp, char *buf,
		  size_t size, struct group **result)
{
	uint64_t found = 0, gid = (uint64_t)-1, nmem = 0;
	size_t pos, i, off;
	char **mem = NULL;
	int has_mem;

	*result = NULL;
	if (msg_get_u64(rep, GK_FOUND, &found) < 0 || found != 1)
		return 0;
	msg_get_u64(rep, GK_GR_GID, &gid);
	has_mem = msg_get_u64(rep, GK_GR_NMEM, &nmem) == 0;
	if ((gid > UINT32_MAX && gid != (uint64_t)-1) ||
	    nmem > GRP_MAX_MEMBERS ||
	    (has_mem && (int)nmem != msg_count(rep, GK_GR_MEM, MSG_STR)))
		return EBADMSG;
	memset(grp, 0, sizeof(*grp));
	grp->gr_gid = (gid_t)gid;
	off = (alignof(char *) - (uintptr_t)buf % alignof(char *)) %
	      alignof(char *);
	pos = off;
	if (has_mem) {
		if (off > size || (nmem + 1) * sizeof(char *) > size - off)
			return ERANGE;
		mem = (char **)(void *)(buf + off);
		pos += (nmem + 1) * sizeof(char *);
		for (i = 0; i < nmem; i++)
			if (db_put(&mem[i], msg_get_str_at(rep, GK_GR_MEM, i),
				   buf, size, &pos))
				return ERANGE;
		mem[nmem] = NULL;
	}
	grp->gr_mem = mem;
	if (db_put(&grp->gr_name, msg_get_str(rep, GK_GR_NAME), buf, size,
		   &pos) ||
	    db_put(&grp->gr_passwd, msg_get_str(rep, GK_GR_PASSWD), buf, size,
		   &pos))
		return ERANGE;
	*result = grp;
	return 0;
}

static int lookup_r(cap_channel_t *chan, struct msg *req, struct group *grp,
		    char *buf, size_t size, struct group **result)
{
	struct msg *rep = casper_call(chan, req);
	int error;

	*result = NULL;
	if (!rep)
		return errno;
	error = unpack(rep, grp, buf, size, result);
	msg_free(rep);
	return error;
}

/* The non-reentrant calls' entry, per thread. */
static __thread struct {
	struct group grp;
	alignas(char *) char buf[GRP_MAX_MEMBERS * (sizeof(char *) + 64)];
} last;

static struct group *lookup(cap_channel_t *chan, struct msg *req)
{
	struct group *res;
	int error = lookup_r(chan, req, &last.grp, last.buf, sizeof(last.buf),
			     &res);

	if (error)
		errno = error;
	return res;
}

static struct msg *by_name(const char *cmd, const char *name)
{
	struct msg *req = casper_request(cmd);

	if (req && name)
		msg_add_str(req, GK_NAME, name);
	return req;
}

static struct msg *by_gid(const char *cmd, gid_t gid)
{
	struct msg *req = casper_request(cmd);

	if (req)
		msg_add_u64(req, GK_GID, gid);
	return req;
}

struct group *cap_getgrent(cap_channel_t *chan)
{
	return lookup(chan, casper_request("getgrent"));
}

struct group *cap_getgrnam(cap_channel_t *chan, const char *name)
{
	return lookup(chan, by_name("getgrnam", name));
}

struct group *cap_getgrgid(cap_channel_t *chan, gid_t gid)
{
	return lookup(chan, by_gid("getgrgid", gid));
}

int cap_getgrent_r(cap_channel_t *chan, struct group *grp, char *buffer,
		   size_t bufsize, struct group **result)
{
	return lookup_r(chan, casper_request("getgrent_r"), grp, buffer,
			bufsize, result);
}

int cap_getgrnam_r(cap_channel_t *chan, const char *name, struct group *grp,
		   char *buffer, size_t bufsize, struct group **result)
{
	return lookup_r(chan, by_name("getgrnam_r", name), grp, buffer, bufsize,
			result);
}

int cap_getgrgid_r(cap_channel_t *chan, gid_t gid, struct group *grp,
		   char *buffer, size_t bufsize, struct group **result)
{
	return lookup_r(chan, by_gid("getgrgid_r", gid), grp, buffer, bufsize,
			result);
}

int cap_setgroupent(cap_channel_t *chan, int stayopen)
{
	struct msg *req = casper_request("setgroupent");

	if (req)
		msg_add_u64(req, GK_STAYOPEN, stayopen != 0);
	/* FreeBSD's returns 1 on success, 0 on failure. */
	return casper_call_void(chan, req) == 0;
}

int cap_setgrent(cap_channel_t *chan)
{
	return casper_call_void(chan, casper_request("setgrent")) == 0;
}

void cap_endgrent(cap_channel_t *chan)
{
	(void)casper_call_void(chan, casper_request("endgrent"));
}

int cap_grp_limit_cmds(cap_channel_t *chan, const char *const *cmds,
		       size_t ncmds)
{
	return db_limit_strs(chan, DK_CMD, cmds, ncmds);
}

int cap_grp_limit_fields(cap_channel_t *chan, const char *const *fields,
			 size_t nfields)
{
	return db_limit_strs(chan, DK_FIELD, fields, nfields);
}

int cap_grp_limit_groups(cap_channel_t *chan, const char *const *names,
			 size_t nnames, const gid_t *gids, size_t ngids)
{
	struct msg *m = db_replace_list(chan, DK_NAME);
	size_t i;

	if (!m)
		return -1;
	for (i = 0; i < nnames; i++)
		msg_add_str(m, DK_NAME, names[i]);
	for (i = 0; i < ngids; i++)
		msg_add_u64(m, DK_ID, gids[i]);
	return casper_limit_set(chan, m);
}
