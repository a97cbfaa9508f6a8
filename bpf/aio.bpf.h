/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The stock kernels: io_submit's IOCB_CMD_FSYNC and IOCB_CMD_FDSYNC need
 * CAP_FSYNC. No LSM hook sees an AIO fsync's file, but aio_fsync(req,
 * iocb, datasync) (fs/aio.c, static yet in the BTF of 6.1 and 6.12)
 * calls prepare_creds() once its two EINVAL checks have passed, and
 * prepare_creds() calls the cred_prepare hook, whose refusal makes it
 * return NULL: aio_fsync() then fails the iocb with -ENOMEM. So an
 * fentry on aio_fsync decides by req->file, as file_permission decides
 * an AIO read or write (by the file's floor: no hook knows the iocb's
 * descriptor), and notes a refusal in the thread's storage; the
 * cred_prepare hook refuses while the note is set, and an fexit clears
 * it, so no other prepare_creds() is ever refused. The caller sees
 * ENOMEM, not ENOTCAPABLE: aio_fsync() hard-codes it. The record says
 * ENOTCAPABLE, the refusal of a right it is (capctl audit, --learn).
 *
 * IOCB_CMD_POLL reaches no hook here (aio_poll() is inlined). The
 * patched kernel's fget hook asks every AIO right at the iocb's lookup:
 * there these programs stay out (admin/load.c, superseded_progs).
 */
#ifndef CAPSICUM_AIO_BPF_H
#define CAPSICUM_AIO_BPF_H

#include "optable.bpf.h"
#include "table.bpf.h"

SEC("?fentry/aio_fsync")
int BPF_PROG(capsicum_aio_fsync_note, struct fsync_iocb *req,
	     const struct iocb *iocb, bool datasync)
{
	struct capsicum_proc *p = current_proc();
	struct task_struct *task;
	struct file *file;
	struct aio_note *n;
	struct held h;
	bool refused = false;

	if (!p)
		return 0; /* no state, so no note either */
	file = req->file;
	if (table_limited(p) && file && !file_allows_all(file, CAP_FSYNC, 0)) {
		held_rights(p, file, -1, &h);
		refused = h.limited && !rights_contain(h.rights, CAP_FSYNC, 0);
	}
	task = bpf_get_current_task_btf();
	/* Allowed: clear a note an fexit that never ran left behind. */
	n = bpf_task_storage_get(&aio_notes, task, 0,
				 refused ? BPF_LOCAL_STORAGE_GET_F_CREATE : 0);
	if (!n) {
		/*
		 * Nowhere to note it: fail closed, for every AIO fsync of the
		 * process from now on (aio_cred_prepare_check).
		 */
		if (refused)
			proc_set_flag(p, CAPSICUM_PROC_AIO_UNNOTED);
		return 0;
	}
	if (refused) {
		n->held = h;
		n->nr = current_syscall();
	}
	n->active = refused;
	return 0;
}

SEC("?fexit/aio_fsync")
int BPF_PROG(capsicum_aio_fsync_unnote, struct fsync_iocb *req,
	     const struct iocb *iocb, bool datasync, int ret)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct aio_note *n;

	if (!task->bpf_storage)
		return 0;
	n = bpf_task_storage_get(&aio_notes, task, 0, 0);
	if (n)
		n->active = 0;
	return 0;
}

/* The syscall is io_submit, of any ABI: its prepare_creds() is aio_fsync's. */
static __always_inline bool aio_in_io_submit(struct task_struct *task)
{
	long nr = current_syscall();

	/* The numbers of each ABI, from the table's rows. */
	if (task->thread_info.status & TS_COMPAT)
		nr = nr_of_i386(nr);
	else if (nr & X32_SYSCALL_BIT)
		nr = nr_of_x32(nr & ~X32_SYSCALL_BIT);
	return nr == NR_io_submit;
}

/*
 * The note is used once, and only in the syscall that set it: a note
 * left set (an fexit not yet attached, or detached mid-call) can then
 * refuse nothing but another io_submit's prepare_creds(), which only
 * aio_fsync() calls, after its fentry wrote the note afresh. A fork,
 * which prepares creds too, is never refused. A process whose refusal
 * found no room for its note has every AIO fsync refused instead.
 */
static __noinline int aio_cred_prepare_check(void)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct capsicum_proc *p;
	struct aio_note *n = NULL;

	if (task->bpf_storage)
		n = bpf_task_storage_get(&aio_notes, task, 0, 0);
	if (n && n->active) {
		n->active = 0;
		if (n->nr != current_syscall())
			return 0;
		return refuse(CAPSICUM_HOOK_AIO_FSYNC, ENOTCAPABLE, -1,
			      CAP_FSYNC, 0, &n->held);
	}
	if (!aio_in_io_submit(task))
		return 0;
	p = current_proc();
	if (!p || !(p->flags & CAPSICUM_PROC_AIO_UNNOTED))
		return 0;
	return refuse(CAPSICUM_HOOK_AIO_FSYNC, ENOTCAPABLE, -1, CAP_FSYNC, 0,
		      NULL);
}

/*
 * (struct cred *new, const struct cred *old, gfp_t gfp): every fork and
 * every credential change of every process runs it, so the gate first
 * and no argument read.
 */
SEC("?lsm/cred_prepare")
int capsicum_aio_cred_prepare(unsigned long long *ctx)
{
	return GATED(aio_cred_prepare_check);
}

#endif
