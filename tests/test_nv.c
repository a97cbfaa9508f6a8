// SPDX-License-Identifier: BSD-2-Clause
/*
 * The libnv subset (<sys/nv.h>): values come back as added and in order,
 * the first failed add sticks to the list, nested lists and descriptors
 * are copied, moved and freed with their list, and a missing element
 * aborts as FreeBSD's does.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include <sys/nv.h>

static bool fd_open(int fd)
{
	return fcntl(fd, F_GETFD) >= 0;
}

Test(nv, add_get_exists_next_in_order)
{
	static const char *const names[] = { "n", "b", "num", "s", "bin" };
	static const int types[] = { NV_TYPE_NULL, NV_TYPE_BOOL, NV_TYPE_NUMBER,
				     NV_TYPE_STRING, NV_TYPE_BINARY };
	nvlist_t *nvl = nvlist_create(0);
	const char *name;
	void *cookie = NULL;
	size_t size = 0, i = 0;
	int type;

	cr_assert_not_null(nvl);
	cr_expect(nvlist_empty(nvl));
	nvlist_add_null(nvl, "n");
	nvlist_add_bool(nvl, "b", true);
	nvlist_add_number(nvl, "num", UINT64_MAX);
	nvlist_add_string(nvl, "s", "value");
	nvlist_add_binary(nvl, "bin", "\0\1\2", 3);
	cr_assert_eq(nvlist_error(nvl), 0);
	cr_expect(!nvlist_empty(nvl));
	cr_expect(nvlist_exists_null(nvl, "n"));
	cr_expect(nvlist_exists(nvl, "num"));
	cr_expect(!nvlist_exists_string(nvl, "num"));
	cr_expect(nvlist_exists_type(nvl, "s", NV_TYPE_STRING));
	cr_expect(!nvlist_exists(nvl, "absent"));
	cr_expect(nvlist_get_bool(nvl, "b"));
	cr_expect_eq(nvlist_get_number(nvl, "num"), UINT64_MAX);
	cr_expect_str_eq(nvlist_get_string(nvl, "s"), "value");
	cr_expect_eq(memcmp(nvlist_get_binary(nvl, "bin", &size), "\0\1\2", 3),
		     0);
	cr_expect_eq(size, 3);
	while ((name = nvlist_next(nvl, &type, &cookie))) {
		cr_assert_lt(i, 5);
		cr_expect_str_eq(name, names[i]);
		cr_expect_eq(type, types[i]);
		i++;
	}
	cr_expect_eq(i, 5);
	cr_expect_null(nvlist_next(nvl, &type, &cookie), "stays at the end");
	nvlist_destroy(nvl);
}

Test(nv, take_and_free_remove)
{
	nvlist_t *nvl = nvlist_create(0);
	char *s;

	nvlist_add_string(nvl, "a", "one");
	nvlist_add_number(nvl, "b", 2);
	nvlist_add_bool(nvl, "c", false);
	s = nvlist_take_string(nvl, "a");
	cr_expect_str_eq(s, "one");
	free(s);
	cr_expect(!nvlist_exists(nvl, "a"));
	cr_expect_eq(nvlist_take_number(nvl, "b"), 2);
	nvlist_free_bool(nvl, "c");
	cr_expect(nvlist_empty(nvl));
	/* The last element gone: adding again appends to an empty list. */
	nvlist_add_number(nvl, "d", 4);
	cr_expect_eq(nvlist_get_number(nvl, "d"), 4);
	nvlist_free(nvl, "d");
	cr_expect(nvlist_empty(nvl));
	cr_expect_eq(nvlist_error(nvl), 0);
	nvlist_destroy(nvl);
}

Test(nv, first_error_sticks)
{
	nvlist_t *nvl = nvlist_create(0);

	nvlist_add_number(nvl, "x", 1);
	errno = 0;
	nvlist_add_string(nvl, "x", "again");
	cr_expect_eq(errno, EEXIST);
	cr_expect_eq(nvlist_error(nvl), EEXIST);
	/* Later adds are no-ops, and report the list's error. */
	errno = 0;
	nvlist_add_number(nvl, "y", 2);
	cr_expect_eq(errno, EEXIST);
	cr_expect(!nvlist_exists(nvl, "y"));
	nvlist_set_error(nvl, EINVAL);
	cr_expect_eq(nvlist_error(nvl), EEXIST, "the first error stays");
	cr_expect_null(nvlist_clone(nvl));
	cr_expect_eq(errno, EEXIST);
	nvlist_destroy(nvl);

	nvl = nvlist_create(0);
	nvlist_set_error(nvl, ENOENT);
	cr_expect_eq(nvlist_error(nvl), ENOENT);
	nvlist_destroy(nvl);
	cr_expect_eq(nvlist_error(NULL), ENOMEM, "a failed create");
}

