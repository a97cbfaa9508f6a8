// SPDX-License-Identifier: GPL-2.0
/*
 * One program on lsm/task_prctl, the control plane's hook; swap.c loads
 * a new instance each cycle and swaps it in as the live upgrade does
 * (run.sh; doc/daemon.md, "Upgrading").
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
char LICENSE[] SEC("license") = "GPL";
__u64 hits_a;
SEC("lsm/task_prctl")
int BPF_PROG(prctl_a, int option, unsigned long arg2, unsigned long arg3,
	     unsigned long arg4, unsigned long arg5)
{
	__sync_fetch_and_add(&hits_a, 1);
	return 0;
}
