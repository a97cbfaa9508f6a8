// SPDX-License-Identifier: GPL-2.0
/*
 * capsicumd's query socket: capctl ps, fds and status for users the pins
 * refuse (doc/daemon.md, "Queries from users"). Everything is computed as
 * root capctl computes it (admin/state.c, admin/resolve.c), then filtered by
 * what the peer may see.
 */
#define _GNU_SOURCE
#include "query_server.h"

#include "audit_line.h"
#include "capctl_exit.h"
#include "parse_num.h"
#include "state.h"
#include "sysfiles.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

/* An answer under construction, bounded by QUERY_ANSWER_MAX. */
struct abuf {
	char *p;
	size_t len, cap;
	bool full;
};

static bool put(struct abuf *b, const void *data, size_t n)
{
	if (b->full || n > QUERY_ANSWER_MAX - b->len) {
		b->full = true;
		return false;
	}
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		char *more;

		while (cap < b->len + n)
			cap *= 2;
		if (cap > QUERY_ANSWER_MAX)
			cap = QUERY_ANSWER_MAX;
		more = realloc(b->p, cap);
		if (!more) {
			b->full = true;
			return false;
		}
		b->p = more;
		b->cap = cap;
	}
	memcpy(b->p + b->len, data, n);
	b->len += n;
	return true;
}

static struct query_answer_head *head(struct abuf *b)
{
	return (struct query_answer_head *)b->p;
}

/* 0 if the peer may see pid, ESRCH if it is gone, EACCES if not its. */
static int may_see(const struct query_client *c, pid_t pid)
{
	unsigned int uids[4], gids[4];
	char path[64], text[4096];
	struct stat st;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ESRCH;
	/*
	 * A non-dumpable process's /proc files are root's (the directory
	 * /proc/PID itself keeps the euid: procfs's task_dump_owner()).
	 */
	n = read(fd, text, sizeof(text) - 1);
	if (fstat(fd, &st))
		n = -1;
	close(fd);
	if (n <= 0)
		return ESRCH;
	text[n] = '\0';
	if (query_status_ids(text, uids, gids))
		return ESRCH;
	return query_may_see(c->uid, c->gid, uids, gids, st.st_uid) ? 0
								    : EACCES;
}

static int state_error(int ret)
{
	return ret == CAPCTL_EXIT_UNLOADED  ? ENOPKG
	       : ret == CAPCTL_EXIT_VERSION ? ESTALE
					    : EIO;
}

static void answer_ps(const struct query_client *c, struct abuf *b)
{
	struct dirent *e;
	struct state s;
	DIR *d;
	int ret = state_open(&s);

	if (ret) {
		head(b)->error = state_error(ret);
		return;
	}
	d = opendir("/proc");
	if (!d) {
		head(b)->error = errno;
		state_close(&s);
		return;
	}
	while ((e = readdir(d))) {
		struct query_proc r = { 0 };
		struct capsicum_proc p;
		char path[64], comm[64];
		pid_t pid;

		if (!isdigit((unsigned char)e->d_name[0]) ||
		    parse_pid(e->d_name, &pid) || may_see(c, pid) ||
		    state_proc(&s, pid, &p))
			continue;
		snprintf(path, sizeof(path), "/proc/%d/comm", pid);
		read_first_line(path, comm, sizeof(comm));
		r.pid = pid;
		r.flags = p.flags;
		r.table_id = p.table_id;
		snprintf(r.comm, sizeof(r.comm), "%.15s", comm);
		if (!put(b, &r, sizeof(r)))
			break;
		head(b)->count++;
	}
	closedir(d);
	state_close(&s);
}

static int pidfd_alive(int pidfd)
{
	return syscall(SYS_pidfd_send_signal, pidfd, 0, NULL, 0) ? ESRCH : 0;
}

