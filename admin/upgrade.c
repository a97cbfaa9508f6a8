// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "upgrade.h"

#include "capsicum.skel.h"
#include "load.h"
#include "load_internal.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_MAPS  64
#define MAX_PROGS 192
/* Pins on their way in (pin_over); a stopped upgrade may leave some. */
#define TMP_PREFIX "upgrading_"

/* A map of the old state, found through its programs or its pin. */
struct old_map {
	struct bpf_map_info info;
	int fd;
};

/* An old program, by the name in its link pin. */
struct old_prog {
	char name[128];
	__u32 prog_id, link_id;
	bool replaced;
};

struct old_state {
	struct old_map maps[MAX_MAPS];
	struct old_prog progs[MAX_PROGS];
	int nmaps, nprogs;
	__u32 version_id; /* the old stamp's map */
};

static void __attribute__((format(printf, 3, 4)))
say(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
}

/* Keeps fd if its map is not known yet; closes it otherwise. */
static int add_map(struct old_state *o, int fd)
{
	struct bpf_map_info info = { 0 };
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(fd, &info, &len)) {
		close(fd);
		return -errno;
	}
	for (int i = 0; i < o->nmaps; i++)
		if (o->maps[i].info.id == info.id) {
			close(fd);
			return 0;
		}
	if (o->nmaps == MAX_MAPS) {
		close(fd);
		return -E2BIG;
	}
	o->maps[o->nmaps].info = info;
	o->maps[o->nmaps++].fd = fd;
	return 0;
}

/* The maps a program uses (unpinned ones too: .rodata, cap_protected). */
static int add_prog_maps(struct old_state *o, __u32 prog_id)
{
	struct bpf_prog_info info = { 0 };
	__u32 len = sizeof(info), ids[MAX_MAPS];
	int fd = bpf_prog_get_fd_by_id(prog_id), err = 0;

	if (fd < 0)
		return -errno;
	if (bpf_obj_get_info_by_fd(fd, &info, &len)) {
		err = -errno;
		goto out;
	}
	if (info.nr_map_ids > MAX_MAPS) {
		err = -E2BIG;
		goto out;
	}
	memset(&info, 0, sizeof(info));
	info.nr_map_ids = MAX_MAPS;
	info.map_ids = (__u64)(unsigned long)ids;
	len = sizeof(info);
	if (bpf_obj_get_info_by_fd(fd, &info, &len)) {
		err = -errno;
		goto out;
	}
	for (__u32 i = 0; i < info.nr_map_ids && !err; i++) {
		int mfd = bpf_map_get_fd_by_id(ids[i]);

		err = mfd < 0 ? -errno : add_map(o, mfd);
	}
out:
	close(fd);
	return err;
}

static int add_link(struct old_state *o, const char *dir, const char *name)
{
	struct bpf_link_info info = { 0 };
	__u32 len = sizeof(info);
	char path[512];
	int fd, err;

	if (o->nprogs == MAX_PROGS)
		return -E2BIG;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = bpf_obj_get(path);
	if (fd < 0)
		return -errno;
	err = bpf_obj_get_info_by_fd(fd, &info, &len) ? -errno : 0;
	close(fd);
	if (err)
		return err;
	snprintf(o->progs[o->nprogs].name, sizeof(o->progs[0].name), "%s",
		 name + strlen("link_"));
	o->progs[o->nprogs].prog_id = info.prog_id;
	o->progs[o->nprogs++].link_id = info.id;
	return add_prog_maps(o, info.prog_id);
}

