/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The patched kernel (kernel/ 0004): a lookup that starts from a
 * descriptor asks security_lookup_beneath() first, and an errno answer
 * makes the kernel run it with LOOKUP_BENEATH, failing with that errno
 * at an absolute path or symlink, a ".." above the start or a magic
 * link, before any name outside is looked up. So the stock kernels'
 * step-by-step check (walk_check on inode_permission, hooks_at.bpf.h)
 * does not load there (admin/load.c), and a process without Capsicum
 * state pays nothing per path component: the kernel calls the hook only
 * for a task whose fget check is on.
 *
 * The dirfd's own right is asked where the walk looks it up (path_init's
 * fdget_raw, so file_fget with the walk's nameidata): CAP_LOOKUP before
 * any name is looked up, as walk_check does at the first search.
 */
#ifndef CAPSICUM_LOOKUP_BENEATH_BPF_H
#define CAPSICUM_LOOKUP_BENEATH_BPF_H

#include "state.bpf.h"

/*
 * Which lookups the kernel confines: every one from a descriptor in
 * capability mode (absolute paths included, whatever the number names),
 * and one from a descriptor whose rights are limited. A number that is
 * not open starts no relative lookup (EBADF), and an absolute one
 * outside capability mode does not use it, as on FreeBSD.
 */
SEC("?lsm/lookup_beneath")
int BPF_PROG(capsicum_lookup_beneath, int dfd)
{
	struct capsicum_proc *p;
	struct file *dir;
	struct held h;

	if (no_capsicum_state())
		return 0;
	p = current_proc();
	/*
	 * A learning tree's lookups are not kept beneath: the kernel would
	 * refuse the step itself, with nothing to record (doc/learn.md).
	 */
	if (!p || (p->flags & CAPSICUM_PROC_LEARNING))
		return 0;
	if (in_capmode(p))
		return -ENOTCAPABLE;
	if (!table_limited(p))
		return 0;
	dir = fd_file(dfd);
	if (!dir)
		return 0;
	held_rights(p, dir, dfd, &h);
	return h.limited ? -ENOTCAPABLE : 0;
}

/*
 * The right a walk needs of the descriptor it starts from, when fd is
 * that descriptor being looked up by the walk itself: CAP_LOOKUP for a
 * name to look up (the operation's own right is its row's: faccessat's
 * CAP_FSTATAT, or the final-object hooks'). 0 when fd is not a walk's
 * starting descriptor, or the walk has no name (AT_EMPTY_PATH).
 */
static __always_inline __u64 walk_dirfd_need(int fd)
{
	return walk_from(fd) == WALK_NAMED ? CAP_LOOKUP : 0;
}

#endif