static int fds_of(const struct query_client *c, struct state *s, pid_t pid,
		  int pidfd, struct abuf *b)
{
	struct capsicum_fd_record *recs = NULL;
	struct query_fds f = { 0 };
	struct capsicum_proc proc;
	struct resolve_tables t;
	struct resolved *r;
	int n, err;

	n = fdtable_dump(pid, &recs);
	if (n < 0)
		return -n;
	f.has_table = !state_proc(s, pid, &proc);
	f.proc_flags = f.has_table ? proc.flags : 0;
	/* The same process throughout, and still the peer's. */
	err = pidfd_alive(pidfd);
	if (!err)
		err = may_see(c, pid);
	r = malloc(sizeof(*r));
	if (!err && !r)
		err = ENOMEM;
	if (err || !put(b, &f, sizeof(f))) {
		free(r);
		free(recs);
		return err ? err : ENOMEM;
	}
	state_tables(s, &t);
	for (int i = 0; i < n; i++) {
		struct query_fd q = { .fd = recs[i].fd };
		size_t extra;

		resolve_fd(&t, f.has_table ? &proc : NULL, recs[i].fd,
			   recs[i].file, r);
		q.source = r->source;
		q.rights[0] = r->rights[0];
		q.rights[1] = r->rights[1];
		q.fcntls = r->fcntls;
		q.nioctls = r->nioctls;
		extra = q.nioctls > 0 ? (size_t)q.nioctls * sizeof(__u64) : 0;
		if (sizeof(q) + extra > QUERY_ANSWER_MAX - b->len) {
			b->full = true;
			break;
		}
		put(b, &q, sizeof(q));
		put(b, r->ioctls, extra);
		head(b)->count++;
	}
	free(r);
	free(recs);
	return 0;
}

static void answer_fds(const struct query_client *c, pid_t pid, struct abuf *b)
{
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0), err, ret;
	struct state s;

	if (pidfd < 0) {
		head(b)->error = ESRCH;
		return;
	}
	err = may_see(c, pid);
	if (!err) {
		ret = state_open(&s);
		if (ret) {
			err = state_error(ret);
		} else {
			err = fds_of(c, &s, pid, pidfd, b);
			state_close(&s);
		}
	}
	close(pidfd);
	head(b)->error = err;
}

static void answer_status(struct abuf *b)
{
	struct query_status st = { 0 };
	struct state s;
	int ret = state_open(&s);

	st.loaded = ret == 0 || ret == CAPCTL_EXIT_VERSION;
	st.same_build = st.loaded && s.same_build;
	st.version = s.version;
	pin_health(&st.health);
	state_close(&s);
	if (put(b, &st, sizeof(st)))
		head(b)->count = 1;
}

/*
 * The newest denials of the audit log the peer may see, from its last
 * QUERY_AUDIT_SCAN bytes, as many as fit in an answer; a follower gets
 * the newest QUERY_FOLLOW_BACKLOG bytes' worth (as tail -f starts with
 * the last lines), so the live ones that follow never wait behind a
 * megabyte of history.
 */
static void answer_audit(const struct query_server *q,
			 const struct query_client *c, struct abuf *b)
{
	const size_t room =
		(c->follow ? QUERY_FOLLOW_BACKLOG : QUERY_ANSWER_MAX - b->len) /
		sizeof(struct capsicum_denial);
	struct capsicum_denial *ring = NULL;
	size_t n = 0, seen = 0;
	char *line = NULL;
	size_t cap = 0;
	struct stat st;
	FILE *f;

	if (!q->audit_path || !(f = fopen(q->audit_path, "re")))
		return; /* no log: no denials */
	ring = calloc(room, sizeof(*ring));
	if (!ring) {
		fclose(f);
		head(b)->error = ENOMEM;
		return;
	}
	if (!fstat(fileno(f), &st) && st.st_size > QUERY_AUDIT_SCAN) {
		fseeko(f, st.st_size - QUERY_AUDIT_SCAN, SEEK_SET);
		if (getline(&line, &cap, f) < 0) /* a partial line */
			clearerr(f);
		b->full = true;
	}
	for (ssize_t len; (len = getline(&line, &cap, f)) > 0;) {
		struct capsicum_denial d;

		if (line[len - 1] != '\n' || audit_line_parse(line, &d) ||
		    !query_may_see_denial(c->uid, &d))
			continue;
		ring[seen++ % room] = d;
	}
	free(line);
	fclose(f);
	n = seen < room ? seen : room;
	if (seen > room)
		b->full = true;
	for (size_t i = seen - n; i < seen; i++)
		put(b, &ring[i % room], sizeof(*ring));
	head(b)->count = (__u32)n;
	free(ring);
}

static void client_close(struct query_client *c)
{
	close(c->fd);
	free(c->out);
	memset(c, 0, sizeof(*c));
	c->fd = -1;
}

