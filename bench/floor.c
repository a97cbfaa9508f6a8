// SPDX-License-Identifier: GPL-2.0
/*
 * Configuration (a'), the floor: what any BPF-LSM implementation of our
 * hook set pays before doing anything, i.e. the trampolines. The hook set
 * is read from the Capsicum object itself (the bytes embedded in its
 * skeleton, the very object capsicum_load loads), so it follows every
 * program added to bpf/ without a hand-kept list; each program gets a
 * two-instruction twin of the same type on the same target that returns
 * at once. floor_check_pinned() then proves the sets equal at run time.
 */
#define _GNU_SOURCE
#include "bench.h"

#include "capsicum.skel.h"
#include "load.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define FLOOR_MAX 256

static int link_fds[FLOOR_MAX];
static int prog_fds[FLOOR_MAX];
static int nfloor;

/*
 * The BTF name a program of this type and section attaches to: a kernel
 * function, or for tp_btf/ a tracepoint's btf_trace_ typedef (*kind).
 */
static int target_of(const struct bpf_program *prog, char *func, size_t len,
		     int *kind)
{
	const char *sec = bpf_program__section_name(prog);
	const char *slash = strchr(sec, '/');

	if (!slash || !slash[1])
		return -EINVAL;
	switch (bpf_program__type(prog)) {
	case BPF_PROG_TYPE_LSM:
		snprintf(func, len, "bpf_lsm_%s", slash + 1);
		return 0;
	case BPF_PROG_TYPE_TRACING:
		if (!strncmp(sec, "tp_btf/", 7)) {
			snprintf(func, len, "btf_trace_%s", slash + 1);
			*kind = BTF_KIND_TYPEDEF;
			return 0;
		}
		snprintf(func, len, "%s", slash + 1);
		return 0;
	default:
		return -EOPNOTSUPP;
	}
}

static int attach_empty(const struct bpf_program *prog, const struct btf *btf)
{
	/* r0 = 0; exit: "allow" for an LSM hook, ignored by fexit. */
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts);
	char func[128];
	int id, fd, link, err, kind = BTF_KIND_FUNC;

	err = target_of(prog, func, sizeof(func), &kind);
	if (err) {
		fprintf(stderr, "floor: %s: section %s: %s\n",
			bpf_program__name(prog),
			bpf_program__section_name(prog), strerror(-err));
		return err;
	}
	id = btf__find_by_name_kind(btf, func, kind);
	if (id < 0) {
		fprintf(stderr, "floor: no BTF function %s\n", func);
		return -ENOENT;
	}
	opts.expected_attach_type = bpf_program__expected_attach_type(prog);
	opts.attach_btf_id = id;
	opts.prog_flags = bpf_program__flags(prog) & BPF_F_SLEEPABLE;
	fd = bpf_prog_load(bpf_program__type(prog), "floor", "GPL", insns,
			   sizeof(insns) / sizeof(insns[0]), &opts);
	if (fd < 0) {
		fprintf(stderr, "floor: loading for %s: %s\n", func,
			strerror(errno));
		return -errno;
	}
	link = bpf_raw_tracepoint_open(NULL, fd);
	if (link < 0) {
		err = -errno;
		fprintf(stderr, "floor: attaching to %s: %s\n", func,
			strerror(errno));
		close(fd);
		return err;
	}
	prog_fds[nfloor] = fd;
	link_fds[nfloor] = link;
	nfloor++;
	return 0;
}

int floor_attach(void)
{
	struct bpf_object *obj;
	struct bpf_program *prog;
	struct btf *btf;
	const void *bytes;
	size_t size;
	int err = 0;

	bytes = capsicum_bpf__elf_bytes(&size);
	obj = bpf_object__open_mem(bytes, size, NULL);
	if (!obj)
		return -errno;
	btf = btf__load_vmlinux_btf();
	if (!btf) {
		err = -errno;
		goto out;
	}
	bpf_object__for_each_program(prog, obj) {
		if (nfloor == FLOOR_MAX) {
			err = -E2BIG;
			break;
		}
		if (capsicum_prog_absent(btf, prog))
			continue; /* the loader leaves it out too */
		err = attach_empty(prog, btf);
		if (err)
			break;
	}
out:
	btf__free(btf);
	bpf_object__close(obj);
	if (err) {
		floor_detach();
		return err;
	}
	return nfloor;
}

void floor_detach(void)
{
	/* Unpinned links detach when their last descriptor closes. */
	for (int i = 0; i < nfloor; i++) {
		close(link_fds[i]);
		close(prog_fds[i]);
	}
	nfloor = 0;
}

/* Whether the object has a program of this name. */
static bool in_object(struct bpf_object *obj, const char *name)
{
	struct bpf_program *prog;

	bpf_object__for_each_program(prog, obj) {
		if (!strcmp(bpf_program__name(prog), name))
			return true;
	}
	return false;
}

int floor_check_pinned(const char *pin_dir)
{
	struct bpf_object *obj;
	struct bpf_program *prog;
	const void *bytes;
	struct dirent *e;
	struct btf *btf;
	int pinned = 0, err = 0, n = 0;
	size_t size;
	DIR *d;

	/* The same derivation as floor_attach(), from the same bytes. */
	bytes = capsicum_bpf__elf_bytes(&size);
	obj = bpf_object__open_mem(bytes, size, NULL);
	if (!obj)
		return -errno;
	btf = btf__load_vmlinux_btf();
	if (!btf) {
		err = -errno;
		goto out;
	}
	bpf_object__for_each_program(prog, obj)
		n += !capsicum_prog_absent(btf, prog);
	btf__free(btf);
	d = opendir(pin_dir);
	if (!d) {
		err = -errno;
		goto out;
	}
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "link_", 5))
			continue;
		pinned++;
		if (!in_object(obj, e->d_name + 5)) {
			fprintf(stderr, "floor: %s is pinned but not floored\n",
				e->d_name);
			err = -ESRCH;
		}
	}
	closedir(d);
	if (!err && pinned != n) {
		fprintf(stderr, "floor: %d hooks floored, %d links pinned\n", n,
			pinned);
		err = -ESRCH;
	}
out:
	bpf_object__close(obj);
	return err;
}
