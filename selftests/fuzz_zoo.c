// SPDX-License-Identifier: GPL-2.0
/* The fuzzer's descriptors: one of every type the control plane can see. */
#define _GNU_SOURCE
#include "fuzz.h"
#include "selftest.h"

#include <capsicum/abi.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/io_uring.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *const kind_names[FK_COUNT] = {
	[FK_REG] = "regular",
	[FK_DIR] = "directory",
	[FK_PIPE_R] = "pipe-read",
	[FK_PIPE_W] = "pipe-write",
	[FK_UNIX_A] = "unix-a",
	[FK_UNIX_B] = "unix-b",
	[FK_TCP] = "tcp",
	[FK_UDP] = "udp",
	[FK_EVENTFD] = "eventfd",
	[FK_TIMERFD] = "timerfd",
	[FK_SIGNALFD] = "signalfd",
	[FK_EPOLL] = "epoll",
	[FK_MEMFD] = "memfd",
	[FK_PIDFD] = "pidfd",
	[FK_URING] = "io_uring",
	[FK_OPATH] = "o_path",
	[FK_BPFMAP] = "bpf-map",
	[FK_DUP_REG] = "dup-of-regular",
	[FK_DUP_PIPE] = "dup-of-pipe-write",
};

const char *fuzz_kind_name(enum fuzz_kind k)
{
	return k < FK_COUNT ? kind_names[k] : "?";
}

static int open_in(const struct fuzz_zoo *z, int flags)
{
	char path[80];

	snprintf(path, sizeof(path), "%s/f", z->dir);
	return open(path, flags | O_CLOEXEC);
}

static int pipe_end(int which)
{
	int p[2];

	if (pipe2(p, O_NONBLOCK | O_CLOEXEC))
		return -1;
	close(p[!which]);
	return p[which];
}

static int answers_ro(void)
{
	union bpf_attr attr = { 0 };

	attr.pathname = (__u64)(unsigned long)CAPSICUM_PIN_ANSWERS;
	attr.file_flags = BPF_F_RDONLY;
	return (int)syscall(__NR_bpf, BPF_OBJ_GET, &attr, sizeof(attr));
}

static int make(struct fuzz_zoo *z, enum fuzz_kind k)
{
	struct io_uring_params up = { 0 };
	sigset_t mask;
	int sv[2];

	switch (k) {
	case FK_REG:
		return open_in(z, O_RDWR);
	case FK_DIR:
		return open(z->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	case FK_PIPE_R:
		return pipe_end(0);
	case FK_PIPE_W:
		return pipe_end(1);
	case FK_UNIX_A:
	case FK_UNIX_B:
		/* The other end goes too: only this slot is remade. */
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, sv))
			return -1;
		close(sv[1]);
		return sv[0];
	case FK_TCP:
		return socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
	case FK_UDP:
		return socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);
	case FK_EVENTFD:
		return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	case FK_TIMERFD:
		return timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK);
	case FK_SIGNALFD:
		sigemptyset(&mask);
		sigaddset(&mask, SIGUSR2);
		return signalfd(-1, &mask, SFD_NONBLOCK);
	case FK_EPOLL:
		return epoll_create1(EPOLL_CLOEXEC);
	case FK_MEMFD:
		return memfd_create("fuzz", MFD_CLOEXEC);
	case FK_PIDFD:
		return (int)syscall(SYS_pidfd_open, z->child, 0);
	case FK_URING:
		return (int)syscall(__NR_io_uring_setup, 2, &up);
	case FK_OPATH:
		return open_in(z, O_PATH);
	case FK_BPFMAP: {
		int fd = answers_ro();

		/*
		 * Every pin is root's: a worker running as uid 1000 gets
		 * an eventfd instead, another anonymous-inode descriptor.
		 */
		if (fd < 0 && errno == EACCES)
			fd = eventfd(0, EFD_CLOEXEC);
		return fd;
	}
	case FK_DUP_REG:
		return z->fd[FK_REG] < 0 ? -1 : dup(z->fd[FK_REG]);
	case FK_DUP_PIPE:
		return z->fd[FK_PIPE_W] < 0 ? -1 : dup(z->fd[FK_PIPE_W]);
	default:
		return -1;
	}
}

void fuzz_zoo_reopen(struct fuzz_zoo *z, enum fuzz_kind k)
{
	if (z->fd[k] >= 0)
		close(z->fd[k]);
	z->fd[k] = make(z, k);
}

bool fuzz_zoo_init(struct fuzz_zoo *z)
{
	struct rlimit rl;
	char path[80];
	int go[2], fd;

	for (int k = 0; k < FK_COUNT; k++)
		z->fd[k] = -1;
	z->child = -1;
	z->child_go = -1;
	z->child_doomed = false;
	snprintf(z->dir, sizeof(z->dir), "/tmp/fuzz.XXXXXX");
	if (!ASSERT_OK_PTR(mkdtemp(z->dir), "mkdtemp"))
		return false;
	snprintf(path, sizeof(path), "%s/f", z->dir);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (!ASSERT_OK(fd, "the zoo's file") ||
	    !ASSERT_EQ(write(fd, "fuzz", 4), 4, "its content"))
		return false;
	close(fd);
	if (!ASSERT_OK(pipe2(go, O_CLOEXEC), "the child's pipe"))
		return false;
	z->child = fork();
	if (z->child == 0) {
		char c;

		/* Nothing of the worker's stays open (its report pipe). */
		dup2(go[0], 3);
		close_range(4, ~0U, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		alarm(600);
		_exit(read(3, &c, 1) < 0);
	}
	close(go[0]);
	z->child_go = go[1];
	if (!ASSERT_OK(z->child, "fork the pidfd's child"))
		return false;
	for (int k = 0; k < FK_COUNT; k++) {
		z->fd[k] = make(z, (enum fuzz_kind)k);
		if (!ASSERT_OK(z->fd[k], fuzz_kind_name((enum fuzz_kind)k)))
			return false;
	}
	if (!ASSERT_OK(getrlimit(RLIMIT_NOFILE, &rl), "RLIMIT_NOFILE"))
		return false;
	z->past_limit = rl.rlim_cur > 1 << 20 ? 1 << 20 : (int)rl.rlim_cur;
	return true;
}

void fuzz_zoo_free(struct fuzz_zoo *z)
{
	char path[80];

	for (int k = 0; k < FK_COUNT; k++)
		if (z->fd[k] >= 0)
			close(z->fd[k]);
	/* EOF on its pipe ends it: in capability mode kill() may not. */
	if (z->child_go >= 0)
		close(z->child_go);
	if (z->child > 0)
		waitpid(z->child, NULL, 0);
	snprintf(path, sizeof(path), "%s/f", z->dir);
	unlink(path);
	rmdir(z->dir);
}
