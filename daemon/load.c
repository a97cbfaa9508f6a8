// SPDX-License-Identifier: GPL-2.0
/*
 * Loading and pinning the BPF side. Features are probed from the running
 * kernel's BTF before load, so one object serves 6.1 and 6.12.
 */
#define _GNU_SOURCE
#include "load.h"

#include "capsicum.skel.h"

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <capsicum/abi.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

static int pin_all(struct capsicum_bpf *skel, const char *dir)
{
	struct bpf_program *prog;
	struct bpf_link **links = (struct bpf_link **)&skel->links;
	char path[512];
	size_t i = 0;
	int err;

	bpf_object__for_each_program(prog, skel->obj)
	{
		struct bpf_link *link = links[i++];

		if (!link)
			continue;
		snprintf(path, sizeof(path), "%s/link_%s", dir,
			 bpf_program__name(prog));
		err = bpf_link__pin(link, path);
		if (err)
			return err;
	}
	err = bpf_map__pin(skel->maps.answers, CAPSICUM_PIN_ANSWERS);
	if (err)
		return err;
	/* Anyone may read answers; only root may touch the rest. */
	if (chmod(CAPSICUM_PIN_ANSWERS, 0444))
		return -errno;
	snprintf(path, sizeof(path), "%s/denials", dir);
	err = bpf_map__pin(skel->maps.denials, path);
	if (err)
		return err;
	snprintf(path, sizeof(path), "%s/bss", dir);
	return bpf_map__pin(skel->maps.bss, path);
}

int capsicum_load(const char *dir)
{
	struct capsicum_bpf *skel = NULL;
	struct btf *btf = NULL;
	int err, n;

	if (access(CAPSICUM_PIN_ANSWERS, F_OK) == 0)
		return 1;
	btf = btf__load_vmlinux_btf();
	if (!btf) {
		err = -errno;
		fprintf(stderr, "capsicum: kernel has no BTF (%s)\n",
			strerror(-err));
		return err;
	}
	skel = capsicum_bpf__open();
	if (!skel) {
		err = -errno;
		goto out;
	}
	n = hook_nparams(btf, "inode_setattr");
	skel->rodata->setattr_has_idmap = n == 3;
	err = capsicum_bpf__load(skel);
	if (err) {
		fprintf(stderr, "capsicum: loading the programs failed: %s\n",
			strerror(-err));
		goto out;
	}
	err = capsicum_bpf__attach(skel);
	if (err) {
		fprintf(stderr, "capsicum: attaching failed: %s\n",
			strerror(-err));
		goto out;
	}
	if (mkdir(dir, 0755) && errno != EEXIST) {
		err = -errno;
		goto out;
	}
	err = pin_all(skel, dir);
	if (err)
		fprintf(stderr, "capsicum: pinning under %s failed: %s\n", dir,
			strerror(-err));
out:
	capsicum_bpf__destroy(skel);
	btf__free(btf);
	return err;
}
