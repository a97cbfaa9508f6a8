// SPDX-License-Identifier: GPL-2.0
/*
 * io_uring requests on a limited descriptor, by opcode
 * (include/capsicum/optable.h, CAPSICUM_URING_OPS): each row does one
 * request through a fresh ring and gives its completion's result. The
 * patched kernel refuses the lookup of a descriptor without the
 * opcode's right (bpf/uring.bpf.h), which io_uring reports as the
 * request's -EBADF (the kernel turns only a syscall's EBADF into
 * ENOTCAPABLE, kernel/README); the stock kernels check what they can
 * against the file's floor (ENOTCAPABLE) and let the rest through (the
 * gaps doc/enforcement.md lists). In capability mode io_uring_setup is
 * refused: ECAPMODE.
 */
#define _GNU_SOURCE
#include "fixture.h"
#include "rows.h"
#include "selftest.h"
#include "uring.h"

#include <capsicum/abi.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

/* How a row's request is run: inline, punted to io-wq, or by SQPOLL. */
enum how { INLINE, ASYNC, SQPOLL };

static char buf[8];
static struct iovec iov = { buf, 1 };
static struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };

/* A listening socket's address (CONNECT's peer), from getsockname. */
static struct sockaddr_un peer;
static socklen_t peer_len;
/* An unnamed AF_UNIX address: bind picks a free abstract name. */
static const sa_family_t autobind = AF_UNIX;

/* The other end of the pipe or socket a row's descriptor is an end of. */
static int other = -1;

/*
 * What the ring needs before op: READ_FIXED and WRITE_FIXED name a
 * registered buffer, READ_MULTISHOT takes one from a provided group. 0 or
 * -errno.
 */
static int ring_ready(struct uring *u, int op)
{
	struct io_uring_sqe *sqe;

	if (op == IORING_OP_READ_FIXED || op == IORING_OP_WRITE_FIXED)
		return uring_register_buffer(u, buf, sizeof(buf));
	if (op != URING_OP_READ_MULTISHOT)
		return 0;
	/* One buffer (its fd field is the count), id 0 of group 0. */
	sqe = uring_sqe(u, IORING_OP_PROVIDE_BUFFERS, 1);
	sqe->addr = (uintptr_t)buf;
	sqe->len = sizeof(buf);
	sqe->buf_group = 0;
	sqe->off = 0;
	return uring_run(u);
}

/*
 * Runs the request op on fd (off: its offset; in: a second descriptor,
 * splice's and tee's input), the result as a row wants it: 0 when the
 * completion is what the request should give, else -1 with errno.
 */
/* The socket command of an IORING_OP_URING_CMD row. */
static __u32 uring_cmd_op = URING_SOCKET_SIOCINQ;
static int sock_type;

/*
 * getsockopt(SOL_SOCKET, SO_TYPE) into sock_type, in the fields 6.7
 * gave the SQE (level and optname over addr, optlen over splice_fd_in,
 * optval over addr3), which this machine's headers do not name.
 */
static void uring_sqe_getsockopt(struct io_uring_sqe *sqe)
{
	char *raw = (char *)sqe;
	__u32 level = SOL_SOCKET, optname = SO_TYPE, optlen = sizeof(int);
	__u64 optval = (uintptr_t)&sock_type;

	memcpy(raw + offsetof(struct io_uring_sqe, addr), &level, 4);
	memcpy(raw + offsetof(struct io_uring_sqe, addr) + 4, &optname, 4);
	memcpy(raw + offsetof(struct io_uring_sqe, splice_fd_in), &optlen, 4);
	memcpy(raw + offsetof(struct io_uring_sqe, addr3), &optval, 8);
}

