/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which descriptor a hook acts on, derived from the current syscall, and
 * which right the syscall implies where one hook serves several (read vs
 * pread, splice's two ends): include/capsicum/optable.h's rows, expanded
 * (optable.bpf.h). Each result is only a candidate: state.bpf.h accepts
 * it only if the fd table maps it to the hook's own struct file, else the
 * file's floor applies.
 */
#ifndef CAPSICUM_SYSCALLS_BPF_H
#define CAPSICUM_SYSCALLS_BPF_H

#include "optable.bpf.h"
#include "state.bpf.h"

/* The right of the direction itself: a read's CAP_READ, a write's. */
static __always_inline __u64 rw_direction(int mask)
{
	return mask & MAY_READ ? CAP_READ : CAP_WRITE;
}

/*
 * The fd and rights as the table's read/write rows say. io_uring, i386,
 * kernel-internal reads: no fd to trust, the file's floor applies.
 */
static __always_inline struct opt_need
rw_row_need_of(const struct pt_regs *regs, long nr, struct file *file, int mask)
{
	struct opt_call c = {
		.regs = regs, .file = file, .fd = -1, .mask = mask
	};

	switch (nr) {
		CAPSICUM_OPS_RW(OPT_STOCK_CASE)
	}
	return (struct opt_need){ .fd = -1, .need = rw_direction(mask) };
}

/*
 * The fd and rights a read or write (file_permission, mask MAY_READ or
 * MAY_WRITE) is made through. nr: the call_of of the request. Whatever
 * row judges it, a read needs CAP_READ and a write CAP_WRITE: every row
 * asks that of the end it reads or writes, and a request the registers
 * misattribute (one io_uring runs from the exit work of a syscall that
 * returned -ENOSYS, so call_of cannot tell: regs.bpf.h) cannot pass as a
 * write it is not.
 */
static __always_inline struct opt_need
rw_need_of(const struct pt_regs *regs, long nr, struct file *file, int mask)
{
	struct opt_need n = rw_row_need_of(regs, nr, file, mask);

	n.need |= rw_direction(mask);
	return n;
}

#endif
