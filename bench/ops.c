// SPDX-License-Identifier: GPL-2.0
/*
 * The operations the benchmark times. Each opens what it needs in setup,
 * records the exact rights its descriptors need (config (c) limits them to
 * that), and does one operation per run() call. Every call's result is
 * checked: a loop that silently fails would time an error path.
 */
#define _GNU_SOURCE
#include "bench.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char buf[64];

void op_state_init(struct op_state *st)
{
	memset(st, 0, sizeof(*st));
	for (int i = 0; i < BENCH_MAX_FDS; i++)
		st->fd[i] = -1;
	st->helper_req = st->helper_ack = -1;
	st->helper_pid = -1;
}

void op_state_close(struct op_state *st)
{
	for (int i = 0; i < BENCH_MAX_FDS; i++)
		if (st->fd[i] >= 0)
			close(st->fd[i]);
	if (st->helper_req >= 0)
		close(st->helper_req); /* EOF ends the helper */
	if (st->helper_ack >= 0)
		close(st->helper_ack);
	if (st->helper_pid > 0)
		waitpid(st->helper_pid, NULL, 0);
	op_state_init(st);
}

static int mkdir_p(const char *path)
{
	if (mkdir(path, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

int bench_make_tree(void)
{
	static const char *const dirs[] = { BENCH_DIR, BENCH_DIR "/a",
					    BENCH_DIR "/a/b",
					    BENCH_DIR "/a/b/c" };
	int fd, err;

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		err = mkdir_p(dirs[i]);
		if (err)
			return err;
	}
	fd = open(BENCH_FILE, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return -errno;
	/* One page, so mmap has something to map and pread to read. */
	for (int i = 0; i < 4096 / (int)sizeof(buf); i++) {
		if (write(fd, buf, sizeof(buf)) != sizeof(buf)) {
			close(fd);
			return -EIO;
		}
	}
	return close(fd) ? -errno : 0;
}

static int errno_of(long ret)
{
	return ret < 0 ? -errno : 0;
}

/* For the open-then-close operations: fd is what the open returned. */
static int close_new(int fd)
{
	if (fd < 0)
		return -errno;
	return errno_of(close(fd));
}

/*
 * The common setup: one descriptor of op->path, which needs exactly
 * op->need (one index-0 rights value; 0 for none, as dup needs none).
 */
static int setup_path(const struct op *op, struct op_state *st)
{
	st->fd[0] = open(op->path, op->oflags);
	if (st->fd[0] < 0)
		return -errno;
	if (op->need)
		cap_rights_init(&st->rights[0], op->need);
	else
		cap_rights_init(&st->rights[0]);
	return 0;
}

int op_setup(const struct op *op, struct op_state *st)
{
	if (op->setup)
		return op->setup(st);
	return op->path ? setup_path(op, st) : 0;
}

static int run_read(struct op_state *st)
{
	return read(st->fd[0], buf, 1) == 1 ? 0 : -EIO;
}

static int run_write(struct op_state *st)
{
	return write(st->fd[0], buf, 1) == 1 ? 0 : -EIO;
}

static int run_pread(struct op_state *st)
{
	return pread(st->fd[0], buf, 1, 0) == 1 ? 0 : -EIO;
}

static int run_mmap(struct op_state *st)
{
	void *p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, st->fd[0], 0);

	if (p == MAP_FAILED)
		return -errno;
	return errno_of(munmap(p, 4096));
}

static int run_fstat(struct op_state *st)
{
	struct stat s;

	return errno_of(fstat(st->fd[0], &s));
}

static int run_open(struct op_state *st)
{
	(void)st;
	return close_new(open(BENCH_FILE, O_RDONLY));
}

static int run_openat(struct op_state *st)
{
	return close_new(openat(st->fd[0], BENCH_DIR_REL, O_RDONLY));
}

/* A lookup of four components from a descriptor: one search each. */
static int run_stat(struct op_state *st)
{
	struct stat s;

	return errno_of(fstatat(st->fd[0], BENCH_STAT_REL, &s, 0));
}

static int setup_socketpair(struct op_state *st)
{
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, st->fd))
		return -errno;
	cap_rights_init(&st->rights[0], CAP_SEND);
	cap_rights_init(&st->rights[1], CAP_RECV);
	return 0;
}

static int run_socketpair(struct op_state *st)
{
	if (send(st->fd[0], buf, sizeof(buf), 0) != sizeof(buf))
		return -EIO;
	return recv(st->fd[1], buf, sizeof(buf), MSG_WAITALL) == sizeof(buf)
		       ? 0
		       : -EIO;
}

/*
 * The TCP helper, a child forked before any restriction: on request it
 * connects n clients to the listener (their connections wait in the
 * accept queue), and on n == 0 closes them. Connecting is not what is
 * timed, and capability mode would forbid it in the timed process.
 */
static void tcp_helper(int req, int ack, const struct sockaddr_in *sin)
{
	static int clients[4096];
	int n, nclients = 0;

	while (read(req, &n, sizeof(n)) == sizeof(n)) {
		int status = 0;

		if (n == 0) {
			while (nclients > 0)
				close(clients[--nclients]);
		}
		for (int i = 0; i < n && !status; i++) {
			int c = socket(AF_INET, SOCK_STREAM, 0);

			if (c < 0 ||
			    nclients == (int)(sizeof(clients) /
					      sizeof(clients[0])) ||
			    connect(c, (const struct sockaddr *)sin,
				    sizeof(*sin))) {
				status = -errno;
				if (c >= 0)
					close(c);
				break;
			}
			clients[nclients++] = c;
		}
		if (write(ack, &status, sizeof(status)) != sizeof(status))
			break;
	}
	_exit(0);
}

