// SPDX-License-Identifier: BSD-2-Clause
/* The services cap_service_open() knows, by FreeBSD's names. */
#include <string.h>

#include "dns_proto.h"
#include "fileargs_proto.h"
#include "grp_proto.h"
#include "net_proto.h"
#include "pwd_proto.h"
#include "syslog_proto.h"

static const struct casper_service *const services[] = {
	&fileargs_service, &net_service,    &pwd_service,
	&grp_service,	   &syslog_service, &dns_service,
};

const struct casper_service *casper_service_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(services) / sizeof(services[0]); i++)
		if (!strcmp(services[i]->name, name))
			return services[i];
	return NULL;
}
