// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "trust.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <capsicum/pins.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

int exe_id_of(const char *path, struct exe_id *id)
{
	struct stat st;

	if (stat(path, &st))
		return -errno;
	id->dev = (uint32_t)(major(st.st_dev) << 20 | minor(st.st_dev));
	id->ino = st.st_ino;
	return 0;
}

bool capsicum_trusted(void)
{
	int fd = bpf_obj_get(CAPSICUM_PIN_BSS);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/* Offset of the bss variable `name` of `size` bytes, by the map's BTF. */
static long bss_offset(int fd, const char *name, size_t size)
{
	struct bpf_map_info info = { 0 };
	__u32 len = sizeof(info);
	const struct btf_var_secinfo *v;
	const struct btf_type *sec;
	struct btf *btf;
	long off = -ENOENT;

	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return -errno;
	if (!info.btf_id || !info.btf_value_type_id)
		return -ENOENT;
	btf = btf__load_from_kernel_by_id(info.btf_id);
	if (!btf)
		return -errno;
	sec = btf__type_by_id(btf, info.btf_value_type_id);
	if (sec && btf_is_datasec(sec)) {
		v = btf_var_secinfos(sec);
		for (int i = 0; i < btf_vlen(sec); i++, v++) {
			const struct btf_type *var =
				btf__type_by_id(btf, v->type);

			if (!strcmp(btf__name_by_offset(btf, var->name_off),
				    name)) {
				off = v->size == size && v->offset + size <=
								 info.value_size
					      ? (long)v->offset
					      : -EBADMSG;
				break;
			}
		}
	}
	btf__free(btf);
	return off;
}

/*
 * Maps the pinned bss writable and finds both identity fields: stores
 * through the mapping leave the counters beside them alone, which a
 * whole-value update would race with.
 */
static void *bss_map(size_t *size, long *ino_off, long *dev_off)
{
	struct bpf_map_info info = { 0 };
	__u32 len = sizeof(info);
	int fd = bpf_obj_get(CAPSICUM_PIN_BSS);
	void *p = MAP_FAILED;

	if (fd < 0)
		return NULL;
	*ino_off = bss_offset(fd, "protect_exe_ino", sizeof(uint64_t));
	*dev_off = bss_offset(fd, "protect_exe_dev", sizeof(uint32_t));
	if (*ino_off >= 0 && *dev_off >= 0 &&
	    !bpf_obj_get_info_by_fd(fd, &info, &len)) {
		*size = info.value_size;
		p = mmap(NULL, *size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
			 0);
	} else if (*ino_off >= 0 && *dev_off >= 0) {
		*ino_off = -errno;
	}
	close(fd);
	if (p == MAP_FAILED) {
		errno = *ino_off < 0   ? (int)-*ino_off
			: *dev_off < 0 ? (int)-*dev_off
				       : errno;
		return NULL;
	}
	return p;
}

int capsicum_trust_exe(const struct exe_id *id)
{
	long ino_off, dev_off;
	size_t size;
	char *p = bss_map(&size, &ino_off, &dev_off);

	if (!p)
		return -errno;
	/*
	 * Two stores: a package's new binary is on the old one's device,
	 * so the first changes nothing and the inode switches at once.
	 */
	__atomic_store_n((uint32_t *)(p + dev_off), id->dev, __ATOMIC_SEQ_CST);
	__atomic_store_n((uint64_t *)(p + ino_off), id->ino, __ATOMIC_SEQ_CST);
	munmap(p, size);
	return 0;
}

int capsicum_trusted_exe(struct exe_id *id)
{
	LIBBPF_OPTS(bpf_obj_get_opts, ro, .file_flags = BPF_F_RDONLY);
	struct bpf_map_info info = { 0 };
	__u32 len = sizeof(info), zero = 0;
	int fd = bpf_obj_get_opts(CAPSICUM_PIN_BSS, &ro), err = 0;
	long ino_off, dev_off;
	char *v = NULL;

	if (fd < 0)
		return -errno;
	ino_off = bss_offset(fd, "protect_exe_ino", sizeof(uint64_t));
	dev_off = bss_offset(fd, "protect_exe_dev", sizeof(uint32_t));
	if (ino_off < 0 || dev_off < 0)
		err = ino_off < 0 ? (int)ino_off : (int)dev_off;
	else if (bpf_obj_get_info_by_fd(fd, &info, &len))
		err = -errno;
	else if (!(v = malloc(info.value_size)))
		err = -ENOMEM;
	else if (bpf_map_lookup_elem(fd, &zero, v))
		err = -errno;
	if (!err) {
		memcpy(&id->dev, v + dev_off, sizeof(id->dev));
		memcpy(&id->ino, v + ino_off, sizeof(id->ino));
	}
	free(v);
	close(fd);
	return err;
}
