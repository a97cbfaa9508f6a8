/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Signals through a descriptor's owner (F_SETOWN, O_ASYNC, F_SETSIG,
 * SIGURG, dnotify, leases, ttys): in capability mode they may reach only
 * the caller's own process (doc/capmode.md, "What the BPF side
 * enforces").
 *
 * Two halves. The fcntl and ioctl hooks (hooks_file.bpf.h) refuse, with
 * ECAPMODE, naming another process or a group as owner and arming a
 * descriptor whose owner is not the caller: they see the command and the
 * owner, and fail the call that asks, with an errno. They cannot see an
 * owner and O_ASYNC both set before cap_enter(): file_send_sigiotask then
 * refuses the delivery a write of the sandbox causes, when the process
 * sending (current) is in capability mode, the target is not in its
 * thread group and holds no descriptor of the file. In interrupt context
 * (a packet's SIGIO or SIGURG in a softirq) current is whoever was
 * interrupted, not the sender, so the delivery is left alone there.
 */
#ifndef CAPSICUM_SIGIO_BPF_H
#define CAPSICUM_SIGIO_BPF_H

#include "state.bpf.h"

/*
 * The owner lives in struct file on 6.1; from 6.12 (6.11) file->f_owner
 * points to it, allocated on the first F_SETOWN or fasync (NULL before).
 * Flavours tell which: a field whose kind differs does not match.
 */
struct file___owner_ptr {
	struct fown_struct *f_owner;
} __attribute__((preserve_access_index));

struct file___owner_embedded {
	struct fown_struct f_owner;
} __attribute__((preserve_access_index));

static __always_inline struct fown_struct *file_owner(struct file *file)
{
	if (bpf_core_field_exists(struct file___owner_ptr, f_owner))
		return BPF_CORE_READ((struct file___owner_ptr *)file, f_owner);
	return (void *)file +
	       bpf_core_field_offset(struct file___owner_embedded, f_owner);
}

/* The thread group id of the task a struct pid names, 0 if none. */
static __always_inline int pid_tgid_of(struct pid *pid)
{
	struct hlist_node *first = BPF_CORE_READ(pid, tasks[PIDTYPE_PID].first);
	struct task_struct *t;

	if (!first)
		return 0;
	t = (void *)first -
	    bpf_core_field_offset(struct task_struct, pid_links);
	return BPF_CORE_READ(t, tgid);
}

/*
 * Whether the file's signals would reach only the current process: its
 * owner is one of its threads or itself, or (none_ok) it has no owner.
 * A group owner, or any other process, is not.
 */
static __always_inline bool owner_is_self(struct file *file, bool none_ok)
{
	struct fown_struct *fown = file_owner(file);
	struct pid *pid;
	int type;

	if (!fown)
		return none_ok;
	pid = BPF_CORE_READ(fown, pid);
	if (!pid)
		return none_ok;
	type = BPF_CORE_READ(fown, pid_type);
	if (type != PIDTYPE_PID && type != PIDTYPE_TGID)
		return false;
	return pid_tgid_of(pid) == (int)(bpf_get_current_pid_tgid() >> 32);
}

/* The caller's process id as its own pid namespace numbers it. */
static __always_inline int current_vtgid(void)
{
	struct pid *pid = BPF_CORE_READ(current_leader(), thread_pid);
	unsigned int level = BPF_CORE_READ(pid, level);
	int nr = 0;

	/* MAX_PID_NS_LEVEL is 32. */
	bpf_core_read(&nr, sizeof(nr), &pid->numbers[level & 31].nr);
	return nr;
}

/*
 * fcntl in capability mode: F_SETOWN only of itself (or 0, no owner);
 * F_SETOWN_EX never (the kernel reads its argument from user memory
 * after this hook, where another thread may change it); F_SETSIG,
 * O_ASYNC being set, F_NOTIFY and F_SETLEASE only while the owner is the
 * caller. O_ASYNC needs an owner already (F_SETOWN first): a tty's fasync
 * makes its foreground process group the owner of an ownerless file.
 */
static __always_inline int capmode_fcntl_check(struct file *file,
					       unsigned int cmd,
					       unsigned long arg, int fd)
{
	bool ok;

	switch (cmd) {
	case F_SETOWN:
		ok = (int)arg == 0 || (int)arg == current_vtgid();
		break;
	case F_SETOWN_EX:
		ok = false;
		break;
	case F_SETSIG:
		ok = owner_is_self(file, true);
		break;
	case 4: /* F_SETFL */
		ok = !(arg & O_ASYNC) ||
		     (BPF_CORE_READ(file, f_flags) & O_ASYNC) ||
		     owner_is_self(file, false);
		break;
	case F_NOTIFY:
		/* dnotify and leases make the caller the owner of none. */
		ok = !arg || owner_is_self(file, true);
		break;
	case F_SETLEASE:
		ok = arg == F_UNLCK || owner_is_self(file, true);
		break;
	default:
		return 0;
	}
	return ok ? 0 : capmode_refuse(CAPSICUM_HOOK_FILE_FCNTL, fd);
}

/*
 * ioctl in capability mode: FIOSETOWN and SIOCSPGRP never (their owner
 * is read from user memory after the hook), FIOASYNC only while the
 * owner is the caller (as O_ASYNC).
 */
static __always_inline int capmode_ioctl_check(struct file *file,
					       unsigned int cmd, int fd)
{
	if (cmd == FIOSETOWN || cmd == SIOCSPGRP ||
	    (cmd == FIOASYNC && !owner_is_self(file, false)))
		return capmode_refuse(CAPSICUM_HOOK_FILE_IOCTL, fd);
	return 0;
}

/* Per-CPU preempt count: in pcpu_hot from 6.2 to 6.14, alone before. */
extern const struct pcpu_hot pcpu_hot __ksym __weak;
extern const int __preempt_count __ksym __weak;

/* Serving an interrupt or softirq: current is not who caused this. */
static __always_inline bool in_interrupt_context(void)
{
	int count = 0;

	if (&pcpu_hot)
		count = ((struct pcpu_hot *)bpf_this_cpu_ptr(&pcpu_hot))
				->preempt_count;
	else if (&__preempt_count)
		count = *(int *)bpf_this_cpu_ptr(&__preempt_count);
	return count & (HARDIRQ_MASK | NMI_MASK | SOFTIRQ_OFFSET);
}

/* The file a fown_struct belongs to (6.1: the struct file around it). */
static __always_inline struct file *fown_file(struct fown_struct *fown)
{
	if (bpf_core_field_exists(struct file___owner_ptr, f_owner))
		return BPF_CORE_READ(fown, file);
	return (void *)fown -
	       bpf_core_field_offset(struct file___owner_embedded, f_owner);
}

struct held_scan {
	struct file **fds;
	struct file *file;
	bool found;
};

static long held_cb(__u64 i, struct held_scan *s)
{
	struct file *f = NULL;

	bpf_probe_read_kernel(&f, sizeof(f), &s->fds[i]);
	if (f != s->file)
		return 0;
	s->found = true;
	return 1;
}

/*
 * Whether a descriptor of task refers to file (read under the RCU lock
 * send_sigio holds). An exiting task (no fd table) or one whose table is
 * longer than the scan does not (fail closed).
 */
static __always_inline bool task_holds(struct task_struct *task,
				       struct file *file)
{
	struct files_struct *files = BPF_CORE_READ(task, files);
	struct held_scan s = { .file = file };
	struct fdtable *fdt;
	unsigned int max;

	if (!files)
		return false;
	fdt = BPF_CORE_READ(files, fdt);
	max = BPF_CORE_READ(fdt, max_fds);
	s.fds = BPF_CORE_READ(fdt, fd);
	if (max > CAPSICUM_SCAN_FDS)
		return false;
	bpf_loop(max, held_cb, &s, 0);
	return s.found;
}

/*
 * Refused: a process in capability mode, writing (say) to its own pipe,
 * makes a descriptor's owner signal another process that does not hold
 * that file itself. A process that holds the file (it asked for SIGIO on
 * its end of a pipe, and the sandbox writes to the other end) keeps
 * getting its signal, as on FreeBSD: only the file's holders could have
 * armed it, and before cap_enter() at that.
 */
static __noinline int send_sigiotask_check(struct task_struct *target,
					   struct fown_struct *fown)
{
	struct capsicum_proc *p = current_proc();

	if (!p || !in_capmode(p) || in_interrupt_context() ||
	    BPF_CORE_READ(target, tgid) ==
		    (int)(bpf_get_current_pid_tgid() >> 32) ||
	    task_holds(target, fown_file(fown)))
		return 0;
	return capmode_refuse(CAPSICUM_HOOK_FILE_SEND_SIGIOTASK, -1);
}

/* (task, fown, sig): nonzero refuses the delivery to task. */
SEC("lsm/file_send_sigiotask")
int BPF_PROG(capsicum_file_send_sigiotask, struct task_struct *target,
	     struct fown_struct *fown)
{
	return GATED(send_sigiotask_check, target, fown);
}

#endif