static int run(int op, int fd, __u64 off, int in, enum how how)
{
	struct io_uring_sqe *sqe;
	struct uring u;
	int res = uring_init(&u, how == SQPOLL);

	if (res) {
		errno = -res;
		return -1;
	}
	res = ring_ready(&u, op);
	if (res)
		goto out;
	sqe = uring_sqe(&u, op, fd);
	sqe->off = off;
	sqe->addr = (uintptr_t)buf;
	sqe->len = 1;
	if (how == ASYNC)
		sqe->flags = IOSQE_ASYNC;
	switch (op) {
	case IORING_OP_READV:
	case IORING_OP_WRITEV:
		sqe->addr = (uintptr_t)&iov;
		break;
	case IORING_OP_FSYNC:
	case IORING_OP_SHUTDOWN:
		sqe->addr = 0;
		sqe->len = op == IORING_OP_SHUTDOWN ? SHUT_WR : 0;
		break;
	case IORING_OP_SYNC_FILE_RANGE:
		sqe->addr = 0;
		sqe->len = 0; /* the whole file */
		break;
	case IORING_OP_FALLOCATE:
		sqe->addr = 16; /* len: 16 bytes, mode 0 */
		sqe->len = 0;
		break;
	case IORING_OP_POLL_ADD:
		sqe->addr = 0;
		sqe->len = 0;
		sqe->poll32_events = POLLIN;
		break;
	case IORING_OP_SPLICE:
	case IORING_OP_TEE:
		/* -1: no offset on either end; tee takes none at all. */
		sqe->addr = 0;
		sqe->splice_fd_in = in;
		sqe->splice_off_in = op == IORING_OP_TEE ? 0 : -1ULL;
		if (op == IORING_OP_TEE)
			sqe->off = 0;
		break;
	case IORING_OP_SENDMSG:
	case IORING_OP_RECVMSG:
	case IORING_OP_SENDMSG_ZC:
		sqe->addr = (uintptr_t)&msg;
		break;
	case IORING_OP_READ_FIXED:
	case IORING_OP_WRITE_FIXED:
		sqe->buf_index = 0; /* the buffer ring_ready registered */
		break;
	case URING_OP_READ_MULTISHOT:
		/* Into a buffer of group 0, which ring_ready provided. */
		sqe->addr = 0;
		sqe->len = 0;
		sqe->flags |= IOSQE_BUFFER_SELECT;
		sqe->buf_group = 0;
		break;
	case IORING_OP_ACCEPT:
	case URING_OP_LISTEN:
	case IORING_OP_MSG_RING:
	case URING_OP_FTRUNCATE:
		/* No address; LISTEN's backlog 1, MSG_RING posts res 0. */
		sqe->addr = 0;
		sqe->len = op == URING_OP_LISTEN;
		break;
	case IORING_OP_CONNECT:
		sqe->addr = (uintptr_t)&peer;
		sqe->addr2 = peer_len;
		sqe->len = 0;
		break;
	case URING_OP_BIND:
		sqe->addr = (uintptr_t)&autobind;
		sqe->addr2 = sizeof(autobind);
		sqe->len = 0;
		break;
	case IORING_OP_URING_CMD:
		sqe->addr = 0;
		sqe->len = 0;
		sqe->cmd_op = uring_cmd_op;
		if (uring_cmd_op == URING_SOCKET_GETSOCKOPT)
			uring_sqe_getsockopt(sqe);
		break;
	}
	res = uring_run(&u);
out:
	uring_exit(&u);
	if (res < 0) {
		errno = -res;
		return -1;
	}
	/*
	 * POLL_ADD gives the mask, ACCEPT the accepted descriptor, the
	 * others the bytes (1) or 0.
	 */
	if (op == IORING_OP_POLL_ADD		      ? !(res & POLLIN)
	    : op == IORING_OP_ACCEPT		      ? false
	    : uring_cmd_op == URING_SOCKET_GETSOCKOPT ? res != sizeof(int)
						      : res > 1) {
		errno = EPROTO;
		return -1;
	}
	return 0;
}

/* --- descriptors -------------------------------------------------------*/

static int file(void)
{
	return fixture_scratch_file("0123456789");
}

/* A read end holding one byte, its write end open (other). */
static int pipe_read_end(void)
{
	int p[2];

	if (pipe(p) || write(p[1], "y", 1) != 1)
		return -1;
	other = p[1];
	return p[0];
}

/* A write end, its read end open (other). */
static int pipe_write_end(void)
{
	int p[2];

	if (pipe(p))
		return -1;
	other = p[0];
	return p[1];
}

/* One end of a connected stream pair, holding a byte to receive. */
static int stream(void)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) ||
	    write(sv[1], "z", 1) != 1)
		return -1;
	other = sv[1];
	return sv[0];
}

/* A UDP socket connected to itself on loopback: zero-copy sends need one. */
static int udp(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) ||
	    getsockname(fd, (struct sockaddr *)&a, &len) ||
	    connect(fd, (struct sockaddr *)&a, len))
		return -1;
	return fd;
}

