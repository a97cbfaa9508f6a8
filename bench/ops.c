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

/* One descriptor opened from path, needing exactly `rights`. */
static int open_one(struct op_state *st, const char *path, int flags,
		    const cap_rights_t *rights)
{
	st->fd[0] = open(path, flags);
	if (st->fd[0] < 0)
		return -errno;
	st->rights[0] = *rights;
	return 0;
}

static int setup_read(struct op_state *st)
{
	cap_rights_t r;

	return open_one(st, "/dev/zero", O_RDONLY,
			cap_rights_init(&r, CAP_READ));
}

static int run_read(struct op_state *st)
{
	return read(st->fd[0], buf, 1) == 1 ? 0 : -EIO;
}

static int setup_write(struct op_state *st)
{
	cap_rights_t r;

	return open_one(st, "/dev/null", O_WRONLY,
			cap_rights_init(&r, CAP_WRITE));
}

static int run_write(struct op_state *st)
{
	return write(st->fd[0], buf, 1) == 1 ? 0 : -EIO;
}

static int setup_pread(struct op_state *st)
{
	cap_rights_t r;

	return open_one(st, BENCH_FILE, O_RDONLY,
			cap_rights_init(&r, CAP_PREAD));
}

static int run_pread(struct op_state *st)
{
	return pread(st->fd[0], buf, 1, 0) == 1 ? 0 : -EIO;
}

static int setup_mmap(struct op_state *st)
{
	cap_rights_t r;

	return open_one(st, BENCH_FILE, O_RDONLY,
			cap_rights_init(&r, CAP_MMAP_R));
}

static int run_mmap(struct op_state *st)
{
	void *p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, st->fd[0], 0);

	if (p == MAP_FAILED)
		return -errno;
	return errno_of(munmap(p, 4096));
}

static int setup_fstat(struct op_state *st)
{
	cap_rights_t r;

	return open_one(st, BENCH_FILE, O_RDONLY,
			cap_rights_init(&r, CAP_FSTAT));
}

static int run_fstat(struct op_state *st)
{
	struct stat s;

	return errno_of(fstat(st->fd[0], &s));
}

static int setup_none(struct op_state *st)
{
	(void)st;
	return 0;
}

static int run_open(struct op_state *st)
{
	int fd = open(BENCH_FILE, O_RDONLY);

	(void)st;
	if (fd < 0)
		return -errno;
	return errno_of(close(fd));
}

static int setup_openat(struct op_state *st)
{
	cap_rights_t r;

	/* openat(O_RDONLY) needs CAP_LOOKUP and CAP_READ of the directory. */
	return open_one(st, BENCH_DIRFD, O_RDONLY | O_DIRECTORY,
			cap_rights_init(&r, CAP_LOOKUP, CAP_READ));
}

static int run_openat(struct op_state *st)
{
	int fd = openat(st->fd[0], BENCH_DIR_REL, O_RDONLY);

	if (fd < 0)
		return -errno;
	return errno_of(close(fd));
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
	int c = accept(st->fd[0], NULL, NULL);

	if (c < 0)
		return -errno;
	return errno_of(close(c));
}

static int finish_accept(struct op_state *st)
{
	return helper_call(st, 0);
}

static int setup_dup(struct op_state *st)
{
	cap_rights_t r;

	/* dup needs no right at all (FreeBSD's rule too). */
	return open_one(st, "/dev/zero", O_RDONLY, cap_rights_init(&r));
}

static int run_dup(struct op_state *st)
{
	int fd = dup(st->fd[0]);

	if (fd < 0)
		return -errno;
	return errno_of(close(fd));
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
const struct op bench_ops[] = {
	{ "read", 400, false, setup_read, NULL, run_read, NULL },
	{ "write", 400, false, setup_write, NULL, run_write, NULL },
	{ "pread", 200, false, setup_pread, NULL, run_pread, NULL },
	{ "mmap", 20, false, setup_mmap, NULL, run_mmap, NULL },
	{ "fstat", 100, false, setup_fstat, NULL, run_fstat, NULL },
	{ "open", 40, true, setup_none, NULL, run_open, NULL },
	{ "openat", 40, false, setup_openat, NULL, run_openat, NULL },
	{ "socketpair", 80, false, setup_socketpair, NULL, run_socketpair,
	  NULL },
	{ "accept", 20, false, setup_accept, prepare_accept, run_accept,
	  finish_accept },
	{ "dup", 300, false, setup_dup, NULL, run_dup, NULL },
	{ "fork", 1, false, setup_none, NULL, run_fork, NULL },
	{ "exec", 1, true, setup_none, NULL, run_exec, NULL },
};
const int bench_nops = sizeof(bench_ops) / sizeof(bench_ops[0]);
