// SPDX-License-Identifier: GPL-2.0
/*
 * capsicumd's trial attach: the smallest BPF-LSM program that proves the
 * running kernel really calls our programs (bpf in the active LSM list,
 * BTF, trampolines), not just that the lsm file names bpf. It counts the
 * getsid() calls of one process; capsicumd makes one and reads the count.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

/* Set by capsicumd before attach: the process whose calls count. */
__u32 probe_tgid;
__u64 probe_hits;

SEC("lsm/task_getsid")
int BPF_PROG(probe_getsid, struct task_struct *p)
{
	if ((bpf_get_current_pid_tgid() >> 32) == probe_tgid)
		__sync_fetch_and_add(&probe_hits, 1);
	return 0;
}
