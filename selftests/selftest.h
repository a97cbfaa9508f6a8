/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small test_progs-style harness for the VM selftests. Each SELFTEST()
 * runs in a forked child, so a crash, a leaked BPF link or a changed
 * credential in one test cannot leak into the next. Assertions return bool
 * so a test reads `if (!ASSERT_OK(err, "load")) goto cleanup;`.
 */
#ifndef CAPSICUM_SELFTEST_H
#define CAPSICUM_SELFTEST_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

struct selftest {
	const char *name;
	void (*fn)(void);
	struct selftest *next;
};

/*
 * A table of rows (one operation each, run by some SELFTEST), registered
 * so `capsicum_selftests --list` can name every row without running it
 * (doc/enforcement.md cites rows by name and a unit test checks them),
 * and `row:NAME` can run one.
 */
struct selftest_rows {
	const void *rows;
	size_t count, size; /* every row starts with `const char *name` */
	/* struct rights_row (rows.h): --list prints rights and expectations. */
	bool rights;
	const char *const *tests; /* the SELFTESTs that run them, NULL-ended */
	struct selftest_rows *next;
};

void selftest_register(struct selftest *t);
void selftest_register_rows(struct selftest_rows *r);
/*
 * Whether the row called name is to run: true unless rows were selected
 * on the command line (`row:NAME`, `--row NAME`) and this is not one.
 */
bool selftest_row_selected(const char *name);
/* Marks the running test failed; used by the ASSERT_ macros. */
void selftest_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Lets a test that cannot apply to this run say why, visibly. */
void selftest_skip(const char *why);
bool selftest_is_root(void);
/* Whether an assertion failed in this process: a forked helper's exit code. */
bool selftest_failed(void);
/*
 * Waits for a forked child: its exit status, or -1 if the fork failed
 * (pid < 0), the wait failed or the child was killed.
 */
int selftest_wait(pid_t pid);

#define SELFTEST(name)                                                         \
	static void selftest_fn_##name(void);                                  \
	static struct selftest selftest_##name = { #name, selftest_fn_##name,  \
						   NULL };                     \
	__attribute__((constructor)) static void selftest_reg_##name(void)     \
	{                                                                      \
		selftest_register(&selftest_##name);                           \
	}                                                                      \
	static void selftest_fn_##name(void)

/*
 * Registers a static array of rows whose first member is `name`, run by
 * the SELFTESTs named after it (strings).
 */
#define SELFTEST_ROWS(tbl, ...) SELFTEST_ROWS_OF(tbl, false, __VA_ARGS__)

#define SELFTEST_ROWS_OF(tbl, rights_, ...)                                    \
	_Static_assert(                                                        \
		offsetof(__typeof__((tbl)[0]), name) == 0 &&                   \
			__builtin_types_compatible_p(                          \
				__typeof__((tbl)[0].name), const char *),      \
		#tbl ": `const char *name` must be the first member");         \
	static const char *const selftest_rows_tests_##tbl[] = { __VA_ARGS__,  \
								 NULL };       \
	static struct selftest_rows selftest_rows_##tbl = {                    \
		.rows = (tbl),                                                 \
		.count = sizeof(tbl) / sizeof((tbl)[0]),                       \
		.size = sizeof((tbl)[0]),                                      \
		.rights = (rights_),                                           \
		.tests = selftest_rows_tests_##tbl,                            \
	};                                                                     \
	__attribute__((constructor)) static void selftest_reg_rows_##tbl(void) \
	{                                                                      \
		selftest_register_rows(&selftest_rows_##tbl);                  \
	}

#define ASSERT_TRUE(cond, what)                                                \
	({                                                                     \
		bool ok_ = (cond);                                             \
		if (!ok_)                                                      \
			selftest_fail(__FILE__, __LINE__, "%s: %s is false",   \
				      (what), #cond);                          \
		ok_;                                                           \
	})

#define ASSERT_EQ(actual, expected, what)                                      \
	({                                                                     \
		long long a_ = (long long)(actual);                            \
		long long e_ = (long long)(expected);                          \
		if (a_ != e_)                                                  \
			selftest_fail(__FILE__, __LINE__,                      \
				      "%s: %s = %lld, expected %lld", (what),  \
				      #actual, a_, e_);                        \
		a_ == e_;                                                      \
	})

/* A call returning 0 (or >= 0 for fds) must succeed; prints errno if not. */
#define ASSERT_OK(ret, what)                                                   \
	({                                                                     \
		long long r_ = (long long)(ret);                               \
		if (r_ < 0)                                                    \
			selftest_fail(__FILE__, __LINE__,                      \
				      "%s: returned %lld, errno %d (%s)",      \
				      (what), r_, errno, strerror(errno));     \
		r_ >= 0;                                                       \
	})

#define ASSERT_OK_PTR(ptr, what)                                               \
	({                                                                     \
		const void *p_ = (ptr);                                        \
		if (!p_)                                                       \
			selftest_fail(__FILE__, __LINE__,                      \
				      "%s: NULL, errno %d (%s)", (what),       \
				      errno, strerror(errno));                 \
		p_ != NULL;                                                    \
	})

/*
 * A libc-style call must fail with exactly this errno. Evaluate the call
 * inside the macro so errno is read right after it.
 */
#define ASSERT_ERRNO(call, expected_errno, what)                               \
	({                                                                     \
		errno = 0;                                                     \
		long long r_ = (long long)(call);                              \
		int en_ = errno;                                               \
		bool ok_ = r_ == -1 && en_ == (expected_errno);                \
		if (!ok_)                                                      \
			selftest_fail(__FILE__, __LINE__,                      \
				      "%s: %s returned %lld errno %d (%s), "   \
				      "expected -1 errno %d (%s)",             \
				      (what), #call, r_, en_, strerror(en_),   \
				      (expected_errno),                        \
				      strerror(expected_errno));               \
		ok_;                                                           \
	})

#endif
