// SPDX-License-Identifier: BSD-2-Clause
/*
 * The libnv subset of <sys/nv.h>: a list of named, typed elements in the
 * order they were added. FreeBSD's error model is kept because programs
 * rely on it: adds never report failure themselves, the first failure
 * sticks to the list (nvlist_error()) and every later add is a no-op that
 * still frees what it was given to move, so one check at the end suffices.
 * A get or take of a missing element is a programming error: it aborts,
 * as FreeBSD's does.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "nv_cookie.h"

struct nvpair {
	struct nvpair *next;
	nvlist_t *owner;
	char *name;
	int type;
	size_t size; /* NV_TYPE_BINARY */
	union {
		bool b;
		uint64_t n;
		char *s;
		nvlist_t *nvl;
		int fd;
		void *bin;
	} v;
};

struct nvlist {
	int error;
	int flags;
	struct nvpair *head, *tail;
	/* The element holding this list when it is nested, else NULL. */
	struct nvpair *parent;
};

static const char *const type_names[] = {
	"none",	  "null",   "bool",	  "number",
	"string", "nvlist", "descriptor", "binary",
};

nvlist_t *nvlist_create(int flags)
{
	nvlist_t *nvl;

	if (flags & ~(NV_FLAG_IGNORE_CASE | NV_FLAG_NO_UNIQUE)) {
		errno = EINVAL;
		return NULL;
	}
	nvl = calloc(1, sizeof(*nvl));
	if (nvl)
		nvl->flags = flags;
	return nvl;
}

/* Frees what the element holds, not the element. */
static void value_free(int type, struct nvpair *p)
{
	switch (type) {
	case NV_TYPE_STRING:
		free(p->v.s);
		break;
	case NV_TYPE_NVLIST:
		p->v.nvl->parent = NULL;
		nvlist_destroy(p->v.nvl);
		break;
	case NV_TYPE_DESCRIPTOR:
		close(p->v.fd);
		break;
	case NV_TYPE_BINARY:
		free(p->v.bin);
		break;
	}
}

void nvlist_destroy(nvlist_t *nvl)
{
	struct nvpair *p, *next;
	int saved = errno;

	if (!nvl)
		return;
	for (p = nvl->head; p; p = next) {
		next = p->next;
		value_free(p->type, p);
		free(p->name);
		free(p);
	}
	free(nvl);
	errno = saved;
}

int nvlist_error(const nvlist_t *nvl)
{
	/* FreeBSD's answer for the NULL a failed nvlist_create() gives. */
	return nvl ? nvl->error : ENOMEM;
}

void nvlist_set_error(nvlist_t *nvl, int error)
{
	/* The first error is the one that explains the rest. */
	if (nvl && error && !nvl->error)
		nvl->error = error;
}

bool nvlist_empty(const nvlist_t *nvl)
{
	return !nvl || !nvl->head;
}

int nvlist_flags(const nvlist_t *nvl)
{
	return nvl ? nvl->flags : 0;
}

static bool same_name(const nvlist_t *nvl, const char *a, const char *b)
{
	return nvl->flags & NV_FLAG_IGNORE_CASE ? !strcasecmp(a, b)
						: !strcmp(a, b);
}

/* The first element called name, of type (NV_TYPE_NONE: any), or NULL. */
static struct nvpair *find(const nvlist_t *nvl, const char *name, int type)
{
	struct nvpair *p;

	if (!nvl || !name)
		return NULL;
	for (p = nvl->head; p; p = p->next)
		if ((type == NV_TYPE_NONE || p->type == type) &&
		    same_name(nvl, p->name, name))
			return p;
	return NULL;
}

static _Noreturn void missing(const char *what, const char *name, int type)
{
	fprintf(stderr, "nvlist_%s_%s: element \"%s\" not found\n", what,
		type_names[type], name ? name : "(null)");
	abort();
}

const char *nvlist_next(const nvlist_t *nvl, int *typep, void **cookiep)
{
	struct nvpair *p;

	if (!nvl || !cookiep)
		return NULL;
	p = *cookiep ? ((struct nvpair *)*cookiep)->next : nvl->head;
	/* At the end the cookie stays on the last one: NULL again. */
	if (!p)
		return NULL;
	*cookiep = p;
	if (typep)
		*typep = p->type;
	return p->name;
}

