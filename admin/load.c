// SPDX-License-Identifier: GPL-2.0
/*
 * Loading and pinning the BPF side. Features are probed from the running
 * kernel's BTF before load, so one object serves 6.1 and 6.12. The loader
 * stamps the state with the object's hash and arms the protection hooks
 * (bpf/protect.bpf.h) for its own binary before anything is pinned.
 */
#define _GNU_SOURCE
#include "load.h"

#include "capsicum.skel.h"
#include "load_internal.h"

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include <capsicum/abi.h>
#include <capsicum/pins.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

static capsicum_load_log_fn *log_fn;

void capsicum_load_set_log(capsicum_load_log_fn *fn)
{
	log_fn = fn;
}

/* Every message of the load path goes here, so capsicumd's log has it. */
static void __attribute__((format(printf, 2, 3)))
load_log(int priority, const char *fmt, ...)
{
	char msg[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (log_fn)
		log_fn(priority, msg);
	else
		fprintf(stderr, "capsicum: %s\n", msg);
}

/* Number of parameters of an LSM hook, from its bpf_lsm_ stub in BTF. */
static int hook_nparams(const struct btf *btf, const char *hook)
{
	char name[128];
	const struct btf_type *t;
	int id;

	snprintf(name, sizeof(name), "bpf_lsm_%s", hook);
	id = btf__find_by_name_kind(btf, name, BTF_KIND_FUNC);
	if (id < 0)
		return -1;
	t = btf__type_by_id(btf, btf__type_by_id(btf, id)->type);
	return btf_vlen(t);
}

/*
 * Programs for what not every kernel has are marked SEC("?...") in bpf/:
 * each loads only where the kernel's BTF has the function it attaches to
 * (bpf_lsm_ stubs name the LSM hooks; the i386 syscalls exist with
 * CONFIG_IA32_EMULATION only; the patched kernel's hooks, kernel/, only
 * there). Some need more than their attach point: a kfunc they call, or
 * the hook they serve.
 */
static const struct {
	const char *prog;
	const char *func;
} needs_kfunc[] = {
	{ "capsicum_fget_on_fcntl", "bpf_task_fget_check_enable" },
	{ "capsicum_fget_on_prctl", "bpf_task_fget_check_enable" },
	{ "capsicum_fget_on_receive", "bpf_task_fget_check_enable" },
	{ "capsicum_fd_rights", "bpf_fd_rights_set" },
	/* io_uring's lookups, noted for the fget hook: every kernel has it. */
	{ "capsicum_uring_note", "bpf_lsm_file_fget" },
	{ "capsicum_uring_unnote", "bpf_lsm_file_fget" },
	/* exec_read_check's stand-in where file_permission is not loaded. */
	{ "capsicum_exec_interp", "bpf_lsm_file_fget" },
	/* Refuses only what the fentry on aio_fsync notes (aio.bpf.h). */
	{ "capsicum_aio_cred_prepare", "aio_fsync" },
};

/*
 * Programs the patched kernel makes unnecessary: each stays out where the
 * kernel's BTF has the function it names. A kernel that keeps lookups
 * from a descriptor beneath it (lookup_beneath.bpf.h) needs no check of
 * each step of a walk, which every process would pay for; one whose fget
 * hook decides the rows of these programs by their descriptor
 * (CAPSICUM_OPS_SUPERSEDED in include/capsicum/optable.h, fget.bpf.h)
 * needs none of them, which every process would pay for too: every read
 * and write, mmap, flock, an i386 or x32 ioctl (which the compat hook
 * could check only by the file's floor: ioctl.bpf.h), and the socket
 * calls that need nothing but the socket (receives, its names,
 * shutdown, listen, options). The socket hooks that see an address, a
 * message or a new socket stay, and so does file_ioctl (it runs only for
 * ioctls). The AIO fsync check (aio.bpf.h) is needless there too: the
 * fget hook asks every AIO right of an iocb's descriptor.
 */
static const struct {
	const char *prog;
	const char *func;
} superseded_progs[] = {
	{ "capsicum_inode_permission", "bpf_lsm_lookup_beneath" },
	{ "capsicum_file_permission", "bpf_lsm_file_fget" },
	{ "capsicum_mmap_file", "bpf_lsm_file_fget" },
	{ "capsicum_file_lock", "bpf_lsm_file_fget" },
	{ "capsicum_file_ioctl_compat", "bpf_lsm_file_fget" },
	{ "capsicum_socket_recvmsg", "bpf_lsm_file_fget" },
	{ "capsicum_socket_getsockname", "bpf_lsm_file_fget" },
	{ "capsicum_socket_getpeername", "bpf_lsm_file_fget" },
	{ "capsicum_socket_shutdown", "bpf_lsm_file_fget" },
	{ "capsicum_socket_listen", "bpf_lsm_file_fget" },
	{ "capsicum_socket_getsockopt", "bpf_lsm_file_fget" },
	{ "capsicum_socket_setsockopt", "bpf_lsm_file_fget" },
	{ "capsicum_aio_fsync_note", "bpf_lsm_file_fget" },
	{ "capsicum_aio_fsync_unnote", "bpf_lsm_file_fget" },
	{ "capsicum_aio_cred_prepare", "bpf_lsm_file_fget" },
};

static bool btf_has_func(const struct btf *btf, const char *func)
{
	return btf__find_by_name_kind(btf, func, BTF_KIND_FUNC) >= 0;
}

/*
 * The kernel function a program's section attaches it to: "lsm/X" is
 * bpf_lsm_X, "fentry/F" and "fexit/F" are F. False for other kinds.
 */
static bool attach_func(const char *sec, char *buf, size_t size)
{
	static const struct {
		const char *kind, *prefix;
	} kinds[] = { { "lsm/", "bpf_lsm_" },
		      { "fentry/", "" },
		      { "fexit/", "" } };

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		size_t n = strlen(kinds[i].kind);

		if (!strncmp(sec, kinds[i].kind, n))
			return snprintf(buf, size, "%s%s", kinds[i].prefix,
					sec + n) < (int)size;
	}
	return false;
}

