// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "uring.h"

#include <errno.h>
#include <sched.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

static void *ring_map(int fd, size_t len, off_t off)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_POPULATE, fd, off);

	return p == MAP_FAILED ? NULL : p;
}

int uring_init(struct uring *u, bool sqpoll)
{
	struct io_uring_params p = { 0 };
	size_t sq_len, cq_len;
	char *sq, *cq;

	memset(u, 0, sizeof(*u));
	if (sqpoll) {
		p.flags = IORING_SETUP_SQPOLL;
		/* Long enough that the thread never sleeps during a test. */
		p.sq_thread_idle = 60000;
	}
	u->fd = (int)syscall(__NR_io_uring_setup, 4, &p);
	if (u->fd < 0)
		return -errno;
	u->sqpoll = sqpoll;
	sq_len = p.sq_off.array + p.sq_entries * sizeof(unsigned int);
	cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	sq = ring_map(u->fd, sq_len, IORING_OFF_SQ_RING);
	cq = ring_map(u->fd, cq_len, IORING_OFF_CQ_RING);
	u->sqes = ring_map(u->fd, p.sq_entries * sizeof(struct io_uring_sqe),
			   IORING_OFF_SQES);
	if (!sq || !cq || !u->sqes) {
		close(u->fd);
		return -ENOMEM;
	}
	u->sq_head = (unsigned int *)(sq + p.sq_off.head);
	u->sq_tail = (unsigned int *)(sq + p.sq_off.tail);
	u->sq_mask = (unsigned int *)(sq + p.sq_off.ring_mask);
	u->sq_array = (unsigned int *)(sq + p.sq_off.array);
	u->sq_flags = (unsigned int *)(sq + p.sq_off.flags);
	u->cq_head = (unsigned int *)(cq + p.cq_off.head);
	u->cq_tail = (unsigned int *)(cq + p.cq_off.tail);
	u->cq_mask = (unsigned int *)(cq + p.cq_off.ring_mask);
	u->cqes = (struct io_uring_cqe *)(cq + p.cq_off.cqes);
	return 0;
}

void uring_exit(struct uring *u)
{
	close(u->fd);
}

struct io_uring_sqe *uring_sqe(struct uring *u, int opcode, int fd)
{
	unsigned int tail = *u->sq_tail, i = tail & *u->sq_mask;
	struct io_uring_sqe *sqe = &u->sqes[i];

	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = (__u8)opcode;
	sqe->fd = fd;
	u->sq_array[i] = i;
	return sqe;
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

void uring_push(struct uring *u)
{
	__atomic_store_n(u->sq_tail, *u->sq_tail + 1, __ATOMIC_RELEASE);
}

int uring_enter(struct uring *u, unsigned int n)
{
	if (syscall(__NR_io_uring_enter, u->fd, n, 0, 0, NULL, 0) < 0)
		return -errno;
	return 0;
}

int uring_wait(struct uring *u, uint64_t *user_data)
{
	unsigned int head = *u->cq_head;
	double until = now() + 10;
	struct io_uring_cqe *cqe;
	int res;

	/* sched_yield: a syscall, whose return runs io_uring's task work. */
	while (__atomic_load_n(u->cq_tail, __ATOMIC_ACQUIRE) == head) {
		if (now() > until)
			return -ETIME;
		/* Refused in capability mode: the thread idles for 60 s. */
		if (u->sqpoll &&
		    (__atomic_load_n(u->sq_flags, __ATOMIC_ACQUIRE) &
		     IORING_SQ_NEED_WAKEUP))
			syscall(__NR_io_uring_enter, u->fd, 0, 0,
				IORING_ENTER_SQ_WAKEUP, NULL, 0);
		sched_yield();
	}
	cqe = &u->cqes[head & *u->cq_mask];
	res = cqe->res;
	if (user_data)
		*user_data = cqe->user_data;
	__atomic_store_n(u->cq_head, head + 1, __ATOMIC_RELEASE);
	return res;
}

int uring_run(struct uring *u)
{
	int err;

	uring_push(u);
	if (!u->sqpoll && syscall(__NR_io_uring_enter, u->fd, 1, 1,
				  IORING_ENTER_GETEVENTS, NULL, 0) < 0) {
		err = -errno;
		return err;
	}
	return uring_wait(u, NULL);
}

int uring_register_files(struct uring *u, const int *fds, unsigned int n)
{
	if (syscall(__NR_io_uring_register, u->fd, IORING_REGISTER_FILES, fds,
		    n) < 0)
		return -errno;
	return 0;
}

int uring_register_buffer(struct uring *u, void *buf, size_t len)
{
	struct iovec iov = { buf, len };

	if (syscall(__NR_io_uring_register, u->fd, IORING_REGISTER_BUFFERS,
		    &iov, 1) < 0)
		return -errno;
	return 0;
}
