/* SPDX-License-Identifier: BSD-2-Clause */
/* The control plane as other parts of libcapsicum use it (internal). */
#ifndef _CAPSICUM_LIB_CONTROL_H
#define _CAPSICUM_LIB_CONTROL_H

#include <capsicum/abi.h>

/* The parts of a struct capsicum_answer a query reads back. */
#define CAPSICUM_QUERY_RIGHTS (1U << 0)
#define CAPSICUM_QUERY_FCNTLS (1U << 1)
#define CAPSICUM_QUERY_IOCTLS (1U << 2) /* nioctls, and ioctls[] if a list */
#define CAPSICUM_QUERY_PID    (1U << 3)

/*
 * What the BPF side says of fd: the parts asked for (the rest of *a is
 * left as it was). 0, or -1 with errno (ENOSYS: unloaded, and only then).
 */
int capsicum_fd_query(int fd, struct capsicum_answer *a, unsigned parts);

/* pdfork's halves of "closing the descriptor kills the child". */
int capsicum_pd_child(void);
int capsicum_pd_watch(int pidfd);

/*
 * The caller's learn id (CAPSICUM_OP_LEARN_ID), 0 if it does not learn
 * or that cannot be told. errno is left alone.
 */
__u32 capsicum_learn_id(void);

#endif