const nvlist_t *nvlist_get_parent(const nvlist_t *nvl, void **cookiep)
{
	if (!nvl || !nvl->parent)
		return NULL;
	if (cookiep)
		*cookiep = nvl->parent;
	return nvl->parent->owner;
}

bool nvlist_exists_type(const nvlist_t *nvl, const char *name, int type)
{
	return find(nvl, name, type) != NULL;
}

bool nvlist_exists(const nvlist_t *nvl, const char *name)
{
	return find(nvl, name, NV_TYPE_NONE) != NULL;
}

#define EXISTS(kind, type)                                                     \
	bool nvlist_exists_##kind(const nvlist_t *nvl, const char *name)       \
	{                                                                      \
		return find(nvl, name, type) != NULL;                          \
	}
EXISTS(null, NV_TYPE_NULL)
EXISTS(bool, NV_TYPE_BOOL)
EXISTS(number, NV_TYPE_NUMBER)
EXISTS(string, NV_TYPE_STRING)
EXISTS(nvlist, NV_TYPE_NVLIST)
EXISTS(descriptor, NV_TYPE_DESCRIPTOR)
EXISTS(binary, NV_TYPE_BINARY)

/*
 * Appends p (its value already owned) to nvl; on any failure the value is
 * freed, the list's error set and errno too, as FreeBSD's adds do.
 */
static void append(nvlist_t *nvl, const char *name, struct nvpair *p)
{
	int error = 0;

	if (!nvl)
		error = EINVAL;
	else if (nvl->error)
		error = nvl->error;
	else if (!name)
		error = EINVAL;
	else if (strlen(name) >= NV_NAME_MAX)
		error = ENAMETOOLONG;
	else if (!(nvl->flags & NV_FLAG_NO_UNIQUE) &&
		 find(nvl, name, NV_TYPE_NONE))
		error = EEXIST;
	else if (!(p->name = strdup(name)))
		error = ENOMEM;
	if (error) {
		value_free(p->type, p);
		free(p);
		nvlist_set_error(nvl, error);
		errno = error;
		return;
	}
	p->owner = nvl;
	if (p->type == NV_TYPE_NVLIST)
		p->v.nvl->parent = p;
	if (nvl->tail)
		nvl->tail->next = p;
	else
		nvl->head = p;
	nvl->tail = p;
}

/* A new element of type, or NULL with the list's error set. */
static struct nvpair *pair(nvlist_t *nvl, int type)
{
	struct nvpair *p = calloc(1, sizeof(*p));

	if (p)
		p->type = type;
	else
		nvlist_set_error(nvl, ENOMEM);
	return p;
}

/* Fails the add: the list's error and errno. */
static void fail(nvlist_t *nvl, int error)
{
	if (nvl && !nvl->error)
		nvl->error = error;
	errno = nvl && nvl->error ? nvl->error : error;
}

void nvlist_add_null(nvlist_t *nvl, const char *name)
{
	struct nvpair *p = pair(nvl, NV_TYPE_NULL);

	if (p)
		append(nvl, name, p);
}

void nvlist_add_bool(nvlist_t *nvl, const char *name, bool value)
{
	struct nvpair *p = pair(nvl, NV_TYPE_BOOL);

	if (!p)
		return;
	p->v.b = value;
	append(nvl, name, p);
}

void nvlist_add_number(nvlist_t *nvl, const char *name, uint64_t value)
{
	struct nvpair *p = pair(nvl, NV_TYPE_NUMBER);

	if (!p)
		return;
	p->v.n = value;
	append(nvl, name, p);
}

void nvlist_move_string(nvlist_t *nvl, const char *name, char *value)
{
	struct nvpair *p;

	if (!value) {
		fail(nvl, EINVAL);
		return;
	}
	p = pair(nvl, NV_TYPE_STRING);
	if (!p) {
		free(value);
		return;
	}
	p->v.s = value;
	append(nvl, name, p);
}

void nvlist_add_string(nvlist_t *nvl, const char *name, const char *value)
{
	char *copy;

	if (!value) {
		fail(nvl, EINVAL);
		return;
	}
	copy = strdup(value);
	if (!copy) {
		fail(nvl, ENOMEM);
		return;
	}
	nvlist_move_string(nvl, name, copy);
}

