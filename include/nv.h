/* SPDX-License-Identifier: BSD-2-Clause */
/* FreeBSD programs include either <nv.h> or <sys/nv.h>: the same API. */
#ifndef _NV_H_
#define _NV_H_

#include <sys/nv.h>

#endif /* _NV_H_ */
