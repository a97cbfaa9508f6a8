/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A hook's way to the syscall it serves: the task's user registers, the
 * call they say it is (or that they say nothing true), and its arguments.
 */
#ifndef CAPSICUM_REGS_BPF_H
#define CAPSICUM_REGS_BPF_H

#include "uapi.bpf.h"
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

/*
 * The current task's user registers. bpf_task_pt_regs returns a BTF
 * pointer: its fields are plain loads, no probe read.
 */
static __always_inline struct pt_regs *current_regs(void)
{
	return (struct pt_regs *)bpf_task_pt_regs(bpf_get_current_task_btf());
}

/* Syscall number of the current task, -1 outside a syscall. */
static __always_inline long current_syscall(void)
{
	return current_regs()->orig_ax;
}

/* call_of results that are no syscall number. */
#define NR_UNKNOWN (-3)
#define NR_KERNEL  (-4)

/*
 * The syscall a request is known to come from, as hooks compare it with
 * the x86-64 numbers: NR_UNKNOWN where the registers say nothing true
 * about it, so every hook fails closed there:
 * - io_uring: its SQPOLL thread and io-wq workers (PF_IO_WORKER, their
 *   registers a copy of whatever their creator was doing), and requests
 *   issued inline from io_uring_enter;
 * - an i386 (int $0x80, TS_COMPAT) or x32 syscall, whose numbers and
 *   argument registers are not the x86-64 ones;
 * - anything outside a syscall (orig_ax < 0), and anything after the
 *   syscall returned: the task work the kernel runs on the way back to
 *   user mode, which io_uring runs requests from (a READ linked behind a
 *   poll that a write woke). orig_ax still names that syscall then, but
 *   the entry code set pt_regs->ax to -ENOSYS and only the syscall's
 *   return replaces it, so ax says whether the syscall is still running.
 *   A syscall that returned -ENOSYS itself still looks running, and its
 *   exit work is judged as that syscall; a read or write still needs its
 *   own direction's right then (rw_need_of, doc/security.md). A tracer
 *   that rewrites ax at the syscall-entry stop makes the syscall itself
 *   look finished: every hook then fails closed, but the patched
 *   kernel's fget hook, for which unknown means "the stock hooks
 *   decide", asks the syscall the registers name as well
 *   (named_syscall_of).
 * NR_KERNEL: the kernel's own work in the task, a core dump.
 */
static __always_inline long named_syscall_of(struct task_struct *task,
					     const struct pt_regs *regs)
{
	long nr = regs->orig_ax;

	if ((task->flags & PF_IO_WORKER) ||
	    (task->thread_info.status & TS_COMPAT) || nr < 0 ||
	    (nr & X32_SYSCALL_BIT) || nr == NR_io_uring_enter)
		return NR_UNKNOWN;
	return nr;
}

static __always_inline long call_of(struct task_struct *task,
				    const struct pt_regs *regs)
{
	if (task->flags & PF_DUMPCORE)
		return NR_KERNEL;
	if (regs->ax != (unsigned long)-ENOSYS)
		return NR_UNKNOWN; /* the syscall returned: its exit work */
	return named_syscall_of(task, regs);
}

static __always_inline long current_call(void)
{
	struct task_struct *task = bpf_get_current_task_btf();

	return call_of(task, (struct pt_regs *)bpf_task_pt_regs(task));
}

/*
 * Syscall arguments, numbered from 1 as libbpf numbers them: x86-64's
 * through libbpf's PT_REGS_PARMn_SYSCALL (libbpf 1.1 has no sixth, r9);
 * i386's (int $0x80, compat) in bx, cx, dx, si, di, bp, 32 bits each.
 */
#define SYS_ARG1(regs)	PT_REGS_PARM1_SYSCALL(regs)
#define SYS_ARG2(regs)	PT_REGS_PARM2_SYSCALL(regs)
#define SYS_ARG3(regs)	PT_REGS_PARM3_SYSCALL(regs)
#define SYS_ARG4(regs)	PT_REGS_PARM4_SYSCALL(regs)
#define SYS_ARG5(regs)	PT_REGS_PARM5_SYSCALL(regs)
#define SYS_ARG6(regs)	((regs)->r9)
#define IA32_ARG1(regs) ((unsigned int)(regs)->bx)
#define IA32_ARG2(regs) ((unsigned int)(regs)->cx)
#define IA32_ARG3(regs) ((unsigned int)(regs)->dx)
#define IA32_ARG4(regs) ((unsigned int)(regs)->si)
#define IA32_ARG5(regs) ((unsigned int)(regs)->di)
#define IA32_ARG6(regs) ((unsigned int)(regs)->bp)

/* Argument n (0-5) of an x86-64 syscall, n known only at run time. */
static __always_inline unsigned long regs_arg(const struct pt_regs *regs, int n)
{
	switch (n) {
	case 0:
		return SYS_ARG1(regs);
	case 1:
		return SYS_ARG2(regs);
	case 2:
		return SYS_ARG3(regs);
	case 3:
		return SYS_ARG4(regs);
	case 4:
		return SYS_ARG5(regs);
	default:
		return SYS_ARG6(regs);
	}
}

/* Argument n (0-5) of the current syscall. */
static __always_inline unsigned long syscall_arg(int n)
{
	return regs_arg(current_regs(), n);
}

#endif
