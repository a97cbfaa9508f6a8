// SPDX-License-Identifier: GPL-2.0
/* The query socket's wire format and visibility rule, without I/O. */
#define _GNU_SOURCE
#include "query.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int query_req_check(const void *buf, size_t len, struct query_req *out)
{
	if (len != sizeof(*out))
		return EINVAL;
	memcpy(out, buf, sizeof(*out));
	if (out->magic != QUERY_MAGIC || out->reserved)
		return EPROTO;
	switch (out->op) {
	case QUERY_PS:
	case QUERY_STATUS:
	case QUERY_AUDIT:
	case QUERY_AUDIT_FOLLOW:
		return out->pid ? EINVAL : 0;
	case QUERY_FDS:
		return out->pid > 0 ? 0 : EINVAL;
	default:
		return EOPNOTSUPP;
	}
}

static int ids_line(const char *text, const char *key, unsigned int ids[4])
{
	const char *l = text;
	size_t klen = strlen(key);

	while (l && *l) {
		if (!strncmp(l, key, klen)) {
			int n = 0;

			if (sscanf(l + klen, "%u %u %u %u%n", &ids[0], &ids[1],
				   &ids[2], &ids[3], &n) != 4 ||
			    (l[klen + n] != '\n' && l[klen + n] != '\0'))
				return -1;
			return 0;
		}
		l = strchr(l, '\n');
		l = l ? l + 1 : NULL;
	}
	return -1;
}

int query_status_ids(const char *text, unsigned int uids[4],
		     unsigned int gids[4])
{
	return ids_line(text, "Uid:", uids) || ids_line(text, "Gid:", gids) ? -1
									    : 0;
}

bool query_may_see(unsigned int peer_uid, unsigned int peer_gid,
		   const unsigned int uids[4], const unsigned int gids[4],
		   unsigned int status_owner)
{
	if (peer_uid == 0)
		return true;
	for (int i = 0; i < 3; i++)
		if (uids[i] != peer_uid || gids[i] != peer_gid)
			return false;
	return status_owner == peer_uid;
}

bool query_may_see_denial(unsigned int peer_uid,
			  const struct capsicum_denial *d)
{
	return peer_uid == 0 ||
	       (d->uid == peer_uid && d->uid != CAPSICUM_DENIAL_NO_UID);
}

int query_next_fd(const void *buf, size_t len, size_t *pos, struct query_fd *fd,
		  __u64 *ioctls)
{
	size_t extra;

	if (*pos == len)
		return 0;
	if (*pos > len || len - *pos < sizeof(*fd))
		return -1;
	memcpy(fd, (const char *)buf + *pos, sizeof(*fd));
	if (fd->nioctls < -1 || fd->nioctls > CAP_IOCTLS_MAX)
		return -1;
	extra = fd->nioctls > 0 ? (size_t)fd->nioctls * sizeof(__u64) : 0;
	if (len - *pos - sizeof(*fd) < extra)
		return -1;
	memcpy(ioctls, (const char *)buf + *pos + sizeof(*fd), extra);
	*pos += sizeof(*fd) + extra;
	return 1;
}
