/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Exec in capability mode: only an ELF program runs, and its loader may
 * read it once (its program headers) and no more, so no interpreter is
 * ever looked up by name. The lookup of the program itself is an *at()
 * check (hooks_at.bpf.h: exec_at_check); the table's carrying over an
 * exec from a non-leader thread is bookkeeping (track.bpf.h).
 */
#ifndef CAPSICUM_EXEC_BPF_H
#define CAPSICUM_EXEC_BPF_H

#include "state.bpf.h"

/* A new exec starts: nothing of an earlier one counts. */
static __always_inline void exec_state_reset(void)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct exec_state *x;

	if (!live_tables || !task->bpf_storage)
		return;
	x = bpf_task_storage_get(&exec_states, task, 0, 0);
	if (x)
		x->file = 0;
}

static __always_inline struct exec_state *exec_state_of(void)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct exec_state *x;

	if (!task->bpf_storage)
		return NULL;
	x = bpf_task_storage_get(&exec_states, task, 0, 0);
	return x && x->file ? x : NULL;
}

/*
 * A new exec starts, before it opens the program: nothing of an earlier
 * one, successful or failed, counts as this one's program
 * (exec_state). i386 execs never run in capability mode.
 */
SEC("fentry/__x64_sys_execve")
int BPF_PROG(capsicum_execve_entry)
{
	exec_state_reset();
	return 0;
}

SEC("fentry/__x64_sys_execveat")
int BPF_PROG(capsicum_execveat_entry)
{
	exec_state_reset();
	return 0;
}

#define ELF_MAGIC 0x464c457f /* "\x7fELF", little-endian */

/*
 * An interpreter is looked up by the path the program names: its first
 * line (binfmt_script), a binfmt_misc rule, or an ELF PT_INTERP. FreeBSD's
 * namei refuses that lookup in capability mode; here the lookup must not
 * even start, or ENOENT against EACCES would tell which paths exist. So
 * in capability mode only an ELF program runs, and the ELF loader may
 * read it once after this hook, for its program headers: the read that
 * would fetch an interpreter's name is refused (exec_read_check). A
 * statically linked program never makes it.
 */
SEC("lsm/bprm_check_security")
int BPF_PROG(capsicum_bprm_check, struct linux_binprm *bprm)
{
	struct capsicum_proc *p = current_proc();
	struct exec_state *x;
	__u32 magic;

	if (!p || !in_capmode(p))
		return 0;
	__builtin_memcpy(&magic, bprm->buf, sizeof(magic));
	if (bprm->interp != bprm->filename || magic != ELF_MAGIC)
		return capmode_refuse(CAPSICUM_HOOK_EXEC, -1);
	x = bpf_task_storage_get(&exec_states, bpf_get_current_task_btf(), 0,
				 BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!x)
		return -ENOMEM;
	x->file = (__u64)bprm->file;
	x->reads = 0;
	return 0;
}

/* A read of the program while a capability-mode exec loads it. */
static __noinline int exec_read_check(struct file *file)
{
	struct capsicum_proc *p = current_proc();
	struct exec_state *x;

	if (!p || !in_capmode(p))
		return 0;
	x = exec_state_of();
	if (!x || x->file != (__u64)file)
		return 0;
	/* The thread's own state: no other thread writes it. */
	if (x->reads++ < 1)
		return 0; /* the program headers */
	return capmode_refuse(CAPSICUM_HOOK_EXEC, -1);
}

/*
 * The patched kernel loads no file_permission program (admin/load.c),
 * so exec_read_check never runs there. The interpreter's lookup is
 * refused one step earlier instead: open_exec() allocates its file
 * before it looks any name up, and in capability mode, once
 * bprm_check_security took this exec's program (exec_state), the
 * ELF loader allocates no other file (a static program, none at all).
 */
SEC("?lsm/file_alloc_security")
int BPF_PROG(capsicum_exec_interp, struct file *file)
{
	struct capsicum_proc *p;

	if (no_capsicum_state())
		return 0;
	p = current_proc();
	if (!p || !in_capmode(p) || !exec_state_of())
		return 0;
	/* Between this exec's bprm_check and its end, not after it. */
	if (!BPF_CORE_READ_BITFIELD(bpf_get_current_task_btf(), in_execve))
		return 0;
	return capmode_refuse(CAPSICUM_HOOK_EXEC, -1);
}

#endif
