// SPDX-License-Identifier: GPL-2.0
#include "fmt.h"

#include <capsicum/rights_names.h>
#include <stdio.h>
#include <string.h>

const struct fcntl_name cap_fcntl_names[4] = {
	{ CAP_FCNTL_GETFL, "getfl" },
	{ CAP_FCNTL_SETFL, "setfl" },
	{ CAP_FCNTL_GETOWN, "getown" },
	{ CAP_FCNTL_SETOWN, "setown" },
};

const char *fd_kind(const char *target)
{
	if (!strncmp(target, "socket:[", 8))
		return "socket";
	if (!strncmp(target, "pipe:[", 6))
		return "pipe";
	if (!strncmp(target, "anon_inode:", 11))
		return "anon_inode";
	if (target[0] == '/')
		return "path";
	return "other";
}

int rights_display(const cap_rights_t *r, char *buf, size_t len)
{
	int n = capsicum_rights_format(r, buf, len);

	if (n == 0)
		return snprintf(buf, len, "none");
	return n;
}

int fcntls_format(uint32_t fcntls, char *buf, size_t len)
{
	size_t o = 0;

	if ((fcntls & CAP_FCNTL_ALL) == CAP_FCNTL_ALL)
		return snprintf(buf, len, "all");
	if (!(fcntls & CAP_FCNTL_ALL))
		return snprintf(buf, len, "none");
	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < 4; i++) {
		if (!(fcntls & cap_fcntl_names[i].bit))
			continue;
		o += (size_t)snprintf(buf + (o < len ? o : len),
				      o < len ? len - o : 0, "%s%s",
				      o ? "," : "", cap_fcntl_names[i].name);
	}
	return (int)o;
}
