/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The patched kernel (kernel/): security_file_fget() runs whenever a
 * process whose fget check is on turns a descriptor number into a file,
 * with the number in hand. That is where the rights no stock hook sees
 * are enforced (lseek, fsync, tee, pipe-to-pipe splice,
 * vmsplice, poll/select, epoll_ctl, waitid on a process descriptor,
 * setns, signalfd updates, inotify_rm_watch),
 * exactly by (table, fd). A refusal fails the lookup; the kernel turns
 * the syscall's EBADF into our ENOTCAPABLE.
 *
 * The programs here load only where the kernel has the hook and the
 * kfunc (admin/load.c, skip_absent); on stock kernels they stay out.
 */
#ifndef CAPSICUM_FGET_BPF_H
#define CAPSICUM_FGET_BPF_H

#include "ioctl.bpf.h"
#include "lookup_beneath.bpf.h"
#include "optable.bpf.h"
#include "table.bpf.h"
#include "uring.bpf.h"

extern void bpf_task_fget_check_enable(struct task_struct *task) __ksym __weak;
/* io_uring's file operations: a ring, and nothing else, has them. */
extern const void io_uring_fops __ksym __weak;

struct fget_need {
	__u64 need[2];
};

/*
 * io_submit's lookup asks every right an iocb can (aio_op's rights, of
 * one word); IOCB_CMD_POLL's CAP_EVENT is of the other, added here.
 */
static __always_inline void fget_aio_poll(long nr, struct fget_need *n)
{
	if (nr == NR_io_submit)
		n->need[OPT_IDX(CAP_EVENT)] |= CAP_EVENT;
}

/*
 * The right the syscall needs on the descriptor it looked up, as the
 * table's rows say (optable.bpf.h, OPT_FGET_CASE): a syscall naming two
 * descriptors (splice, tee, epoll_ctl) asks each for its own. Nothing
 * for syscalls the stock hooks already check, or that the table does
 * not know.
 */
static __always_inline struct fget_need
fget_need_of(struct pt_regs *regs, long nr, int fd, struct file *file)
{
	struct opt_call c = {
		.regs = regs, .file = file, .fd = fd, .fget = true
	};
	struct fget_need n = {};

	switch (nr) {
		CAPSICUM_OPS(OPT_FGET_CASE)
		CAPSICUM_OPS_SUPERSEDED(OPT_FGET_SUPERSEDED_CASE)
		CAPSICUM_OPS_CHDIR(OPT_FGET_ALWAYS)
	}
	fget_aio_poll(nr, &n);
	return n;
}

/* The rows' rights without their rules (OPT_FGET_WIDEST_CASE). */
static __always_inline struct fget_need fget_widest_of(long nr)
{
	struct fget_need n = {};

	switch (nr) {
		CAPSICUM_OPS(OPT_FGET_WIDEST_CASE)
		CAPSICUM_OPS_SUPERSEDED(OPT_FGET_WIDEST_SUPERSEDED_CASE)
		CAPSICUM_OPS_CHDIR(OPT_FGET_WIDEST_ALWAYS)
	}
	fget_aio_poll(nr, &n);
	return n;
}

/* The row of the socket call an i386 socketcall(call, args) makes. */
static __always_inline long nr_of_socketcall(long call)
{
	switch (call) {
		CAPSICUM_OPT_SOCKETCALLS(OPT_OTHER_TO_NR)
	}
	return NR_UNKNOWN;
}

/*
 * What a compat call (call_of: NR_UNKNOWN) needs of fd, by the same
 * rows. x32 passes the x86-64 arguments in the x86-64 registers, under
 * the x86-64 numbers or its own (CAPSICUM_OPT_X32_NRS): decided exactly.
 * i386 passes them in other registers, which the rules do not read: each
 * row asks its widest rights (fget_widest_of); socketcall's row is its
 * call number's (in a register; the arguments it names are in user
 * memory, and the descriptor is the one looked up). What else call_of
 * cannot name reaches here only as io_uring_enter's lookup of its ring
 * (fget_unclaimed takes the rest): nothing.
 */