bool capsicum_prog_absent(const struct btf *btf, const struct bpf_program *prog)
{
	const char *name = bpf_program__name(prog);
	const char *sec = bpf_program__section_name(prog);
	/*
	 * libbpf drops a section's '?' and marks the program not to be
	 * loaded: that mark is what says it is optional.
	 */
	bool optional = !bpf_program__autoload(prog);
	char func[128];

	for (size_t i = 0;
	     i < sizeof(superseded_progs) / sizeof(superseded_progs[0]); i++)
		if (!strcmp(superseded_progs[i].prog, name) &&
		    btf_has_func(btf, superseded_progs[i].func))
			return true;
	if (!optional)
		return false;
	for (size_t i = 0; i < sizeof(needs_kfunc) / sizeof(needs_kfunc[0]);
	     i++)
		if (!strcmp(needs_kfunc[i].prog, name) &&
		    !btf_has_func(btf, needs_kfunc[i].func))
			return true;
	/* An optional program of a kind we cannot place stays out. */
	return !attach_func(sec, func, sizeof(func)) ||
	       !btf_has_func(btf, func);
}

static void skip_absent(struct capsicum_bpf *skel, const struct btf *btf)
{
	struct bpf_program *prog;

	/* SEC("?...") programs start out not loaded: enable those that fit. */
	bpf_object__for_each_program(prog, skel->obj)
		bpf_program__set_autoload(prog,
					  !capsicum_prog_absent(btf, prog));
}

void capsicum_load_prepare(struct capsicum_bpf *skel, const struct btf *btf)
{
	skel->rodata->setattr_has_idmap =
		hook_nparams(btf, "inode_setattr") == 3;
	skip_absent(skel, btf);
}

/* The kernel's dev_t of a stat result: major in 12 bits above 20 minor. */
static uint32_t kernel_dev(dev_t dev)
{
	return (uint32_t)(major(dev) << 20 | minor(dev));
}

