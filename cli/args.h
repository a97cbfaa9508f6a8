/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CAPCTL_ARGS_H
#define CAPCTL_ARGS_H

#include "capctl_exit.h"

#include <stdbool.h>
#include <stddef.h>
#include <sys/capsicum.h>
#include <sys/types.h>

/* capctl's command line, parsed without touching the system. */
enum capctl_cmd {
	CMD_HELP,
	CMD_STATUS,
	CMD_PS,
	CMD_FDS,
	CMD_AUDIT,
	CMD_RIGHTS,
	CMD_RUN,
};

#define CAPCTL_MAX_LIMITS   64
#define CAPCTL_MAX_DIRS	    64
#define CAPCTL_FIRST_DIR_FD 3

/* --limit FD=RIGHTS */
struct fd_limit {
	int fd;
	cap_rights_t rights;
};

/* --allow-dir DIR[=RIGHTS]; unlimited unless RIGHTS is given. */
struct allow_dir {
	char path[4096];
	bool limited;
	cap_rights_t rights;
};

struct run_opts {
	struct fd_limit limits[CAPCTL_MAX_LIMITS];
	int nlimits;
	struct allow_dir dirs[CAPCTL_MAX_DIRS];
	int ndirs;
	bool capmode;
	bool allow_procfs; /* --allow-procfs: --allow-dir may name procfs */
	/* --learn: permissive; record what would be refused (cli/learn.h) */
	bool learn;
	const char *write_policy; /* --write-policy FILE, with --learn */
	/* --policy FILE: its options come first, the command line's after */
	const char *policy;
	char **argv; /* the command, NULL-terminated */
};

struct capctl_args {
	enum capctl_cmd cmd;
	bool json;
	bool follow; /* audit --follow */
	pid_t pid;   /* fds PID */
	const char *audit_file;
	const char *rights; /* rights NAMES|HEX */
	struct run_opts run;
};

#define CAPCTL_DEFAULT_AUDIT "/run/capsicumd/audit.log"

/*
 * Parses argv into *a. 0, or -1 with a one-line reason in err. Options:
 * --json and --help anywhere before the command's own arguments.
 */
int capctl_parse(int argc, char **argv, struct capctl_args *a, char *err,
		 size_t len);

/* "3=read,seek" -> fd 3, CAP_READ|CAP_SEEK. 0 or -1. */
int parse_limit(const char *s, struct fd_limit *l);
/*
 * "DIR" or "DIR=RIGHTS". The text after the last '=' is taken as rights
 * only if it parses as rights; otherwise the whole argument is the path.
 */
int parse_allow_dir(const char *s, struct allow_dir *d);
/*
 * Whether an opened --allow-dir directory on a file system of type f_type
 * (statfs) may be passed. A procfs directory reaches other processes' mem
 * and environ, from capability mode too: refused (-1, the reason in msg)
 * unless allow_procfs, then passed with a warning in msg (1). Else 0.
 */
int allow_dir_fs_check(const char *path, long f_type, bool allow_procfs,
		       char *msg, size_t len);
#endif
