// SPDX-License-Identifier: BSD-2-Clause
/*
 * FreeBSD's limit nvlists, service by service, as the message fields the
 * services keep (nvlimits.h). The schemas are those FreeBSD's own
 * cap_*_limit_*() functions build and its services accept:
 *
 *   casper           NULL elements named by the services allowed
 *   system.pwd       "cmds", "fields": nvlists of NULL elements named by
 *                    the commands and fields; "users": an nvlist of
 *                    strings (names) and numbers (uids), any element names
 *   system.grp       the same with "groups" (names and gids)
 *   system.dns       strings named "type..." (ADDR2NAME, NAME2ADDR, ...),
 *                    numbers named "family..."
 *   system.fileargs  numbers "flags", "mode", "operations", binary
 *                    "cap_rights", NULL elements named by the files
 *   system.syslog    empty
 *
 * Which values a service takes (command names, types, rights) and whether
 * new limits narrow the old stays the service's call, as before.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <sys/capsicum.h>

#include "dblimits.h"
#include "dns_proto.h"
#include "fileargs_proto.h"
#include "nv_cookie.h"
#include "nvlimits.h"

/* The casper process's own list of names (zygote.c's ZK_NAME). */
#define ZK_NAME MK_SERVICE_FIRST

/* Every element of nvl is NULL-typed: its name under key. */
static int null_names(const nvlist_t *nvl, struct msg *m, uint16_t key)
{
	const char *name;
	void *cookie = NULL;
	int type;

	while ((name = nvlist_next(nvl, &type, &cookie)))
		if (type != NV_TYPE_NULL)
			return EINVAL;
		else
			msg_add_str(m, key, name);
	return 0;
}

static int casper_to_msg(const nvlist_t *nvl, struct msg *m)
{
	return null_names(nvl, m, ZK_NAME);
}

/* "users"/"groups": strings are names, numbers ids. */
static int db_entries(const nvlist_t *nvl, struct msg *m)
{
	const char *name;
	void *cookie = NULL;
	int type;

	while ((name = nvlist_next(nvl, &type, &cookie))) {
		if (type == NV_TYPE_STRING)
			msg_add_str(m, DK_NAME, nv_cookie_string(cookie));
		else if (type == NV_TYPE_NUMBER)
			msg_add_u64(m, DK_ID, nv_cookie_number(cookie));
		else
			return EINVAL;
	}
	return 0;
}

static int db_to_msg(const nvlist_t *nvl, struct msg *m, const char *entries)
{
	const char *name;
	void *cookie = NULL;
	int type, error;

	while ((name = nvlist_next(nvl, &type, &cookie))) {
		const nvlist_t *sub;

		if (type != NV_TYPE_NVLIST)
			return EINVAL;
		sub = nv_cookie_nvlist(cookie);
		if (!strcmp(name, "cmds")) {
			msg_add_u64(m, DK_LISTED, DK_CMD);
			error = null_names(sub, m, DK_CMD);
		} else if (!strcmp(name, "fields")) {
			msg_add_u64(m, DK_LISTED, DK_FIELD);
			error = null_names(sub, m, DK_FIELD);
		} else if (!strcmp(name, entries)) {
			msg_add_u64(m, DK_LISTED, DK_NAME);
			error = db_entries(sub, m);
		} else
			error = EINVAL;
		if (error)
			return error;
	}
	return 0;
}

static int pwd_to_msg(const nvlist_t *nvl, struct msg *m)
{
	return db_to_msg(nvl, m, "users");
}

static int grp_to_msg(const nvlist_t *nvl, struct msg *m)
{
	return db_to_msg(nvl, m, "groups");
}

static int dns_to_msg(const nvlist_t *nvl, struct msg *m)
{
	bool types = false, families = false;
	const char *name;
	void *cookie = NULL;
	int type;

	while ((name = nvlist_next(nvl, &type, &cookie))) {
		if (!strncmp(name, "type", 4) && type == NV_TYPE_STRING) {
			msg_add_str(m, DNK_TYPE, nv_cookie_string(cookie));
			types = true;
		} else if (!strncmp(name, "family", 6) &&
			   type == NV_TYPE_NUMBER) {
			msg_add_u64(m, DNK_FAMILY, nv_cookie_number(cookie));
			families = true;
		} else
			return EINVAL;
	}
	if (types)
		msg_add_u64(m, DNK_LISTED, DNK_TYPE);
	if (families)
		msg_add_u64(m, DNK_LISTED, DNK_FAMILY);
	return 0;
}