/* A stream socket bound to a free abstract name and listening (peer). */
static int listener(void)
{
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	peer_len = sizeof(peer);
	if (fd < 0 ||
	    bind(fd, (const struct sockaddr *)&autobind, sizeof(autobind)) ||
	    listen(fd, 1) ||
	    getsockname(fd, (struct sockaddr *)&peer, &peer_len))
		return -1;
	return fd;
}

/* A listening socket with a connection waiting (other: its client). */
static int pending(void)
{
	int fd = listener();

	other = socket(AF_UNIX, SOCK_STREAM, 0);
	if (fd < 0 || other < 0 ||
	    connect(other, (const struct sockaddr *)&peer, peer_len))
		return -1;
	return fd;
}

/* A fresh stream socket, a listener to connect to open (other). */
static int unconnected(void)
{
	other = listener();
	return other < 0 ? -1 : socket(AF_UNIX, SOCK_STREAM, 0);
}

/* A fresh stream socket; bound by autobind, to listen on. */
static int unbound(void)
{
	return socket(AF_UNIX, SOCK_STREAM, 0);
}
static int bound(void)
{
	int fd = unbound();

	if (fd < 0 ||
	    bind(fd, (const struct sockaddr *)&autobind, sizeof(autobind)))
		return -1;
	return fd;
}

/* Another ring's descriptor, for MSG_RING to post a completion into. */
static int target_ring(void)
{
	struct io_uring_params p = { 0 };

	return (int)syscall(__NR_io_uring_setup, 4, &p);
}

/* --- requests ----------------------------------------------------------*/

static int op_read(int fd)
{
	return run(IORING_OP_READ, fd, -1ULL, -1, INLINE);
}
static int op_read_at(int fd)
{
	return run(IORING_OP_READ, fd, 2, -1, INLINE);
}
static int op_read_async(int fd)
{
	return run(IORING_OP_READ, fd, -1ULL, -1, ASYNC);
}
static int op_read_sqpoll(int fd)
{
	return run(IORING_OP_READ, fd, -1ULL, -1, SQPOLL);
}
static int op_write(int fd)
{
	return run(IORING_OP_WRITE, fd, -1ULL, -1, INLINE);
}
static int op_readv(int fd)
{
	return run(IORING_OP_READV, fd, -1ULL, -1, INLINE);
}
static int op_writev(int fd)
{
	return run(IORING_OP_WRITEV, fd, -1ULL, -1, INLINE);
}
static int op_fsync(int fd)
{
	return run(IORING_OP_FSYNC, fd, 0, -1, INLINE);
}
static int op_sync_file_range(int fd)
{
	return run(IORING_OP_SYNC_FILE_RANGE, fd, 0, -1, INLINE);
}
static int op_fallocate(int fd)
{
	return run(IORING_OP_FALLOCATE, fd, 0, -1, INLINE);
}
static int op_send(int fd)
{
	return run(IORING_OP_SEND, fd, 0, -1, INLINE);
}
static int op_recv(int fd)
{
	return run(IORING_OP_RECV, fd, 0, -1, INLINE);
}
static int op_shutdown(int fd)
{
	return run(IORING_OP_SHUTDOWN, fd, 0, -1, INLINE);
}
static int op_ftruncate(int fd)
{
	return run(URING_OP_FTRUNCATE, fd, 0, -1, INLINE);
}
static int op_sendmsg(int fd)
{
	return run(IORING_OP_SENDMSG, fd, 0, -1, INLINE);
}
static int op_recvmsg(int fd)
{
	return run(IORING_OP_RECVMSG, fd, 0, -1, INLINE);
}
static int op_accept(int fd)
{
	return run(IORING_OP_ACCEPT, fd, 0, -1, INLINE);
}
static int op_connect(int fd)
{
	return run(IORING_OP_CONNECT, fd, 0, -1, INLINE);
}
static int op_read_fixed(int fd)
{
	return run(IORING_OP_READ_FIXED, fd, -1ULL, -1, INLINE);
}
static int op_read_fixed_at(int fd)
{
	return run(IORING_OP_READ_FIXED, fd, 2, -1, INLINE);
}
static int op_write_fixed(int fd)
{
	return run(IORING_OP_WRITE_FIXED, fd, -1ULL, -1, INLINE);
}
static int op_send_zc(int fd)
{
	return run(IORING_OP_SEND_ZC, fd, 0, -1, INLINE);
}
static int op_sendmsg_zc(int fd)
{
	return run(IORING_OP_SENDMSG_ZC, fd, 0, -1, INLINE);
}
static int op_bind(int fd)
{
	return run(URING_OP_BIND, fd, 0, -1, INLINE);
}
static int op_listen(int fd)
{
	return run(URING_OP_LISTEN, fd, 0, -1, INLINE);
}
static int op_msg_ring(int fd)
{
	return run(IORING_OP_MSG_RING, fd, 0, -1, INLINE);
}
static int op_read_multishot(int fd)
{
	return run(URING_OP_READ_MULTISHOT, fd, -1ULL, -1, INLINE);
}
static int op_uring_cmd(int fd)
{
	return run(IORING_OP_URING_CMD, fd, 0, -1, INLINE);
}
static int op_uring_cmd_getsockopt(int fd)
{
	uring_cmd_op = URING_SOCKET_GETSOCKOPT;
	return run(IORING_OP_URING_CMD, fd, 0, -1, INLINE);
}
static int op_poll_add(int fd)
{
	return run(IORING_OP_POLL_ADD, fd, 0, -1, INLINE);
}
/* A byte from the row's read end into a fresh pipe / from a full one. */
static int op_pipe_in(int fd, int op)
{
	int p[2];

	return pipe(p) ? -1 : run(op, p[1], -1ULL, fd, INLINE);
}
static int op_pipe_out(int fd, int op)
{
	int in = pipe_read_end();

	return in < 0 ? -1 : run(op, fd, -1ULL, in, INLINE);
}
static int op_tee_in(int fd)
{
	return op_pipe_in(fd, IORING_OP_TEE);
}
static int op_tee_out(int fd)
{
	return op_pipe_out(fd, IORING_OP_TEE);
}
static int op_splice_in(int fd)
{
	return op_pipe_in(fd, IORING_OP_SPLICE);
}
static int op_splice_out(int fd)
{
	return op_pipe_out(fd, IORING_OP_SPLICE);
}

