/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CAPCTL_STATE_H
#define CAPCTL_STATE_H

#include "query.h"
#include "resolve.h"

#include <capsicum/fdtable_iter.h>
#include <capsicum/pins.h>
#include <stdbool.h>
#include <sys/types.h>

/*
 * The pinned state as capctl sees it: read-only fds of the tables (the
 * protection hooks refuse writable ones to anything but the loader).
 */
struct state {
	struct capsicum_state_version version;
	bool same_build; /* the stamp matches this capctl's BPF object */
	bool unfinished; /* the stamp is still pinned as loading */
	int procs, fds, floors, files, ioctls;
};

/*
 * 0; or a capctl exit code with a message on stderr: CAPCTL_EXIT_UNLOADED
 * (nothing pinned), _VERSION (another build: tables not interpreted),
 * _DENIED or _ERROR.
 */
int state_open(struct state *s);
/*
 * As state_open(), but a caller the pins refuse (EACCES, EPERM: not root)
 * gets STATE_VIA_DAEMON without a message: it asks capsicumd instead.
 */
#define STATE_VIA_DAEMON (-1)
int state_open_or_daemon(struct state *s);
void state_close(struct state *s);
/* The lookups resolve_fd() needs, on these fds. */
void state_tables(struct state *s, struct resolve_tables *t);

/* The process's table: 0, -ENOENT if it has none, or -errno. */
int state_proc(const struct state *s, pid_t pid, struct capsicum_proc *p);

/*
 * Every descriptor of pid with its struct file, by the fdtable iterator,
 * sorted by fd. Returns the count (records in *out, to free), or -errno.
 */
int fdtable_dump(pid_t pid, struct capsicum_fd_record **out);

/* Counts the pins; a link is healthy if it still holds a program. */
void pin_health(struct query_health *h);

#endif