int capsicum_protect_id(struct capsicum_bpf *skel, uint32_t kind, int fd)
{
	struct bpf_prog_info info = { 0 };
	__u32 len = sizeof(info);
	struct capsicum_protected_key k = { .kind = kind };
	__u8 one = 1;

	/* The id is at the same offset in map, prog and link infos. */
	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return -errno;
	k.id = info.id;
	if (bpf_map__update_elem(skel->maps.cap_protected, &k, sizeof(k), &one,
				 sizeof(one), BPF_ANY))
		return -errno;
	return 0;
}

void capsicum_stamp_fill(struct capsicum_state_version *v)
{
	struct timespec now;
	struct stat exe;

	*v = (struct capsicum_state_version){
		.magic = CAPSICUM_STATE_MAGIC,
		.abi_version = CAPSICUM_ABI_VERSION,
		.loader_pid = (__u32)getpid(),
		.object_hash = capsicum_object_hash(),
	};
	clock_gettime(CLOCK_BOOTTIME, &now);
	v->loaded_at_ns = (__u64)now.tv_sec * 1000000000ULL + now.tv_nsec;
	if (!stat("/proc/self/exe", &exe)) {
		v->exe_ino = exe.st_ino;
		v->exe_dev = kernel_dev(exe.st_dev);
	}
}

/*
 * The pin path for bpf/protect.bpf.h: dir (absolute) and each ancestor up
 * to /, by device and inode, and the mount namespace they are seen in.
 */
static int protect_path(struct capsicum_bpf *skel, const char *dir)
{
	const size_t max = sizeof(skel->bss->protect_path_ino) /
			   sizeof(skel->bss->protect_path_ino[0]);
	char path[PATH_MAX];
	struct stat st;
	size_t n = 0;
	char *slash;

	if (dir[0] != '/' || strlen(dir) >= sizeof(path) ||
	    stat("/proc/self/ns/mnt", &st))
		return dir[0] != '/' ? -EINVAL : -errno;
	skel->bss->protect_mnt_ns = (__u32)st.st_ino;
	strcpy(path, dir);
	for (;;) {
		if (n == max)
			return -ENAMETOOLONG;
		if (stat(path[0] ? path : "/", &st))
			return -errno;
		skel->bss->protect_path_ino[n] = st.st_ino;
		skel->bss->protect_path_dev[n++] = kernel_dev(st.st_dev);
		if (!path[0])
			break;
		slash = strrchr(path, '/');
		*slash = '\0';
	}
	skel->bss->protect_path_len = (__u32)n;
	return 0;
}

/*
 * Arms the protection hooks before attach: which maps and programs are
 * ours, which binary and pin directory are trusted, and the version stamp.
 */
static int protect_arm(struct capsicum_bpf *skel, const char *dir)
{
	struct capsicum_state_version v = {
		.magic = CAPSICUM_STATE_MAGIC,
		.abi_version = CAPSICUM_ABI_VERSION,
		.loader_pid = (__u32)getpid(),
		.object_hash = capsicum_object_hash(),
	};
	struct bpf_program *prog;
	struct bpf_map *map;
	struct timespec now;
	struct stat exe, pins;
	__u32 zero = 0;
	int err;

	if (stat("/proc/self/exe", &exe) || stat(dir, &pins))
		return -errno;
	clock_gettime(CLOCK_BOOTTIME, &now);
	v.loaded_at_ns = (__u64)now.tv_sec * 1000000000ULL + now.tv_nsec;
	v.exe_ino = exe.st_ino;
	v.exe_dev = kernel_dev(exe.st_dev);
	skel->bss->protect_exe_ino = v.exe_ino;
	skel->bss->protect_exe_dev = v.exe_dev;
	skel->bss->protect_dir_ino = pins.st_ino;
	skel->bss->protect_dir_dev = kernel_dev(pins.st_dev);
	err = protect_path(skel, dir);
	if (err)
		return err;
	bpf_object__for_each_map(map, skel->obj) {
		err = capsicum_protect_id(skel, CAPSICUM_PROTECT_MAP,
					  bpf_map__fd(map));
		if (err)
			return err;
	}
	bpf_object__for_each_program(prog, skel->obj) {
		if (!bpf_program__autoload(prog))
			continue; /* skip_absent: not on this kernel */
		err = capsicum_protect_id(skel, CAPSICUM_PROTECT_PROG,
					  bpf_program__fd(prog));
		if (err)
			return err;
	}
	if (bpf_map__update_elem(skel->maps.version, &zero, sizeof(zero), &v,
				 sizeof(v), BPF_ANY))
		return -errno;
	skel->bss->protect_on = true;
	return 0;
}

