// SPDX-License-Identifier: BSD-2-Clause
/*
 * The cap_dns service: cap_net's resolver commands under cap_dns's limits
 * (types and families, each list only narrowing), which it hands to
 * cap_net's code as the equivalent cap_net limits.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>

#include <casper/cap_net.h>
#include <sys/capsicum.h>

#include "dns_proto.h"

static const char *const types[] = { "ADDR2NAME", "NAME2ADDR", "ADDR", "NAME",
				     NULL };

static int listed(const struct msg *l, uint64_t list)
{
	const struct msg_field *f;
	uint64_t v;
	size_t i;

	for (i = 0; l && (f = msg_get(l, DNK_LISTED, MSG_U64, i)); i++) {
		memcpy(&v, f->data, sizeof(v));
		if (v == list)
			return 1;
	}
	return 0;
}

/* ADDR is ADDR2NAME, NAME is NAME2ADDR, as FreeBSD's. */
static const char *canonical(const char *t)
{
	if (!strcmp(t, "ADDR"))
		return "ADDR2NAME";
	if (!strcmp(t, "NAME"))
		return "NAME2ADDR";
	return t;
}

static int type_allowed(const struct msg *l, const char *type)
{
	const char *t;
	size_t i;

	if (!listed(l, DNK_TYPE))
		return 1;
	for (i = 0; (t = msg_get_str_at(l, DNK_TYPE, i)); i++)
		if (!strcmp(canonical(t), canonical(type)))
			return 1;
	return 0;
}

static int family_allowed(const struct msg *l, uint64_t family)
{
	const struct msg_field *f;
	uint64_t v;
	size_t i;

	if (!listed(l, DNK_FAMILY))
		return 1;
	for (i = 0; (f = msg_get(l, DNK_FAMILY, MSG_U64, i)); i++) {
		memcpy(&v, f->data, sizeof(v));
		if (v == family)
			return 1;
	}
	return 0;
}

static int dns_limit(const struct msg *old, const struct msg *new)
{
	const struct msg_field *f;
	const char *t;
	uint64_t v;
	size_t i;

	if (msg_only(new, (uint16_t[]){ DNK_TYPE, DNK_FAMILY, DNK_LISTED, 0 },
		     (enum msg_type[]){ MSG_STR, MSG_U64, MSG_U64 }) < 0 ||
	    (msg_count(new, DNK_TYPE, MSG_STR) > 0 && !listed(new, DNK_TYPE)) ||
	    (msg_count(new, DNK_FAMILY, MSG_U64) > 0 &&
	     !listed(new, DNK_FAMILY)))
		return EINVAL;
	for (i = 0; (t = msg_get_str_at(new, DNK_TYPE, i)); i++) {
		size_t k;

		for (k = 0; types[k] && strcmp(types[k], t); k++)
			;
		if (!types[k])
			return EINVAL;
	}
	for (i = 0; (f = msg_get(new, DNK_LISTED, MSG_U64, i)); i++) {
		memcpy(&v, f->data, sizeof(v));
		if (v != DNK_TYPE && v != DNK_FAMILY)
			return EINVAL;
	}
	if (!old)
		return 0;
	if ((listed(old, DNK_TYPE) && !listed(new, DNK_TYPE)) ||
	    (listed(old, DNK_FAMILY) && !listed(new, DNK_FAMILY)))
		return ENOTCAPABLE;
	for (i = 0; (t = msg_get_str_at(new, DNK_TYPE, i)); i++)
		if (!type_allowed(old, t))
			return ENOTCAPABLE;
	for (i = 0; (f = msg_get(new, DNK_FAMILY, MSG_U64, i)); i++) {
		memcpy(&v, f->data, sizeof(v));
		if (!family_allowed(old, v))
			return ENOTCAPABLE;
	}
	return 0;
}

/* cap_net's limits meaning the same as l; 0, or an errno. */
static int as_net(const struct msg *l, struct msg *net)
{
	uint64_t mode = 0;
	const struct msg_field *f;
	size_t i;

	if (type_allowed(l, "NAME2ADDR"))
		mode |= CAPNET_NAME2ADDR | CAPNET_DEPRECATED_NAME2ADDR;
	if (type_allowed(l, "ADDR2NAME"))
		mode |= CAPNET_ADDR2NAME | CAPNET_DEPRECATED_ADDR2NAME;
	/* cap_net's empty list means "any": an empty one here, nothing. */
	if (listed(l, DNK_FAMILY) && msg_count(l, DNK_FAMILY, MSG_U64) == 0)
		mode = 0;
	msg_add_u64(net, NK_MODE, mode);
	for (i = 0; (f = msg_get(l, DNK_FAMILY, MSG_U64, i)); i++) {
		uint64_t v;

		memcpy(&v, f->data, sizeof(v));
		msg_add_u64(net, NK_A2N_FAMILY, v);
		msg_add_u64(net, NK_N2A_FAMILY, v);
	}
	return net->error;
}

static int dns_command(const char *cmd, const struct msg *limits,
		       struct msg *in, struct msg *out)
{
	struct msg *net;
	int error;

	if (strcmp(cmd, "getaddrinfo") && strcmp(cmd, "getnameinfo") &&
	    strcmp(cmd, "gethostbyname") && strcmp(cmd, "gethostbyaddr"))
		return EINVAL;
	if (!limits)
		return net_service.command(cmd, NULL, in, out);
	net = msg_new();
	if (!net)
		return ENOMEM;
	error = as_net(limits, net);
	if (!error)
		error = net_service.command(cmd, net, in, out);
	msg_free(net);
	return error;
}

const struct casper_service dns_service = {
	.name = DNS_SERVICE,
	.limit = dns_limit,
	.command = dns_command,
};