/* Computes the answer to the request c has sent; it is sent next. */
static void answer(struct query_server *q, struct query_client *c)
{
	struct query_answer_head h = { .magic = QUERY_MAGIC };
	struct abuf b = { 0 };
	struct query_req req;
	char extra;

	if (!put(&b, &h, sizeof(h))) {
		client_close(c);
		return;
	}
	head(&b)->error = query_req_check(c->req, c->got, &req);
	/* A longer request is refused whole, whatever its start. */
	if (!head(&b)->error &&
	    recv(c->fd, &extra, 1, MSG_PEEK | MSG_DONTWAIT) == 1)
		head(&b)->error = EMSGSIZE;
	if (!head(&b)->error) {
		switch (req.op) {
		case QUERY_PS:
			answer_ps(c, &b);
			break;
		case QUERY_FDS:
			answer_fds(c, req.pid, &b);
			break;
		case QUERY_AUDIT:
		case QUERY_AUDIT_FOLLOW:
			c->follow = req.op == QUERY_AUDIT_FOLLOW;
			answer_audit(q, c, &b);
			break;
		default:
			answer_status(&b);
			break;
		}
	}
	if (b.full)
		head(&b)->flags |= QUERY_TRUNCATED;
	if (head(&b)->error) {
		head(&b)->count = 0;
		b.len = sizeof(h);
		c->follow = false;
	}
	if (!c->follow) {
		shutdown(c->fd, SHUT_RD);
		/*
		 * The answer (up to 1 MiB) gets its own time to be read: a
		 * daemon busy with a flood of denials sends it in many turns.
		 */
		clock_gettime(CLOCK_MONOTONIC, &c->deadline);
		c->deadline.tv_sec += QUERY_SEND_S;
	} else {
		c->deadline.tv_sec = INT64_MAX / 2; /* until either closes */
	}
	c->out = b.p;
	c->outlen = b.len;
	c->outcap = b.cap;
	c->outoff = 0;
	q->answered++;
}

int query_open(struct query_server *q, const char *path, const char *audit_path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	mode_t old;
	int err;

	memset(q, 0, sizeof(*q));
	for (int i = 0; i < QUERY_MAX_CLIENTS; i++)
		q->c[i].fd = -1;
	q->listen_fd = -1;
	q->path = path;
	q->audit_path = audit_path;
	if (strlen(path) >= sizeof(a.sun_path))
		return -ENAMETOOLONG;
	strcpy(a.sun_path, path);
	q->listen_fd =
		socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (q->listen_fd < 0)
		return -errno;
	unlink(path); /* a previous daemon's */
	/* Created 0666 at once: no window where it has other modes. */
	old = umask(0111);
	err = bind(q->listen_fd, (struct sockaddr *)&a, sizeof(a)) ||
	      listen(q->listen_fd, QUERY_MAX_CLIENTS);
	umask(old);
	if (err) {
		err = -errno;
		close(q->listen_fd);
		q->listen_fd = -1;
		return err;
	}
	return 0;
}

int query_pollfds(struct query_server *q, struct pollfd *p)
{
	struct timespec now;
	int n = 0;

	if (q->listen_fd < 0)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &now);
	p[n++] = (struct pollfd){ .fd = q->listen_fd, .events = POLLIN };
	for (int i = 0; i < QUERY_MAX_CLIENTS; i++) {
		struct query_client *c = &q->c[i];

		if (c->fd < 0)
			continue;
		if (now.tv_sec > c->deadline.tv_sec ||
		    (now.tv_sec == c->deadline.tv_sec &&
		     now.tv_nsec >= c->deadline.tv_nsec)) {
			client_close(c); /* too slow a reader or writer */
			continue;
		}
		q->slot[n - 1] = i;
		/* A follower with nothing to send waits for its hangup. */
		p[n++] = (struct pollfd){
			.fd = c->fd,
			.events = c->out && c->outoff < c->outlen ? POLLOUT
								  : POLLIN
		};
	}
	q->nslots = n - 1;
	return n;
}

static void refuse(struct query_server *q, int fd)
{
	struct query_answer_head h = { .magic = QUERY_MAGIC, .error = EBUSY };

	/* Fits in an empty socket buffer; if not, the peer learns by EOF. */
	if (send(fd, &h, sizeof(h), MSG_DONTWAIT | MSG_NOSIGNAL) < 0)
		(void)0;
	close(fd);
	q->refused++;
}

