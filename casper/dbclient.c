// SPDX-License-Identifier: BSD-2-Clause
/* The program's side of the cap_pwd/cap_grp limits (dblimits.h). */
#include <errno.h>
#include <string.h>

#include "dblimits.h"

int db_put(char **dst, const char *s, char *buf, size_t size, size_t *pos)
{
	size_t n;

	if (!s) {
		*dst = NULL;
		return 0;
	}
	n = strlen(s) + 1;
	if (n > size - *pos)
		return -1;
	*dst = memcpy(buf + *pos, s, n);
	*pos += n;
	return 0;
}

static int dropped(const struct msg_field *f, uint16_t list)
{
	uint64_t v;

	if (f->key == list || (list == DK_NAME && f->key == DK_ID))
		return 1;
	if (f->key != DK_LISTED)
		return 0;
	memcpy(&v, f->data, sizeof(v));
	return v == list;
}

struct msg *db_replace_list(cap_channel_t *chan, uint16_t list)
{
	struct msg *cur, *m = msg_new();
	const struct msg_field *f;
	size_t i;

	if (!m || casper_limit_get(chan, &cur) < 0) {
		msg_free(m);
		return NULL;
	}
	for (i = 0; cur && i < cur->nfields; i++) {
		uint64_t v;

		f = &cur->fields[i];
		if (dropped(f, list))
			continue;
		if (f->type == MSG_STR)
			msg_add_str(m, f->key, (const char *)f->data);
		else if (f->type == MSG_U64) {
			memcpy(&v, f->data, sizeof(v));
			msg_add_u64(m, f->key, v);
		}
	}
	msg_free(cur);
	msg_add_u64(m, DK_LISTED, list);
	return m;
}

int db_limit_strs(cap_channel_t *chan, uint16_t list, const char *const *v,
		  size_t n)
{
	struct msg *m = db_replace_list(chan, list);
	size_t i;

	if (!m)
		return -1;
	for (i = 0; i < n; i++)
		msg_add_str(m, list, v[i]);
	return casper_limit_set(chan, m);
}
