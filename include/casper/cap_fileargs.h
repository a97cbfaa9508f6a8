/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * FreeBSD's fileargs service: the files named on the command line, opened
 * after capability mode by a casper process that opens those names only,
 * with the flags, mode and rights given to fileargs_init(). cap_fileargs(3).
 */
#ifndef _CAP_FILEARGS_H_
#define _CAP_FILEARGS_H_

#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <libcasper.h>
#include <sys/capsicum.h>

#ifdef __cplusplus
extern "C" {
#endif

/* fileargs_init() operations, FreeBSD's values. */
#define FA_OPEN	    1
#define FA_LSTAT    2
#define FA_REALPATH 4

typedef struct fileargs fileargs_t;

fileargs_t *fileargs_init(int argc, char *argv[], int flags, mode_t mode,
			  cap_rights_t *rightsp, int operations);
fileargs_t *fileargs_cinit(cap_channel_t *cas, int argc, char *argv[],
			   int flags, mode_t mode, cap_rights_t *rightsp,
			   int operations);
/* The limits as an nvlist (cap_fileargs(3) LIMITS), consumed. */
fileargs_t *fileargs_cinitnv(cap_channel_t *cas, nvlist_t *limits);
fileargs_t *fileargs_initnv(nvlist_t *limits);
int fileargs_open(fileargs_t *fa, const char *name);
FILE *fileargs_fopen(fileargs_t *fa, const char *name, const char *mode);
int fileargs_lstat(fileargs_t *fa, const char *name, struct stat *sb);
char *fileargs_realpath(fileargs_t *fa, const char *pathname,
			char *reserved_path);
void fileargs_free(fileargs_t *fa);
fileargs_t *fileargs_wrap(cap_channel_t *chan, int fdflags);
cap_channel_t *fileargs_unwrap(fileargs_t *fa, int *fdflags);

#ifdef __cplusplus
}
#endif

#endif /* _CAP_FILEARGS_H_ */