void nvlist_move_nvlist(nvlist_t *nvl, const char *name, nvlist_t *value)
{
	struct nvpair *p;

	/* A list in error, or one held elsewhere, cannot be nested. */
	if (!value || value->parent || value == nvl) {
		fail(nvl, EINVAL);
		return;
	}
	if (value->error) {
		fail(nvl, value->error);
		nvlist_destroy(value);
		return;
	}
	p = pair(nvl, NV_TYPE_NVLIST);
	if (!p) {
		nvlist_destroy(value);
		return;
	}
	p->v.nvl = value;
	append(nvl, name, p);
}

void nvlist_add_nvlist(nvlist_t *nvl, const char *name, const nvlist_t *value)
{
	nvlist_t *copy;

	if (!value) {
		fail(nvl, EINVAL);
		return;
	}
	copy = nvlist_clone(value);
	if (!copy) {
		fail(nvl, errno ? errno : ENOMEM);
		return;
	}
	nvlist_move_nvlist(nvl, name, copy);
}

void nvlist_move_descriptor(nvlist_t *nvl, const char *name, int value)
{
	struct nvpair *p;

	if (value < 0 || fcntl(value, F_GETFD) < 0) {
		fail(nvl, EBADF);
		return;
	}
	p = pair(nvl, NV_TYPE_DESCRIPTOR);
	if (!p) {
		close(value);
		return;
	}
	p->v.fd = value;
	append(nvl, name, p);
}

void nvlist_add_descriptor(nvlist_t *nvl, const char *name, int value)
{
	int fd = value < 0 ? -1 : fcntl(value, F_DUPFD_CLOEXEC, 0);

	if (fd < 0) {
		fail(nvl, value < 0 || errno == EBADF ? EBADF : errno);
		return;
	}
	nvlist_move_descriptor(nvl, name, fd);
}

void nvlist_move_binary(nvlist_t *nvl, const char *name, void *value,
			size_t size)
{
	struct nvpair *p;

	if (!value || !size) {
		free(value);
		fail(nvl, EINVAL);
		return;
	}
	p = pair(nvl, NV_TYPE_BINARY);
	if (!p) {
		free(value);
		return;
	}
	p->v.bin = value;
	p->size = size;
	append(nvl, name, p);
}

void nvlist_add_binary(nvlist_t *nvl, const char *name, const void *value,
		       size_t size)
{
	void *copy;

	if (!value || !size) {
		fail(nvl, EINVAL);
		return;
	}
	copy = malloc(size);
	if (!copy) {
		fail(nvl, ENOMEM);
		return;
	}
	nvlist_move_binary(nvl, name, memcpy(copy, value, size), size);
}

nvlist_t *nvlist_clone(const nvlist_t *nvl)
{
	const struct nvpair *p;
	nvlist_t *copy;

	if (!nvl || nvl->error) {
		errno = nvl ? nvl->error : EINVAL;
		return NULL;
	}
	copy = nvlist_create(nvl->flags);
	for (p = nvl->head; copy && p; p = p->next) {
		switch (p->type) {
		case NV_TYPE_NULL:
			nvlist_add_null(copy, p->name);
			break;
		case NV_TYPE_BOOL:
			nvlist_add_bool(copy, p->name, p->v.b);
			break;
		case NV_TYPE_NUMBER:
			nvlist_add_number(copy, p->name, p->v.n);
			break;
		case NV_TYPE_STRING:
			nvlist_add_string(copy, p->name, p->v.s);
			break;
		case NV_TYPE_NVLIST:
			nvlist_add_nvlist(copy, p->name, p->v.nvl);
			break;
		case NV_TYPE_DESCRIPTOR:
			nvlist_add_descriptor(copy, p->name, p->v.fd);
			break;
		case NV_TYPE_BINARY:
			nvlist_add_binary(copy, p->name, p->v.bin, p->size);
			break;
		}
	}
	if (copy && copy->error) {
		int error = copy->error;

		nvlist_destroy(copy);
		errno = error;
		return NULL;
	}
	return copy;
}

static const struct nvpair *get(const nvlist_t *nvl, const char *name, int type)
{
	const struct nvpair *p = find(nvl, name, type);

	if (!p)
		missing("get", name, type);
	return p;
}

