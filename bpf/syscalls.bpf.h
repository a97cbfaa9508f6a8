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

/*
 * The fd and rights a read or write (file_permission, mask MAY_READ or
 * MAY_WRITE) is made through, as the table's read/write rows say. nr:
 * the call_of of the request.
 */
static __always_inline struct opt_need
rw_need_of(const struct pt_regs *regs, long nr, struct file *file, int mask)
{
	struct opt_call c = {
		.regs = regs, .file = file, .fd = -1, .mask = mask
	};

	switch (nr) {
		CAPSICUM_OPS_RW(OPT_STOCK_CASE)
	}
	/*
	 * io_uring, i386, kernel-internal reads: no fd to trust, the
	 * file's floor applies.
	 */
	return (struct opt_need){ .fd = -1,
				  .need = mask & MAY_READ ? CAP_READ
							  : CAP_WRITE };
}

#endif
