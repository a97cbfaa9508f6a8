// SPDX-License-Identifier: GPL-2.0
/* capctl ps: every process with a rights table, and its mode. */
#define _GNU_SOURCE
#include "commands.h"
#include "json.h"
#include "state.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

/* The comm of pid, "?" if it is gone. */
static void proc_comm(pid_t pid, char *buf, size_t len)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	read_first_line(path, buf, len);
}

int cmd_ps(const struct capctl_args *a)
{
	struct state s;
	struct json j;
	struct dirent *e;
	DIR *d;
	int ret = state_open(&s);

	if (ret)
		return ret;
	d = opendir("/proc");
	if (!d) {
		perror("capctl: /proc");
		state_close(&s);
		return CAPCTL_EXIT_ERROR;
	}
	json_init(&j, stdout);
	if (a->json)
		json_begin_array(&j);
	else
		printf("%7s %-16s %8s %s\n", "PID", "COMM", "TABLE", "MODE");
	while ((e = readdir(d))) {
		struct capsicum_proc p;
		char comm[64];
		pid_t pid;

		if (!isdigit((unsigned char)e->d_name[0]) ||
		    parse_pid(e->d_name, &pid) || state_proc(&s, pid, &p))
			continue;
		proc_comm(pid, comm, sizeof(comm));
		bool capmode = p.flags & CAPSICUM_PROC_CAPMODE;
		if (!a->json) {
			printf("%7d %-16s %8llu %s%s\n", pid, comm,
			       (unsigned long long)p.table_id,
			       capmode ? "capability" : "limits only",
			       p.flags & CAPSICUM_PROC_SHARED_FDS
				       ? " (shared fd table)"
				       : "");
			continue;
		}
		json_begin_object(&j);
		json_kv_int(&j, "pid", pid);
		json_kv_string(&j, "comm", comm);
		json_kv_uint(&j, "table_id", p.table_id);
		json_kv_bool(&j, "capability_mode", capmode);
		json_kv_bool(&j, "shared_fd_table",
			     p.flags & CAPSICUM_PROC_SHARED_FDS);
		json_end_object(&j);
	}
	if (a->json)
		json_end_array(&j);
	closedir(d);
	state_close(&s);
	return CAPCTL_EXIT_OK;
}
