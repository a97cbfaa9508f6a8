/* SPDX-License-Identifier: BSD-2-Clause */
/* The control plane as other parts of libcapsicum use it (internal). */
#ifndef _CAPSICUM_LIB_CONTROL_H
#define _CAPSICUM_LIB_CONTROL_H

#include <capsicum/abi.h>

/* What the BPF side says of fd. 0, or -1 with errno (ENOSYS: unloaded). */
int capsicum_fd_query(int fd, struct capsicum_answer *a);

/* pdfork's halves of "closing the descriptor kills the child". */
int capsicum_pd_child(void);
int capsicum_pd_watch(int pidfd);

#endif