/* Every link, program and map of the state under dir (we are trusted). */
static int collect(struct old_state *o, const char *dir, char *why, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[512];
	int err = 0;

	if (!d)
		return -errno;
	while (!err && (e = readdir(d))) {
		const char *n = e->d_name;

		/* A temporary pin of an upgrade that stopped: made anew. */
		if (n[0] == '.' ||
		    !strncmp(n, TMP_PREFIX, strlen(TMP_PREFIX)) ||
		    !strncmp(n, "prog_", 5))
			continue;
		if (!strncmp(n, "link_", 5)) {
			err = add_link(o, dir, n);
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", dir, n);
		int fd = bpf_obj_get(path);

		if (fd < 0) {
			err = -errno;
			break;
		}
		if (!strcmp(n, "version")) {
			struct bpf_map_info info = { 0 };
			__u32 ilen = sizeof(info);

			if (!bpf_obj_get_info_by_fd(fd, &info, &ilen))
				o->version_id = info.id;
			close(fd);
			continue;
		}
		err = add_map(o, fd);
	}
	if (err)
		say(why, len,
		    "reading the pinned state under %s failed at %s: %s", dir,
		    e ? e->d_name : "?", strerror(-err));
	closedir(d);
	return err;
}

/* Appends a canonical form of type id: sizes, offsets, member names. */
static void shape(const struct btf *btf, __u32 id, int depth, char *buf,
		  size_t len)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	size_t at = strnlen(buf, len);

#define ADD(...)                                                               \
	(at +=                                                                 \
	 (size_t)snprintf(buf + at, at < len ? len - at : 0, __VA_ARGS__),     \
	 at = at < len ? at : len - 1)
	while (t && (btf_is_mod(t) || btf_is_typedef(t) || btf_is_var(t)))
		t = btf__type_by_id(btf, t->type);
	if (!t || depth > 8) {
		ADD("?");
		return;
	}
	switch (btf_kind(t)) {
	case BTF_KIND_INT:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
	case BTF_KIND_FLOAT:
		ADD("%c%u", btf_is_int(t) ? 'i' : 'e', t->size);
		break;
	case BTF_KIND_PTR:
		ADD("p");
		break;
	case BTF_KIND_ARRAY:
		ADD("a%u[", btf_array(t)->nelems);
		shape(btf, btf_array(t)->type, depth + 1, buf, len);
		at = strnlen(buf, len);
		ADD("]");
		break;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION: {
		const struct btf_member *m = btf_members(t);

		ADD("s%u{", t->size);
		for (int i = 0; i < btf_vlen(t); i++, m++) {
			ADD("%s@%u:", btf__name_by_offset(btf, m->name_off),
			    m->offset);
			shape(btf, m->type, depth + 1, buf, len);
			at = strnlen(buf, len);
			ADD(",");
		}
		ADD("}");
		break;
	}
	case BTF_KIND_DATASEC: {
		const struct btf_var_secinfo *v = btf_var_secinfos(t);

		ADD("d{");
		for (int i = 0; i < btf_vlen(t); i++, v++) {
			const struct btf_type *var =
				btf__type_by_id(btf, v->type);

			ADD("%s@%u:%u:",
			    btf__name_by_offset(btf, var->name_off), v->offset,
			    v->size);
			shape(btf, v->type, depth + 1, buf, len);
			at = strnlen(buf, len);
			ADD(",");
		}
		ADD("}");
		break;
	}
	default:
		ADD("k%u", btf_kind(t));
	}
#undef ADD
}

/* The BTF type of the new map's key or value: 0 if it has none. */
static __u32 new_type(const struct btf *btf, const struct bpf_map *map,
		      bool key)
{
	const char *name = bpf_map__name(map), *dot = strchr(name, '.');

	/* libbpf names internal maps OBJ.SECTION; their value is a DATASEC. */
	if (dot && !key) {
		int id = btf__find_by_name_kind(btf, dot, BTF_KIND_DATASEC);

		return id > 0 ? (__u32)id : 0;
	}
	return key ? bpf_map__btf_key_type_id(map)
		   : bpf_map__btf_value_type_id(map);
}

/* Whether the old map's key and value have the new map's BTF shape. */
static bool same_shape(const struct old_map *old, const struct bpf_object *obj,
		       const struct bpf_map *map)
{
	static char a[16384], b[16384];
	const struct btf *nbtf = bpf_object__btf(obj);
	struct btf *obtf;
	bool same = true;

	if (!old->info.btf_id || !nbtf)
		return true; /* nothing to compare beyond the sizes */
	obtf = btf__load_from_kernel_by_id(old->info.btf_id);
	if (!obtf)
		return false;
	for (int key = 0; key < 2 && same; key++) {
		__u32 oid = key ? old->info.btf_key_type_id
				: old->info.btf_value_type_id;
		__u32 nid = new_type(nbtf, map, key);

		if (!oid && !nid)
			continue;
		a[0] = b[0] = '\0';
		shape(obtf, oid, 0, a, sizeof(a));
		shape(nbtf, nid, 0, b, sizeof(b));
		same = oid && nid && !strcmp(a, b);
	}
	btf__free(obtf);
	return same;
}

