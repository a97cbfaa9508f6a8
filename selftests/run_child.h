/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How the selftest runner runs one test: in a forked child leading its own
 * process group, bounded in time, so a hung test fails by name and the
 * runner goes on to the next one.
 */
#ifndef CAPSICUM_SELFTEST_RUN_CHILD_H
#define CAPSICUM_SELFTEST_RUN_CHILD_H

/* Exit codes a test child reports to the runner, and the runner's own. */
enum {
	CHILD_PASS = 0,
	CHILD_FAIL = 1,
	CHILD_SKIP = 77,
	CHILD_TIMEOUT = 124, /* the runner killed it: never an exit code */
};

/*
 * Runs body(arg) in a child that exits with its return value. After
 * timeout_s seconds the child's whole process group is killed with
 * SIGKILL. Returns the child's exit code, CHILD_TIMEOUT, or CHILD_FAIL if
 * it died of a signal or could not be run (saying which on stderr).
 */
int run_child(int (*body)(void *arg), void *arg, unsigned int timeout_s);

#endif