/* The links, paired with their programs by the skeleton itself. */
static int protect_links(struct capsicum_bpf *skel)
{
	const struct bpf_object_skeleton *s = skel->skeleton;
	int err;

	for (int i = 0; i < s->prog_cnt; i++) {
		struct bpf_link *link = *s->progs[i].link;

		if (!link)
			continue;
		err = capsicum_protect_id(skel, CAPSICUM_PROTECT_LINK,
					  bpf_link__fd(link));
		if (err)
			return err;
	}
	return 0;
}

static int pin_map(struct bpf_map *map, const char *path, mode_t mode)
{
	int err = bpf_map__pin(map, path);

	if (err)
		return err;
	if (chmod(path, mode)) {
		err = -errno;
		bpf_map__unpin(map, NULL);
		return err;
	}
	return 0;
}

/*
 * The pin of a map under dir: the name its default path (pins.h, abi.h)
 * gives it, so that dir CAPSICUM_PIN_DIR pins exactly there.
 */
static void map_pin_path(char *path, size_t len, const char *dir,
			 const char *default_path)
{
	snprintf(path, len, "%s%s", dir, strrchr(default_path, '/'));
}

static void prog_pin_path(char *path, size_t len, const char *dir,
			  const char *kind, const struct bpf_program *prog)
{
	snprintf(path, len, "%s/%s_%s", dir, kind, bpf_program__name(prog));
}

/*
 * Pins one program and its link (if attached), or neither: a path that
 * already exists is someone else's and stays.
 */
static int pin_prog(const struct bpf_prog_skeleton *ps, const char *dir)
{
	struct bpf_program *prog = *ps->prog;
	struct bpf_link *link = *ps->link;
	char path[512];
	int err;

	prog_pin_path(path, sizeof(path), dir, "prog", prog);
	err = bpf_program__pin(prog, path);
	if (err || !link)
		return err;
	prog_pin_path(path, sizeof(path), dir, "link", prog);
	err = bpf_link__pin(link, path);
	if (err) {
		prog_pin_path(path, sizeof(path), dir, "prog", prog);
		bpf_program__unpin(prog, path);
	}
	return err;
}

/* Undoes pin_prog for the first n programs of the skeleton. */
static void unpin_progs(const struct bpf_object_skeleton *s, const char *dir,
			int n)
{
	char path[512];

	for (int i = 0; i < n; i++) {
		struct bpf_program *prog = *s->progs[i].prog;
		struct bpf_link *link = *s->progs[i].link;

		if (bpf_program__fd(prog) < 0)
			continue;
		if (link)
			bpf_link__unpin(link);
		prog_pin_path(path, sizeof(path), dir, "prog", prog);
		bpf_program__unpin(prog, path);
	}
}

/* A map and where it is pinned (for dir CAPSICUM_PIN_DIR), with its mode. */
struct map_pin {
	struct bpf_map *map;
	const char *path;
	mode_t mode;
};

/*
 * The maps pinned after the programs: the ones capctl reads (0400: root
 * gets read-only fds through them, see protect.bpf.h) and answers. The
 * stamp (version) is not among them: it is pinned first, as loading.
 */
