/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Process descriptors (pdfork's pidfds, lib/procdesc.c): which file is
 * one and which process it names, the watch that makes closing the last
 * reference kill a child without PD_DAEMON, and the kill itself (the
 * child's own next hook, and capsicumd through pd_kills). The control
 * plane's ops (control.bpf.h) and the exec and file-free bookkeeping
 * (track.bpf.h) call these; the maps are in maps.bpf.h.
 */
#ifndef CAPSICUM_PROCDESC_BPF_H
#define CAPSICUM_PROCDESC_BPF_H

#include "maps.bpf.h"
#include "uapi.bpf.h"
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>

/* The pidfd file operations: one of the two exists, by kernel version. */
extern const void pidfd_fops __ksym __weak;	       /* 6.1 */
extern const void pidfs_file_operations __ksym __weak; /* 6.9+ */

/* The struct pid a pidfd refers to, NULL for other files. */
static __always_inline struct pid *pidfd_pid_of(struct file *file)
{
	const void *fop = BPF_CORE_READ(file, f_op);

	if (&pidfs_file_operations && fop == &pidfs_file_operations)
		return BPF_CORE_READ(file, f_inode, i_private);
	if (&pidfd_fops && fop == &pidfd_fops)
		return BPF_CORE_READ(file, private_data);
	return NULL;
}

/* pid's number in the current task's pid namespace, -1 if not there. */
static __always_inline __s32 pid_nr_here(struct pid *pid)
{
	struct pid *mine = bpf_get_current_task_btf()->thread_pid;
	unsigned int lvl = BPF_CORE_READ(mine, level);
	struct upid here, there;

	if (lvl >= PID_MAX_LEVELS || BPF_CORE_READ(pid, level) < lvl ||
	    bpf_probe_read_kernel(&here, sizeof(here), &mine->numbers[lvl]) ||
	    bpf_probe_read_kernel(&there, sizeof(there), &pid->numbers[lvl]) ||
	    here.ns != there.ns)
		return -1;
	return there.nr;
}

#define PIDTYPE_TGID_ 1

/* The thread-group leader a struct pid names, as a plain address. */
static __always_inline __u64 pid_leader(struct pid *pid)
{
	__u64 node = (__u64)BPF_CORE_READ(pid, tasks[PIDTYPE_TGID_].first);

	if (!node)
		return 0;
	return node - bpf_core_field_offset(struct task_struct, pid_links) -
	       PIDTYPE_TGID_ * sizeof(struct hlist_node);
}

/*
 * Watches child, the process pid leads, through file: closing file's last
 * reference dooms it. Once per child: -EBUSY for a second watch.
 */
static __always_inline int pd_watch(struct file *file, struct pid *pid,
				    struct task_struct *child)
{
	struct pd_proc watched = { .state = PD_WATCHED };
	struct pd_file pf = {};
	__u64 key = (__u64)file;

	/* The number is read now: 6.1 clears the file's pid on release. */
	pf.tgid = BPF_CORE_READ(pid, numbers[0].nr);
	watched.task = (__u64)child;
	pf.pid = watched.pid = (__u64)pid;
	pd_used = true;
	if (bpf_map_update_elem(&pd_procs, &pf.tgid, &watched, BPF_NOEXIST))
		return bpf_map_lookup_elem(&pd_procs, &pf.tgid) ? -EBUSY
								: -ENOMEM;
	if (bpf_map_update_elem(&pd_files, &key, &pf, BPF_NOEXIST)) {
		bpf_map_delete_elem(&pd_procs, &pf.tgid);
		return -ENOMEM;
	}
	__sync_fetch_and_add(&pd_files_live, 1);
	return 0;
}

/*
 * A pdfork child whose descriptor is gone dies at the first hook it
 * meets: no helper before Linux 6.13 can signal another task, so the
 * child signals itself.
 */
static __always_inline void pd_doom_check(const struct capsicum_proc *p)
{
	struct task_struct *leader;
	struct pd_proc *pd;
	__u32 tgid;

	if (!(p->flags & CAPSICUM_PROC_PD_CHILD))
		return;
	tgid = bpf_get_current_pid_tgid() >> 32;
	pd = bpf_map_lookup_elem(&pd_procs, &tgid);
	leader = bpf_get_current_task_btf()->group_leader;
	/*
	 * By struct pid, which an exec from another thread hands to the new
	 * leader (the task changes; the watch may even have raced it).
	 */
	if (pd && pd->state == PD_DOOMED &&
	    pd->pid == (__u64)BPF_CORE_READ(leader, thread_pid))
		bpf_send_signal(SIGKILL);
}

/*
 * A pdfork child's thread execs: it is about to become the leader, and
 * the entry must follow it (task_free of the old leader leaves it alone).
 */
static __always_inline void pd_exec_carry(struct task_struct *task)
{
	__u32 tgid = task->tgid;
	struct pd_proc *pd;

	if (!pd_used)
		return;
	pd = bpf_map_lookup_elem(&pd_procs, &tgid);
	if (pd && pd->task == (__u64)task->group_leader)
		pd->task = (__u64)task;
}

/* Asks capsicumd to kill the process pid leads (tgid is its number). */
static __always_inline void pd_kill_request(__u32 tgid, struct pid *pid)
{
	struct task_struct *leader = (struct task_struct *)pid_leader(pid);
	struct capsicum_pd_kill *k;

	if (!leader)
		return; /* reaped: nothing left to kill */
	k = bpf_ringbuf_reserve(&pd_kills, sizeof(*k), 0);
	if (!k) {
		__sync_fetch_and_add(&pd_kill_dropped, 1);
		return;
	}
	/* de_thread gives a new leader the old one's start time. */
	k->start_boottime = BPF_CORE_READ(leader, start_boottime);
	k->tgid = tgid;
	k->pad = 0;
	bpf_ringbuf_submit(k, 0);
	__sync_fetch_and_add(&pd_kill_requests, 1);
}

/*
 * The last reference to a watched pidfd is gone (a close, the holder's
 * exit or exec, an SCM_RIGHTS message never received): its process is
 * doomed. It meets pd_doom_check at its next hook, and capsicumd, if it
 * runs, kills it at once even if it sleeps.
 */
static __always_inline void pd_file_freed(struct file *file)
{
	__u64 key = (__u64)file;
	struct pd_file *pf;
	struct pd_proc *pd;

	if (pd_files_live <= 0)
		return;
	pf = bpf_map_lookup_elem(&pd_files, &key);
	if (!pf)
		return;
	/* The same child only: a reaped one's number may name another. */
	pd = bpf_map_lookup_elem(&pd_procs, &pf->tgid);
	if (pd && pd->pid == pf->pid && pd->state != PD_DOOMED) {
		__sync_fetch_and_add(&pd_doomed, 1);
		pd->state = PD_DOOMED;
		pd_kill_request(pf->tgid, (struct pid *)pf->pid);
	}
	bpf_map_delete_elem(&pd_files, &key);
	__sync_fetch_and_add(&pd_files_live, -1);
}

#endif
