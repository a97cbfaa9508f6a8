/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The limits cap_pwd and cap_grp share: three lists (commands, fields,
 * entries by name or id), each absent meaning "any"; DK_LISTED names the
 * lists that are set, so an empty list (nothing allowed, as on FreeBSD)
 * differs from none. dblimits.c checks them on the service's side,
 * dbclient.c builds them on the program's.
 */
#ifndef CASPER_DBLIMITS_H
#define CASPER_DBLIMITS_H

#include <stddef.h>
#include <stdint.h>

#include "casper.h"

enum {
	DK_CMD = MK_SERVICE_FIRST, /* str */
	DK_FIELD,		   /* str */
	DK_NAME,		   /* str: also marks the entries list */
	DK_ID,			   /* u64: a uid or gid */
	DK_LISTED,		   /* u64: DK_CMD, DK_FIELD or DK_NAME */
};

/* A service's vocabulary: NULL-terminated command and field names. */
struct db_names {
	const char *const *commands;
	const char *const *fields;
};

int db_in(const char *const *list, const char *s);
/* Is command or field s allowed (list DK_CMD or DK_FIELD)? */
int db_allowed(const struct msg *l, uint16_t list, const char *s);
/* Is the entry of this name and id allowed? */
int db_entry_allowed(const struct msg *l, const char *name, uint64_t id);
/* The service's limit(): 0, EINVAL or ENOTCAPABLE. */
int db_limit(const struct db_names *names, const struct msg *old,
	     const struct msg *new);

/* Client: the current limits with list replaced (DK_NAME also drops the
 * ids), the others kept; the caller adds the new entries. */
struct msg *db_replace_list(cap_channel_t *chan, uint16_t list);
int db_limit_strs(cap_channel_t *chan, uint16_t list, const char *const *v,
		  size_t n);
/* Copies s into buf at *pos; NULL stays NULL. -1 if buf is full. */
int db_put(char **dst, const char *s, char *buf, size_t size, size_t *pos);

#endif
