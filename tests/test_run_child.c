// SPDX-License-Identifier: GPL-2.0
/* The selftest runner's child: exit codes passed on, a hung one killed. */
#define _GNU_SOURCE
#include "selftests/run_child.h"

#include <criterion/criterion.h>
#include <signal.h>
#include <unistd.h>

static int exit_with(void *arg)
{
	return *(int *)arg;
}

Test(run_child, passes_the_exit_code_on)
{
	int pass = CHILD_PASS, fail = CHILD_FAIL, skip = CHILD_SKIP;

	cr_expect_eq(run_child(exit_with, &pass, 10), CHILD_PASS);
	cr_expect_eq(run_child(exit_with, &fail, 10), CHILD_FAIL);
	cr_expect_eq(run_child(exit_with, &skip, 10), CHILD_SKIP);
}

static int crash(void *arg)
{
	(void)arg;
	raise(SIGSEGV);
	return CHILD_PASS;
}

Test(run_child, a_signal_is_a_failure)
{
	cr_expect_eq(run_child(crash, NULL, 10), CHILD_FAIL);
}

/* Forks a grandchild that holds the pipe's write end, then both hang. */
static int hang(void *arg)
{
	(void)arg;
	if (fork() == 0)
		for (;;)
			pause();
	for (;;)
		pause();
	return CHILD_PASS;
}

/*
 * The hung test and what it forked are killed: once the runner returns,
 * nobody holds the pipe's write end any more and the read sees EOF. A
 * runner without the bound never returns (criterion's timeout fails it).
 */
Test(run_child, a_hung_test_is_killed_with_its_children, .timeout = 20)
{
	int p[2];
	char c;

	cr_assert_eq(pipe(p), 0);
	cr_expect_eq(run_child(hang, NULL, 1), CHILD_TIMEOUT);
	close(p[1]);
	cr_expect_eq(read(p[0], &c, 1), 0, "the grandchild is gone too");
	close(p[0]);
}
