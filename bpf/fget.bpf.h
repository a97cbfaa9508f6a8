/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The patched kernel (kernel/): security_file_fget() runs whenever a
 * process whose fget check is on turns a descriptor number into a file,
 * with the number in hand. That is where the rights no stock hook sees
 * are enforced (lseek, fsync, fchdir, tee, pipe-to-pipe splice,
 * vmsplice, poll/select, epoll_ctl, waitid on a process descriptor,
 * setns, signalfd updates, inotify_rm_watch),
 * exactly by (table, fd). A refusal fails the lookup; the kernel turns
 * the syscall's EBADF into our ENOTCAPABLE.
 *
 * The programs here load only where the kernel has the hook and the
 * kfunc (daemon/load.c, skip_absent); on stock kernels they stay out.
 */
#ifndef CAPSICUM_FGET_BPF_H
#define CAPSICUM_FGET_BPF_H

#include "state.bpf.h"
#include "syscalls.bpf.h"
#include "lookup_beneath.bpf.h"

extern void bpf_task_fget_check_enable(struct task_struct *task) __ksym __weak;

#define NR_poll		    7
#define NR_lseek	    8
#define NR_select	    23
#define NR_fsync	    74
#define NR_fdatasync	    75
#define NR_fchdir	    81
#define NR_epoll_wait	    232
#define NR_epoll_ctl	    233
#define NR_mq_timedsend	    242
#define NR_mq_timedreceive  243
#define NR_mq_notify	    244
#define NR_mq_getsetattr    245
#define NR_waitid	    247
#define NR_inotify_rm_watch 255
#define NR_pselect6	    270
#define NR_ppoll	    271
#define NR_tee		    276
#define NR_sync_file_range  277
#define NR_vmsplice	    278
#define NR_signalfd	    282
#define NR_epoll_pwait	    281
#define NR_timerfd_settime  286
#define NR_timerfd_gettime  287
#define NR_signalfd4	    289
#define NR_syncfs	    306
#define NR_setns	    308
#define NR_epoll_pwait2	    441

#define SEEK_CUR      1
#define EPOLL_CTL_DEL 2
#define P_PIDFD	      3

struct fget_need {
	__u64 need[2];
};

/*
 * The right the syscall needs on the descriptor it looked up: arguments
 * are compared with fd, so a syscall naming two descriptors (splice,
 * tee, epoll_ctl) asks each for its own. Nothing for syscalls the stock
 * hooks already check, or that this table does not know.
 */
static __always_inline struct fget_need
fget_need_of(struct pt_regs *regs, long nr, int fd, struct file *file)
{
	struct fget_need n = {};

	switch (nr) {
	case NR_lseek:
		n.need[0] = (int)regs->dx == SEEK_CUR && regs->si == 0
				    ? CAP_SEEK_TELL
				    : CAP_SEEK;
		break;
	case NR_fsync:
	case NR_fdatasync:
	case NR_sync_file_range:
	case NR_syncfs:
		n.need[0] = CAP_FSYNC;
		break;
	case NR_fchdir:
		n.need[0] = CAP_FCHDIR;
		break;
	case NR_splice: /* (fd_in, off_in, fd_out, off_out, ...) */
		if ((int)regs->di == fd)
			n.need[0] |= regs->si ? CAP_PREAD : CAP_READ;
		if ((int)regs->dx == fd)
			n.need[0] |= regs->r10 ? CAP_PWRITE : CAP_WRITE;
		break;
	case NR_tee: /* (fd_in, fd_out, ...) */
		if ((int)regs->di == fd)
			n.need[0] |= CAP_READ;
		if ((int)regs->si == fd)
			n.need[0] |= CAP_WRITE;
		break;
	case NR_vmsplice: /* into a pipe's write end, out of its read end */
		n.need[0] = file->f_mode & FMODE_WRITE ? CAP_WRITE : CAP_READ;
		break;
	case NR_poll:
	case NR_ppoll:
	case NR_select:
	case NR_pselect6:
		n.need[1] = CAP_EVENT;
		break;
	case NR_epoll_wait: /* (epfd, ...): the set's readiness */
	case NR_epoll_pwait:
	case NR_epoll_pwait2:
		n.need[1] = CAP_EVENT;
		break;
	case NR_timerfd_settime: /* (fd, flags, new, old) */
		n.need[0] = CAP_WRITE | (regs->r10 ? CAP_READ : 0);
		break;
	case NR_timerfd_gettime:
		n.need[0] = CAP_READ;
		break;
	case NR_mq_timedsend:
		n.need[0] = CAP_WRITE;
		break;
	case NR_mq_timedreceive:
		n.need[0] = CAP_READ;
		break;
	case NR_mq_notify: /* the 2014 series' mapping */
	case NR_mq_getsetattr:
		n.need[1] = CAP_EVENT;
		break;
	case NR_epoll_ctl: /* (epfd, op, fd, event) */
		if ((int)regs->di == fd)
			n.need[1] |= CAP_EPOLL_CTL;
		if ((int)regs->dx == fd && (int)regs->si != EPOLL_CTL_DEL)
			n.need[1] |= CAP_EVENT;
		break;
	case NR_setns:
		n.need[1] = CAP_SETNS;
		break;
	case NR_signalfd: /* an update of an existing signalfd's mask */
	case NR_signalfd4:
		n.need[1] = CAP_FSIGNAL;
		break;
	case NR_inotify_rm_watch:
		n.need[1] = CAP_INOTIFY_RM;
		break;
	case NR_waitid: /* (P_PIDFD, fd, ...): pdwait */
		if ((int)regs->di == P_PIDFD && (int)regs->si == fd)
			n.need[1] = CAP_PDWAIT;
		break;
	}
	return n;
}

SEC("lsm/file_fget")
int BPF_PROG(capsicum_file_fget, struct file *file, unsigned int fd)
{
	struct task_struct *task;
	struct capsicum_proc *p;
	struct pt_regs *regs;
	struct fget_need n;
	__u64 walk;
	long nr;

	p = current_proc();
	if (!p || !table_limited(p))
		return 0;
	task = bpf_get_current_task_btf();
	regs = (struct pt_regs *)bpf_task_pt_regs(task);
	nr = call_of(task, regs);
	walk = walk_dirfd_need(task, nr, (int)fd);
	if (nr < 0 && !walk)
		return 0; /* not a native syscall: the stock hooks decide */
	n = nr < 0 ? (struct fget_need){}
		   : fget_need_of(regs, nr, (int)fd, file);
	n.need[0] |= walk;
	if (!n.need[0] && !n.need[1])
		return 0;
	/* The fd table maps fd to file right now: its entry is exact. */
	return require_exact(p, file, (int)fd, n.need[0], n.need[1],
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

SEC("fexit/bpf_lsm_file_fcntl")
int BPF_PROG(capsicum_fget_on_fcntl, struct file *file, unsigned int cmd,
	     unsigned long arg, int ret)
{
	fget_check_on();
	return 0;
}

SEC("fexit/bpf_lsm_task_prctl")
int BPF_PROG(capsicum_fget_on_prctl, int option, unsigned long arg2,
	     unsigned long arg3, unsigned long arg4, unsigned long arg5,
	     int ret)
{
	fget_check_on();
	return 0;
}

SEC("fexit/bpf_lsm_file_receive")
int BPF_PROG(capsicum_fget_on_receive, struct file *file, int ret)
{
	fget_check_on();
	return 0;
}

#endif
