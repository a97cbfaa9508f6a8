/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CAPSICUM_ADMIN_CAPCTL_EXIT_H
#define CAPSICUM_ADMIN_CAPCTL_EXIT_H

/*
 * capctl(8) exit codes. Here, not in capctl's own headers, because
 * state_open() (state.h) returns them and capsicumd maps them to the
 * errors of its query answers.
 */
enum {
	CAPCTL_EXIT_OK = 0,
	CAPCTL_EXIT_ERROR = 1,
	CAPCTL_EXIT_USAGE = 2,
	CAPCTL_EXIT_UNLOADED = 3,   /* Capsicum is not loaded (ENOSYS) */
	CAPCTL_EXIT_VERSION = 4,    /* another build's state, or unfinished */
	CAPCTL_EXIT_DENIED = 5,	    /* permission denied */
	CAPCTL_EXIT_NOEXEC = 126,   /* run: command found but not executable */
	CAPCTL_EXIT_NOTFOUND = 127, /* run: command not found */
};

#endif
