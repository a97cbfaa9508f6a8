/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Socket hooks. Every socket syscall takes the socket's descriptor as its
 * first argument, so that is the candidate fd; read(2)/write(2) on a socket
 * arrive here too (sock_read_iter), also with the fd first.
 */
#ifndef CAPSICUM_HOOKS_SOCK_BPF_H
#define CAPSICUM_HOOKS_SOCK_BPF_H

#include "state.bpf.h"

static __always_inline int sock_require(struct socket *sock, __u64 need)
{
	struct capsicum_proc *p = current_proc();
	struct file *file;

	if (!p)
		return 0;
	file = sock->file;
	if (!file)
		return 0;
	return require(p, file, (int)syscall_arg(0), need, 0,
		       CAPSICUM_HOOK_SOCKET);
}

SEC("lsm/socket_bind")
int BPF_PROG(capsicum_socket_bind, struct socket *sock)
{
	return sock_require(sock, CAP_BIND);
}

SEC("lsm/socket_connect")
int BPF_PROG(capsicum_socket_connect, struct socket *sock)
{
	return sock_require(sock, CAP_CONNECT);
}

SEC("lsm/socket_listen")
int BPF_PROG(capsicum_socket_listen, struct socket *sock)
{
	return sock_require(sock, CAP_LISTEN);
}

SEC("lsm/socket_accept")
int BPF_PROG(capsicum_socket_accept, struct socket *sock)
{
	return sock_require(sock, CAP_ACCEPT);
}

SEC("lsm/socket_sendmsg")
int BPF_PROG(capsicum_socket_sendmsg, struct socket *sock, struct msghdr *msg)
{
	/* As on FreeBSD, naming a destination also needs CAP_CONNECT. */
	return sock_require(sock,
			    msg->msg_name ? CAP_SEND | CAP_CONNECT : CAP_SEND);
}

SEC("lsm/socket_recvmsg")
int BPF_PROG(capsicum_socket_recvmsg, struct socket *sock)
{
	return sock_require(sock, CAP_RECV);
}

SEC("lsm/socket_getsockname")
int BPF_PROG(capsicum_socket_getsockname, struct socket *sock)
{
	return sock_require(sock, CAP_GETSOCKNAME);
}

SEC("lsm/socket_getpeername")
int BPF_PROG(capsicum_socket_getpeername, struct socket *sock)
{
	return sock_require(sock, CAP_GETPEERNAME);
}

SEC("lsm/socket_getsockopt")
int BPF_PROG(capsicum_socket_getsockopt, struct socket *sock)
{
	return sock_require(sock, CAP_GETSOCKOPT);
}

SEC("lsm/socket_setsockopt")
int BPF_PROG(capsicum_socket_setsockopt, struct socket *sock)
{
	return sock_require(sock, CAP_SETSOCKOPT);
}

SEC("lsm/socket_shutdown")
int BPF_PROG(capsicum_socket_shutdown, struct socket *sock)
{
	return sock_require(sock, CAP_SHUTDOWN);
}

#endif
