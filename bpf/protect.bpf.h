/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Protection of our own BPF objects (doc/daemon.md, "Protection"). Once the
 * loader has set protect_on, only a process running the loader's binary
 * (recorded by inode at load; capsicumd in production) may
 *   - get a writable fd of one of our maps (others get read-only ones),
 *   - get an fd of one of our programs or links,
 *   - detach or update one of our links,
 *   - unlink or rename a pin under the pin directory, or unmount the
 *     bpffs instance that holds it (either would drop the links),
 *   - rename, replace or remove a directory on the pin path (the pin
 *     directory and each of its ancestors up to /: cap_enter() finds the
 *     pins by that path, and a forged answers map could be planted in its
 *     place), and, in the loader's mount namespace, mount onto one of those
 *     directories, move or unmount a mount rooted at one, or pivot_root.
 * Which objects are ours is the cap_protected set the loader fills with
 * their ids; the version stamp of the state lives beside it.
 */
#ifndef CAPSICUM_PROTECT_BPF_H
#define CAPSICUM_PROTECT_BPF_H

#include "state.bpf.h"
#include <capsicum/pins.h>

static __always_inline bool is_protected(__u32 kind, __u32 id)
{
	struct capsicum_protected_key k = { .kind = kind, .id = id };

	return protect_on && bpf_map_lookup_elem(&cap_protected, &k);
}

/* Is the current task running the binary that loaded us? */
static __always_inline bool current_is_loader(void)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct inode *exe = BPF_CORE_READ(task, mm, exe_file, f_inode);

	if (!exe)
		return false;
	return BPF_CORE_READ(exe, i_ino) == protect_exe_ino &&
	       BPF_CORE_READ(exe, i_sb, s_dev) == protect_exe_dev;
}

static __always_inline int protect_verdict(void)
{
	if (current_is_loader())
		return 0;
	__sync_fetch_and_add(&protect_denied, 1);
	return -EPERM;
}

SEC("lsm/bpf_map")
int BPF_PROG(capsicum_protect_map, struct bpf_map *map, unsigned int fmode)
{
	if (!(fmode & FMODE_WRITE) ||
	    !is_protected(CAPSICUM_PROTECT_MAP, BPF_CORE_READ(map, id)))
		return 0;
	return protect_verdict();
}

SEC("lsm/bpf_prog")
int BPF_PROG(capsicum_protect_prog, struct bpf_prog *prog)
{
	if (!is_protected(CAPSICUM_PROTECT_PROG, BPF_CORE_READ(prog, aux, id)))
		return 0;
	return protect_verdict();
}

/* The link an fd of the current task names, if it is a BPF link. */
static __always_inline __u32 link_id_of_fd(int fd)
{
	struct file *f = fd_file(fd);
	struct bpf_link *link;

	if (!f)
		return 0;
	/*
	 * Not checked to be a link file: if it is not, the kernel refuses
	 * the command anyway, and a stray id can at worst turn EINVAL into
	 * EPERM for a process that is not the loader.
	 */
	link = BPF_CORE_READ(f, private_data);
	return link ? BPF_CORE_READ(link, id) : 0;
}

SEC("lsm/bpf")
int BPF_PROG(capsicum_protect_bpf, int cmd, union bpf_attr *attr,
	     unsigned int size)
{
	__u32 id;

	if (!protect_on)
		return 0;
	switch (cmd) {
	case BPF_LINK_GET_FD_BY_ID:
		id = BPF_CORE_READ(attr, link_id);
		break;
	case BPF_LINK_DETACH:
		id = link_id_of_fd(BPF_CORE_READ(attr, link_detach.link_fd));
		break;
	case BPF_LINK_UPDATE:
		id = link_id_of_fd(BPF_CORE_READ(attr, link_update.link_fd));
		break;
	default:
		return 0;
	}
	if (!id || !is_protected(CAPSICUM_PROTECT_LINK, id))
		return 0;
	return protect_verdict();
}

static __always_inline bool is_pin_dir(struct inode *dir)
{
	return protect_on && BPF_CORE_READ(dir, i_ino) == protect_dir_ino &&
	       BPF_CORE_READ(dir, i_sb, s_dev) == protect_dir_dev;
}

