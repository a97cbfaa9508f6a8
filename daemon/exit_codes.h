/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CAPSICUMD_EXIT_CODES_H
#define CAPSICUMD_EXIT_CODES_H

/* capsicumd's exit codes (capsicumd(8)). */
enum {
	EXIT_OK = 0,
	EXIT_ERROR = 1,
	EXIT_USAGE = 2,
	EXIT_KERNEL = 3,    /* the kernel cannot run Capsicum */
	EXIT_VERSION = 4,   /* another build's state is pinned; or an
			     * upgrade refused (a map changed its layout) */
	EXIT_DENIED = 5,    /* not root, or not the loader's binary */
	EXIT_RUNNING = 6,   /* another capsicumd holds the instance lock */
	EXIT_NO_DAEMON = 7, /* --upgrade: no running daemon to hand over */
};

#endif
