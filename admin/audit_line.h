/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CAPSICUMD_AUDIT_LINE_H
#define CAPSICUMD_AUDIT_LINE_H

/*
 * One denial as one line of the audit log capsicumd writes and capctl
 * audit reads (doc/daemon.md, "Audit log"):
 *   v1 time=NS pid=P tid=T fd=F syscall=N hook=H error=E
 *      needed=0xW0,0xW1 held=0xW0,0xW1 uid=U [learn=L] comm=ESCAPED
 * (uid= is absent from the lines of earlier builds: parsed as
 * CAPSICUM_DENIAL_NO_UID. learn= is there only for a learning tree's
 * record, an operation that was recorded and allowed.)
 * comm comes last; bytes that are not printable ASCII, blanks and '\'
 * are written as \xNN so a line never splits or hides.
 */
#include <capsicum/abi.h>
#include <stddef.h>

/* snprintf-style: the length of the full line, newline included. */
int audit_line_format(const struct capsicum_denial *d, char *buf, size_t len);
/* 0, or -1 if the line is not a v1 audit line. */
int audit_line_parse(const char *line, struct capsicum_denial *d);

/* "file_permission" for CAPSICUM_HOOK_FILE_PERMISSION; "?" if unknown. */
const char *audit_hook_name(unsigned int hook);
/* "ENOTCAPABLE", "ECAPMODE", or NULL. */
const char *audit_error_name(unsigned int error);

/*
 * The log's human line: who was denied what, naming the missing rights:
 *   pid 42 (demo) fd 1: missing fstat (holds write); syscall 5,
 *   hook inode_getattr, ENOTCAPABLE
 */
int audit_describe(const struct capsicum_denial *d, char *buf, size_t len);

#endif