/* Is inode one of the directories on the pin path? */
static __always_inline bool on_pin_path(struct inode *inode)
{
	__u64 ino;
	__u32 dev;

	if (!protect_on || !inode)
		return false;
	ino = BPF_CORE_READ(inode, i_ino);
	dev = BPF_CORE_READ(inode, i_sb, s_dev);
	for (__u32 i = 0; i < PROTECT_PATH_MAX; i++)
		if (i < protect_path_len && protect_path_ino[i] == ino &&
		    protect_path_dev[i] == dev)
			return true;
	return false;
}

static __always_inline bool dentry_on_pin_path(struct dentry *d)
{
	return d && on_pin_path(BPF_CORE_READ(d, d_inode));
}

/*
 * Mounts change what a path names only in their own namespace: other
 * namespaces (containers, systemd's ProtectSystem=) keep their freedom.
 */
static __always_inline bool in_loader_mnt_ns(void)
{
	struct task_struct *task = bpf_get_current_task_btf();

	return BPF_CORE_READ(task, nsproxy, mnt_ns, ns.inum) == protect_mnt_ns;
}

static __always_inline bool path_on_pin_path(const struct path *path)
{
	return path && dentry_on_pin_path(BPF_CORE_READ(path, dentry));
}

SEC("lsm/inode_unlink")
int BPF_PROG(capsicum_protect_unlink, struct inode *dir, struct dentry *dentry)
{
	return is_pin_dir(dir) || dentry_on_pin_path(dentry) ? protect_verdict()
							     : 0;
}

SEC("lsm/inode_rmdir")
int BPF_PROG(capsicum_protect_rmdir, struct inode *dir, struct dentry *dentry)
{
	return dentry_on_pin_path(dentry) ? protect_verdict() : 0;
}

/*
 * Either end: a pin, a directory of the pin path moved away, or another
 * directory renamed over one of them (RENAME_EXCHANGE swaps non-empty
 * directories; the kernel calls this hook for both directions then).
 */
SEC("lsm/inode_rename")
int BPF_PROG(capsicum_protect_rename, struct inode *old_dir,
	     struct dentry *old_dentry, struct inode *new_dir,
	     struct dentry *new_dentry)
{
	if (is_pin_dir(old_dir) || is_pin_dir(new_dir) ||
	    dentry_on_pin_path(old_dentry) || dentry_on_pin_path(new_dentry))
		return protect_verdict();
	return 0;
}

SEC("lsm/sb_umount")
int BPF_PROG(capsicum_protect_umount, struct vfsmount *mnt, int flags)
{
	if (!protect_on)
		return 0;
	if (BPF_CORE_READ(mnt, mnt_sb, s_dev) == protect_dir_dev ||
	    (dentry_on_pin_path(BPF_CORE_READ(mnt, mnt_root)) &&
	     in_loader_mnt_ns()))
		return protect_verdict();
	return 0;
}

/*
 * A new mount, bind or move onto the pin path would hide the pins behind
 * another tree. Remounts and propagation changes leave the tree as it is.
 * mount(2)'s MS_MOVE names its source by a string only, which no hook
 * resolves (lsm/move_mount is called by move_mount(2) alone, on 6.1 and
 * 6.12): it could move the pins' bpffs away, so the loader's namespace
 * refuses every MS_MOVE; move_mount(2) is checked exactly instead.
 */
SEC("lsm/sb_mount")
int BPF_PROG(capsicum_protect_mount, const char *dev_name,
	     const struct path *path, const char *type, unsigned long flags,
	     void *data)
{
	if (!protect_on || (flags & (MS_REMOUNT | MS_UNBINDABLE | MS_PRIVATE |
				     MS_SLAVE | MS_SHARED)))
		return 0;
	if ((flags & MS_MOVE || path_on_pin_path(path)) && in_loader_mnt_ns())
		return protect_verdict();
	return 0;
}

SEC("lsm/move_mount")
int BPF_PROG(capsicum_protect_move_mount, const struct path *from_path,
	     const struct path *to_path)
{
	if ((path_on_pin_path(from_path) || path_on_pin_path(to_path)) &&
	    in_loader_mnt_ns())
		return protect_verdict();
	return 0;
}

/* pivot_root moves every process of the namespace to another tree. */
SEC("lsm/sb_pivotroot")
int BPF_PROG(capsicum_protect_pivotroot, const struct path *old_path,
	     const struct path *new_path)
{
	if (protect_on && in_loader_mnt_ns())
		return protect_verdict();
	return 0;
}

#endif
