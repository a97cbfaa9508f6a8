// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "pinned.h"

#include "load.h"

#include <bpf/bpf.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Whether dir holds nothing: what a loader killed before its first pin left. */
static bool dir_empty(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	bool empty = true;

	if (!d)
		return false;
	while (empty && (e = readdir(d)))
		empty = e->d_name[0] == '.';
	closedir(d);
	return empty;
}

/* Reads the stamp pinned at path into *v: 0, or -errno (-EBADMSG: bad). */
static int read_stamp(const char *path, struct capsicum_state_version *v)
{
	LIBBPF_OPTS(bpf_obj_get_opts, ro, .file_flags = BPF_F_RDONLY);
	__u32 zero = 0;
	int fd = bpf_obj_get_opts(path, &ro), err;

	if (fd < 0)
		return -errno;
	err = bpf_map_lookup_elem(fd, &zero, v);
	close(fd);
	return err || v->magic != CAPSICUM_STATE_MAGIC ? -EBADMSG : 0;
}

enum pinned_state pinned_check(struct capsicum_state_version *v, char *why,
			       size_t len)
{
	bool unfinished = false;
	int err;

	if (access(CAPSICUM_PIN_DIR, F_OK) || dir_empty(CAPSICUM_PIN_DIR))
		return PINNED_NONE;
	err = read_stamp(CAPSICUM_PIN_VERSION, v);
	if (err == -ENOENT && !access(CAPSICUM_PIN_LOADING, F_OK)) {
		unfinished = true;
		err = read_stamp(CAPSICUM_PIN_LOADING, v);
	}
	if (err && err != -EBADMSG) {
		snprintf(why, len,
			 "%s exists but %s cannot be opened (%s): an older "
			 "or unfinished load",
			 CAPSICUM_PIN_DIR, CAPSICUM_PIN_VERSION,
			 strerror(-err));
		return PINNED_UNKNOWN;
	}
	if (err) {
		snprintf(why, len, "%s holds no valid stamp",
			 unfinished ? CAPSICUM_PIN_LOADING
				    : CAPSICUM_PIN_VERSION);
		return PINNED_UNKNOWN;
	}
	if (v->abi_version == CAPSICUM_ABI_VERSION &&
	    v->object_hash == capsicum_object_hash())
		return unfinished ? PINNED_UNFINISHED : PINNED_SAME;
	snprintf(why, len,
		 "the pinned state %s from another build (ABI %u, "
		 "object %016llx; this build: ABI %u, object %016llx)",
		 unfinished ? "is an unfinished load" : "was loaded",
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
