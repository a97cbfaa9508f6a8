// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "pinned.h"

#include "load.h"

#include <bpf/bpf.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

enum pinned_state pinned_check(struct capsicum_state_version *v, char *why,
			       size_t len)
{
	LIBBPF_OPTS(bpf_obj_get_opts, ro, .file_flags = BPF_F_RDONLY);
	__u32 zero = 0;
	int fd, err;

	if (access(CAPSICUM_PIN_DIR, F_OK))
		return PINNED_NONE;
	fd = bpf_obj_get_opts(CAPSICUM_PIN_VERSION, &ro);
	if (fd < 0) {
		snprintf(why, len,
			 "%s exists but %s cannot be opened (%s): an older "
			 "or unfinished load",
			 CAPSICUM_PIN_DIR, CAPSICUM_PIN_VERSION,
			 strerror(errno));
		return PINNED_UNKNOWN;
	}
	err = bpf_map_lookup_elem(fd, &zero, v);
	close(fd);
	if (err || v->magic != CAPSICUM_STATE_MAGIC) {
		snprintf(why, len, "%s holds no valid stamp",
			 CAPSICUM_PIN_VERSION);
		return PINNED_UNKNOWN;
	}
	if (v->abi_version == CAPSICUM_ABI_VERSION &&
	    v->object_hash == capsicum_object_hash())
		return PINNED_SAME;
	snprintf(why, len,
		 "the pinned state was loaded from another build (ABI %u, "
		 "object %016llx; this build: ABI %u, object %016llx)",
		 v->abi_version, (unsigned long long)v->object_hash,
		 CAPSICUM_ABI_VERSION,
		 (unsigned long long)capsicum_object_hash());
	return PINNED_OTHER;
}

int pinned_unload(void)
{
	DIR *d = opendir(CAPSICUM_PIN_DIR);
	struct dirent *e;
	int err = 0;

	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (unlinkat(dirfd(d), e->d_name, 0) && !err)
			err = -errno;
	}
	closedir(d);
	if (!err && rmdir(CAPSICUM_PIN_DIR))
		err = -errno;
	return err;
}