static int fileargs_to_msg(const nvlist_t *nvl, struct msg *m)
{
	const char *name;
	void *cookie = NULL;
	const void *rights;
	size_t size;
	int type;

	/* FreeBSD's fileargs_cinitnv() needs both (it aborts without). */
	if (!nvlist_exists_number(nvl, "flags") ||
	    !nvlist_exists_number(nvl, "operations"))
		return EINVAL;
	msg_add_u64(m, FAK_FLAGS, nvlist_get_number(nvl, "flags"));
	msg_add_u64(m, FAK_OPERATIONS, nvlist_get_number(nvl, "operations"));
	/* The mode matters with O_CREAT only; the service wants one. */
	msg_add_u64(m, FAK_MODE,
		    nvlist_exists_number(nvl, "mode")
			    ? nvlist_get_number(nvl, "mode")
			    : 0);
	if (nvlist_exists_binary(nvl, "cap_rights")) {
		rights = nvlist_get_binary(nvl, "cap_rights", &size);
		msg_add_bytes(m, FAK_RIGHTS, rights, size);
	}
	while ((name = nvlist_next(nvl, &type, &cookie))) {
		if (type == NV_TYPE_NULL)
			msg_add_str(m, FAK_NAME, name);
		else if (!(type == NV_TYPE_NUMBER &&
			   (!strcmp(name, "flags") || !strcmp(name, "mode") ||
			    !strcmp(name, "operations"))) &&
			 !(type == NV_TYPE_BINARY &&
			   !strcmp(name, "cap_rights")))
			return EINVAL;
	}
	return 0;
}

static int syslog_to_msg(const nvlist_t *nvl, struct msg *m)
{
	(void)m;
	return nvlist_empty(nvl) ? 0 : EINVAL;
}

/* Adds a NULL element unless the list has one of that name already. */
static void add_null_once(nvlist_t *nvl, const char *name)
{
	if (!nvlist_exists(nvl, name))
		nvlist_add_null(nvl, name);
}

static void str_nulls(nvlist_t *nvl, const struct msg *m, uint16_t key)
{
	const char *s;
	size_t i;

	for (i = 0; (s = msg_get_str_at(m, key, i)); i++)
		add_null_once(nvl, s);
}

static bool listed(const struct msg *m, uint16_t listkey, uint64_t list)
{
	const struct msg_field *f;
	uint64_t v;
	size_t i;

	for (i = 0; (f = msg_get(m, listkey, MSG_U64, i)); i++) {
		memcpy(&v, f->data, sizeof(v));
		if (v == list)
			return true;
	}
	return false;
}

/* Adds the numbered elements prefix0, prefix1, ... FreeBSD's names. */
static void add_numbered(nvlist_t *nvl, const char *prefix, unsigned i,
			 const char *s, const uint64_t *n)
{
	char name[32];

	snprintf(name, sizeof(name), "%s%u", prefix, i);
	if (s)
		nvlist_add_string(nvl, name, s);
	else
		nvlist_add_number(nvl, name, *n);
}

static void casper_from_msg(nvlist_t *nvl, const struct msg *m)
{
	str_nulls(nvl, m, ZK_NAME);
}

static void db_from_msg(nvlist_t *nvl, const struct msg *m, const char *entries,
			const char *idprefix)
{
	const struct msg_field *f;
	nvlist_t *sub;
	const char *s;
	uint64_t v;
	size_t i;

	if (listed(m, DK_LISTED, DK_CMD)) {
		sub = nvlist_create(0);
		str_nulls(sub, m, DK_CMD);
		nvlist_move_nvlist(nvl, "cmds", sub);
	}
	if (listed(m, DK_LISTED, DK_FIELD)) {
		sub = nvlist_create(0);
		str_nulls(sub, m, DK_FIELD);
		nvlist_move_nvlist(nvl, "fields", sub);
	}
	if (!listed(m, DK_LISTED, DK_NAME))
		return;
	sub = nvlist_create(0);
	for (i = 0; (s = msg_get_str_at(m, DK_NAME, i)); i++)
		add_numbered(sub, "name", (unsigned)i, s, NULL);
	for (i = 0; (f = msg_get(m, DK_ID, MSG_U64, i)); i++) {
		memcpy(&v, f->data, sizeof(v));
		add_numbered(sub, idprefix, (unsigned)i, NULL, &v);
	}
	nvlist_move_nvlist(nvl, entries, sub);
}

static void pwd_from_msg(nvlist_t *nvl, const struct msg *m)
{
	db_from_msg(nvl, m, "users", "uid");
}

static void grp_from_msg(nvlist_t *nvl, const struct msg *m)
{
	db_from_msg(nvl, m, "groups", "gid");
}

static void dns_from_msg(nvlist_t *nvl, const struct msg *m)
{
	const struct msg_field *f;
	const char *s;
	uint64_t v;
	size_t i;

	/*
	 * An empty list has no flat form: it comes back absent, and
	 * setting that again is a widening the service refuses.
	 */
	for (i = 0; (s = msg_get_str_at(m, DNK_TYPE, i)); i++)
		add_numbered(nvl, "type", (unsigned)i, s, NULL);
	for (i = 0; (f = msg_get(m, DNK_FAMILY, MSG_U64, i)); i++) {
		memcpy(&v, f->data, sizeof(v));
		add_numbered(nvl, "family", (unsigned)i, NULL, &v);
	}
}

