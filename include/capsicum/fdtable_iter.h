/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Records of bpf/fdtable_iter.bpf.c, a task_file iterator capctl runs to
 * learn which struct file each descriptor of a process maps to: the key
 * the rights tables are checked against. Includable from BPF C.
 */
#ifndef _CAPSICUM_FDTABLE_ITER_H
#define _CAPSICUM_FDTABLE_ITER_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

struct capsicum_fd_record {
	__u32 tgid;
	__s32 fd;
	__u64 file; /* struct file address, as the rights tables record it */
};

#endif
