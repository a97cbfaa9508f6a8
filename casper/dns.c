// SPDX-License-Identifier: BSD-2-Clause
/*
 * The program's side of cap_dns's limits (cap_dns(3)); its resolver calls
 * are net.c's, which speak to either service.
 */
#define _GNU_SOURCE
#include <string.h>

#include <casper/cap_dns.h>

#include "dns_proto.h"

/* The current limits without list, which the caller adds again. */
static struct msg *replace(cap_channel_t *chan, uint16_t list)
{
	struct msg *cur, *m = msg_new();
	const struct msg_field *f;
	uint64_t v;
	size_t i;

	if (!m || casper_limit_get(chan, &cur) < 0) {
		msg_free(m);
		return NULL;
	}
	for (i = 0; cur && i < cur->nfields; i++) {
		f = &cur->fields[i];
		if (f->key == list)
			continue;
		if (f->type == MSG_STR) {
			msg_add_str(m, f->key, (const char *)f->data);
			continue;
		}
		memcpy(&v, f->data, sizeof(v));
		if (f->key != DNK_LISTED || v != list)
			msg_add_u64(m, f->key, v);
	}
	msg_free(cur);
	msg_add_u64(m, DNK_LISTED, list);
	return m;
}

int cap_dns_type_limit(cap_channel_t *chan, const char *const *types,
		       size_t ntypes)
{
	struct msg *m = replace(chan, DNK_TYPE);
	size_t i;

	if (!m)
		return -1;
	for (i = 0; i < ntypes; i++)
		msg_add_str(m, DNK_TYPE, types[i]);
	return casper_limit_set(chan, m);
}

int cap_dns_family_limit(cap_channel_t *chan, const int *families,
			 size_t nfamilies)
{
	struct msg *m = replace(chan, DNK_FAMILY);
	size_t i;

	if (!m)
		return -1;
	for (i = 0; i < nfamilies; i++)
		msg_add_u64(m, DNK_FAMILY, (uint64_t)(int64_t)families[i]);
	return casper_limit_set(chan, m);
}
