// SPDX-License-Identifier: GPL-2.0
/* capctl ps: every process with a rights table, and its mode. */
#define _GNU_SOURCE
#include "ask.h"
#include "commands.h"
#include "json.h"
#include "parse_num.h"
#include "state.h"
#include "sysfiles.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The comm of pid, "?" if it is gone. */
static void proc_comm(pid_t pid, char *buf, size_t len)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	read_first_line(path, buf, len);
}

static void print_proc(const struct capctl_args *a, struct json *j, pid_t pid,
		       const char *comm, __u64 table_id, __u32 flags)
{
	bool capmode = flags & CAPSICUM_PROC_CAPMODE;
	bool learning = flags & CAPSICUM_PROC_LEARNING;

	if (!a->json) {
		printf("%7d %-16s %8llu %s%s%s\n", pid, comm,
		       (unsigned long long)table_id,
		       capmode ? "capability" : "limits only",
		       flags & CAPSICUM_PROC_SHARED_FDS ? " (shared fd table)"
							: "",
		       learning ? " LEARNING: refusals recorded, then allowed"
				: "");
		return;
	}
	json_begin_object(j);
	json_kv_int(j, "pid", pid);
	json_kv_string(j, "comm", comm);
	json_kv_uint(j, "table_id", table_id);
	json_kv_bool(j, "capability_mode", capmode);
	json_kv_bool(j, "shared_fd_table", flags & CAPSICUM_PROC_SHARED_FDS);
	json_kv_bool(j, "learning", learning);
	json_end_object(j);
}

static void begin(const struct capctl_args *a, struct json *j)
{
	json_init(j, stdout);
	if (a->json)
		json_begin_array(j);
	else
		printf("%7s %-16s %8s %s\n", "PID", "COMM", "TABLE", "MODE");
}

static void end(const struct capctl_args *a, struct json *j)
{
	if (a->json)
		json_end_array(j);
}

/* A user's: capsicumd lists the user's own processes. */
static int ps_asked(const struct capctl_args *a)
{
	struct query_answer_head h;
	struct json j;
	size_t len;
	void *rec;
	int ret = ask_daemon(QUERY_PS, 0, &h, &rec, &len);

	if (ret)
		return ret;
	begin(a, &j);
	for (size_t i = 0;
	     i < h.count && (i + 1) * sizeof(struct query_proc) <= len; i++) {
		struct query_proc p;
		char comm[sizeof(p.comm) + 1];

		memcpy(&p, (char *)rec + i * sizeof(p), sizeof(p));
		snprintf(comm, sizeof(comm), "%.*s", (int)sizeof(p.comm),
			 p.comm);
		print_proc(a, &j, p.pid, comm, p.table_id, p.flags);
	}
	end(a, &j);
	free(rec);
	return CAPCTL_EXIT_OK;
}

int cmd_ps(const struct capctl_args *a)
{
	struct state s;
	struct json j;
	struct dirent *e;
	DIR *d;
	int ret = state_open_or_daemon(&s);

	if (ret == STATE_VIA_DAEMON)
		return ps_asked(a);
	if (ret)
		return ret;
	d = opendir("/proc");
	if (!d) {
		perror("capctl: /proc");
		state_close(&s);
		return CAPCTL_EXIT_ERROR;
	}
	begin(a, &j);
	while ((e = readdir(d))) {
		struct capsicum_proc p;
		char comm[64];
		pid_t pid;

		if (!isdigit((unsigned char)e->d_name[0]) ||
		    parse_pid(e->d_name, &pid) || state_proc(&s, pid, &p))
			continue;
		proc_comm(pid, comm, sizeof(comm));
		print_proc(a, &j, pid, comm, p.table_id, p.flags);
	}
	end(a, &j);
	closedir(d);
	state_close(&s);
	return CAPCTL_EXIT_OK;
}