/* The stock kernels: refused by the file's floor, or the gap. */
#define FLOOR	EXPECT(0, ENOTCAPABLE, ECAPMODE, ECAPMODE)
#define GAP	EXPECT(0, 0, ECAPMODE, ECAPMODE)
#define REFUSED EXPECT(0, EBADF, ECAPMODE, ECAPMODE)

static const struct rights_row uring_rows[] = {
	{ .name = "io_uring READ",
	  .rights = CAP_READ,
	  .make = file,
	  .op = op_read,
	  .stock = FLOOR,
	  .patched = REFUSED },
	{ .name = "io_uring READ at an offset needs seek",
	  .rights = CAP_SEEK,
	  .make = file,
	  .op = op_read_at,
	  .stock = GAP,
	  .patched = REFUSED },
	{ .name = "io_uring READ from an io-wq worker",
	  .rights = CAP_READ,
	  .make = file,
	  .op = op_read_async,
	  .stock = FLOOR,
	  .patched = REFUSED },
	{ .name = "io_uring READ from the SQPOLL thread",
	  .rights = CAP_READ,
	  .make = file,
	  .op = op_read_sqpoll,
	  .stock = FLOOR,
	  .patched = REFUSED },
	{ .name = "io_uring WRITE",
	  .rights = CAP_WRITE,
	  .make = file,
	  .op = op_write,
	  .stock = FLOOR,
	  .patched = REFUSED },
	{ .name = "io_uring READV",
	  .rights = CAP_READ,
	  .make = file,
	  .op = op_readv,
	  .stock = FLOOR,
	  .patched = REFUSED },
	{ .name = "io_uring WRITEV",
	  .rights = CAP_WRITE,
	  .make = file,
	  .op = op_writev,
	  .stock = FLOOR,
	  .patched = REFUSED },
	{ .name = "io_uring FSYNC",
	  .rights = CAP_FSYNC,
	  .make = file,
	  .op = op_fsync,
	  .stock = GAP,
	  .patched = REFUSED },
	{ .name = "io_uring SYNC_FILE_RANGE",
	  .rights = CAP_FSYNC,
	  .make = file,
	  .op = op_sync_file_range,
	  .stock = GAP,
	  .patched = REFUSED },
	/* The stock hooks ask the floor's CAP_WRITE, not its CAP_SEEK. */
	{ .name = "io_uring FALLOCATE",
	  .rights = CAP_WRITE,
	  .make = file,
	  .op = op_fallocate,
	  .stock = FLOOR,
	  .patched = REFUSED },
	{ .name = "io_uring FALLOCATE needs seek",
	  .rights = CAP_SEEK,
	  .make = file,
	  .op = op_fallocate,
	  .stock = GAP,
	  .patched = REFUSED },
	{ .name = "io_uring SEND",
	  .rights = CAP_SEND,
	  .make = stream,
	  .op = op_send,
	  .stock = FLOOR,
	  .patched = REFUSED },
	{ .name = "io_uring RECV",
	  .rights = CAP_RECV,
	  .make = stream,
	  .op = op_recv,
	  .stock = FLOOR,
	  .patched = REFUSED },
	{ .name = "io_uring SHUTDOWN",
	  .rights = CAP_SHUTDOWN,
	  .make = stream,
	  .op = op_shutdown,
	  .stock = FLOOR,
	  .patched = REFUSED },
	{ .name = "io_uring POLL_ADD",
	  .rights = CAP_EVENT,
	  .make = pipe_read_end,
	  .op = op_poll_add,
	  .stock = GAP,
	  .patched = REFUSED },
	{ .name = "io_uring TEE input needs read",
	  .rights = CAP_READ,
	  .make = pipe_read_end,
	  .op = op_tee_in,
	  .stock = GAP,
	  .patched = REFUSED },
	{ .name = "io_uring TEE output needs write",
	  .rights = CAP_WRITE,
	  .make = pipe_write_end,
	  .op = op_tee_out,
	  .stock = GAP,
	  .patched = REFUSED },
	{ .name = "io_uring SPLICE input needs read",
	  .rights = CAP_READ,
	  .make = pipe_read_end,
	  .op = op_splice_in,
	  .stock = GAP,
	  .patched = REFUSED },
	{ .name = "io_uring SPLICE output needs write",
	  .rights = CAP_WRITE,
	  .make = pipe_write_end,
	  .op = op_splice_out,
	  .stock = GAP,
	  .patched = REFUSED },
	{ .name = "io_uring FTRUNCATE",
	  .rights = CAP_FTRUNCATE,
	  .make = file,
	  .op = op_ftruncate,
	  .stock = FLOOR,
	  .patched = REFUSED,
	  .since = FIXTURE_KERNEL(6, 9),
	  .unknown = EINVAL },
	{ .name = "io_uring SENDMSG",
	  .rights = CAP_SEND,
	  .make = stream,
	  .op = op_sendmsg,
	  .stock = FLOOR,
	  .patched = REFUSED },
	{ .name = "io_uring RECVMSG",
	  .rights = CAP_RECV,
	  .make = stream,
	  .op = op_recvmsg,
	  .stock = FLOOR,
	  .patched = REFUSED },
	{ .name = "io_uring ACCEPT",
	  .rights = CAP_ACCEPT,
	  .make = pending,
	  .op = op_accept,
	  .stock = FLOOR,
	  .patched = REFUSED },
	{ .name = "io_uring CONNECT",
	  .rights = CAP_CONNECT,
	  .make = unconnected,
	  .op = op_connect,
	  .stock = FLOOR,
	  .patched = REFUSED },
	{ .name = "io_uring READ_FIXED",
	  .rights = CAP_READ,
	  .make = file,
	  .op = op_read_fixed,
	  .stock = FLOOR,
	  .patched = REFUSED },
	{ .name = "io_uring READ_FIXED at an offset needs seek",
	  .rights = CAP_SEEK,
	  .make = file,
	  .op = op_read_fixed_at,
	  .stock = GAP,
	  .patched = REFUSED },
	{ .name = "io_uring WRITE_FIXED",
	  .rights = CAP_WRITE,
	  .make = file,
	  .op = op_write_fixed,
	  .stock = FLOOR,
	  .patched = REFUSED },
	{ .name = "io_uring SEND_ZC",
	  .rights = CAP_SEND,
	  .make = udp,
	  .op = op_send_zc,
	  .stock = FLOOR,
	  .patched = REFUSED },
	{ .name = "io_uring BIND",
	  .rights = CAP_BIND,
	  .make = unbound,
	  .op = op_bind,
	  .stock = FLOOR,
	  .patched = REFUSED,
	  .since = FIXTURE_KERNEL(6, 11),
	  .unknown = EINVAL },
	{ .name = "io_uring LISTEN",
	  .rights = CAP_LISTEN,
	  .make = bound,
	  .op = op_listen,
	  .stock = FLOOR,
	  .patched = REFUSED,
	  .since = FIXTURE_KERNEL(6, 11),
	  .unknown = EINVAL },
	{ .name = "io_uring MSG_RING",
	  .rights = CAP_WRITE,
	  .make = target_ring,
	  .op = op_msg_ring,
	  .stock = GAP,
	  .patched = REFUSED },
	{ .name = "io_uring READ_MULTISHOT",
	  .rights = CAP_READ,
	  .make = pipe_read_end,
	  .op = op_read_multishot,
	  .stock = FLOOR,
	  .patched = REFUSED,
	  .since = FIXTURE_KERNEL(6, 7),
	  .unknown = EINVAL },
	/* Sockets take io_uring commands since 6.7: SIOCINQ, 0 bytes. */
	{ .name = "io_uring URING_CMD",
	  .rights = CAP_IOCTL,
	  .make = udp,
	  .op = op_uring_cmd,
	  .stock = FLOOR,
	  .patched = REFUSED,
	  .since = FIXTURE_KERNEL(6, 7),
	  .unknown = EOPNOTSUPP },
	/*
	 * A socket option through io_uring: the uring_cmd hook asks the
	 * option's right by the file's floor on every kernel (the patched
	 * one loads no getsockopt hook).
	 */
	{ .name = "io_uring URING_CMD getsockopt",
	  .rights = CAP_GETSOCKOPT,
	  .make = udp,
	  .op = op_uring_cmd_getsockopt,
	  .stock = FLOOR,
	  .since = FIXTURE_KERNEL(6, 7),
	  .unknown = EOPNOTSUPP },
	{ .name = "io_uring SENDMSG_ZC",
	  .rights = CAP_SEND,
	  .make = udp,
	  .op = op_sendmsg_zc,
	  .stock = FLOOR,
	  .patched = REFUSED },
};
SELFTEST_RIGHTS_ROWS(uring_rows, "uring_rights_with_and_without")