static int setup_accept(struct op_state *st)
{
	struct sockaddr_in sin = { .sin_family = AF_INET,
				   .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	/*
	 * An abortive close (RST) leaves no TIME_WAIT socket behind, so the
	 * thousands of connections of one run do not lengthen the hash
	 * chains later configurations look up. Accepted sockets inherit it.
	 */
	struct linger lg = { .l_onoff = 1, .l_linger = 0 };
	socklen_t len = sizeof(sin);
	int req[2], ack[2];
	pid_t pid;

	st->fd[0] = socket(AF_INET, SOCK_STREAM, 0);
	if (st->fd[0] < 0)
		return -errno;
	if (setsockopt(st->fd[0], SOL_SOCKET, SO_LINGER, &lg, sizeof(lg)) ||
	    bind(st->fd[0], (struct sockaddr *)&sin, sizeof(sin)) ||
	    getsockname(st->fd[0], (struct sockaddr *)&sin, &len) ||
	    listen(st->fd[0], 4096))
		return -errno;
	cap_rights_init(&st->rights[0], CAP_ACCEPT);
	if (pipe2(req, O_CLOEXEC))
		return -errno;
	if (pipe2(ack, O_CLOEXEC)) {
		close(req[0]);
		close(req[1]);
		return -errno;
	}
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		close(req[1]);
		close(ack[0]);
		close(st->fd[0]);
		tcp_helper(req[0], ack[1], &sin);
	}
	close(req[0]);
	close(ack[1]);
	st->helper_req = req[1];
	st->helper_ack = ack[0];
	st->helper_pid = pid;
	return 0;
}

static int helper_call(struct op_state *st, int n)
{
	int status;

	if (write(st->helper_req, &n, sizeof(n)) != sizeof(n) ||
	    read(st->helper_ack, &status, sizeof(status)) != sizeof(status))
		return -EPIPE;
	return status;
}

static int prepare_accept(struct op_state *st, int n)
{
	return helper_call(st, n);
}

static int run_accept(struct op_state *st)
{
	return close_new(accept(st->fd[0], NULL, NULL));
}

static int finish_accept(struct op_state *st)
{
	return helper_call(st, 0);
}

static int run_dup(struct op_state *st)
{
	return close_new(dup(st->fd[0]));
}

static int wait_ok(pid_t pid)
{
	int status;

	if (pid < 0)
		return -errno;
	if (waitpid(pid, &status, 0) != pid)
		return -errno;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -ECHILD;
}

static int run_fork(struct op_state *st)
{
	pid_t pid = fork();

	(void)st;
	if (pid == 0)
		_exit(0);
	return wait_ok(pid);
}

static int run_exec(struct op_state *st)
{
	static char *const argv[] = { "bench_exit0", NULL };
	static char *const envp[] = { NULL };
	pid_t pid = fork();

	(void)st;
	if (pid == 0) {
		execve(BENCH_EXIT0, argv, envp);
		_exit(127);
	}
	return wait_ok(pid);
}

/*
 * Iteration counts keep one timed loop near 300k guest instructions (fork
 * and exec: one call): long against the clock read (~100), short against
 * the 4M between timer ticks, so most loops see no tick and the median
 * sees none. The tick's position is not deterministic even under icount
 * (QEMU's timers run on the host's main-loop thread), its cost is.
 */
#define PATH_OP(n, it, p, fl, r, fn)                                           \
	{                                                                      \
		.name = n, .iters = it, .path = p, .oflags = fl, .need = r,    \
		.run = fn                                                      \
	}
const struct op bench_ops[] = {
	PATH_OP("read", 400, "/dev/zero", O_RDONLY, CAP_READ, run_read),
	PATH_OP("write", 400, "/dev/null", O_WRONLY, CAP_WRITE, run_write),
	PATH_OP("pread", 200, BENCH_FILE, O_RDONLY, CAP_PREAD, run_pread),
	PATH_OP("mmap", 20, BENCH_FILE, O_RDONLY, CAP_MMAP_R, run_mmap),
	PATH_OP("fstat", 100, BENCH_FILE, O_RDONLY, CAP_FSTAT, run_fstat),
	{ .name = "open", .iters = 40, .needs_global = true, .run = run_open },
	/* openat(O_RDONLY) needs CAP_LOOKUP and CAP_READ of the directory. */
	PATH_OP("openat", 40, BENCH_DIRFD, O_RDONLY | O_DIRECTORY,
		CAP_LOOKUP | CAP_READ, run_openat),
	/* fstatat(dirfd, path) needs CAP_FSTATAT (CAP_FSTAT, CAP_LOOKUP). */
	PATH_OP("stat", 60, BENCH_DIR, O_RDONLY | O_DIRECTORY, CAP_FSTATAT,
		run_stat),
	{ .name = "socketpair",
	  .iters = 80,
	  .setup = setup_socketpair,
	  .run = run_socketpair },
	{ .name = "accept",
	  .iters = 20,
	  .setup = setup_accept,
	  .prepare = prepare_accept,
	  .run = run_accept,
	  .finish = finish_accept },
	/* dup needs no right at all (FreeBSD's rule too). */
	PATH_OP("dup", 300, "/dev/zero", O_RDONLY, 0, run_dup),
	{ .name = "fork", .iters = 1, .run = run_fork },
	{ .name = "exec", .iters = 1, .needs_global = true, .run = run_exec },
};
const int bench_nops = sizeof(bench_ops) / sizeof(bench_ops[0]);
