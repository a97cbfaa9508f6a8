// SPDX-License-Identifier: GPL-2.0
/*
 * capctl run --learn (doc/learn.md): the program runs in the sandbox
 * `capctl run` would give it, marked as learning, so every check that
 * would refuse it is recorded and then allowed; at its exit capctl prints
 * the refusals and the narrowest command line that lets that run through.
 *
 * Two sources of records: the BPF side's (a denial record carrying the
 * learn id, through capsicumd's ring buffer and audit log, read back
 * with an audit query once the program is gone), and capability mode's
 * seccomp filter, which in a learning tree notifies this process instead
 * of refusing: cap_enter() hands the filter's listener over on an
 * abstract socket named by the learn id, and each notification is
 * recorded and answered "continue".
 */
#define _GNU_SOURCE
#include "ask.h"
#include "audit_line.h"
#include "commands.h"
#include "counters.h"
#include "learn.h"
#include "policy.h"
#include "sysfiles.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Filters handed over: one per cap_enter() of the tree, bounded. */
#define LEARN_MAX_LISTENERS 64

struct supervisor {
	__u32 id;
	int sock, exec_pipe, pidfd;
	int listeners[LEARN_MAX_LISTENERS];
	int nlisteners;
	bool setup_failed;
	struct learn *learn;
};

/* CAPSICUM_OP_LEARN for the calling process: 0 or -1 with errno. */
static int learn_enable(void)
{
	struct capsicum_req req = { .magic = CAPSICUM_REQ_MAGIC,
				    .version = CAPSICUM_ABI_VERSION,
				    .op = CAPSICUM_OP_LEARN };

	if (prctl(CAPSICUM_PRCTL_OPTION, &req, 0, 0, 0) >= 0 ||
	    errno == EINVAL) {
		errno = ENOSYS;
		return -1;
	}
	return errno == CAPSICUM_STATUS_OK ? 0 : -1;
}

static uint64_t monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* The abstract socket cap_enter() of the tree connects to. */
static int supervisor_listen(__u32 id)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	int n = snprintf(a.sun_path + 1, sizeof(a.sun_path) - 1,
			 CAPSICUM_LEARN_SOCKET_PREFIX "%u", id);

	if (fd < 0)
		return -1;
	if (bind(fd, (const struct sockaddr *)&a,
		 (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 +
			     (size_t)n)) ||
	    listen(fd, 16)) {
		close(fd);
		return -1;
	}
	return fd;
}

static bool is_seccomp_listener(int fd)
{
	char path[64], target[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return false;
	target[n] = '\0';
	return !strcmp(target, "anon_inode:seccomp notify");
}

/* A listener sent on a connection to the socket, kept if there is room. */
static void accept_listener(struct supervisor *s)
{
	char byte, buf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr m = { .msg_iov = &iov,
			    .msg_iovlen = 1,
			    .msg_control = buf,
			    .msg_controllen = sizeof(buf) };
	struct cmsghdr *c;
	int conn = accept4(s->sock, NULL, NULL, SOCK_CLOEXEC), fd = -1;

	if (conn < 0)
		return;
	/* The sender wrote before it closed: this does not wait for long. */
	if (recvmsg(conn, &m, MSG_CMSG_CLOEXEC) == 1 &&
	    (c = CMSG_FIRSTHDR(&m)) && c->cmsg_level == SOL_SOCKET &&
	    c->cmsg_type == SCM_RIGHTS && c->cmsg_len == CMSG_LEN(sizeof(int)))
		memcpy(&fd, CMSG_DATA(c), sizeof(int));
	close(conn);
	if (fd < 0)
		return;
	/* Anyone may connect: only a seccomp listener is asked anything. */
	if (!is_seccomp_listener(fd)) {
		close(fd);
		return;
	}
	if (s->nlisteners == LEARN_MAX_LISTENERS) {
		/* Its calls then fail with ENOSYS: learnt less, say so. */
		learn_incomplete(s->learn, "more cap_enter() filters than "
					   "capctl follows");
		close(fd);
		return;
	}
	s->listeners[s->nlisteners++] = fd;
}

/*
 * One notification: recorded as capability mode's refusal, then let
 * through. 0, or -1 when the listener is done (every process using the
 * filter is gone) or is no listener at all.
 */
static int answer_notification(struct supervisor *s, int listener)
{
	struct seccomp_notif req;
	struct seccomp_notif_resp resp;
	struct capsicum_denial d = { 0 };

	memset(&req, 0, sizeof(req));
	if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &req))
		return errno == EINTR || errno == ENOENT ? 0 : -1;
	d.time_ns = monotonic_ns();
	d.pid = req.pid;
	d.tid = req.pid;
	d.fd = -1;
	/* Another ABI's numbers are not the table's: unknown. */
	d.syscall_nr = req.data.arch == AUDIT_ARCH_X86_64 ? req.data.nr : -1;
	d.hook = CAPSICUM_HOOK_SECCOMP;
	d.error = ECAPMODE;
	d.uid = CAPSICUM_DENIAL_NO_UID;
	d.learn_id = s->id;
	if (learn_add(s->learn, &d))
		learn_incomplete(s->learn, "too many distinct refusals");
	memset(&resp, 0, sizeof(resp));
	resp.id = req.id;
	resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
	/* ENOENT: the caller died meanwhile. */
	ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
	return 0;
}

