/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The patched kernel (kernel/ 0005): /proc/PID/fdinfo/FD asks
 * security_fd_rights() what the descriptor may do, and prints what this
 * program answers as the 2014 Linux Capsicum series printed it:
 *
 *   rights:	0x...	0x...		the two words of its cap_rights_t
 *    fcntls: 0x...			if its fcntl commands are limited
 *    ioctls:	0x...	0x...		if its ioctl commands are listed
 *
 * The reader may be another process (procfs lets it in with
 * PTRACE_MODE_READ, as for the rest of fdinfo): the answer is the shown
 * task's table, found from that task as the hooks find the current one,
 * and decided by held_rights_in() as every hook decides it, so it says
 * what the hooks would allow that process, and nothing of the reader's.
 *
 * A descriptor that nothing narrows (no table, a table for capability
 * mode only, a file no limit touched, an explicit entry with every
 * right) prints no line, as in the 2014 series, where only a limited
 * descriptor had the wrapper that printed it, and as capctl fds says
 * "-" or "entry:all": fdinfo of processes that never use Capsicum stays
 * as it was. A list is printed only where the right it refines is held
 * (without CAP_FCNTL no fcntl is allowed whatever the mask says) and it
 * narrows something: an empty ioctl list (" ioctls:" alone) allows none.
 */
#ifndef CAPSICUM_FDINFO_BPF_H
#define CAPSICUM_FDINFO_BPF_H

#include "state.bpf.h"

/*
 * The kernel's struct fd_rights (include/linux/security.h), which the
 * stock vmlinux.h does not have. The programs only hand it to the
 * kfuncs, whose prototypes libbpf checks: a struct, not a declaration.
 */
struct fd_rights___capsicum {
	__u32 limits;
	__u32 fcntls;
	__u64 rights[2];
	__s32 nioctls;
	__u64 *ioctls;
};
#define fd_rights fd_rights___capsicum

extern void bpf_fd_rights_set(struct fd_rights *r, __u64 rights0, __u64 rights1,
			      __u32 fcntls, __u32 limits) __ksym __weak;
extern int bpf_fd_rights_set_ioctls(struct fd_rights *r, const __u64 *cmds,
				    __u32 cmds__sz) __ksym __weak;

/* The kernel's FD_LIMIT_* (include/linux/security.h). */
#define FD_LIMIT_RIGHTS 1
#define FD_LIMIT_FCNTLS 2
#define FD_LIMIT_IOCTLS 4

/* Does anything narrow the descriptor? capctl fds' restricted() too. */
static __always_inline bool held_narrows(const struct held *h)
{
	return h->rights[0] != CAP_ALL0 || h->rights[1] != CAP_ALL1 ||
	       (h->fcntls & CAP_FCNTL_ALL) != CAP_FCNTL_ALL || h->nioctls >= 0;
}

SEC("?lsm/fd_rights")
int BPF_PROG(capsicum_fd_rights, struct task_struct *task, struct file *file,
	     unsigned int fd, struct fd_rights *r)
{
	struct capsicum_fd_key k = { .fd = (int)fd };
	struct capsicum_ioctls *l = NULL;
	__u64 *cmds;
	__u32 limits = FD_LIMIT_RIGHTS;
	__u64 n = 0; /* bytes of commands */
	struct capsicum_proc *p;
	struct scratch *sc;
	__u32 zero = 0;
	struct held h;

	if (!live_tables)
		return 0;
	p = proc_of(task->group_leader);
	if (!p)
		return 0;
	/* The kernel found file at fd in task's table: no need to look. */
	held_rights_in(p, file, (int)fd, true, &h);
	if (!held_narrows(&h))
		return 0;
	if (rights_contain(h.rights, CAP_FCNTL, 0) &&
	    (h.fcntls & CAP_FCNTL_ALL) != CAP_FCNTL_ALL)
		limits |= FD_LIMIT_FCNTLS;
	if (!rights_contain(h.rights, 0, CAP_IOCTL) || h.nioctls < 0) {
		bpf_fd_rights_set(r, h.rights[0], h.rights[1], h.fcntls,
				  limits);
		return 0;
	}
	/* As CAPSICUM_OP_GET: a floor's or a lost list allows nothing. */
	k.table_id = p->table_id;
	if (h.nioctls > 0 && h.fd >= 0)
		l = bpf_map_lookup_elem(&cap_ioctls, &k);
	if (l) {
		n = (__u64)(__u32)h.nioctls * sizeof(__u64);
		cmds = l->cmds;
	} else {
		/* No command: any memory of the program's will do. */
		sc = bpf_map_lookup_elem(&scratch, &zero);
		if (!sc)
			return -ENOMEM;
		cmds = sc->ioctls.cmds;
	}
	bpf_fd_rights_set(r, h.rights[0], h.rights[1], h.fcntls,
			  limits | FD_LIMIT_IOCTLS);
	barrier_var(n); /* one register, checked and passed */
	if (n > sizeof(l->cmds))
		return -EINVAL; /* never stored so */
	/* It fails only for want of memory for the copy. */
	return bpf_fd_rights_set_ioctls(r, cmds, n) ? -ENOMEM : 0;
}

#endif
