/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An ioctl on a descriptor: CAP_IOCTL, the command in the descriptor's
 * ioctl list if it has one, and, in capability mode, no command that
 * would point the file's signals at another process. Decided at the
 * file_ioctl hooks on the stock kernels and at the descriptor's lookup
 * on the patched one (fget.bpf.h), by the same code.
 */
#ifndef CAPSICUM_IOCTL_BPF_H
#define CAPSICUM_IOCTL_BPF_H

#include "sigio.bpf.h"
#include "state.bpf.h"

struct ioctl_find {
	const struct capsicum_ioctls *list;
	__u64 cmd;
	__s32 n;
	bool found;
};

static long ioctl_find_cb(__u64 i, struct ioctl_find *f)
{
	if (i >= CAP_IOCTLS_MAX || (__s32)i >= f->n)
		return 1;
	if (f->list->cmds[i] == f->cmd) {
		f->found = true;
		return 1;
	}
	return 0;
}

/*
 * fd's ioctl cmd needs CAP_IOCTL and, if the descriptor has a list, cmd
 * in it. by_list false: cmd is no ioctl number (an io_uring command),
 * so only a descriptor allowed every ioctl may.
 */
static __always_inline int ioctl_check(struct capsicum_proc *p,
				       struct file *file, unsigned int cmd,
				       int fd, bool by_list)
{
	struct held h;

	held_rights(p, file, fd, &h);
	if (!h.limited)
		return 0;
	if (!rights_contain(h.rights, 0, CAP_IOCTL))
		goto deny;
	if (h.nioctls < 0)
		return 0;
	if (by_list && h.nioctls > 0 && h.fd >= 0) {
		struct capsicum_fd_key k = { .table_id = p->table_id,
					     .fd = h.fd };
		struct ioctl_find f = { .cmd = cmd, .n = h.nioctls };

		f.list = bpf_map_lookup_elem(&cap_ioctls, &k);
		if (f.list) {
			bpf_loop(CAP_IOCTLS_MAX, ioctl_find_cb, &f, 0);
			if (f.found)
				return 0;
		}
	}
deny:
	return refuse(CAPSICUM_HOOK_FILE_IOCTL, ENOTCAPABLE,
		      h.fd >= 0 ? h.fd : fd, 0, CAP_IOCTL, &h);
}

/* fd's ioctl cmd, which needs CAP_IOCTL (not FIOCLEX or FIONCLEX). */
static __always_inline int ioctl_decide(struct capsicum_proc *p,
					struct file *file, unsigned int cmd,
					int fd)
{
	int err = ioctl_check(p, file, cmd, fd, true);

	if (err || !in_capmode(p))
		return err;
	return capmode_ioctl_check(file, cmd, fd);
}

#endif
