/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * FreeBSD's <libcasper.h> for Linux: cap_init() starts the casper process
 * while the program may still open and fork, and each cap_service_open()
 * gives a channel to a service process of its own, which does for the
 * program, within the limits it was given, what capability mode forbids.
 * The services' own headers are <casper/cap_*.h>; libcasper(3) and
 * doc/casper.md tell what differs from FreeBSD. The limits are nvlists
 * (<sys/nv.h>, a libnv subset in this library) or the services'
 * cap_*_limit_*() functions.
 */
#ifndef _LIBCASPER_H_
#define _LIBCASPER_H_

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The real library, not FreeBSD's in-process fallback. */
#define CASPER_SUPPORT 1

typedef struct cap_channel cap_channel_t;
/* <sys/nv.h>'s, declared here too so either header may come first. */
#ifndef _NVLIST_T_DECLARED
#define _NVLIST_T_DECLARED
typedef struct nvlist nvlist_t;
#endif

cap_channel_t *cap_init(void);
cap_channel_t *cap_service_open(const cap_channel_t *chan, const char *name);
int cap_service_limit(const cap_channel_t *chan, const char *const *names,
		      size_t nnames);
cap_channel_t *cap_clone(const cap_channel_t *chan);
void cap_close(cap_channel_t *chan);
int cap_sock(const cap_channel_t *chan);
cap_channel_t *cap_wrap(int sock, int flags);
int cap_unwrap(cap_channel_t *chan, int *flags);
/* The service's limits as FreeBSD's nvlists (libcasper(3)). */
int cap_limit_get(const cap_channel_t *chan, nvlist_t **limitsp);
int cap_limit_set(const cap_channel_t *chan, nvlist_t *limits);

#ifdef __cplusplus
}
#endif

#endif /* _LIBCASPER_H_ */
