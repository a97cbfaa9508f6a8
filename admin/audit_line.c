// SPDX-License-Identifier: GPL-2.0
/* The audit log's line format, written by capsicumd and read by capctl. */
#define _GNU_SOURCE
#include "audit_line.h"

#include <capsicum/rights_names.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define HOOK_NAME(suffix, name) [CAPSICUM_HOOK_##suffix] = name,
static const char *const hook_names[CAPSICUM_HOOK_MAX] = {
	CAPSICUM_HOOKS(HOOK_NAME) /* [CAPSICUM_HOOK_LOOKUP] = "lookup", ... */
};
#undef HOOK_NAME

const char *audit_hook_name(unsigned int hook)
{
	if (hook < CAPSICUM_HOOK_MAX && hook_names[hook])
		return hook_names[hook];
	return "?";
}

const char *audit_error_name(unsigned int error)
{
	switch (error) {
	case ENOTCAPABLE:
		return "ENOTCAPABLE";
	case ECAPMODE:
		return "ECAPMODE";
	case EDQUOT:
		return "EDQUOT";
	case ENOMEM:
		return "ENOMEM";
	default:
		return NULL;
	}
}

static size_t comm_escape(const char *comm, char *out, size_t len)
{
	size_t o = 0;

	for (size_t i = 0;
	     i < sizeof(((struct capsicum_denial *)0)->comm) && comm[i]; i++) {
		unsigned char c = (unsigned char)comm[i];
		char tmp[5];
		int n;

		if (c > ' ' && c < 0x7f && c != '\\')
			n = snprintf(tmp, sizeof(tmp), "%c", c);
		else
			n = snprintf(tmp, sizeof(tmp), "\\x%02x", c);
		if (o + (size_t)n < len)
			memcpy(out + o, tmp, (size_t)n);
		o += (size_t)n;
	}
	if (len)
		out[o < len ? o : len - 1] = '\0';
	return o;
}

int audit_line_format(const struct capsicum_denial *d, char *buf, size_t len)
{
	char comm[sizeof(d->comm) * 4 + 1];

	char uid[16] = "", learn[20] = "";

	comm_escape(d->comm, comm, sizeof(comm));
	if (d->uid != CAPSICUM_DENIAL_NO_UID)
		snprintf(uid, sizeof(uid), " uid=%u", d->uid);
	if (d->learn_id)
		snprintf(learn, sizeof(learn), " learn=%u", d->learn_id);
	return snprintf(buf, len,
			"v1 time=%" PRIu64 " pid=%u tid=%u fd=%d syscall=%d "
			"hook=%u error=%u needed=0x%" PRIx64 ",0x%" PRIx64
			" held=0x%" PRIx64 ",0x%" PRIx64 "%s%s comm=%s\n",
			(uint64_t)d->time_ns, d->pid, d->tid, d->fd,
			d->syscall_nr, d->hook, d->error,
			(uint64_t)d->needed[0], (uint64_t)d->needed[1],
			(uint64_t)d->held[0], (uint64_t)d->held[1], uid, learn,
			comm);
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static int comm_unescape(const char *in, char *comm, size_t len)
{
	size_t o = 0;

	memset(comm, 0, len);
	while (*in && *in != '\n') {
		int c = (unsigned char)*in;

		if (c == '\\') {
			int hi, lo;

			if (in[1] != 'x' || (hi = hexval(in[2])) < 0 ||
			    (lo = hexval(in[3])) < 0)
				return -1;
			c = hi << 4 | lo;
			in += 4;
		} else {
			in++;
		}
		if (o + 1 >= len)
			return -1;
		comm[o++] = (char)c;
	}
	return 0;
}

int audit_line_parse(const char *line, struct capsicum_denial *d)
{
	uint64_t t, n0, n1, h0, h1;
	int used = 0;

	memset(d, 0, sizeof(*d));
	if (sscanf(line,
		   "v1 time=%" SCNu64 " pid=%u tid=%u fd=%d syscall=%d hook=%u "
		   "error=%u needed=0x%" SCNx64 ",0x%" SCNx64 " held=0x%" SCNx64
		   ",0x%" SCNx64 "%n",
		   &t, &d->pid, &d->tid, &d->fd, &d->syscall_nr, &d->hook,
		   &d->error, &n0, &n1, &h0, &h1, &used) != 11 ||
	    !used)
		return -1;
	/* uid= came later: a line without it is nobody's but root's. */
	d->uid = CAPSICUM_DENIAL_NO_UID;
	line += used;
	used = 0;
	if (!strncmp(line, " uid=", 5) &&
	    (sscanf(line, " uid=%u%n", &d->uid, &used) != 1 || !used ||
	     d->uid == CAPSICUM_DENIAL_NO_UID))
		return -1;
	line += used;
	used = 0;
	/* learn= only on a learning tree's records (allowed, not refused). */
	if (!strncmp(line, " learn=", 7) &&
	    (sscanf(line, " learn=%u%n", &d->learn_id, &used) != 1 || !used ||
	     !d->learn_id))
		return -1;
	line += used;
	if (strncmp(line, " comm=", 6))
		return -1;
	used = 6;
	d->time_ns = t;
	d->needed[0] = n0;
	d->needed[1] = n1;
	d->held[0] = h0;
	d->held[1] = h1;
	return comm_unescape(line + used, d->comm, sizeof(d->comm));
}

/* Rights in `need` that `held` lacks, as cap_rights_t words. */
static void missing_rights(const struct capsicum_denial *d, cap_rights_t *m)
{
	m->cr_rights[0] = CAPRIGHT(0, (d->needed[0] & ~d->held[0]) &
					      CAP_RIGHTS_BITS_MASK);
	m->cr_rights[1] = CAPRIGHT(1, (d->needed[1] & ~d->held[1]) &
					      CAP_RIGHTS_BITS_MASK);
}

int audit_describe(const struct capsicum_denial *d, char *buf, size_t len)
{
	char comm[sizeof(d->comm) * 4 + 1], missing[512], held[1024];
	const char *err = audit_error_name(d->error);
	cap_rights_t m, h = { { d->held[0], d->held[1] } };
	char errbuf[16];

	comm_escape(d->comm, comm, sizeof(comm));
	if (d->hook == CAPSICUM_HOOK_QUOTA)
		return snprintf(buf, len,
				"pid %u (%s) fd %d: its uid's quota of table "
				"entries is used up; syscall %d, hook quota, "
				"%s",
				d->pid, comm, d->fd, d->syscall_nr,
				err ? err : "EDQUOT");
	missing_rights(d, &m);
	if (capsicum_rights_format(&m, missing, sizeof(missing)) < 0)
		snprintf(missing, sizeof(missing), "?");
	if (!d->held[0] && !d->held[1])
		snprintf(held, sizeof(held), "-");
	else if (capsicum_rights_format(&h, held, sizeof(held)) < 0)
		snprintf(held, sizeof(held), "0x%llx,0x%llx",
			 (unsigned long long)d->held[0],
			 (unsigned long long)d->held[1]);
	if (!err) {
		snprintf(errbuf, sizeof(errbuf), "errno %u", d->error);
		err = errbuf;
	}
	return snprintf(buf, len,
			"pid %u (%s) fd %d: missing %s (holds %s); syscall %d, "
			"hook %s, %s%s",
			d->pid, comm, d->fd, missing[0] ? missing : "none",
			held[0] ? held : "none", d->syscall_nr,
			audit_hook_name(d->hook), err,
			d->learn_id ? " (learning: allowed)" : "");
}
