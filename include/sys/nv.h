/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A subset of FreeBSD's libnv (nv(3)) for libcasper's programs: name/value
 * lists of nulls, bools, numbers, strings, nested lists, descriptors and
 * binary blobs, with FreeBSD's names, signatures and error model (an add
 * that fails puts the list in an error state that later adds keep and
 * nvlist_error() reports; a get or take of a missing name aborts). No
 * arrays, no packing or sending: libcasper carries limits in its own
 * messages (doc/casper.md). The code is in libcasper.
 */
#ifndef _SYS_NV_H_
#define _SYS_NV_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef _NVLIST_T_DECLARED
#define _NVLIST_T_DECLARED
typedef struct nvlist nvlist_t;
#endif

#define NV_NAME_MAX 2048

#define NV_TYPE_NONE	   0
#define NV_TYPE_NULL	   1
#define NV_TYPE_BOOL	   2
#define NV_TYPE_NUMBER	   3
#define NV_TYPE_STRING	   4
#define NV_TYPE_NVLIST	   5
#define NV_TYPE_DESCRIPTOR 6
#define NV_TYPE_BINARY	   7

/* Names compare without case. */
#define NV_FLAG_IGNORE_CASE 0x01
/* Names may repeat. */
#define NV_FLAG_NO_UNIQUE 0x02

nvlist_t *nvlist_create(int flags);
void nvlist_destroy(nvlist_t *nvl);
int nvlist_error(const nvlist_t *nvl);
void nvlist_set_error(nvlist_t *nvl, int error);
bool nvlist_empty(const nvlist_t *nvl);
int nvlist_flags(const nvlist_t *nvl);
nvlist_t *nvlist_clone(const nvlist_t *nvl);
const char *nvlist_next(const nvlist_t *nvl, int *typep, void **cookiep);
const nvlist_t *nvlist_get_parent(const nvlist_t *nvl, void **cookiep);

bool nvlist_exists(const nvlist_t *nvl, const char *name);
bool nvlist_exists_type(const nvlist_t *nvl, const char *name, int type);
bool nvlist_exists_null(const nvlist_t *nvl, const char *name);
bool nvlist_exists_bool(const nvlist_t *nvl, const char *name);
bool nvlist_exists_number(const nvlist_t *nvl, const char *name);
bool nvlist_exists_string(const nvlist_t *nvl, const char *name);
bool nvlist_exists_nvlist(const nvlist_t *nvl, const char *name);
bool nvlist_exists_descriptor(const nvlist_t *nvl, const char *name);
bool nvlist_exists_binary(const nvlist_t *nvl, const char *name);

void nvlist_add_null(nvlist_t *nvl, const char *name);
void nvlist_add_bool(nvlist_t *nvl, const char *name, bool value);
void nvlist_add_number(nvlist_t *nvl, const char *name, uint64_t value);
void nvlist_add_string(nvlist_t *nvl, const char *name, const char *value);
/* Adds a copy of value. */
void nvlist_add_nvlist(nvlist_t *nvl, const char *name, const nvlist_t *value);
/* Adds a dup() of value. */
void nvlist_add_descriptor(nvlist_t *nvl, const char *name, int value);
void nvlist_add_binary(nvlist_t *nvl, const char *name, const void *value,
		       size_t size);

/* The list takes value: it is freed (closed) if the add fails. */
void nvlist_move_string(nvlist_t *nvl, const char *name, char *value);
void nvlist_move_nvlist(nvlist_t *nvl, const char *name, nvlist_t *value);
void nvlist_move_descriptor(nvlist_t *nvl, const char *name, int value);
void nvlist_move_binary(nvlist_t *nvl, const char *name, void *value,
			size_t size);

/* The value stays the list's. A missing name aborts the program. */
bool nvlist_get_bool(const nvlist_t *nvl, const char *name);
uint64_t nvlist_get_number(const nvlist_t *nvl, const char *name);
const char *nvlist_get_string(const nvlist_t *nvl, const char *name);
const nvlist_t *nvlist_get_nvlist(const nvlist_t *nvl, const char *name);
int nvlist_get_descriptor(const nvlist_t *nvl, const char *name);
const void *nvlist_get_binary(const nvlist_t *nvl, const char *name,
			      size_t *sizep);

/* Removes the element; the value is now the caller's. Missing: abort. */
bool nvlist_take_bool(nvlist_t *nvl, const char *name);
uint64_t nvlist_take_number(nvlist_t *nvl, const char *name);
char *nvlist_take_string(nvlist_t *nvl, const char *name);
nvlist_t *nvlist_take_nvlist(nvlist_t *nvl, const char *name);
int nvlist_take_descriptor(nvlist_t *nvl, const char *name);
void *nvlist_take_binary(nvlist_t *nvl, const char *name, size_t *sizep);

/* Removes and frees the element. Missing: abort. */
void nvlist_free(nvlist_t *nvl, const char *name);
void nvlist_free_type(nvlist_t *nvl, const char *name, int type);
void nvlist_free_null(nvlist_t *nvl, const char *name);
void nvlist_free_bool(nvlist_t *nvl, const char *name);
void nvlist_free_number(nvlist_t *nvl, const char *name);
void nvlist_free_string(nvlist_t *nvl, const char *name);
void nvlist_free_nvlist(nvlist_t *nvl, const char *name);
void nvlist_free_descriptor(nvlist_t *nvl, const char *name);
void nvlist_free_binary(nvlist_t *nvl, const char *name);

#ifdef __cplusplus
}
#endif

#endif /* _SYS_NV_H_ */
