// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "commands.h"

#include <stdio.h>
#include <string.h>

pid_t daemon_pid(void)
{
	char path[64], comm[32] = "";
	FILE *f = fopen(CAPSICUMD_PIDFILE, "re");
	int pid = 0;

	if (!f)
		return 0;
	if (fscanf(f, "%d", &pid) != 1 || pid <= 0)
		pid = 0;
	fclose(f);
	if (!pid)
		return 0;
	/* A stale pid file may name a reused pid: check what runs there. */
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	if (!fgets(comm, sizeof(comm), f))
		comm[0] = '\0';
	fclose(f);
	comm[strcspn(comm, "\n")] = '\0';
	return strcmp(comm, "capsicumd") ? 0 : pid;
}