/* The old map whose kernel name (15 characters at most) is name's. */
static struct old_map *old_map_named(struct old_state *o, const char *name)
{
	char kname[BPF_OBJ_NAME_LEN];

	snprintf(kname, sizeof(kname), "%s", name);
	for (int i = 0; i < o->nmaps; i++)
		if (!strcmp(o->maps[i].info.name, kname))
			return &o->maps[i];
	return NULL;
}

/* Points every map but the stamp at the old one, or says why not. */
static int reuse_maps(struct capsicum_bpf *skel, struct old_state *o, char *why,
		      size_t len)
{
	struct bpf_map *map;

	bpf_object__for_each_map(map, skel->obj) {
		const char *name = bpf_map__name(map);
		struct old_map *old;
		int err;

		if (map == skel->maps.version)
			continue; /* used by no program: made anew */
		old = old_map_named(o, name);
		/*
		 * None of the old programs here used it (an optional
		 * program's map): made anew, refused after the load if a
		 * new program uses it (fresh_maps_unused).
		 */
		if (!old)
			continue;
		if (old->info.type != bpf_map__type(map) ||
		    old->info.key_size != bpf_map__key_size(map) ||
		    old->info.value_size != bpf_map__value_size(map) ||
		    old->info.map_flags != bpf_map__map_flags(map) ||
		    !same_shape(old, skel->obj, map)) {
			say(why, len,
			    "map %s changed its layout (loaded: type %u, key "
			    "%u, value %u bytes, flags %#x; this build: type "
			    "%u, key %u, value %u bytes, flags %#x%s)",
			    name, old->info.type, old->info.key_size,
			    old->info.value_size, old->info.map_flags,
			    bpf_map__type(map), bpf_map__key_size(map),
			    bpf_map__value_size(map), bpf_map__map_flags(map),
			    old->info.value_size == bpf_map__value_size(map)
				    ? "; the types of key or value differ"
				    : "");
			return CAPSICUM_UPGRADE_REFUSED;
		}
		/* Takes the old map's size too: the loaded sizes stay. */
		err = bpf_map__reuse_fd(map, old->fd);
		if (err) {
			say(why, len, "re-using map %s failed: %s", name,
			    strerror(-err));
			return err;
		}
	}
	return 0;
}

/* Whether a loaded program of skel uses the map with this id. */
static const char *user_of(struct capsicum_bpf *skel, __u32 map_id)
{
	struct bpf_program *prog;

	bpf_object__for_each_program(prog, skel->obj) {
		struct bpf_prog_info info = { 0 };
		__u32 len = sizeof(info), ids[MAX_MAPS];

		if (bpf_program__fd(prog) < 0)
			continue;
		info.nr_map_ids = MAX_MAPS;
		info.map_ids = (__u64)(unsigned long)ids;
		if (bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len))
			return bpf_program__name(
				prog); /* cannot tell: refuse */
		for (__u32 i = 0; i < info.nr_map_ids && i < MAX_MAPS; i++)
			if (ids[i] == map_id)
				return bpf_program__name(prog);
	}
	return NULL;
}

/*
 * A map made anew must be one no loaded program uses: one that is used
 * would start empty beside the old tables, a migration this loader does
 * not do. Checked after the load, before anything is attached.
 */
static int fresh_maps_unused(struct capsicum_bpf *skel, struct old_state *o,
			     char *why, size_t len)
{
	struct bpf_map *map;

	bpf_object__for_each_map(map, skel->obj) {
		struct bpf_map_info info = { 0 };
		__u32 ilen = sizeof(info);
		const char *user;

		if (map == skel->maps.version ||
		    old_map_named(o, bpf_map__name(map)))
			continue;
		if (bpf_obj_get_info_by_fd(bpf_map__fd(map), &info, &ilen))
			return -errno;
		user = user_of(skel, info.id);
		if (user) {
			say(why, len,
			    "map %s is new in this build and program %s uses "
			    "it: the loaded state has no such table to re-use",
			    bpf_map__name(map), user);
			return CAPSICUM_UPGRADE_REFUSED;
		}
	}
	return 0;
}