bool nvlist_get_bool(const nvlist_t *nvl, const char *name)
{
	return get(nvl, name, NV_TYPE_BOOL)->v.b;
}

uint64_t nvlist_get_number(const nvlist_t *nvl, const char *name)
{
	return get(nvl, name, NV_TYPE_NUMBER)->v.n;
}

const char *nvlist_get_string(const nvlist_t *nvl, const char *name)
{
	return get(nvl, name, NV_TYPE_STRING)->v.s;
}

const nvlist_t *nvlist_get_nvlist(const nvlist_t *nvl, const char *name)
{
	return get(nvl, name, NV_TYPE_NVLIST)->v.nvl;
}

int nvlist_get_descriptor(const nvlist_t *nvl, const char *name)
{
	return get(nvl, name, NV_TYPE_DESCRIPTOR)->v.fd;
}

const void *nvlist_get_binary(const nvlist_t *nvl, const char *name,
			      size_t *sizep)
{
	const struct nvpair *p = get(nvl, name, NV_TYPE_BINARY);

	if (sizep)
		*sizep = p->size;
	return p->v.bin;
}

/* Unlinks the element; the caller takes its value and frees it. */
static struct nvpair *unlink_pair(nvlist_t *nvl, const char *name, int type,
				  const char *what)
{
	struct nvpair *p = find(nvl, name, type), **pp, *prev = NULL;

	if (!p)
		missing(what, name, type);
	for (pp = &nvl->head; *pp != p; pp = &(*pp)->next)
		prev = *pp;
	*pp = p->next;
	if (nvl->tail == p)
		nvl->tail = prev;
	free(p->name);
	if (p->type == NV_TYPE_NVLIST)
		p->v.nvl->parent = NULL;
	return p;
}

#define TAKE(kind, ctype, type, field)                                         \
	ctype nvlist_take_##kind(nvlist_t *nvl, const char *name)              \
	{                                                                      \
		struct nvpair *p = unlink_pair(nvl, name, type, "take");       \
		ctype v = p->v.field;                                          \
                                                                               \
		free(p);                                                       \
		return v;                                                      \
	}
TAKE(bool, bool, NV_TYPE_BOOL, b)
TAKE(number, uint64_t, NV_TYPE_NUMBER, n)
TAKE(string, char *, NV_TYPE_STRING, s)
TAKE(nvlist, nvlist_t *, NV_TYPE_NVLIST, nvl)
TAKE(descriptor, int, NV_TYPE_DESCRIPTOR, fd)

void *nvlist_take_binary(nvlist_t *nvl, const char *name, size_t *sizep)
{
	struct nvpair *p = unlink_pair(nvl, name, NV_TYPE_BINARY, "take");
	void *v = p->v.bin;

	if (sizep)
		*sizep = p->size;
	free(p);
	return v;
}

void nvlist_free_type(nvlist_t *nvl, const char *name, int type)
{
	struct nvpair *p = unlink_pair(nvl, name, type, "free");

	value_free(p->type, p);
	free(p);
}

void nvlist_free(nvlist_t *nvl, const char *name)
{
	nvlist_free_type(nvl, name, NV_TYPE_NONE);
}

#define FREE(kind, type)                                                       \
	void nvlist_free_##kind(nvlist_t *nvl, const char *name)               \
	{                                                                      \
		nvlist_free_type(nvl, name, type);                             \
	}
FREE(null, NV_TYPE_NULL)
FREE(bool, NV_TYPE_BOOL)
FREE(number, NV_TYPE_NUMBER)
FREE(string, NV_TYPE_STRING)
FREE(nvlist, NV_TYPE_NVLIST)
FREE(descriptor, NV_TYPE_DESCRIPTOR)
FREE(binary, NV_TYPE_BINARY)

const char *nv_cookie_string(const void *cookie)
{
	return ((const struct nvpair *)cookie)->v.s;
}

uint64_t nv_cookie_number(const void *cookie)
{
	return ((const struct nvpair *)cookie)->v.n;
}

const nvlist_t *nv_cookie_nvlist(const void *cookie)
{
	return ((const struct nvpair *)cookie)->v.nvl;
}
