/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Path syscalls: which directory descriptor a lookup starts from and which
 * right FreeBSD requires of it, as include/capsicum/optable.h's
 * CAPSICUM_OPS_AT rows say (expanded here: at_need_of). The plain forms
 * (mkdir, open, ...), no rows of the table, start from the working
 * directory: AT_FDCWD, which capability mode forbids. x86-64 numbers.
 */
#ifndef CAPSICUM_SYSCALLS_AT_BPF_H
#define CAPSICUM_SYSCALLS_AT_BPF_H

#include "syscalls.bpf.h"

/*
 * The lookup an *at() call nr makes, as its row in the table says
 * (CAPSICUM_OPS_AT, OPT_STOCK_CASE): the dirfd and the rights it needs
 * there, or (file set) the descriptor the call acts on itself and its
 * rights. c carries what the hook knows (the object reached, the file
 * being opened, the end of a two-dirfd call). A hook asks only for the
 * calls it lists; a number without a stock-enforced row fails closed
 * (no dirfd: ENOTCAPABLE).
 */
static __always_inline struct opt_need at_need_of(struct opt_call c, long nr)
{
	switch (nr) {
		CAPSICUM_OPS_AT(OPT_STOCK_CASE)
	}
	return (struct opt_need){ .fd = -1, .need = CAP_LOOKUP };
}

/*
 * at_need_of for a call nr known to be a or b (constants): each
 * expansion then folds to its one row, not the whole switch.
 */
static __always_inline struct opt_need at_need_of2(struct opt_call c, long nr,
						   long a, long b)
{
	return nr == a ? at_need_of(c, a) : at_need_of(c, b);
}

/* The *at() call nr (a constant) of the current task, nothing more known. */
static __always_inline struct opt_need at_row(long nr)
{
	struct opt_call c = { .regs = current_regs(), .fd = -1 };

	return at_need_of(c, nr);
}

/*
 * A plain form (mkdir, open, ...): a lookup from the working directory,
 * which capability mode refuses whatever the right.
 */
static __always_inline struct opt_need at_cwd(void)
{
	struct opt_need l = { .fd = AT_FDCWD };

	return l;
}

#endif