static void unprotect(struct capsicum_bpf *skel, __u32 kind, __u32 id)
{
	struct capsicum_protected_key k = { .kind = kind, .id = id };

	if (id)
		bpf_map__delete_elem(skel->maps.cap_protected, &k, sizeof(k),
				     0);
}

/*
 * Pins fd (a program, link or map) at dir/name through a temporary pin,
 * renamed over the old one in one step. Not "name.new": bpffs reserves
 * names with a dot (its lookup says EPERM).
 */
static int pin_over(int fd, const char *dir, const char *name, mode_t mode)
{
	char tmp[528], path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(tmp, sizeof(tmp), "%s/" TMP_PREFIX "%s", dir, name);
	unlink(tmp); /* left by an upgrade that stopped */
	if (bpf_obj_pin(fd, tmp) || (mode && chmod(tmp, mode)))
		return -errno;
	if (rename(tmp, path)) {
		int err = -errno;

		unlink(tmp);
		return err;
	}
	return 0;
}

static struct old_prog *old_prog_named(struct old_state *o, const char *name)
{
	for (int i = 0; i < o->nprogs; i++)
		if (!strcmp(o->progs[i].name, name))
			return &o->progs[i];
	return NULL;
}

/*
 * Hook by hook: the new program is protected, attached beside the old
 * one, and its link pinned over the old link's pin, which drops the old
 * link. cap_protected keeps room: each old id goes as its new one comes.
 */
static int swap_progs(struct capsicum_bpf *skel, struct old_state *o,
		      const char *dir, char *why, size_t len)
{
	const struct bpf_object_skeleton *s = skel->skeleton;
	int done = 0, total = 0, err = 0;
	const char *step = "";
	char name[160] = "";

	for (int i = 0; i < s->prog_cnt; i++)
		total += bpf_program__fd(*s->progs[i].prog) >= 0;
	for (int i = 0; i < s->prog_cnt && !err; i++) {
		struct bpf_program *prog = *s->progs[i].prog;
		struct old_prog *old;
		struct bpf_link *link;

		if (bpf_program__fd(prog) < 0)
			continue; /* not on this kernel */
		snprintf(name, sizeof(name), "link_%s",
			 bpf_program__name(prog));
		step = "protecting it";
		err = capsicum_protect_id(skel, CAPSICUM_PROTECT_PROG,
					  bpf_program__fd(prog));
		if (err)
			break;
		step = "attaching it";
		link = bpf_program__attach(prog);
		if (!link) {
			err = -errno;
			break;
		}
		*s->progs[i].link = link; /* the skeleton closes its fd */
		step = "protecting its link";
		err = capsicum_protect_id(skel, CAPSICUM_PROTECT_LINK,
					  bpf_link__fd(link));
		if (err)
			break;
		step = "pinning its link over the old one";
		err = pin_over(bpf_link__fd(link), dir, name, 0);
		if (err)
			break;
		step = "pinning it over the old one";
		snprintf(name, sizeof(name), "prog_%s",
			 bpf_program__name(prog));
		err = pin_over(bpf_program__fd(prog), dir, name, 0);
		if (err)
			break;
		name[0] = '\0';
		old = old_prog_named(o, bpf_program__name(prog));
		if (old) {
			old->replaced = true;
			unprotect(skel, CAPSICUM_PROTECT_LINK, old->link_id);
			unprotect(skel, CAPSICUM_PROTECT_PROG, old->prog_id);
		}
		done++;
	}
	if (err)
		say(why, len,
		    "the upgrade stopped at program %s, %s: %s; %d of %d hooks "
		    "run "
		    "the new build, the others still the old one (every hook "
		    "stays enforced); run capsicumd --upgrade again to finish",
		    name[0] ? name + 5 : "?", step, strerror(-err), done,
		    total);
	return err;
}

