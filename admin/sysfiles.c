// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "sysfiles.h"

#include <stdio.h>
#include <string.h>

void read_first_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");

	if (!f || !fgets(buf, (int)len, f))
		snprintf(buf, len, "?");
	if (f)
		fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

pid_t daemon_pid(void)
{
	char line[32], path[64];
	int pid = 0;

	read_first_line(CAPSICUMD_PIDFILE, line, sizeof(line));
	if (sscanf(line, "%d", &pid) != 1 || pid <= 0)
		return 0;
	/* A stale pid file may name a reused pid: check what runs there. */
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	read_first_line(path, line, sizeof(line));
	return strcmp(line, "capsicumd") ? 0 : pid;
}