#define MAP_PINS 9
static void map_pins(struct capsicum_bpf *skel, struct map_pin pins[MAP_PINS])
{
	const struct map_pin all[MAP_PINS] = {
		{ skel->maps.answers, CAPSICUM_PIN_ANSWERS, 0400 },
		{ skel->maps.cap_procs, CAPSICUM_PIN_PROCS, 0400 },
		{ skel->maps.cap_fds, CAPSICUM_PIN_FDS, 0400 },
		{ skel->maps.cap_floors, CAPSICUM_PIN_FLOORS, 0400 },
		{ skel->maps.cap_files, CAPSICUM_PIN_FILES, 0400 },
		{ skel->maps.cap_ioctls, CAPSICUM_PIN_IOCTLS, 0400 },
		{ skel->maps.denials, CAPSICUM_PIN_DENIALS, 0400 },
		{ skel->maps.pd_kills, CAPSICUM_PIN_PD_KILLS, 0400 },
		{ skel->maps.bss, CAPSICUM_PIN_BSS, 0400 },
	};

	memcpy(pins, all, sizeof(all));
}

static capsicum_load_hook_fn *before_version_hook;

void capsicum_load_set_before_version(capsicum_load_hook_fn *fn)
{
	before_version_hook = fn;
}

/* Unpins the first n maps of map_pins(). */
static void unpin_maps(struct capsicum_bpf *skel, size_t n)
{
	struct map_pin pins[MAP_PINS];

	map_pins(skel, pins);
	while (n--)
		bpf_map__unpin(pins[n].map, NULL);
}

/* Pins the maps (all or none); logs the one that failed. */
static int pin_maps(struct capsicum_bpf *skel, const char *dir)
{
	struct map_pin pins[MAP_PINS];
	char path[512];
	int err = 0;
	size_t m;

	map_pins(skel, pins);
	for (m = 0; m < MAP_PINS; m++) {
		map_pin_path(path, sizeof(path), dir, pins[m].path);
		err = pin_map(pins[m].map, path, pins[m].mode);
		if (err)
			break;
	}
	if (!err)
		return 0;
	load_log(LOG_ERR, "pinning %s failed: %s", path, strerror(-err));
	unpin_maps(skel, m);
	return err;
}

/* Pins every loaded program and its link (all or none). */
static int pin_progs(struct capsicum_bpf *skel, const char *dir)
{
	const struct bpf_object_skeleton *s = skel->skeleton;
	int err = 0, i;

	for (i = 0; i < s->prog_cnt && !err; i++)
		/* Not loaded: absent from this kernel (skip_absent). */
		if (bpf_program__fd(*s->progs[i].prog) >= 0)
			err = pin_prog(&s->progs[i], dir);
	if (!err)
		return 0;
	load_log(LOG_ERR, "pinning %s under %s failed: %s",
		 bpf_program__name(*s->progs[i - 1].prog), dir, strerror(-err));
	unpin_progs(s, dir, i - 1);
	return err;
}

/*
 * Pins the stamp as loading, then links and programs (root only) and the
 * maps, and last renames loading to version, which marks the state
 * complete in one step. All or nothing: on failure what was pinned is
 * unpinned again, so the links go with the skeleton and no half of
 * Capsicum stays enforcing. Killed half-way, the loader leaves a state
 * that capsicum_load_finish() completes or capsicumd refuses.
 */
static int pin_all(struct capsicum_bpf *skel, const char *dir)
{
	char loading[512], version[512];
	int err;

	map_pin_path(loading, sizeof(loading), dir, CAPSICUM_PIN_LOADING);
	map_pin_path(version, sizeof(version), dir, CAPSICUM_PIN_VERSION);
	err = pin_map(skel->maps.version, loading, 0400);
	if (err) {
		load_log(LOG_ERR, "pinning %s failed: %s", loading,
			 strerror(-err));
		return err;
	}
	err = pin_progs(skel, dir);
	if (err)
		goto unpin_stamp;
	err = pin_maps(skel, dir);
	if (err)
		goto unpin_progs;
	if (before_version_hook)
		before_version_hook();
	if (!rename(loading, version))
		return 0;
	err = -errno;
	load_log(LOG_ERR, "renaming %s to %s failed: %s", loading, version,
		 strerror(-err));
	unpin_maps(skel, MAP_PINS);
unpin_progs:
	unpin_progs(skel->skeleton, dir, skel->skeleton->prog_cnt);
unpin_stamp:
	bpf_map__unpin(skel->maps.version, NULL);
	return err;
}

