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
/* Levels walked inline, with plain BTF loads, before bpf_loop takes over. */
#define BENEATH_FAST_DEPTH 8

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
 * The walk's start: (dentry, mnt) and dir's path, which it must reach
 * (one probe read for both halves of it; dir has no BTF type here).
 */
static __always_inline struct beneath_walk
beneath_start(struct dentry *dentry, struct vfsmount *mnt, struct file *dir,
	      struct vfsmount **top_mnt)
{
	struct path top = {};
	struct beneath_walk w;

	BPF_CORE_READ_INTO(&top, dir, f_path);
	*top_mnt = top.mnt;
	w.dentry = (__u64)dentry;
	w.mount = mount_of(mnt);
	w.top = (__u64)top.dentry;
	w.top_mount = mnt ? mount_of(top.mnt) : 0;
	w.found = false;
	return w;
}

/*
 * (dentry, mnt) at or beneath dir's path, for pointers a probe read
 * gave (no BTF type): bpf_loop all the way. With mnt NULL only dentries
 * are walked (hooks that see no mount): then an object on another mount
 * than the directory's is never beneath, which fails closed.
 */
static __always_inline bool
beneath_probed(struct dentry *dentry, struct vfsmount *mnt, struct file *dir)
{
	struct vfsmount *top_mnt;
	struct beneath_walk w = beneath_start(dentry, mnt, dir, &top_mnt);

	if (!dentry)
		return false;
	bpf_loop(BENEATH_MAX_DEPTH, beneath_step, &w, 0);
	return w.found;
}

/*
 * The same for the hook's own BTF pointers. The common case, a few
 * levels within one mount, takes plain loads: the steps of beneath_step
 * until a mount root is met (the walk then leaves the mount) or the
 * depth runs out; bpf_loop goes on from there.
 */
static __always_inline bool beneath(struct dentry *dentry, struct vfsmount *mnt,
				    struct file *dir)
{
	struct vfsmount *top_mnt;
	struct beneath_walk w = beneath_start(dentry, mnt, dir, &top_mnt);
	struct dentry *root = mnt ? mnt->mnt_root : NULL, *d = dentry;

	if (!dentry)
		return false;
	for (int i = 0; i < BENEATH_FAST_DEPTH; i++) {
		struct dentry *parent;

		if ((__u64)d == w.top && (!w.top_mount || mnt == top_mnt))
			return true;
		if (root && d == root)
			break;
		parent = d->d_parent;
		if (!parent || parent == d)
			return false;
		d = parent;
	}
	w.dentry = (__u64)d;
	bpf_loop(BENEATH_MAX_DEPTH, beneath_step, &w, 0);
	return w.found;
}

#endif
