/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Is a resolved object beneath a directory descriptor? The check walks the
 * object's dentry parents, and mount parents where a mount root is met,
 * up to the directory or to the root. It looks at the object the kernel
 * resolved, never at the path string, which user memory could change
 * under us: `..` that stays beneath passes, anything that ends outside
 * (`..` past the directory, absolute symlinks, absolute paths) does not.
 * A walk longer than BENEATH_MAX_DEPTH fails closed.
 */
#ifndef CAPSICUM_BENEATH_BPF_H
#define CAPSICUM_BENEATH_BPF_H

#include "state.bpf.h"

#define BENEATH_MAX_DEPTH 4096

struct beneath_walk {
	__u64 dentry;	 /* where the walk is */
	__u64 mount;	 /* its struct mount, 0 for a dentry-only walk */
	__u64 top;	 /* the directory's dentry */
	__u64 top_mount; /* the directory's struct mount, 0: any */
	bool found;
};

static __always_inline __u64 mount_of(struct vfsmount *mnt)
{
	return mnt ? (__u64)mnt - bpf_core_field_offset(struct mount, mnt) : 0;
}

static long beneath_step(__u64 i, void *ctx)
{
	struct beneath_walk *w = ctx;
	struct dentry *d = (struct dentry *)w->dentry, *parent;
	struct mount *m = (struct mount *)w->mount;

	if (w->dentry == w->top &&
	    (!w->top_mount || w->mount == w->top_mount)) {
		w->found = true;
		return 1;
	}
	if (m && w->dentry == (__u64)BPF_CORE_READ(m, mnt.mnt_root)) {
		struct mount *up = BPF_CORE_READ(m, mnt_parent);

		if (up == m)
			return 1; /* the root of the mount tree */
		w->dentry = (__u64)BPF_CORE_READ(m, mnt_mountpoint);
		w->mount = (__u64)up;
		/*
		 * A mount stacked on the directory itself: a lookup from the
		 * directory never enters it, so it is not beneath.
		 */
		if (w->dentry == w->top && w->mount == w->top_mount)
			return 1;
		return 0;
	}
	parent = BPF_CORE_READ(d, d_parent);
	if (!parent || parent == d)
		return 1; /* the root of this file system, or disconnected */
	w->dentry = (__u64)parent;
	return 0;
}

/*
 * (dentry, mnt) at or beneath dir's path. With mnt NULL only dentries are
 * walked (hooks that see no mount): then an object on another mount than
 * the directory's is never beneath, which fails closed.
 */
static __always_inline bool beneath(struct dentry *dentry, struct vfsmount *mnt,
				    struct file *dir)
{
	struct beneath_walk w = {
		.dentry = (__u64)dentry,
		.mount = mount_of(mnt),
		.top = (__u64)BPF_CORE_READ(dir, f_path.dentry),
		.top_mount = mnt ? mount_of(BPF_CORE_READ(dir, f_path.mnt)) : 0,
	};

	if (!dentry)
		return false;
	bpf_loop(BENEATH_MAX_DEPTH, beneath_step, &w, 0);
	return w.found;
}

#endif