static __always_inline struct fget_need
fget_compat_need_of(struct task_struct *task, struct pt_regs *regs, int fd,
		    struct file *file)
{
	long ax = regs->orig_ax;

	if (task->thread_info.status & TS_COMPAT)
		return fget_widest_of(
			ax == NR32_socketcall
				? nr_of_socketcall(IA32_ARG1(regs))
				: nr_of_i386(ax));
	if (!(ax & X32_SYSCALL_BIT))
		return (struct fget_need){}; /* io_uring_enter's ring */
	return fget_need_of(regs, nr_of_x32(ax & ~X32_SYSCALL_BIT), fd, file);
}

/*
 * The command of an i386 or x32 ioctl whose own descriptor this lookup
 * is (its first argument: fget_unclaimed took the others), from the
 * call's registers. False for any other call. file_ioctl_compat is not
 * loaded on this kernel (admin/load.c), since it sees no descriptor: the
 * lookup decides the ioctl as file_ioctl decides an x86-64 one
 * (ioctl_decide), exactly by (table, fd). file_ioctl stays: it runs only
 * for ioctls, where checking here too would cost every other lookup of
 * a process in capability mode the syscall's number.
 */
static __always_inline bool fget_ioctl_cmd(struct task_struct *task,
					   struct pt_regs *regs, long nr,
					   unsigned int *cmd)
{
	long ax = regs->orig_ax;

	if (nr != NR_UNKNOWN)
		return false;
	if (task->thread_info.status & TS_COMPAT) {
		*cmd = IA32_ARG2(regs);
		return nr_of_i386(ax) == NR_ioctl;
	}
	*cmd = (unsigned int)SYS_ARG2(regs);
	return (ax & X32_SYSCALL_BIT) &&
	       nr_of_x32(ax & ~X32_SYSCALL_BIT) == NR_ioctl;
}

/* A ring by its file operations (not on every lookup: io_uring's only). */
static __always_inline bool fget_is_ring(const struct file *file)
{
	return &io_uring_fops && file->f_op == &io_uring_fops;
}

/*
 * A lookup that nothing checks again, and that no row decides: on this
 * kernel file_permission is not loaded (admin/load.c), and io_uring's
 * fixed files are never looked up by number again. io_uring's lookups
 * for itself, outside a request's note (registering files,
 * IORING_OP_FILES_UPDATE, EPOLL_CTL's target, a path request's dirfd),
 * from io_uring_register, io_uring_enter, an io-wq or SQPOLL worker, or
 * task work on the way back to user mode (after a syscall, a fault or
 * an interrupt); a syscall whose ax a tracer rewrote looks the same; and
 * a second descriptor an ioctl names (FICLONE's source, read by the
 * kernel). Each needs every right: a limited descriptor never becomes a
 * fixed file.
 *
 * Not this: the ring io_uring_enter or io_uring_register looks up, by
 * its number in their first argument (not a registered ring's index)
 * and by its file operations, since another thread may put any file at
 * that number once the call has its ring; and the descriptor an ioctl
 * acts on (file_ioctl's, or fget_ioctl_cmd's for i386 and x32), but for
 * the ioctls that read another descriptor, which may be the same number
 * (FICLONE, FICLONERANGE, FIDEDUPERANGE: each lookup needs every right).
 */
static __always_inline bool fget_unclaimed(struct task_struct *task,
					   struct pt_regs *regs, int fd,
					   struct file *file)
{
	long ax = regs->orig_ax, nr = ax;
	int first = (int)SYS_ARG1(regs);
	__u32 op = (__u32)SYS_ARG2(regs), flags = (__u32)SYS_ARG4(regs);

