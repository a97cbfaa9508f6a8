/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The patched kernel: io_uring requests on normal (non-fixed) files,
 * decided by their opcode (include/capsicum/optable.h,
 * CAPSICUM_URING_OPS). io_uring looks a request's descriptor up with
 * io_file_get_normal(req, fd), which calls fget() and so the fget hook,
 * in whichever thread issues the request (inline from io_uring_enter, an
 * io-wq worker, the SQPOLL thread, task work). There the registers say
 * nothing about the request (call_of: NR_UNKNOWN), so an fentry on
 * io_file_get_normal notes (fd, opcode, what the rule needs of the
 * request) in the thread's storage and an fexit clears it: the fget hook
 * inside that call finds the note, and no other lookup ever does.
 *
 * These programs only observe. They load only where the fget hook does
 * (admin/load.c, needs_kfunc): the stock kernels have io_file_get_normal
 * too, and nothing to do with a note there.
 */
#ifndef CAPSICUM_URING_BPF_H
#define CAPSICUM_URING_BPF_H

#include "optable.bpf.h"
#include <bpf/bpf_core_read.h>

#define FMODE_STREAM (1U << 21) /* linux/fs.h */

/* Which ends of a splice or tee the noted descriptor is. */
#define URING_END_IN  1
#define URING_END_OUT 2

/*
 * What a rule needs to know of the request, read while io_uring holds
 * it (its prep has run: the offsets are the request's own). req->cmd is
 * the opcode's own struct (io_kiocb_to_cmd); CO-RE reads it as that.
 */
static __always_inline void uring_note_none(struct uring_note *n,
					    struct io_kiocb *req, int fd)
{
}

/* URING_CMD: the uring_cmd hook reads a socket command itself. */
static __always_inline void
uring_note_uring_sockopt(struct uring_note *n, struct io_kiocb *req, int fd)
{
}

/* io_rw: an offset other than -1 reads or writes there, not at f_pos. */
static __always_inline void
uring_note_uring_offset(struct uring_note *n, struct io_kiocb *req, int fd)
{
	struct io_rw *rw = (struct io_rw *)&req->cmd;

	n->seek = BPF_CORE_READ(rw, kiocb.ki_pos) != -1;
}

/*
 * io_splice: the request's own descriptor is the output end, splice_fd_in
 * the input end (each looked up by its own io_file_get_normal call); an
 * offset of -1 is none (tee takes none).
 */
static __always_inline void
uring_note_uring_splice_end(struct uring_note *n, struct io_kiocb *req, int fd)
{
	struct io_splice *sp = (struct io_splice *)&req->cmd;

	if (BPF_CORE_READ(sp, splice_fd_in) == fd) {
		n->ends |= URING_END_IN;
		if (BPF_CORE_READ(sp, off_in) != -1)
			n->seek |= URING_END_IN;
	}
	if (req->cqe.fd == fd) {
		n->ends |= URING_END_OUT;
		if (BPF_CORE_READ(sp, off_out) != -1)
			n->seek |= URING_END_OUT;
	}
}

/* `case opcode:` of each row, noting what its rule reads. */
#define URING_NOTE_CASE(name, opcode, rights, rule, ...)                       \
	case opcode:                                                           \
		uring_note_##rule(n, req, fd);                                 \
		break;

SEC("?fentry/io_file_get_normal")
int BPF_PROG(capsicum_uring_note, struct io_kiocb *req, int fd)
{
	struct capsicum_proc *p = current_proc();
	struct uring_note *n;

	/* The fget hook asks nothing of a process without limits. */
	if (!p || !table_limited(p))
		return 0;
	n = bpf_task_storage_get(&uring_notes, bpf_get_current_task_btf(), 0,
				 BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!n)
		return 0; /* no memory: the stock rules decide, as before */
	n->fd = fd;
	n->opcode = req->opcode;
	n->ends = 0;
	n->seek = 0;
	switch (n->opcode) {
		CAPSICUM_URING_OPS(URING_NOTE_CASE)
	}
	n->active = 1;
	return 0;
}

SEC("?fexit/io_file_get_normal")
int BPF_PROG(capsicum_uring_unnote, struct io_kiocb *req, int fd,
	     struct file *ret)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct uring_note *n;

	if (!task->bpf_storage)
		return 0;
	n = bpf_task_storage_get(&uring_notes, task, 0, 0);
	if (n)
		n->active = 0;
	return 0;
}

/* The rules: what the noted request needs of its descriptor's file. */
static __always_inline __u64 uring_rule_none(const struct uring_note *n,
					     struct file *file, __u64 rights)
{
	return rights;
}

/*
 * URING_CMD: CAP_IOCTL here; a socket option's right is of the other
 * word, and the uring_cmd hook, which sees the command, asks it.
 */
static __always_inline __u64 uring_rule_uring_sockopt(
	const struct uring_note *n, struct file *file, __u64 rights)
{
	return rights;
}

/* A stream (a pipe, a socket) has no position: its offset is ignored. */
static __always_inline __u64 uring_rule_uring_offset(const struct uring_note *n,
						     struct file *file,
						     __u64 rights)
{
	if (n->seek && !(file->f_mode & FMODE_STREAM))
		rights |= CAP_SEEK;
	return rights;
}

static __always_inline __u64 uring_rule_uring_splice_end(
	const struct uring_note *n, struct file *file, __u64 rights)
{
	__u64 need = 0;

	if (n->ends & URING_END_IN)
		need |= (rights & ~OPT_BITS(CAP_WRITE)) |
			(n->seek & URING_END_IN ? CAP_SEEK : 0);
	if (n->ends & URING_END_OUT)
		need |= (rights & ~OPT_BITS(CAP_READ)) |
			(n->seek & URING_END_OUT ? CAP_SEEK : 0);
	return need;
}

#define URING_FGET_CASE(name, opcode, rights, rule, ...)                       \
	case opcode: {                                                         \
		__u64 need_ = uring_rule_##rule(n, file, (rights));            \
                                                                               \
		need[OPT_IDX(need_)] = need_;                                  \
		return true;                                                   \
	}

/*
 * Whether this lookup of fd is io_uring's for a request, and then what
 * the request needs of it (need, both rights words): its row's rights
 * by its rule, every right for an opcode without a row. False for every
 * other lookup, and for a note of another descriptor: the caller then
 * decides as before.
 */
static __always_inline bool uring_need_of(int fd, struct file *file,
					  __u64 *need)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct uring_note *n;

	if (!task->bpf_storage)
		return false;
	n = bpf_task_storage_get(&uring_notes, task, 0, 0);
	if (!n || !n->active || n->fd != fd)
		return false;
	n->active = 0; /* io_file_get_normal makes one lookup */
	switch (n->opcode) {
		CAPSICUM_URING_OPS(URING_FGET_CASE)
	}
	need[0] = CAP_ALL0;
	need[1] = CAP_ALL1;
	return true;
}

#endif