/* Old programs this build no longer has: their pins go, and they detach. */
static void drop_gone(struct capsicum_bpf *skel, struct old_state *o,
		      const char *dir)
{
	char path[512];

	for (int i = 0; i < o->nprogs; i++) {
		if (o->progs[i].replaced)
			continue;
		snprintf(path, sizeof(path), "%s/link_%s", dir,
			 o->progs[i].name);
		unlink(path);
		snprintf(path, sizeof(path), "%s/prog_%s", dir,
			 o->progs[i].name);
		unlink(path);
		unprotect(skel, CAPSICUM_PROTECT_LINK, o->progs[i].link_id);
		unprotect(skel, CAPSICUM_PROTECT_PROG, o->progs[i].prog_id);
	}
}

static int read_stamp(const char *dir, struct capsicum_state_version *v)
{
	LIBBPF_OPTS(bpf_obj_get_opts, ro, .file_flags = BPF_F_RDONLY);
	char path[512];
	__u32 zero = 0;
	int fd, err;

	snprintf(path, sizeof(path), "%s/version", dir);
	fd = bpf_obj_get_opts(path, &ro);
	if (fd < 0)
		return -errno;
	err = bpf_map_lookup_elem(fd, &zero, v) ? -errno : 0;
	close(fd);
	return err ?: v->magic == CAPSICUM_STATE_MAGIC ? 0 : -EBADMSG;
}

/* Fills the new stamp: this build in [0], the one it replaces in [1]. */
static int stamp(struct capsicum_bpf *skel,
		 const struct capsicum_state_version *from)
{
	struct capsicum_state_version v;
	__u32 key = 0;

	capsicum_stamp_fill(&v);
	if (bpf_map__update_elem(skel->maps.version, &key, sizeof(key), &v,
				 sizeof(v), BPF_ANY))
		return -errno;
	key = 1;
	if (bpf_map__update_elem(skel->maps.version, &key, sizeof(key), from,
				 sizeof(*from), BPF_ANY))
		return -errno;
	return capsicum_protect_id(skel, CAPSICUM_PROTECT_MAP,
				   bpf_map__fd(skel->maps.version));
}

int capsicum_upgrade(const char *dir, struct capsicum_state_version *from,
		     char *why, size_t len)
{
	struct old_state *o = calloc(1, sizeof(*o));
	struct capsicum_bpf *skel = NULL;
	struct btf *btf = NULL;
	int err;

	if (!o)
		return -ENOMEM;
	err = read_stamp(dir, from);
	if (err) {
		say(why, len, "cannot read the stamp under %s: %s", dir,
		    strerror(-err));
		goto out;
	}
	err = collect(o, dir, why, len);
	if (err)
		goto out;
	btf = btf__load_vmlinux_btf();
	skel = btf ? capsicum_bpf__open() : NULL;
	if (!skel) {
		err = -errno;
		say(why, len, "opening this build's object failed: %s",
		    strerror(-err));
		goto out;
	}
	capsicum_load_prepare(skel, btf);
	err = reuse_maps(skel, o, why, len);
	if (err)
		goto out;
	err = capsicum_bpf__load(skel);
	if (err) {
		say(why, len,
		    "loading this build over the old maps failed: %s (nothing "
		    "changed)",
		    strerror(-err));
		goto out;
	}
	err = fresh_maps_unused(skel, o, why, len);
	if (err)
		goto out;
	err = stamp(skel, from);
	if (err) {
		say(why, len, "stamping the new build failed: %s",
		    strerror(-err));
		goto out;
	}
	err = swap_progs(skel, o, dir, why, len);
	if (err)
		goto out;
	drop_gone(skel, o, dir);
	/* Last: version names the new build once every hook runs it. */
	err = pin_over(bpf_map__fd(skel->maps.version), dir, "version", 0400);
	if (err) {
		say(why, len,
		    "every hook runs the new build, but pinning its stamp "
		    "failed: %s; run capsicumd --upgrade again",
		    strerror(-err));
		goto out;
	}
	unprotect(skel, CAPSICUM_PROTECT_MAP, o->version_id);
out:
	capsicum_bpf__destroy(skel);
	btf__free(btf);
	for (int i = 0; i < o->nmaps; i++)
		close(o->maps[i].fd);
	free(o);
	return err;
}
