// SPDX-License-Identifier: GPL-2.0
/*
 * The live upgrade's sequence on one hook, in a loop, without Capsicum
 * (run.sh; doc/daemon.md, "Upgrading"). A child loops on prctl
 * (task_prctl) on CPU 1; the parent, on CPU 0, loads a new instance of the
 * program, attaches it (a new link), pins it under a temporary name,
 * renames it over the old link's pin and closes the old link: the call
 * site in bpf_lsm_task_prctl is re-patched from one trampoline to the
 * next twice a cycle while the child runs through it. Prints "done"
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

/* A fresh instance of the object: new programs, as an upgrade loads. */
static struct bpf_link *attach_new(struct swap_bpf **skel)
{
	*skel = swap_bpf__open_and_load();
	return *skel ? bpf_program__attach((*skel)->progs.prctl_a) : NULL;
}

static void pin_cpu(int cpu)
{
	cpu_set_t c;

	CPU_ZERO(&c);
	CPU_SET(cpu, &c);
	sched_setaffinity(0, sizeof(c), &c);
}

int main(int argc, char **argv)
{
	int cycles = argc > 1 ? atoi(argv[1]) : 200, i;
	struct swap_bpf *cur, *next;
	struct bpf_link *link, *nlink;
	unsigned long long hits = 0;
	pid_t kid;

	mkdir("/sys/fs/bpf/exp", 0755);
	link = attach_new(&cur);
	if (!link || bpf_link__pin(link, "/sys/fs/bpf/exp/link")) {
		perror("attach");
		return 1;
	}
	kid = fork();
	if (!kid) {
		pin_cpu(1);
		for (;;)
			prctl(PR_GET_DUMPABLE, 0, 0, 0, 0);
	}
	pin_cpu(0);
	for (i = 0; i < cycles; i++) {
		nlink = attach_new(&next);
		if (!nlink) {
			perror("attach new");
			break;
		}
		/* No dot in the name: bpffs reserves those (EPERM). */
		if (bpf_link__pin(nlink, "/sys/fs/bpf/exp/tmp_link") ||
		    rename("/sys/fs/bpf/exp/tmp_link",
			   "/sys/fs/bpf/exp/link")) {
			perror("pin");
			break;
		}
		/* The old link's pin is gone: closing our fd detaches it. */
		hits += cur->bss->hits_a;
		bpf_link__disconnect(link);
		bpf_link__destroy(link);
		swap_bpf__destroy(cur);
		cur = next;
		link = nlink;
		if (i % 50 == 0) {
			printf("cycle %d\n", i);
			fflush(stdout);
		}
	}
	kill(kid, SIGKILL);
	waitpid(kid, NULL, 0);
	printf("swap-experiment done: %d of %d cycles, %llu hits\n", i, cycles,
	       hits + cur->bss->hits_a);
	unlink("/sys/fs/bpf/exp/link");
	return i == cycles ? 0 : 1;
}