static void drop_listener(struct supervisor *s, int i)
{
	close(s->listeners[i]);
	s->listeners[i] = s->listeners[--s->nlisteners];
}

/* Serves the tree until the program (the child) exits. */
static void supervise(struct supervisor *s)
{
	for (;;) {
		struct pollfd p[3 + LEARN_MAX_LISTENERS] = {
			{ .fd = s->sock, .events = POLLIN },
			{ .fd = s->exec_pipe, .events = POLLIN },
			{ .fd = s->pidfd, .events = POLLIN },
		};
		int n = s->nlisteners;

		for (int i = 0; i < n; i++)
			p[3 + i] = (struct pollfd){ .fd = s->listeners[i],
						    .events = POLLIN };
		if (poll(p, 3 + (nfds_t)n, -1) < 0) {
			if (errno == EINTR)
				continue;
			return;
		}
		/* Newest first: a dropped listener moves the last one. */
		for (int i = n - 1; i >= 0; i--) {
			short ev = p[3 + i].revents;

			if ((ev & POLLIN) &&
			    !answer_notification(s, s->listeners[i]))
				continue;
			if (ev & (POLLIN | POLLHUP | POLLERR | POLLNVAL))
				drop_listener(s, i);
		}
		if (p[0].revents & POLLIN)
			accept_listener(s);
		if (p[1].revents & (POLLIN | POLLHUP)) {
			char byte;

			s->setup_failed = read(s->exec_pipe, &byte, 1) == 1;
			close(s->exec_pipe);
			s->exec_pipe = -1;
		}
		if (p[2].revents & POLLIN)
			return;
	}
}

/* Where capsicumd's audit log ended when the run started. */
struct audit_mark {
	FILE *f;
	off_t at;
	ino_t ino;
};

static void audit_mark(struct audit_mark *m)
{
	struct stat st;

	m->f = fopen(CAPCTL_DEFAULT_AUDIT, "re");
	if (m->f && !fstat(fileno(m->f), &st)) {
		m->at = st.st_size;
		m->ino = st.st_ino;
	} else if (m->f) {
		fclose(m->f);
		m->f = NULL;
	}
}

static void add_record(struct supervisor *s, const struct capsicum_denial *d,
		       uint64_t start_ns)
{
	if (d->learn_id == s->id && d->time_ns >= start_ns &&
	    learn_add(s->learn, d))
		learn_incomplete(s->learn, "too many distinct refusals");
}

/* The log's lines from the mark on: false if it was rotated meanwhile. */
static bool read_log_from_mark(struct supervisor *s, struct audit_mark *m,
			       uint64_t start_ns)
{
	struct capsicum_denial d;
	struct stat st;
	char *line = NULL;
	size_t cap = 0;

	if (stat(CAPCTL_DEFAULT_AUDIT, &st) || st.st_ino != m->ino ||
	    st.st_size < m->at || fseeko(m->f, m->at, SEEK_SET))
		return false;
	while (getline(&line, &cap, m->f) > 0)
		if (!audit_line_parse(line, &d))
			add_record(s, &d, start_ns);
	free(line);
	return true;
}

/*
 * The BPF side's records of the tree, from capsicumd's audit log, read
 * once the program is gone: capsicumd drains the ring buffer before it
 * answers a query, so after one every record of the run is in the log.
 * From where the log ended at the start of the run; if it cannot be read
 * there, from an audit query's answer (the newest records that fit).
 */