static void accept_clients(struct query_server *q)
{
	/* A bounded batch per turn: the loop goes back to the ring buffer. */
	for (int k = 0; k < QUERY_MAX_CLIENTS; k++) {
		struct ucred cred;
		socklen_t len = sizeof(cred);
		int fd = accept4(q->listen_fd, NULL, NULL,
				 SOCK_NONBLOCK | SOCK_CLOEXEC),
		    free_slot = -1, same = 0;

		if (fd < 0)
			return;
		if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len)) {
			close(fd);
			continue;
		}
		for (int i = 0; i < QUERY_MAX_CLIENTS; i++) {
			if (q->c[i].fd < 0 && free_slot < 0)
				free_slot = i;
			else if (q->c[i].fd >= 0 && q->c[i].uid == cred.uid)
				same++;
		}
		if (free_slot < 0 || same >= QUERY_MAX_PER_UID) {
			refuse(q, fd);
			continue;
		}
		struct query_client *c = &q->c[free_slot];

		memset(c, 0, sizeof(*c));
		c->fd = fd;
		c->uid = cred.uid;
		c->gid = cred.gid;
		clock_gettime(CLOCK_MONOTONIC, &c->deadline);
		c->deadline.tv_sec += QUERY_DEADLINE_S;
	}
}

static void client_io(struct query_server *q, struct query_client *c,
		      short revents)
{
	ssize_t n;

	if (!c->out) {
		if (!(revents & (POLLIN | POLLHUP | POLLERR)))
			return;
		n = recv(c->fd, c->req + c->got, sizeof(c->req) - c->got,
			 MSG_DONTWAIT);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return;
		if (n <= 0) {
			client_close(c); /* gone before a whole request */
			return;
		}
		c->got += (size_t)n;
		if (c->got == sizeof(c->req))
			answer(q, c);
		return;
	}
	if (c->outoff == c->outlen) {
		/* A follower: input, EOF or an error ends it. */
		if (revents)
			client_close(c);
		return;
	}
	if (!(revents & (POLLOUT | POLLHUP | POLLERR)))
		return;
	n = send(c->fd, c->out + c->outoff, c->outlen - c->outoff,
		 MSG_DONTWAIT | MSG_NOSIGNAL);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n < 0) {
		client_close(c);
		return;
	}
	c->outoff += (size_t)n;
	if (c->outoff == c->outlen && !c->follow)
		client_close(c);
}

/* Queues d for c; false if c is too far behind. */
static bool follower_put(struct query_client *c,
			 const struct capsicum_denial *d)
{
	size_t pending = c->outlen - c->outoff;

	if (pending + sizeof(*d) > QUERY_FOLLOW_BACKLOG + QUERY_ANSWER_MAX)
		return false;
	if (c->outoff) {
		memmove(c->out, c->out + c->outoff, pending);
		c->outoff = 0;
		c->outlen = pending;
	}
	if (c->outlen + sizeof(*d) > c->outcap) {
		size_t cap = c->outlen + sizeof(*d) + 4096;
		char *more = realloc(c->out, cap);

		if (!more)
			return false;
		c->out = more;
		c->outcap = cap;
	}
	memcpy(c->out + c->outlen, d, sizeof(*d));
	c->outlen += sizeof(*d);
	return true;
}

void query_denial(void *qp, const struct capsicum_denial *d)
{
	struct query_server *q = qp;

	for (int i = 0; i < QUERY_MAX_CLIENTS; i++) {
		struct query_client *c = &q->c[i];

		if (c->fd < 0 || !c->follow || !c->out ||
		    !query_may_see_denial(c->uid, d))
			continue;
		if (!follower_put(c, d))
			client_close(c); /* a follower that does not read */
	}
}

void query_serve(struct query_server *q, const struct pollfd *p, int n)
{
	if (n <= 0)
		return;
	for (int i = 1; i < n && i - 1 < q->nslots; i++) {
		struct query_client *c = &q->c[q->slot[i - 1]];

		if (p[i].revents && c->fd == p[i].fd)
			client_io(q, c, p[i].revents);
	}
	if (p[0].revents & POLLIN)
		accept_clients(q);
}

void query_close(struct query_server *q)
{
	for (int i = 0; i < QUERY_MAX_CLIENTS; i++)
		if (q->c[i].fd >= 0)
			client_close(&q->c[i]);
	if (q->listen_fd >= 0) {
		close(q->listen_fd);
		unlink(q->path);
	}
	q->listen_fd = -1;
}