/* The names a complete state of this build has under dir, one by one. */
static int expected_pins(const struct btf *btf,
			 int (*each)(const char *name, void *ctx), void *ctx)
{
	struct capsicum_bpf *skel = capsicum_bpf__open();
	struct bpf_program *prog;
	struct map_pin pins[MAP_PINS];
	char name[256];
	int err = 0;

	if (!skel)
		return -errno;
	skip_absent(skel, btf);
	bpf_object__for_each_program(prog, skel->obj) {
		if (!bpf_program__autoload(prog))
			continue;
		/* Every program of the object attaches: each has a link. */
		snprintf(name, sizeof(name), "prog_%s",
			 bpf_program__name(prog));
		err = err ?: each(name, ctx);
		snprintf(name, sizeof(name), "link_%s",
			 bpf_program__name(prog));
		err = err ?: each(name, ctx);
	}
	map_pins(skel, pins);
	for (size_t m = 0; m < MAP_PINS && !err; m++)
		err = each(strrchr(pins[m].path, '/') + 1, ctx);
	capsicum_bpf__destroy(skel);
	return err;
}

struct missing {
	const char *dir;
	char *first;
	size_t len;
	int count;
};

static int note_missing(const char *name, void *ctx)
{
	struct missing *m = ctx;
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", m->dir, name);
	if (!access(path, F_OK))
		return 0;
	if (!m->count++)
		snprintf(m->first, m->len, "%s", name);
	return 0;
}

int capsicum_load_finish(const char *dir, char *missing, size_t len)
{
	struct missing m = { .dir = dir, .first = missing, .len = len };
	char loading[512], version[512];
	struct btf *btf = btf__load_vmlinux_btf();
	int err;

	if (!btf)
		return -errno;
	err = expected_pins(btf, note_missing, &m);
	btf__free(btf);
	if (err)
		return err;
	if (m.count)
		return m.count;
	map_pin_path(loading, sizeof(loading), dir, CAPSICUM_PIN_LOADING);
	map_pin_path(version, sizeof(version), dir, CAPSICUM_PIN_VERSION);
	return rename(loading, version) ? -errno : 0;
}

#define DEFAULT_MAX_FDS		65536
#define DEFAULT_MAX_FLOORS	65536
#define DEFAULT_MAX_IOCTLS	4096
#define DEFAULT_UID_QUOTA	16384
#define DEFAULT_UID_IOCTL_QUOTA 1024

void capsicum_load_opts_default(struct capsicum_load_opts *o)
{
	*o = (struct capsicum_load_opts){
		.max_fds = DEFAULT_MAX_FDS,
		.max_floors = DEFAULT_MAX_FLOORS,
		.max_ioctls = DEFAULT_MAX_IOCTLS,
		.uid_quota = DEFAULT_UID_QUOTA,
		.uid_ioctl_quota = DEFAULT_UID_IOCTL_QUOTA,
		.root_quota = -1,
	};
}

const char *capsicum_load_opts_check(const struct capsicum_load_opts *o)
{
	if (!o->max_fds || !o->max_floors || !o->max_ioctls)
		return "table sizes must be at least 1";
	if (o->uid_quota < 1 || o->uid_ioctl_quota < 1 || !o->root_quota)
		return "quotas must be at least 1";
	/* A quota that one uid could reach with one map alone is none. */
	if (o->uid_quota >= (int64_t)o->max_fds ||
	    o->uid_quota >= (int64_t)o->max_floors)
		return "--uid-quota must be below --max-fds and --max-floors";
	if (o->uid_ioctl_quota >= (int64_t)o->max_ioctls)
		return "--uid-ioctl-quota must be below --max-ioctls";
	return NULL;
}

