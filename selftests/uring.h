/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal io_uring for the selftests, on the raw syscalls: one request
 * at a time, its completion read from the shared ring. A ring with an
 * SQPOLL thread needs no syscall at all to run it, which is the point of
 * the capability-mode tests.
 */
#ifndef CAPSICUM_SELFTEST_URING_H
#define CAPSICUM_SELFTEST_URING_H

#include <linux/io_uring.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Opcodes newer than this machine's headers (Linux 6.1). */
#define URING_OP_READ_MULTISHOT	  49
#define URING_OP_FIXED_FD_INSTALL 54
#define URING_OP_FTRUNCATE	  55
#define URING_OP_BIND		  56
#define URING_OP_LISTEN		  57
/* IORING_OP_URING_CMD on a socket (Linux 6.7). */
#define URING_SOCKET_SIOCINQ	0
#define URING_SOCKET_GETSOCKOPT 2

struct uring {
	int fd;
	bool sqpoll;
	unsigned int *sq_head, *sq_tail, *sq_mask, *sq_array, *sq_flags;
	unsigned int *cq_head, *cq_tail, *cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
};

/* 0, or -errno (ENOSYS where io_uring is off, EPERM where refused). */
int uring_init(struct uring *u, bool sqpoll);
void uring_exit(struct uring *u);
/* A zeroed SQE for the next request. */
struct io_uring_sqe *uring_sqe(struct uring *u, int opcode, int fd);
/* Makes the prepared request visible to the kernel. */
void uring_push(struct uring *u);
/* io_uring_enter(2) submitting n pushed requests, without waiting. */
int uring_enter(struct uring *u, unsigned int n);
/* The next completion's result (and user_data), bounded (10 s): -ETIME. */
int uring_wait(struct uring *u, uint64_t *user_data);
/*
 * Submits the request uring_sqe() prepared and waits, bounded (10 s), for
 * its completion: its result, or -ETIME. With `sqpoll` no syscall is made.
 */
int uring_run(struct uring *u);
/* Registers fds as the ring's fixed files 0..n-1. */
int uring_register_files(struct uring *u, const int *fds, unsigned int n);
/* Registers [buf, buf + len) as the ring's fixed buffer 0. */
int uring_register_buffer(struct uring *u, void *buf, size_t len);

#endif
