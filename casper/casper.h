/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libcasper's insides: the channel, the request/reply call, the limits,
 * and what a service provides. A service is FreeBSD's pair of functions:
 * limit(old, new) says whether new may replace old (ENOTCAPABLE if it
 * would widen them), command(cmd, limits, in, out) runs one request.
 */
#ifndef CASPER_CASPER_H
#define CASPER_CASPER_H

#include <libcasper.h>

#include "msg.h"

struct cap_channel {
	int sock;
	int flags;
};

/*
 * Reply keys of limit_get: whether limits were ever set, and the
 * service's name (the nvlist front end picks its schema by it).
 */
enum { MK_LIMITED = 3, MK_SERVICE = 4 };

struct casper_service {
	const char *name;
	/* old is NULL before the first limit. 0 or an errno. */
	int (*limit)(const struct msg *old, const struct msg *new);
	/* limits is NULL when none were set. 0 or an errno. */
	int (*command)(const char *cmd, const struct msg *limits,
		       struct msg *in, struct msg *out);
};

/* A request with its command, for the caller to add fields to. */
struct msg *casper_request(const char *cmd);
/*
 * Sends req (freed) and waits for the reply: the reply if its error is 0,
 * else NULL with errno the service's error.
 */
struct msg *casper_call(const cap_channel_t *chan, struct msg *req);
/* Like casper_call() for replies that carry only the error. */
int casper_call_void(const cap_channel_t *chan, struct msg *req);

/*
 * cap_limit_set()/cap_limit_get() in the message form (the nvlist front
 * end, nvlimits.c, converts to and from it):
 * limits are the fields (freed); *limits is NULL if none were ever set.
 */
int casper_limit_set(const cap_channel_t *chan, struct msg *limits);
int casper_limit_get(const cap_channel_t *chan, struct msg **limits);

/* Copies the service's fields of src (keys from MK_SERVICE_FIRST) to dst. */
void msg_copy_fields(struct msg *dst, const struct msg *src);

/* A service process: serves requests on sock until its end closes. */
_Noreturn void casper_serve(int sock, const struct casper_service *svc);

/* The casper process cap_init() forks, serving on sock. */
_Noreturn void casper_process(int sock);
/* The service called name, or NULL. */
const struct casper_service *casper_service_find(const char *name);
/* The casper process itself: opens the services. */
extern const struct casper_service casper_zygote;

#endif
