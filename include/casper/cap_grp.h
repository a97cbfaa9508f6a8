/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * FreeBSD's cap_grp service: the group database read by a casper process,
 * limited to some commands, fields and groups. cap_grp(3).
 */
#ifndef _CAP_GRP_H_
#define _CAP_GRP_H_

#include <grp.h>
#include <stddef.h>
#include <sys/types.h>

#include <libcasper.h>

#ifdef __cplusplus
extern "C" {
#endif

struct group *cap_getgrent(cap_channel_t *chan);
struct group *cap_getgrnam(cap_channel_t *chan, const char *name);
struct group *cap_getgrgid(cap_channel_t *chan, gid_t gid);
int cap_getgrent_r(cap_channel_t *chan, struct group *grp, char *buffer,
		   size_t bufsize, struct group **result);
int cap_getgrnam_r(cap_channel_t *chan, const char *name, struct group *grp,
		   char *buffer, size_t bufsize, struct group **result);
int cap_getgrgid_r(cap_channel_t *chan, gid_t gid, struct group *grp,
		   char *buffer, size_t bufsize, struct group **result);
int cap_setgroupent(cap_channel_t *chan, int stayopen);
int cap_setgrent(cap_channel_t *chan);
void cap_endgrent(cap_channel_t *chan);
int cap_grp_limit_cmds(cap_channel_t *chan, const char *const *cmds,
		       size_t ncmds);
int cap_grp_limit_fields(cap_channel_t *chan, const char *const *fields,
			 size_t nfields);
int cap_grp_limit_groups(cap_channel_t *chan, const char *const *names,
			 size_t nnames, const gid_t *gids, size_t ngids);

#ifdef __cplusplus
}
#endif

#endif /* _CAP_GRP_H_ */
