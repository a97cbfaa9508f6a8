// SPDX-License-Identifier: GPL-2.0
/*
 * The smallest BPF-LSM program that proves the test harness end to end:
 * it denies opening one chosen inode with ENOTCAPABLE and counts the
 * denials. The rights machinery lives elsewhere; this only shows that an
 * LSM program of ours loads, attaches, enforces and detaches on a kernel.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <capsicum/abi.h>

char LICENSE[] SEC("license") = "GPL";

/* Set by the loader after open: the inode to deny. */
__u64 target_ino;
__u32 target_dev;
__u64 denials;

SEC("lsm/file_open")
int BPF_PROG(harness_deny_open, struct file *file)
{
	struct inode *inode = file->f_inode;

	if (!target_ino || inode->i_ino != target_ino ||
	    inode->i_sb->s_dev != target_dev)
		return 0;
	__sync_fetch_and_add(&denials, 1);
	return -ENOTCAPABLE;
}
