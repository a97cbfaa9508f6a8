/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Signals. In capability mode a process may signal only itself (FreeBSD's
 * kill(2) rule); other processes only through a process descriptor, which
 * on Linux is a pidfd and needs CAP_PDKILL. The seccomp filter already
 * refuses process groups and broadcast; the pid cannot be known to it
 * after a fork, so the own-process rule lives here.
 */
#ifndef CAPSICUM_HOOKS_TASK_BPF_H
#define CAPSICUM_HOOKS_TASK_BPF_H

#include "state.bpf.h"
#include "syscalls_at.bpf.h"
#include <capsicum/pins.h>

/*
 * capsicumd's kill of a doomed pdfork child (struct capsicum_pd_kill)
 * goes only to that child: checked here, on the task the signal is about
 * to reach, so a number reused since the request is never killed. Other
 * signals pass; this can only refuse (EPERM).
 */
static __always_inline int pd_kill_check(struct task_struct *target,
					 struct kernel_siginfo *info, int sig)
{
	struct task_struct *leader = target->group_leader;
	__u32 tgid = target->tgid;
	struct pd_proc *pd;
	__u64 start;

	/* SEND_SIG_NOINFO and SEND_SIG_PRIV are 0 and 1. */
	if (sig != SIGKILL || (unsigned long)info <= 1 ||
	    BPF_CORE_READ(info, si_code) != SI_QUEUE ||
	    BPF_CORE_READ(info, si_errno) != CAPSICUM_PD_KILL_MAGIC)
		return 0;
	start = (__u64)BPF_CORE_READ(info, _sifields._rt._sigval.sival_ptr);
	pd = bpf_map_lookup_elem(&pd_procs, &tgid);
	if (pd && pd->state == PD_DOOMED &&
	    pd->pid == (__u64)BPF_CORE_READ(leader, thread_pid) &&
	    BPF_CORE_READ(leader, start_boottime) == start)
		return 0;
	/*
	 * Not ESRCH: kill_pid_info_type() takes that for a task unhashed
	 * meanwhile and tries again, forever.
	 */
	return -EPERM;
}

/*
 * The descriptor and rights of a process-descriptor call a hook sees, as
 * the table's process rows say (waitid's is libcapsicum's to check: no
 * hook sees its descriptor); none for any other call.
 */
OPT_NEED_OF(proc_need_of, CAPSICUM_OPS_PROC)

SEC("lsm/task_kill")
int BPF_PROG(capsicum_task_kill, struct task_struct *target,
	     struct kernel_siginfo *info, int sig)
{
	struct capsicum_proc *p;
	struct task_struct *self;
	struct opt_need n;
	struct file *f;
	long nr;
	int err;

	err = pd_kill_check(target, info, sig);
	if (err)
		return err;
	p = current_proc();
	if (!p)
		return 0;
	nr = current_call();
	/* An i386 pidfd_send_signal cannot be told from a kill: refused. */
	if (nr == NR_UNKNOWN && !in_capmode(p))
		return unknown_refuse(p, CAPSICUM_HOOK_TASK_KILL);
	/* pidfd_send_signal: its row names the descriptor and the right. */
	n = proc_need_of(current_regs(), nr);
	if (n.need) {
		f = fd_file(n.fd);
		if (!f)
			return -EBADF;
		return require_row(p, f, n.fd, n.need, CAPSICUM_HOOK_TASK_KILL);
	}
	self = bpf_get_current_task_btf();
	if (!in_capmode(p) || target->tgid == self->tgid)
		return 0;
	return capmode_refuse(CAPSICUM_HOOK_TASK_KILL, -1);
}

/*
 * getsid and getpgid of a pid: the filter allows any pid, since it cannot
 * know the caller's own after a fork; capability mode here allows only
 * the caller's process (any of its threads). The kernel calls these hooks
 * only for a nonzero pid; pid 0 is always the caller.
 */
static __always_inline int own_process_only(struct task_struct *target)
{
	struct capsicum_proc *p = current_proc();

	if (!p || !in_capmode(p) ||
	    target->tgid == bpf_get_current_task_btf()->tgid)
		return 0;
	return capmode_refuse(CAPSICUM_HOOK_TASK_QUERY, -1);
}

SEC("lsm/task_getsid")
int BPF_PROG(capsicum_task_getsid, struct task_struct *target)
{
	return own_process_only(target);
}

SEC("lsm/task_getpgid")
int BPF_PROG(capsicum_task_getpgid, struct task_struct *target)
{
	return own_process_only(target);
}

#endif