SELFTEST(uring_rights_with_and_without)
{
	if (!fixture_loaded())
		return;
	rows_run(uring_rows, sizeof(uring_rows) / sizeof(uring_rows[0]));
}

/*
 * ASYNC_CANCEL by descriptor, with nothing to cancel (-ENOENT): one
 * completion on a pipe's read end limited as asked.
 */
static int cancel_by_fd(struct uring *u, uint64_t drop)
{
	struct io_uring_sqe *sqe;
	cap_rights_t r;
	int p[2], res;

	if (pipe(p))
		return -errno;
	CAP_ALL(&r);
	if (drop)
		cap_rights_clear(&r, drop);
	if (cap_rights_limit(p[0], &r)) {
		res = -errno;
	} else {
		sqe = uring_sqe(u, IORING_OP_ASYNC_CANCEL, -1);
		sqe->fd = p[0];
		sqe->cancel_flags = IORING_ASYNC_CANCEL_FD;
		res = uring_run(u);
	}
	close(p[0]);
	close(p[1]);
	return res;
}

/*
 * An opcode that looks a descriptor up but has no row of
 * CAPSICUM_URING_OPS (ASYNC_CANCEL by descriptor): the patched kernel
 * asks every right of it, so the lookup of a descriptor limited to
 * every right works and one limited to every right but any one fails
 * (-EBADF), each right in turn. The stock kernels see no descriptor:
 * the gap, the cancel's own -ENOENT.
 */
SELFTEST(uring_unrowed_opcode_needs_every_right)
{
	static const uint64_t all[] = { CAP_ALL0, CAP_ALL1 };
	int without = fixture_patched_kernel() ? -EBADF : -ENOENT;
	struct uring u;
	char what[64];
	int res;

	if (!fixture_loaded())
		return;
	res = uring_init(&u, false);
	if (res == -ENOSYS || res == -EPERM)
		selftest_skip("io_uring is not available here");
	if (!ASSERT_EQ(res, 0, "io_uring_setup") ||
	    !ASSERT_EQ(cancel_by_fd(&u, 0), -ENOENT, "every right"))
		return;
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		uint64_t idx = all[i] & CAP_RIGHTS_INDEX_MASK;
		uint64_t bits = all[i] & CAP_RIGHTS_BITS_MASK;

		for (int b = 0; b < 64; b++) {
			if (!(bits & (1ULL << b)))
				continue;
			snprintf(what, sizeof(what), "without word %zu bit %d",
				 i, b);
			ASSERT_EQ(cancel_by_fd(&u, idx | (1ULL << b)), without,
				  what);
		}
	}
	uring_exit(&u);
}
