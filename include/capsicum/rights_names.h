/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Linux extension: names for rights, for tools (capctl, capsicumd logs) that
 * show rights to people or take them on a command line.  Not part of
 * FreeBSD's API.
 */
#ifndef _CAPSICUM_RIGHTS_NAMES_H
#define _CAPSICUM_RIGHTS_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sys/capsicum.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Where a right comes from, so tools can flag non-portable ones. */
enum capsicum_right_origin {
	CAPSICUM_RIGHT_FREEBSD14,
	CAPSICUM_RIGHT_FREEBSD15,
	CAPSICUM_RIGHT_LINUX,
};

struct capsicum_right_name {
	const char *name; /* macro name, "CAP_READ" */
	uint64_t value;	  /* the macro's value, index bits included */
	/*
	 * The definition adds a bit no other right has (CAP_READ, CAP_SEEK);
	 * false for unions of other rights (CAP_PREAD) and for aliases
	 * (CAP_RECV).  Primitives are what capsicum_rights_format() prints.
	 */
	bool primitive;
	enum capsicum_right_origin origin;
};

/*
 * The table of every named right, in header order; aliases follow the
 * right they alias.  Returns the number of entries.
 */
size_t capsicum_rights_table(const struct capsicum_right_name **tab);

/* "CAP_READ" for exactly CAP_READ's value; NULL if no right has it. */
const char *capsicum_right_name(uint64_t right);

/*
 * Parse a comma- and/or blank-separated list into *out.  An item is a right
 * name with or without "CAP_", in any case ("CAP_READ", "read", "mmap_rw"),
 * "all" (CAP_ALL), "none", or one rights word in hex ("0x0200000000000001")
 * whose index bits say which word it is.  Returns 0, or -1 with errno EINVAL
 * on an unknown name, an empty item or a bad hex word; *out is only written
 * on success.  An empty or all-blank list gives no rights.
 */
int capsicum_rights_parse(const char *list, cap_rights_t *out);

/*
 * Format *r as a comma list of lowercase names without "CAP_" that covers
 * exactly its rights: "all" for CAP_ALL, "" for none, and a hex word for
 * bits no name covers (possible after cap_rights_clear of a component).
 * snprintf-style: returns the full length, writes at most len bytes,
 * NUL-terminated when len > 0.  -1 with errno EINVAL for invalid rights.
 * The output always parses back to *r.
 */
int capsicum_rights_format(const cap_rights_t *r, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* _CAPSICUM_RIGHTS_NAMES_H */