/* Sizes the tables and sets the quota, between open and load. */
static int apply_opts(struct capsicum_bpf *skel,
		      const struct capsicum_load_opts *o)
{
	const struct {
		struct bpf_map *map;
		uint32_t n;
	} sizes[] = {
		{ skel->maps.cap_fds, o->max_fds },
		{ skel->maps.cap_floors, o->max_floors },
		{ skel->maps.cap_files, o->max_floors },
		{ skel->maps.cap_ioctls, o->max_ioctls },
	};
	const char *why = capsicum_load_opts_check(o);
	int err;

	if (why) {
		load_log(LOG_ERR, "%s", why);
		return -EINVAL;
	}
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		err = bpf_map__set_max_entries(sizes[i].map, sizes[i].n);
		if (err) {
			load_log(LOG_ERR, "sizing %s failed: %s",
				 bpf_map__name(sizes[i].map), strerror(-err));
			return err;
		}
	}
	skel->rodata->uid_quota = o->uid_quota;
	skel->rodata->uid_ioctl_quota = o->uid_ioctl_quota;
	skel->rodata->root_quota = o->root_quota;
	return 0;
}

int capsicum_load(const char *dir, const struct capsicum_load_opts *o)
{
	struct capsicum_bpf *skel = NULL;
	struct capsicum_load_opts defaults;
	struct btf *btf = NULL;
	char answers[512], version[512], loading[512];
	bool made_dir = false;
	int err;

	if (!o) {
		capsicum_load_opts_default(&defaults);
		o = &defaults;
	}

	map_pin_path(answers, sizeof(answers), dir, CAPSICUM_PIN_ANSWERS);
	map_pin_path(version, sizeof(version), dir, CAPSICUM_PIN_VERSION);
	map_pin_path(loading, sizeof(loading), dir, CAPSICUM_PIN_LOADING);
	if (access(answers, F_OK) == 0 || access(version, F_OK) == 0 ||
	    access(loading, F_OK) == 0)
		return 1;
	btf = btf__load_vmlinux_btf();
	if (!btf) {
		err = -errno;
		load_log(LOG_ERR, "kernel has no BTF (%s)", strerror(-err));
		return err;
	}
	skel = capsicum_bpf__open();
	if (!skel) {
		err = -errno;
		load_log(LOG_ERR, "opening the BPF object failed: %s",
			 strerror(-err));
		goto out;
	}
	capsicum_load_prepare(skel, btf);
	err = apply_opts(skel, o);
	if (err)
		goto out;
	err = capsicum_bpf__load(skel);
	if (err) {
		load_log(LOG_ERR, "loading the programs failed: %s",
			 strerror(-err));
		goto out;
	}
	if (mkdir(dir, 0755) == 0) {
		made_dir = true;
	} else if (errno != EEXIST) {
		err = -errno;
		load_log(LOG_ERR, "cannot make %s: %s", dir, strerror(-err));
		goto out;
	}
	err = protect_arm(skel, dir);
	if (err) {
		load_log(LOG_ERR, "arming the protection failed: %s",
			 strerror(-err));
		goto out;
	}
	err = capsicum_bpf__attach(skel);
	if (err) {
		load_log(LOG_ERR, "attaching failed: %s", strerror(-err));
		goto out;
	}
	err = protect_links(skel);
	if (err) {
		load_log(LOG_ERR, "protecting the links failed: %s",
			 strerror(-err));
		goto out;
	}
	/* Logs what failed, and leaves nothing pinned if anything did. */
	err = pin_all(skel, dir);
out:
	/* Unpinned, the links detach with the skeleton's last reference. */
	capsicum_bpf__destroy(skel);
	btf__free(btf);
	if (err && made_dir)
		rmdir(dir);
	return err;
}
