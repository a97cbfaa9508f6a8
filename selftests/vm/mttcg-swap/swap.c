// SPDX-License-Identifier: GPL-2.0
/*
 * The live upgrade's sequence on one hook, in a loop, without Capsicum
 * (run.sh; doc/daemon.md, "Upgrading"). A child loops on prctl
 * (task_prctl) on CPU 1; the parent, on CPU 0, attaches the other program
 * (a new link), pins it under a temporary name, renames it over the first
 * link's pin and closes the first link (its last reference): the call
 * site in bpf_lsm_task_prctl is re-patched from one trampoline to the
 * next at every cycle while the child runs through it. Prints "done"
 * unless the guest dies first.
 */
#define _GNU_SOURCE
#include "swap.skel.h"
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <sched.h>

int main(int argc, char **argv)
{
	int cycles = argc > 1 ? atoi(argv[1]) : 200;
	struct swap_bpf *s = swap_bpf__open_and_load();
	struct bpf_program *p[2];
	struct bpf_link *l[2] = { 0 };
	pid_t kid;
	int cur = 0;

	if (!s) {
		perror("load");
		return 1;
	}
	p[0] = s->progs.prctl_a;
	p[1] = s->progs.prctl_b;
	mkdir("/sys/fs/bpf/exp", 0755);
	l[0] = bpf_program__attach(p[0]);
	if (!l[0] || bpf_link__pin(l[0], "/sys/fs/bpf/exp/link")) {
		perror("attach");
		return 1;
	}
	kid = fork();
	if (!kid) {
		cpu_set_t c;
		CPU_ZERO(&c);
		CPU_SET(1, &c);
		sched_setaffinity(0, sizeof(c), &c);
		for (;;)
			prctl(PR_GET_DUMPABLE, 0, 0, 0, 0);
	}
	{
		cpu_set_t c;
		CPU_ZERO(&c);
		CPU_SET(0, &c);
		sched_setaffinity(0, sizeof(c), &c);
	}
	for (int i = 0; i < cycles; i++) {
		int nx = !cur;
		l[nx] = bpf_program__attach(p[nx]);
		if (!l[nx]) {
			perror("attach new");
			break;
		}
		if (bpf_link__pin(l[nx], "/sys/fs/bpf/exp/tmp_link")) {
			perror("pin");
			break;
		}
		if (rename("/sys/fs/bpf/exp/tmp_link",
			   "/sys/fs/bpf/exp/link")) {
			perror("rename");
			break;
		}
		/* old link: its pin is gone with the rename; drop our fd */
		bpf_link__disconnect(l[cur]);
		bpf_link__destroy(l[cur]);
		l[cur] = NULL;
		cur = nx;
		if (i % 50 == 0) {
			printf("cycle %d hits a %llu b %llu\n", i,
			       (unsigned long long)s->bss->hits_a,
			       (unsigned long long)s->bss->hits_b);
			fflush(stdout);
		}
	}
	kill(kid, SIGKILL);
	waitpid(kid, NULL, 0);
	printf("swap-experiment done: %d cycles, hits a %llu b %llu\n", cycles,
	       (unsigned long long)s->bss->hits_a,
	       (unsigned long long)s->bss->hits_b);
	unlink("/sys/fs/bpf/exp/link");
	return 0;
}