static void fileargs_from_msg(nvlist_t *nvl, const struct msg *m)
{
	const struct msg_field *r = msg_get(m, FAK_RIGHTS, MSG_BYTES, 0);
	uint64_t v;

	if (msg_get_u64(m, FAK_FLAGS, &v) == 0)
		nvlist_add_number(nvl, "flags", v);
	if (msg_get_u64(m, FAK_MODE, &v) == 0)
		nvlist_add_number(nvl, "mode", v);
	if (msg_get_u64(m, FAK_OPERATIONS, &v) == 0)
		nvlist_add_number(nvl, "operations", v);
	if (r)
		nvlist_add_binary(nvl, "cap_rights", r->data, r->len);
	str_nulls(nvl, m, FAK_NAME);
}

static void syslog_from_msg(nvlist_t *nvl, const struct msg *m)
{
	(void)nvl;
	(void)m;
}

static const struct schema {
	const char *service;
	int (*to_msg)(const nvlist_t *nvl, struct msg *m);
	void (*from_msg)(nvlist_t *nvl, const struct msg *m);
} schemas[] = {
	{ "casper", casper_to_msg, casper_from_msg },
	{ "system.pwd", pwd_to_msg, pwd_from_msg },
	{ "system.grp", grp_to_msg, grp_from_msg },
	{ "system.dns", dns_to_msg, dns_from_msg },
	{ FILEARGS_SERVICE, fileargs_to_msg, fileargs_from_msg },
	{ "system.syslog", syslog_to_msg, syslog_from_msg },
};

static const struct schema *schema_of(const char *service)
{
	size_t i;

	for (i = 0; service && i < sizeof(schemas) / sizeof(schemas[0]); i++)
		if (!strcmp(schemas[i].service, service))
			return &schemas[i];
	return NULL;
}

int nvlimits_to_msg(const char *service, const nvlist_t *nvl, struct msg *m)
{
	const struct schema *s = schema_of(service);
	int error;

	if (!s)
		return EOPNOTSUPP;
	if (!nvl)
		return EINVAL;
	if (nvlist_error(nvl))
		return nvlist_error(nvl);
	error = s->to_msg(nvl, m);
	return error ? error : m->error;
}

nvlist_t *nvlimits_from_msg(const char *service, const struct msg *m)
{
	const struct schema *s = schema_of(service);
	nvlist_t *nvl;
	int error;

	if (!s) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	nvl = nvlist_create(0);
	if (!nvl)
		return NULL;
	s->from_msg(nvl, m);
	error = nvlist_error(nvl);
	if (error) {
		nvlist_destroy(nvl);
		errno = error;
		return NULL;
	}
	return nvl;
}

/* The limits in force and the service's name: 0, or -1 and errno. */
static int limits_and_name(const cap_channel_t *chan, struct msg **limits,
			   char *service, size_t size)
{
	struct msg *rep = casper_call(chan, casper_request("limit_get"));
	const char *name;
	uint64_t limited = 0;

	*limits = NULL;
	if (!rep)
		return -1;
	name = msg_get_str(rep, MK_SERVICE);
	if (!name || strlen(name) >= size) {
		msg_free(rep);
		errno = EBADMSG;
		return -1;
	}
	strcpy(service, name);
	if (msg_get_u64(rep, MK_LIMITED, &limited) == 0 && limited) {
		*limits = msg_new();
		if (*limits)
			msg_copy_fields(*limits, rep);
	}
	msg_free(rep);
	if (limited && !*limits)
		return -1;
	return 0;
}

int cap_limit_set(const cap_channel_t *chan, nvlist_t *limits)
{
	struct msg *cur = NULL, *m;
	char service[64];
	int error;

	/* The nvlist is consumed whatever happens, as on FreeBSD. */
	if (!chan || !limits || nvlist_error(limits)) {
		error = limits ? nvlist_error(limits) : 0;
		nvlist_destroy(limits);
		errno = error ? error : EINVAL;
		return -1;
	}
	if (limits_and_name(chan, &cur, service, sizeof(service)) < 0) {
		nvlist_destroy(limits);
		return -1;
	}
	msg_free(cur);
	m = msg_new();
	error = m ? nvlimits_to_msg(service, limits, m) : ENOMEM;
	nvlist_destroy(limits);
	if (error) {
		msg_free(m);
		errno = error;
		return -1;
	}
	return casper_limit_set(chan, m);
}

int cap_limit_get(const cap_channel_t *chan, nvlist_t **limitsp)
{
	struct msg *cur;
	char service[64];

	if (!chan || !limitsp) {
		errno = EINVAL;
		return -1;
	}
	if (limits_and_name(chan, &cur, service, sizeof(service)) < 0)
		return -1;
	if (!cur) {
		*limitsp = NULL;
		return 0;
	}
	*limitsp = nvlimits_from_msg(service, cur);
	msg_free(cur);
	return *limitsp ? 0 : -1;
}
