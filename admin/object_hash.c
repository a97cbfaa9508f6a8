// SPDX-License-Identifier: GPL-2.0
#include "load.h"

/* Stamped at build time from build/bpf/capsicum.bpf.o, the object the
 * skeleton carries: capctl compares stamps without embedding the object. */
#include "capsicum_object_hash.h"

uint64_t capsicum_object_hash(void)
{
	return CAPSICUM_OBJECT_HASH;
}
