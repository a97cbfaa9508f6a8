// SPDX-License-Identifier: GPL-2.0
/*
 * capctl fds PID: procstat -C. Every descriptor, what it is, and the
 * rights the hooks would grant through it right now.
 */
#define _GNU_SOURCE
#include "ask.h"
#include "commands.h"
#include "fmt.h"
#include "json.h"
#include "state.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *source_name(enum resolve_source s)
{
	switch (s) {
	case RESOLVE_ENTRY:
		return "entry";
	case RESOLVE_FLOOR:
		return "floor";
	case RESOLVE_LOW:
		return "low";
	default:
		return "unrestricted";
	}
}

static void fd_target(pid_t pid, int fd, char *buf, size_t len)
{
	char path[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/fd/%d", pid, fd);
	n = readlink(path, buf, len - 1);
	if (n < 0)
		n = snprintf(buf, len, "?");
	buf[n] = '\0';
}

/*
 * Does anything narrow this descriptor? An explicit entry can hold every
 * right: the BPF side gives one to the other descriptors of a file when
 * one of them is limited (the dup-then-limit idiom).
 */
static bool restricted(const struct resolved *r)
{
	return r->rights[0] != CAP_ALL0 || r->rights[1] != CAP_ALL1 ||
	       (r->fcntls & CAP_FCNTL_ALL) != CAP_FCNTL_ALL || r->nioctls >= 0;
}

static void ioctls_text(const struct resolved *r, char *buf, size_t len)
{
	size_t o = 0;

	if (r->nioctls < 0) {
		snprintf(buf, len, "all");
		return;
	}
	if (!r->nioctls) {
		snprintf(buf, len, "none");
		return;
	}
	buf[0] = '\0';
	for (int i = 0; i < r->nioctls && i < CAP_IOCTLS_MAX && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%#llx", i ? "," : "",
				      (unsigned long long)r->ioctls[i]);
}

static void print_json(struct json *j, int fd, const char *target,
		       const struct resolved *r)
{
	cap_rights_t cr = { { r->rights[0], r->rights[1] } };
	char names[4096];

	rights_display(&cr, names, sizeof(names));
	json_begin_object(j);
	json_kv_int(j, "fd", fd);
	json_kv_string(j, "kind", fd_kind(target));
	json_kv_string(j, "target", target);
	json_kv_bool(j, "restricted", restricted(r));
	json_kv_string(j, "source", source_name(r->source));
	json_key(j, "rights");
	json_begin_array(j);
	json_hex(j, r->rights[0]);
	json_hex(j, r->rights[1]);
	json_end_array(j);
	json_kv_string(j, "rights_names", names);
	json_key(j, "fcntls");
	json_begin_array(j);
	for (size_t i = 0; i < 4; i++)
		if (r->fcntls & cap_fcntl_names[i].bit)
			json_string(j, cap_fcntl_names[i].name);
	json_end_array(j);
	json_key(j, "ioctls");
	if (r->nioctls < 0) {
		json_string(j, "all");
	} else {
		json_begin_array(j);
		for (int i = 0; i < r->nioctls && i < CAP_IOCTLS_MAX; i++)
			json_uint(j, r->ioctls[i]);
		json_end_array(j);
	}
	json_end_object(j);
}

static void print_text(pid_t pid, int fd, const char *target,
		       const struct resolved *r)
{
	cap_rights_t cr = { { r->rights[0], r->rights[1] } };
	char names[4096], fcntls[64], ioctls[8192];

	if (!restricted(r)) {
		printf("%7d %4d %-10s %-12s %s\n", pid, fd, fd_kind(target),
		       r->source == RESOLVE_UNRESTRICTED ? "-" : "entry:all",
		       target);
		return;
	}
	rights_display(&cr, names, sizeof(names));
	fcntls_format(r->fcntls, fcntls, sizeof(fcntls));
	ioctls_text(r, ioctls, sizeof(ioctls));
	printf("%7d %4d %-10s %-12s %s\n", pid, fd, fd_kind(target),
	       source_name(r->source), target);
	printf("%7s %4s rights: %s\n", "", "", names);
	if (cr.cr_rights[0] & CAP_FCNTL & CAP_RIGHTS_BITS_MASK)
		printf("%7s %4s fcntls: %s\n", "", "", fcntls);
	if (cr.cr_rights[1] & CAP_IOCTL & CAP_RIGHTS_BITS_MASK)
		printf("%7s %4s ioctls: %s\n", "", "", ioctls);
}

static void begin(const struct capctl_args *a, struct json *j, bool has_table,
		  __u32 proc_flags)
{
	json_init(j, stdout);
	if (a->json) {
		json_begin_object(j);
		json_kv_int(j, "pid", a->pid);
		json_kv_bool(j, "has_table", has_table);
		json_kv_bool(j, "capability_mode",
			     has_table && (proc_flags & CAPSICUM_PROC_CAPMODE));
		json_kv_bool(j, "learning",
			     has_table &&
				     (proc_flags & CAPSICUM_PROC_LEARNING));
		json_key(j, "fds");
		json_begin_array(j);
	} else {
		if (has_table && (proc_flags & CAPSICUM_PROC_LEARNING))
			printf("LEARNING: pid %d's refusals are recorded, then "
			       "allowed (capctl run --learn)\n",
			       a->pid);
		printf("%7s %4s %-10s %-12s %s\n", "PID", "FD", "KIND", "LIMIT",
		       "TARGET");
	}
}

static void print_fd(const struct capctl_args *a, struct json *j, int fd,
		     const struct resolved *r)
{
	char target[4096];

	fd_target(a->pid, fd, target, sizeof(target));
	if (a->json)
		print_json(j, fd, target, r);
	else
		print_text(a->pid, fd, target, r);
}

static void end(const struct capctl_args *a, struct json *j)
{
	if (a->json) {
		json_end_array(j);
		json_end_object(j);
	}
}

/* A user's: capsicumd resolves the rights of the user's own process. */
static int fds_asked(const struct capctl_args *a)
{
	struct query_answer_head h;
	struct query_fds f;
	struct query_fd q;
	struct resolved *r;
	struct json j;
	size_t len, pos = sizeof(f);
	void *rec;
	int ret = ask_daemon(QUERY_FDS, a->pid, &h, &rec, &len), got = 0;

	if (ret)
		return ret;
	r = malloc(sizeof(*r));
	if (!r || len < sizeof(f)) {
		fprintf(stderr, "capctl: capsicumd's answer is malformed\n");
		free(r);
		free(rec);
		return CAPCTL_EXIT_ERROR;
	}
	memcpy(&f, rec, sizeof(f));
	begin(a, &j, f.has_table, f.proc_flags);
	for (__u32 i = 0; i < h.count; i++) {
		got = query_next_fd(rec, len, &pos, &q, r->ioctls);
		if (got <= 0)
			break;
		r->source = (enum resolve_source)q.source;
		r->rights[0] = q.rights[0];
		r->rights[1] = q.rights[1];
		r->fcntls = q.fcntls;
		r->nioctls = q.nioctls;
		print_fd(a, &j, q.fd, r);
	}
	end(a, &j);
	free(r);
	free(rec);
	if (got < 0) {
		fprintf(stderr, "capctl: capsicumd's answer is malformed\n");
		return CAPCTL_EXIT_ERROR;
	}
	return CAPCTL_EXIT_OK;
}

int cmd_fds(const struct capctl_args *a)
{
	struct capsicum_fd_record *recs = NULL;
	struct resolve_tables t;
	struct capsicum_proc proc;
	struct resolved *r;
	struct state s;
	struct json j;
	bool has_table;
	int n, err, ret = state_open_or_daemon(&s);

	if (ret == STATE_VIA_DAEMON)
		return fds_asked(a);
	if (ret)
		return ret;
	state_tables(&s, &t);
	n = fdtable_dump(a->pid, &recs);
	if (n < 0) {
		fprintf(stderr,
			"capctl: fds: listing pid %d's descriptors: %s\n",
			a->pid, strerror(-n));
		state_close(&s);
		return n == -EPERM ? CAPCTL_EXIT_DENIED : CAPCTL_EXIT_ERROR;
	}
	if (!n && kill(a->pid, 0) && errno == ESRCH) {
		fprintf(stderr, "capctl: fds: no process %d\n", a->pid);
		state_close(&s);
		return CAPCTL_EXIT_ERROR;
	}
	err = state_proc(&s, a->pid, &proc);
	has_table = !err;
	r = malloc(sizeof(*r));
	if (!r) {
		free(recs);
		state_close(&s);
		return CAPCTL_EXIT_ERROR;
	}
	begin(a, &j, has_table, has_table ? proc.flags : 0);
	for (int i = 0; i < n; i++) {
		resolve_fd(&t, has_table ? &proc : NULL, recs[i].fd,
			   recs[i].file, r);
		print_fd(a, &j, recs[i].fd, r);
	}
	end(a, &j);
	free(r);
	free(recs);
	state_close(&s);
	return CAPCTL_EXIT_OK;
}