Test(nv, bad_arguments_set_the_error)
{
	char name[NV_NAME_MAX + 1];
	nvlist_t *nvl;

	nvl = nvlist_create(0);
	nvlist_add_string(nvl, "s", NULL);
	cr_expect_eq(nvlist_error(nvl), EINVAL);
	nvlist_destroy(nvl);

	nvl = nvlist_create(0);
	nvlist_add_descriptor(nvl, "fd", -1);
	cr_expect_eq(nvlist_error(nvl), EBADF);
	nvlist_destroy(nvl);

	nvl = nvlist_create(0);
	memset(name, 'a', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	nvlist_add_null(nvl, name);
	cr_expect_eq(nvlist_error(nvl), ENAMETOOLONG);
	nvlist_destroy(nvl);

	nvl = nvlist_create(0);
	nvlist_add_binary(nvl, "b", "x", 0);
	cr_expect_eq(nvlist_error(nvl), EINVAL);
	nvlist_destroy(nvl);

	errno = 0;
	cr_expect_null(nvlist_create(0x100));
	cr_expect_eq(errno, EINVAL);
}

Test(nv, flags)
{
	nvlist_t *nvl = nvlist_create(NV_FLAG_IGNORE_CASE);

	nvlist_add_number(nvl, "Key", 1);
	cr_expect(nvlist_exists_number(nvl, "kEY"));
	nvlist_add_number(nvl, "KEY", 2);
	cr_expect_eq(nvlist_error(nvl), EEXIST);
	nvlist_destroy(nvl);

	nvl = nvlist_create(NV_FLAG_NO_UNIQUE);
	nvlist_add_number(nvl, "k", 1);
	nvlist_add_number(nvl, "k", 2);
	cr_expect_eq(nvlist_error(nvl), 0);
	cr_expect_eq(nvlist_flags(nvl), NV_FLAG_NO_UNIQUE);
	cr_expect_eq(nvlist_take_number(nvl, "k"), 1, "the first one");
	cr_expect_eq(nvlist_take_number(nvl, "k"), 2);
	nvlist_destroy(nvl);
}

Test(nv, nested_lists)
{
	nvlist_t *nvl = nvlist_create(0), *sub = nvlist_create(0), *bad;
	const nvlist_t *got;
	void *cookie = NULL;

	nvlist_add_string(sub, "name", "x");
	nvlist_add_nvlist(nvl, "copy", sub);
	/* A copy: changing sub does not change the nested one. */
	nvlist_add_number(sub, "later", 1);
	got = nvlist_get_nvlist(nvl, "copy");
	cr_expect(!nvlist_exists(got, "later"));
	cr_expect_eq(nvlist_get_parent(got, &cookie), nvl);
	nvlist_move_nvlist(nvl, "moved", sub);
	cr_expect(
		nvlist_exists_number(nvlist_get_nvlist(nvl, "moved"), "later"));
	sub = nvlist_take_nvlist(nvl, "moved");
	cr_expect_null(nvlist_get_parent(sub, NULL));
	nvlist_destroy(sub);
	cr_expect_eq(nvlist_error(nvl), 0);

	/* A nested list in error puts its error on the parent. */
	bad = nvlist_create(0);
	nvlist_set_error(bad, ENOMEM);
	nvlist_add_nvlist(nvl, "bad", bad);
	cr_expect_eq(nvlist_error(nvl), ENOMEM);
	cr_expect(!nvlist_exists(nvl, "bad"));
	nvlist_destroy(bad);
	nvlist_destroy(nvl);

	nvl = nvlist_create(0);
	bad = nvlist_create(0);
	nvlist_set_error(bad, EBADF);
	nvlist_move_nvlist(nvl, "bad", bad); /* frees bad */
	cr_expect_eq(nvlist_error(nvl), EBADF);
	nvlist_destroy(nvl);
}

Test(nv, descriptors_are_dups_closed_with_their_list)
{
	nvlist_t *nvl = nvlist_create(0), *sub = nvlist_create(0), *copy;
	int p[2], inner, outer, cloned, taken;

	cr_assert_eq(pipe(p), 0);
	nvlist_add_descriptor(sub, "r", p[0]);
	nvlist_move_descriptor(nvl, "w", p[1]); /* the list owns p[1] now */
	nvlist_move_nvlist(nvl, "sub", sub);
	cr_assert_eq(nvlist_error(nvl), 0);
	inner = nvlist_get_descriptor(nvlist_get_nvlist(nvl, "sub"), "r");
	outer = nvlist_get_descriptor(nvl, "w");
	cr_expect_neq(inner, p[0], "a dup");
	cr_expect_eq(outer, p[1], "moved as is");
	cr_expect(fcntl(inner, F_GETFD) & FD_CLOEXEC);

	copy = nvlist_clone(nvl);
	cr_assert_not_null(copy);
	cloned = nvlist_get_descriptor(copy, "w");
	cr_expect_neq(cloned, outer);
	taken = nvlist_take_descriptor(copy, "w");
	cr_expect_eq(taken, cloned);
	nvlist_destroy(copy);
	cr_expect(fd_open(taken), "taken: the caller's");
	close(taken);

	nvlist_destroy(nvl);
	cr_expect(!fd_open(inner), "nested descriptor closed");
	cr_expect(!fd_open(outer), "descriptor closed");
	cr_expect(fd_open(p[0]), "the caller's original kept");
	close(p[0]);

	/* A move that fails closes what it was given. */
	nvl = nvlist_create(0);
	cr_assert_eq(pipe(p), 0);
	nvlist_add_null(nvl, "w");
	nvlist_move_descriptor(nvl, "w", p[1]);
	cr_expect_eq(nvlist_error(nvl), EEXIST);
	cr_expect(!fd_open(p[1]));
	close(p[0]);
	nvlist_destroy(nvl);
}

Test(nv, destroy_keeps_errno)
{
	nvlist_t *nvl = nvlist_create(0);

	nvlist_add_string(nvl, "s", "x");
	errno = EXDEV;
	nvlist_destroy(nvl);
	cr_expect_eq(errno, EXDEV);
	nvlist_destroy(NULL);
}

Test(nv, get_missing_aborts, .signal = SIGABRT)
{
	nvlist_t *nvl = nvlist_create(0);

	nvlist_add_string(nvl, "s", "x");
	(void)nvlist_get_number(nvl, "s");
}

Test(nv, take_missing_aborts, .signal = SIGABRT)
{
	nvlist_t *nvl = nvlist_create(0);

	(void)nvlist_take_string(nvl, "absent");
}
