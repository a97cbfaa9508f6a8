/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * FreeBSD's cap_pwd service: the password database read by a casper
 * process, limited to some commands, fields and users. cap_pwd(3).
 */
#ifndef _CAP_PWD_H_
#define _CAP_PWD_H_

#include <pwd.h>
#include <stddef.h>
#include <sys/types.h>

#include <libcasper.h>

#ifdef __cplusplus
extern "C" {
#endif

struct passwd *cap_getpwent(cap_channel_t *chan);
struct passwd *cap_getpwnam(cap_channel_t *chan, const char *login);
struct passwd *cap_getpwuid(cap_channel_t *chan, uid_t uid);
int cap_getpwent_r(cap_channel_t *chan, struct passwd *pwd, char *buffer,
		   size_t bufsize, struct passwd **result);
int cap_getpwnam_r(cap_channel_t *chan, const char *name, struct passwd *pwd,
		   char *buffer, size_t bufsize, struct passwd **result);
int cap_getpwuid_r(cap_channel_t *chan, uid_t uid, struct passwd *pwd,
		   char *buffer, size_t bufsize, struct passwd **result);
int cap_setpassent(cap_channel_t *chan, int stayopen);
void cap_setpwent(cap_channel_t *chan);
void cap_endpwent(cap_channel_t *chan);
int cap_pwd_limit_cmds(cap_channel_t *chan, const char *const *cmds,
		       size_t ncmds);
int cap_pwd_limit_fields(cap_channel_t *chan, const char *const *fields,
			 size_t nfields);
int cap_pwd_limit_users(cap_channel_t *chan, const char *const *names,
			size_t nnames, uid_t *uids, size_t nuids);

#ifdef __cplusplus
}
#endif

#endif /* _CAP_PWD_H_ */
