// SPDX-License-Identifier: GPL-2.0
/*
 * capctl fds: dumps (tgid, fd, struct file *) for every descriptor of one
 * process, so capctl can look its rights up in the pinned tables exactly
 * as the hooks do. A task_file iterator visits each fd table once (threads
 * sharing the leader's table are skipped by the kernel).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <capsicum/fdtable_iter.h>

char LICENSE[] SEC("license") = "GPL";

/* The process to dump, set before load. */
const volatile __s32 target_tgid;

SEC("iter/task_file")
int dump_fds(struct bpf_iter__task_file *ctx)
{
	struct task_struct *task = ctx->task;
	struct file *file = ctx->file;
	struct capsicum_fd_record r;

	if (!task || !file || task->tgid != target_tgid)
		return 0;
	r.tgid = task->tgid;
	r.fd = (__s32)ctx->fd;
	r.file = (__u64)file;
	bpf_seq_write(ctx->meta->seq, &r, sizeof(r));
	return 0;
}