static void collect_bpf_records(struct supervisor *s, uint64_t start_ns,
				struct audit_mark *m,
				const struct capsicum_counters *before)
{
	struct query_answer_head h;
	struct capsicum_counters after;
	struct capsicum_denial *rec = NULL;
	size_t len = 0;
	bool older_seen = false;

	if (ask_daemon(m->f ? QUERY_STATUS : QUERY_AUDIT, 0, &h, (void **)&rec,
		       &len)) {
		learn_incomplete(s->learn, "capsicumd could not be asked: "
					   "descriptor refusals are missing");
		return;
	}
	if (m->f) {
		free(rec);
		if (!read_log_from_mark(s, m, start_ns))
			learn_incomplete(s->learn,
					 "capsicumd's audit log was rotated "
					 "during the run");
	} else {
		for (size_t i = 0; i < len / sizeof(*rec); i++) {
			older_seen |= rec[i].time_ns < start_ns;
			add_record(s, &rec[i], start_ns);
		}
		free(rec);
		if (!older_seen)
			learn_incomplete(s->learn,
					 "the audit log's answer may not reach "
					 "back to the start of the run");
	}
	if (!counters_read(&after) &&
	    after.denials_dropped != before->denials_dropped)
		learn_incomplete(s->learn, "the denial ring buffer was full: "
					   "records were dropped");
}

/* The child: learning on, then the sandbox and the program. */
static _Noreturn void child(const struct run_opts *r, int go, int exec_pipe)
{
	char byte;
	int code;

	if (read(go, &byte, 1) != 1)
		_exit(CAPCTL_EXIT_ERROR); /* capctl is gone */
	close(go);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (learn_enable()) {
		fprintf(stderr, "capctl: run --learn: %s\n",
			errno == EPERM ? "learning needs CAP_SYS_ADMIN (root)"
			: errno == ENOSYS
				? "Capsicum is not loaded (start capsicumd)"
				: strerror(errno));
		code = errno == EPERM	 ? CAPCTL_EXIT_DENIED
		       : errno == ENOSYS ? CAPCTL_EXIT_UNLOADED
					 : CAPCTL_EXIT_ERROR;
	} else {
		code = run_exec(r);
	}
	/* Not executed: tell the supervisor there is nothing to learn. */
	if (write(exec_pipe, "x", 1) != 1)
		code = CAPCTL_EXIT_ERROR;
	_exit(code);
}

static int exit_code_of(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 1;
}

int cmd_run_learn(const struct capctl_args *a)
{
	const struct run_opts *r = &a->run;
	struct supervisor s = { .sock = -1, .exec_pipe = -1, .pidfd = -1 };
	struct capsicum_counters before = { 0 };
	struct audit_mark mark = { 0 };
	struct run_opts suggested;
	static struct learn learnt;
	int go[2], ex[2], status = 0, err;
	uint64_t start_ns;
	pid_t pid;

	if (!daemon_pid()) {
		fprintf(stderr, "capctl: run --learn: capsicumd is not "
				"running: the records come through it\n");
		return CAPCTL_EXIT_ERROR;
	}
	learn_init(&learnt, r);
	s.learn = &learnt;
	counters_read(&before);
	start_ns = monotonic_ns();
	audit_mark(&mark);
	if (pipe2(go, O_CLOEXEC) || pipe2(ex, O_CLOEXEC)) {
		perror("capctl: run --learn: pipe");
		return CAPCTL_EXIT_ERROR;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		perror("capctl: run --learn: fork");
		return CAPCTL_EXIT_ERROR;
	}
	if (pid == 0) {
		close(go[1]);
		close(ex[0]);
		child(r, go[0], ex[1]);
	}
	close(go[0]);
	close(ex[1]);
	s.id = (__u32)pid;
	s.exec_pipe = ex[0];
	s.sock = supervisor_listen(s.id);
	s.pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (s.sock < 0 || s.pidfd < 0 || write(go[1], "g", 1) != 1) {
		perror("capctl: run --learn: supervisor");
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return CAPCTL_EXIT_ERROR;
	}
	close(go[1]);
	supervise(&s);
	waitpid(pid, &status, 0);
	/* The tree's remaining calls now fail (ENOSYS), never pass. */
	while (s.nlisteners)
		drop_listener(&s, s.nlisteners - 1);
	close(s.sock);
	close(s.pidfd);
	if (s.exec_pipe >= 0) {
		char byte;

		s.setup_failed = read(s.exec_pipe, &byte, 1) == 1;
		close(s.exec_pipe);
	}
	if (s.setup_failed)
		return exit_code_of(status);
	collect_bpf_records(&s, start_ns, &mark, &before);
	if (mark.f)
		fclose(mark.f);
	learn_suggest(&learnt, &suggested);
	learn_report(&learnt, &suggested, r->argv, stderr, a->json);
	if (r->write_policy) {
		char msg[512];

		err = policy_write(&suggested, r->write_policy, msg,
				   sizeof(msg));
		if (err) {
			fprintf(stderr, "capctl: run --learn: %s\n", msg);
			return CAPCTL_EXIT_ERROR;
		}
	}
	return exit_code_of(status);
}
