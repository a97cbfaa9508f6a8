/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The nvlist front end of the limits: FreeBSD's limit nvlists (the schemas
 * its services read, doc/casper.md) to and from the message form the
 * services keep. Only the client converts: the services never parse an
 * nvlist, so the wire format and the limit checks stay as they were.
 */
#ifndef CASPER_NVLIMITS_H
#define CASPER_NVLIMITS_H

#include <sys/nv.h>

#include "casper.h"

/*
 * Adds nvl's limits for service to m: 0, EINVAL for a name or type the
 * schema does not have, EOPNOTSUPP for a service without a schema.
 */
int nvlimits_to_msg(const char *service, const nvlist_t *nvl, struct msg *m);
/* The nvlist for limits m of service, or NULL and errno. */
nvlist_t *nvlimits_from_msg(const char *service, const struct msg *m);

#endif
