/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CAPSICUMD_QUERY_H
#define CAPSICUMD_QUERY_H

#include <capsicum/abi.h>
#include <capsicum/pins.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/*
 * capsicumd's query socket (doc/daemon.md, "Queries from users"): the
 * read-only questions capctl asks when the pins are root's. One request
 * per connection, fixed-size; one answer, a header and `count` records,
 * at most QUERY_ANSWER_MAX bytes. The daemon answers a peer (SO_PEERCRED)
 * about the processes it may see only: root all, a user those whose real,
 * effective and saved uids and gids are the peer's and that are dumpable.
 */
#define CAPSICUMD_QUERY_SOCK "/run/capsicumd.sock"
#define QUERY_MAGIC	     0x31515043u /* "CPQ1" */
#define QUERY_ANSWER_MAX     (1u << 20)

enum query_op {
	QUERY_PS = 1,	  /* records: struct query_proc */
	QUERY_FDS = 2,	  /* struct query_fds, then its records */
	QUERY_STATUS = 3, /* one struct query_status */
	/* records: struct capsicum_denial, the newest of the audit log */
	QUERY_AUDIT = 4,
	/* the same, then each new denial as it comes, until either closes */
	QUERY_AUDIT_FOLLOW = 5,
};

/* How much of the audit log's end an audit query reads. */
#define QUERY_AUDIT_SCAN (4u << 20)

struct query_req {
	__u32 magic;
	__u32 op;
	__s32 pid; /* QUERY_FDS */
	__u32 reserved;
};

/* error: 0, or a positive errno (ESRCH, EACCES, EINVAL, EBUSY, ...). */
#define QUERY_TRUNCATED 1u /* more records than fit in the answer */
struct query_answer_head {
	__u32 magic;
	__s32 error;
	__u32 count;
	__u32 flags;
};

struct query_proc {
	__s32 pid;
	__u32 flags; /* CAPSICUM_PROC_* */
	__u64 table_id;
	char comm[16];
};

struct query_fds {
	__u32 has_table;
	__u32 proc_flags;
};

/* Followed by nioctls __u64 commands when nioctls > 0. */
struct query_fd {
	__s32 fd;
	__u32 source; /* enum resolve_source */
	__u64 rights[2];
	__u32 fcntls;
	__s32 nioctls;
};

/* The pins' health as capctl status shows it. */
struct query_health {
	__s32 progs, links, links_ok, maps, maps_ok;
	__u32 fget;
};

struct query_status {
	__u32 loaded, same_build;
	struct capsicum_state_version version;
	struct query_health health;
};

/* The request in buf (len bytes), checked: 0 or a positive errno. */
int query_req_check(const void *buf, size_t len, struct query_req *out);

/*
 * The ids of a /proc/PID/status text: its Uid: and Gid: lines (real,
 * effective, saved, fs). 0, or -1 if either is missing or malformed.
 */
int query_status_ids(const char *text, unsigned int uids[4],
		     unsigned int gids[4]);

/*
 * A peer with these ids may see a process with those: root sees all; a
 * user a process whose four uids and gids are the peer's, that is
 * dumpable (its /proc/PID/status is owned by its uid, not root's).
 */
bool query_may_see(unsigned int peer_uid, unsigned int peer_gid,
		   const unsigned int uids[4], const unsigned int gids[4],
		   unsigned int status_owner);

/* Root sees every denial; a user those of tasks of their real uid. */
bool query_may_see_denial(unsigned int peer_uid,
			  const struct capsicum_denial *d);

/*
 * The answer to a QUERY_FDS in buf, walked: *fds set; the next record in
 * *pos (start at sizeof head + sizeof fds). Returns 1 and the record with
 * its ioctls, 0 at the end, -1 if the answer is malformed.
 */
int query_next_fd(const void *buf, size_t len, size_t *pos, struct query_fd *fd,
		  __u64 *ioctls);

#endif
