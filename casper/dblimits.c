// SPDX-License-Identifier: BSD-2-Clause
/* The service side of the cap_pwd/cap_grp limits (dblimits.h). */
#include <errno.h>
#include <string.h>

#include <sys/capsicum.h>

#include "dblimits.h"

int db_in(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (!strcmp(*list, s))
			return 1;
	return 0;
}

static int has_list(const struct msg *l, uint64_t list)
{
	const struct msg_field *f;
	uint64_t v;
	size_t i;

	for (i = 0; l && (f = msg_get(l, DK_LISTED, MSG_U64, i)); i++) {
		memcpy(&v, f->data, sizeof(v));
		if (v == list)
			return 1;
	}
	return 0;
}

static int str_listed(const struct msg *l, uint16_t key, const char *s)
{
	const char *v;
	size_t i;

	for (i = 0; s && (v = msg_get_str_at(l, key, i)); i++)
		if (!strcmp(v, s))
			return 1;
	return 0;
}

static int id_listed(const struct msg *l, uint64_t id)
{
	const struct msg_field *f;
	uint64_t v;
	size_t i;

	for (i = 0; (f = msg_get(l, DK_ID, MSG_U64, i)); i++) {
		memcpy(&v, f->data, sizeof(v));
		if (v == id)
			return 1;
	}
	return 0;
}

int db_allowed(const struct msg *l, uint16_t list, const char *s)
{
	return !has_list(l, list) || str_listed(l, list, s);
}

int db_entry_allowed(const struct msg *l, const char *name, uint64_t id)
{
	return !has_list(l, DK_NAME) || str_listed(l, DK_NAME, name) ||
	       id_listed(l, id);
}

static int well_formed(const struct db_names *names, const struct msg *new)
{
	const struct msg_field *f;
	const char *s;
	uint64_t v;
	size_t i;

	if (msg_only(new,
		     (uint16_t[]){ DK_CMD, DK_FIELD, DK_NAME, DK_ID, DK_LISTED,
				   0 },
		     (enum msg_type[]){ MSG_STR, MSG_STR, MSG_STR, MSG_U64,
					MSG_U64 }) < 0)
		return 0;
	for (i = 0; (s = msg_get_str_at(new, DK_CMD, i)); i++)
		if (!db_in(names->commands, s) || !has_list(new, DK_CMD))
			return 0;
	for (i = 0; (s = msg_get_str_at(new, DK_FIELD, i)); i++)
		if (!db_in(names->fields, s) || !has_list(new, DK_FIELD))
			return 0;
	if ((msg_count(new, DK_NAME, MSG_STR) > 0 ||
	     msg_count(new, DK_ID, MSG_U64) > 0) &&
	    !has_list(new, DK_NAME))
		return 0;
	for (i = 0; (f = msg_get(new, DK_LISTED, MSG_U64, i)); i++) {
		memcpy(&v, f->data, sizeof(v));
		if (v != DK_CMD && v != DK_FIELD && v != DK_NAME)
			return 0;
	}
	return 1;
}

int db_limit(const struct db_names *names, const struct msg *old,
	     const struct msg *new)
{
	static const uint16_t lists[] = { DK_CMD, DK_FIELD, DK_NAME };
	const struct msg_field *f;
	const char *s;
	uint64_t v;
	size_t i, k;

	if (!well_formed(names, new))
		return EINVAL;
	if (!old)
		return 0;
	/* A list the old limits had must stay, every entry allowed by it. */
	for (k = 0; k < 3; k++)
		if (has_list(old, lists[k]) && !has_list(new, lists[k]))
			return ENOTCAPABLE;
	for (i = 0; (s = msg_get_str_at(new, DK_CMD, i)); i++)
		if (!db_allowed(old, DK_CMD, s))
			return ENOTCAPABLE;
	for (i = 0; (s = msg_get_str_at(new, DK_FIELD, i)); i++)
		if (!db_allowed(old, DK_FIELD, s))
			return ENOTCAPABLE;
	if (!has_list(old, DK_NAME))
		return 0;
	/* As FreeBSD: a name must have been a name, an id an id. */
	for (i = 0; (s = msg_get_str_at(new, DK_NAME, i)); i++)
		if (!str_listed(old, DK_NAME, s))
			return ENOTCAPABLE;
	for (i = 0; (f = msg_get(new, DK_ID, MSG_U64, i)); i++) {
		memcpy(&v, f->data, sizeof(v));
		if (!id_listed(old, v))
			return ENOTCAPABLE;
	}
	return 0;
}
