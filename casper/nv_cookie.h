/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The value of the element an nvlist_next() cookie points at, for
 * libcasper's own readers: by name, a list with NV_FLAG_NO_UNIQUE would
 * give the first of its repeated elements each time. The caller has
 * checked the type nvlist_next() returned.
 */
#ifndef CASPER_NV_COOKIE_H
#define CASPER_NV_COOKIE_H

#include <sys/nv.h>

const char *nv_cookie_string(const void *cookie);
uint64_t nv_cookie_number(const void *cookie);
const nvlist_t *nv_cookie_nvlist(const void *cookie);

#endif