	if (task->flags & PF_IO_WORKER)
		return true;
	if (ax < 0 || regs->ax != (unsigned long)-ENOSYS)
		return true; /* no syscall, or after its return */
	if (task->thread_info.status & TS_COMPAT) {
		/* io_uring's calls have their x86-64 numbers on i386 too. */
		if (ax != NR_io_uring_enter && ax != NR_io_uring_register)
			nr = nr_of_i386(ax);
		first = (int)IA32_ARG1(regs);
		op = (__u32)IA32_ARG2(regs);
		flags = (__u32)IA32_ARG4(regs);
	} else if (ax & X32_SYSCALL_BIT) {
		nr = nr_of_x32(ax & ~X32_SYSCALL_BIT);
	}
	if (nr == NR_io_uring_enter)
		return first != fd || (flags & IORING_ENTER_REGISTERED_RING) ||
		       !fget_is_ring(file);
	if (nr == NR_io_uring_register)
		return first != fd ||
		       (op & IORING_REGISTER_USE_REGISTERED_RING) ||
		       !fget_is_ring(file);
	if (nr == NR_ioctl)
		return first != fd || op == FICLONE || op == FICLONERANGE ||
		       op == FIDEDUPERANGE;
	return false;
}

SEC("?lsm/file_fget")
int BPF_PROG(capsicum_file_fget, struct file *file, unsigned int fd)
{
	struct task_struct *task;
	struct capsicum_proc *p;
	struct pt_regs *regs;
	struct fget_need n = {};
	unsigned int cmd;
	long nr;

	p = current_proc();
	if (!p || !table_limited(p))
		return 0;
	task = bpf_get_current_task_btf();
	regs = (struct pt_regs *)bpf_task_pt_regs(task);
	nr = call_of(task, regs);
	if (nr == NR_KERNEL)
		return 0; /* the kernel's own work: a core dump */
	/*
	 * io_uring's lookup for a request: its opcode decides (uring.bpf.h).
	 * It never runs in a syscall call_of can name.
	 */
	if (nr == NR_UNKNOWN && uring_need_of((int)fd, file, n.need))
		return require(p, file, (int)fd, n.need[0], n.need[1],
			       CAPSICUM_HOOK_FGET);
	if (fget_unclaimed(task, regs, (int)fd, file))
		return require(p, file, (int)fd, CAP_ALL0, CAP_ALL1,
			       CAPSICUM_HOOK_FGET);
	if (fget_ioctl_cmd(task, regs, nr, &cmd))
		return cmd == FIOCLEX || cmd == FIONCLEX
			       ? 0
			       : ioctl_decide(p, file, cmd, (int)fd);
	if (nr == NR_UNKNOWN)
		n = fget_compat_need_of(task, regs, (int)fd, file);
	else
		n = fget_need_of(regs, nr, (int)fd, file);
	n.need[0] |= walk_dirfd_need((int)fd);
	if (!n.need[0] && !n.need[1])
		return 0;
	/*
	 * The file's low first (every descriptor of it holds that much),
	 * then the entry of fd, which the fd table maps to file right now.
	 */
	return require(p, file, (int)fd, n.need[0], n.need[1],
		       CAPSICUM_HOOK_FGET);
}

/*
 * Turns the fget check on for a process once it has Capsicum state. Its
 * children inherit the check from the kernel. These run as fexit of the
 * hooks' BPF stubs, after the control plane's LSM programs whatever they
 * returned (the first LSM program to return non-zero ends the hook).
 */
static __always_inline void fget_check_on(void)
{
	struct capsicum_proc *p = current_proc();

	if (!p || (p->flags & CAPSICUM_PROC_FGET_CHECK))
		return;
	bpf_task_fget_check_enable(bpf_get_current_task_btf());
	proc_set_flag(p, CAPSICUM_PROC_FGET_CHECK);
}

SEC("?fexit/bpf_lsm_file_fcntl")
int BPF_PROG(capsicum_fget_on_fcntl, struct file *file, unsigned int cmd,
	     unsigned long arg, int ret)
{
	fget_check_on();
	return 0;
}

SEC("?fexit/bpf_lsm_task_prctl")
int BPF_PROG(capsicum_fget_on_prctl, int option, unsigned long arg2,
	     unsigned long arg3, unsigned long arg4, unsigned long arg5,
	     int ret)
{
	fget_check_on();
	return 0;
}

SEC("?fexit/bpf_lsm_file_receive")
int BPF_PROG(capsicum_fget_on_receive, struct file *file, int ret)
{
	fget_check_on();
	return 0;
}

#endif
