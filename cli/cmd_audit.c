// SPDX-License-Identifier: GPL-2.0
/*
 * capctl audit [--follow]: the denials capsicumd wrote to its audit log.
 * Only the loader's binary may consume the ring buffer (it needs a
 * writable mapping), so capctl reads the daemon's log, never the ring.
 */
#define _GNU_SOURCE
#include "audit_line.h"
#include "ask.h"
#include "commands.h"
#include "fmt.h"
#include "json.h"
#include "sysfiles.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/socket.h>
#include <unistd.h>

static void print_denial(const struct capctl_args *a,
			 const struct capsicum_denial *d)
{
	cap_rights_t m = { { CAPRIGHT(0, (d->needed[0] & ~d->held[0]) &
						 CAP_RIGHTS_BITS_MASK),
			     CAPRIGHT(1, (d->needed[1] & ~d->held[1]) &
						 CAP_RIGHTS_BITS_MASK) } };
	char line[2048];
	struct json j;

	if (!a->json) {
		audit_describe(d, line, sizeof(line));
		printf("[%6llu.%06llu] %s\n",
		       (unsigned long long)(d->time_ns / 1000000000ULL),
		       (unsigned long long)(d->time_ns % 1000000000ULL / 1000),
		       line);
		return;
	}
	rights_display(&m, line, sizeof(line));
	/* One object per line, so --follow streams valid JSON lines. */
	json_init(&j, stdout);
	json_begin_object(&j);
	json_kv_uint(&j, "time_ns", d->time_ns);
	json_kv_uint(&j, "pid", d->pid);
	json_kv_uint(&j, "tid", d->tid);
	json_kv_string(&j, "comm", d->comm);
	json_kv_int(&j, "fd", d->fd);
	json_kv_int(&j, "syscall", d->syscall_nr);
	json_kv_string(&j, "hook", audit_hook_name(d->hook));
	json_kv_string(&j, "error", audit_error_name(d->error));
	json_key(&j, "needed");
	json_begin_array(&j);
	json_hex(&j, d->needed[0]);
	json_hex(&j, d->needed[1]);
	json_end_array(&j);
	json_key(&j, "held");
	json_begin_array(&j);
	json_hex(&j, d->held[0]);
	json_hex(&j, d->held[1]);
	json_end_array(&j);
	json_kv_string(&j, "missing", line);
	json_end_object(&j);
}

/* Prints the complete lines from f; leaves f before a partial last one. */
static void print_lines(const struct capctl_args *a, FILE *f)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	for (;;) {
		long at = ftell(f);
		struct capsicum_denial d;

		n = getline(&line, &cap, f);
		if (n <= 0)
			break;
		if (line[n - 1] != '\n') {
			fseek(f, at, SEEK_SET); /* the daemon is mid-write */
			break;
		}
		if (!audit_line_parse(line, &d))
			print_denial(a, &d);
	}
	clearerr(f);
	free(line);
	fflush(stdout);
}

/*
 * Waits for writes with inotify (no polling). The directory is watched
 * too: after a rotation the daemon recreates the file at its SIGHUP, and
 * following goes on in the new one.
 */
static int follow(const struct capctl_args *a, FILE *f)
{
	char dir[4096], ev[4096] __attribute__((aligned(8)));
	const char *base = strrchr(a->audit_file, '/');
	int in = inotify_init1(IN_CLOEXEC);
	ssize_t n;

	snprintf(dir, sizeof(dir), "%.*s",
		 base ? (int)(base - a->audit_file) : 1,
		 base ? a->audit_file : ".");
	base = base ? base + 1 : a->audit_file;
	if (in < 0 || inotify_add_watch(in, a->audit_file, IN_MODIFY) < 0 ||
	    inotify_add_watch(in, dir[0] ? dir : "/", IN_CREATE) < 0) {
		perror("capctl: audit --follow: inotify");
		fclose(f);
		return CAPCTL_EXIT_ERROR;
	}
	while ((n = read(in, ev, sizeof(ev))) > 0) {
		for (char *p = ev; p < ev + n;) {
			const struct inotify_event *e = (const void *)p;
			FILE *nf;

			p += sizeof(*e) + e->len;
			if (!(e->mask & IN_CREATE) || strcmp(e->name, base))
				continue;
			print_lines(a, f); /* what the old file still had */
			nf = fopen(a->audit_file, "re");
			if (!nf)
				continue;
			fclose(f);
			f = nf;
			inotify_add_watch(in, a->audit_file, IN_MODIFY);
		}
		print_lines(a, f);
	}
	fclose(f);
	return CAPCTL_EXIT_ERROR;
}

/*
 * A user's: capsicumd sends the denials of the user's processes, then,
 * with --follow, each new one as it comes.
 */
static int audit_asked(const struct capctl_args *a)
{
	struct query_answer_head h;
	struct capsicum_denial d;
	ssize_t n;
	int fd, ret = ask_open(a->follow ? QUERY_AUDIT_FOLLOW : QUERY_AUDIT, 0,
			       &h, &fd);

	if (ret)
		return ret;
	for (__u32 i = 0; !a->follow && i < h.count; i++) {
		if (recv(fd, &d, sizeof(d), MSG_WAITALL) != sizeof(d))
			break;
		print_denial(a, &d);
	}
	while (a->follow &&
	       (n = recv(fd, &d, sizeof(d), MSG_WAITALL)) == sizeof(d)) {
		print_denial(a, &d);
		fflush(stdout);
	}
	close(fd);
	if (a->follow) {
		fprintf(stderr, "capctl: capsicumd ended the stream\n");
		return CAPCTL_EXIT_ERROR;
	}
	fflush(stdout);
	return CAPCTL_EXIT_OK;
}

int cmd_audit(const struct capctl_args *a)
{
	FILE *f = fopen(a->audit_file, "re");

	if (!daemon_pid())
		fprintf(stderr,
			"capctl: capsicumd is not running: new denials wait in "
			"the ring buffer until it starts\n");
	if (!f && (errno == EACCES || errno == EPERM) &&
	    !strcmp(a->audit_file, CAPCTL_DEFAULT_AUDIT))
		return audit_asked(a);
	if (!f) {
		fprintf(stderr, "capctl: audit: %s: %s (capsicumd writes it)\n",
			a->audit_file, strerror(errno));
		return CAPCTL_EXIT_ERROR;
	}
	print_lines(a, f);
	if (!a->follow) {
		fclose(f);
		return CAPCTL_EXIT_OK;
	}
	return follow(a, f);
}
