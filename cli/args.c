// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "args.h"

#include "parse_num.h"
#include "policy.h"

#include <capsicum/rights_names.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int parse_limit(const char *s, struct fd_limit *l)
{
	const char *eq = strchr(s, '=');
	char fd[16];
	long v;

	if (!eq || eq == s || (size_t)(eq - s) >= sizeof(fd))
		return -1;
	memcpy(fd, s, (size_t)(eq - s));
	fd[eq - s] = '\0';
	if (parse_int(fd, 0, INT_MAX, &v))
		return -1;
	/* An empty list would silently mean "no rights": say "none". */
	if (!eq[1] || capsicum_rights_parse(eq + 1, &l->rights))
		return -1;
	l->fd = (int)v;
	return 0;
}

int parse_allow_dir(const char *s, struct allow_dir *d)
{
	const char *eq = strrchr(s, '=');
	size_t n = strlen(s);

	d->limited = false;
	if (eq && eq != s && eq[1] &&
	    capsicum_rights_parse(eq + 1, &d->rights) == 0) {
		d->limited = true;
		n = (size_t)(eq - s);
	}
	if (!n || n >= sizeof(d->path))
		return -1;
	memcpy(d->path, s, n);
	d->path[n] = '\0';
	return 0;
}

int allow_dir_fs_check(const char *path, long f_type, bool allow_procfs,
		       char *msg, size_t len)
{
	if (f_type != PROC_SUPER_MAGIC)
		return 0;
	if (!allow_procfs) {
		snprintf(msg, len,
			 "--allow-dir %s is on procfs: a descriptor of it "
			 "reaches other processes' mem and environ, in "
			 "capability mode too; refused (--allow-procfs "
			 "passes it anyway)",
			 path);
		return -1;
	}
	snprintf(msg, len,
		 "warning: --allow-dir %s is on procfs: the command can read "
		 "other processes' mem and environ through it (--allow-procfs)",
		 path);
	return 1;
}

static const struct {
	const char *name;
	enum capctl_cmd cmd;
} commands[] = {
	{ "status", CMD_STATUS }, { "ps", CMD_PS },	    { "fds", CMD_FDS },
	{ "audit", CMD_AUDIT },	  { "rights", CMD_RIGHTS }, { "run", CMD_RUN },
	{ "help", CMD_HELP },
};

#define FAIL(...)                                                              \
	do {                                                                   \
		snprintf(err, len, __VA_ARGS__);                               \
		return -1;                                                     \
	} while (0)

/* The option getopt_long() just refused, as the user wrote it. */
static const char *bad_option(char **argv)
{
	return argv[optind - 1];
}

static const struct option run_longopts[] = {
	{ "limit", required_argument, NULL, 'l' },
	{ "allow-dir", required_argument, NULL, 'd' },
	{ "capmode", no_argument, NULL, 'c' },
	{ "allow-procfs", no_argument, NULL, 'p' },
	{ "json", no_argument, NULL, 'j' },
	{ "learn", no_argument, NULL, 'L' },
	{ "write-policy", required_argument, NULL, 'w' },
	{ "policy", required_argument, NULL, 'P' },
	{ 0 },
};

/*
 * The --policy file, read before the options are applied so that the
 * command line's come after its own wherever --policy stands. A bad
 * option is left for the second pass to name.
 */
static int read_policy_first(int argc, char **argv, struct run_opts *r,
			     char *err, size_t len)
{
	int c;

	while ((c = getopt_long(argc, argv, "+:", run_longopts, NULL)) != -1) {
		if (c != 'P')
			continue;
		if (r->policy)
			FAIL("--policy given twice");
		r->policy = optarg;
	}
	if (r->policy && policy_read(r->policy, r, err, len))
		return -1;
	return 0;
}

/* A --limit: it replaces the --policy file's limit of the same fd. */
static int add_limit(struct run_opts *r, int nfile, const char *arg, char *err,
		     size_t len)
{
	struct fd_limit l;

	if (parse_limit(arg, &l))
		FAIL("--limit %s: expected FD=RIGHTS (e.g. 1=write or "
		     "3=read,seek)",
		     arg);
	for (int i = 0; i < nfile; i++) {
		if (r->limits[i].fd == l.fd) {
			r->limits[i] = l;
			return 0;
		}
	}
	if (r->nlimits == CAPCTL_MAX_LIMITS)
		FAIL("at most %d --limit%s", CAPCTL_MAX_LIMITS,
		     nfile ? " (the --policy file's included)" : "");
	r->limits[r->nlimits++] = l;
	return 0;
}

/* Options of `run`, up to "--" or the command; getopt_long()'s optind. */
static int parse_run(int argc, char **argv, struct capctl_args *a, char *err,
		     size_t len)
{
	struct run_opts *r = &a->run;
	int first = optind, nfile, c;

	if (read_policy_first(argc, argv, r, err, len))
		return -1;
	nfile = r->nlimits;
	optind = first;
	/* "+": the command's own options are its, not ours. */
	while ((c = getopt_long(argc, argv, "+:", run_longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			r->capmode = true;
			break;
		case 'p':
			r->allow_procfs = true;
			break;
		case 'j':
			a->json = true;
			break;
		case 'L':
			r->learn = true;
			break;
		case 'w':
			r->write_policy = optarg;
			break;
		case 'P':
			break;
		case 'l':
			if (add_limit(r, nfile, optarg, err, len))
				return -1;
			break;
		case 'd':
			if (r->ndirs == CAPCTL_MAX_DIRS)
				FAIL("at most %d --allow-dir%s",
				     CAPCTL_MAX_DIRS,
				     r->policy ? " (the --policy file's "
						 "included)"
					       : "");
			if (parse_allow_dir(optarg, &r->dirs[r->ndirs++]))
				FAIL("--allow-dir %s: expected DIR[=RIGHTS]",
				     optarg);
			break;
		case ':':
			FAIL("%s needs an argument", bad_option(argv));
		default:
			FAIL("run: unknown option %s", bad_option(argv));
		}
	}
	if (r->write_policy && !r->learn)
		FAIL("--write-policy needs --learn (the policy is what a "
		     "learning run saw)");
	if (optind >= argc)
		FAIL("run: no command given (capctl run [OPTIONS] -- CMD "
		     "[ARGS])");
	r->argv = argv + optind;
	return 0;
}

/* A positional argument of fds or rights, at most one. */
static int positional(struct capctl_args *a, const char *cmd, const char *arg,
		      char *err, size_t len)
{
	if (a->cmd == CMD_FDS && !a->pid) {
		if (parse_pid(arg, &a->pid))
			FAIL("fds: bad pid %s", arg);
	} else if (a->cmd == CMD_RIGHTS && !a->rights) {
		a->rights = arg;
	} else {
		FAIL("%s: unexpected argument %s", cmd, arg);
	}
	return 0;
}

/* The options and arguments of every command but run. */
static int parse_cmd(int argc, char **argv, const char *cmd,
		     struct capctl_args *a, char *err, size_t len)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ "follow", no_argument, NULL, 'f' },
		{ "file", required_argument, NULL, 'F' },
		{ 0 },
	};
	int c;

	/*
	 * "+" stops at each argument that is not an option; it is taken
	 * and getopt_long() goes on after it, so options may follow it.
	 */
	while (optind < argc) {
		c = getopt_long(argc, argv, "+:hf", longopts, NULL);
		if (c == -1) {
			if (optind >= argc)
				break;
			if (positional(a, cmd, argv[optind++], err, len))
				return -1;
			continue;
		}
		if ((c == 'f' || c == 'F') && a->cmd != CMD_AUDIT)
			FAIL("%s: unexpected argument %s", cmd,
			     bad_option(argv));
		switch (c) {
		case 'j':
			a->json = true;
			break;
		case 'h':
			a->cmd = CMD_HELP;
			return 0;
		case 'f':
			a->follow = true;
			break;
		case 'F':
			a->audit_file = optarg;
			break;
		case ':':
			FAIL("%s needs an argument", bad_option(argv));
		default:
			FAIL("%s: unexpected argument %s", cmd,
			     bad_option(argv));
		}
	}
	if (a->cmd == CMD_FDS && !a->pid)
		FAIL("fds: which PID?");
	if (a->cmd == CMD_RIGHTS && !a->rights)
		FAIL("rights: give NAMES or HEX (e.g. read,seek)");
	return 0;
}

int capctl_parse(int argc, char **argv, struct capctl_args *a, char *err,
		 size_t len)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *cmd;
	int c;

	memset(a, 0, sizeof(*a));
	a->audit_file = CAPCTL_DEFAULT_AUDIT;
	/* Parsed more than once in one process (the unit tests): reset. */
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			a->json = true;
			break;
		case 'h':
			a->cmd = CMD_HELP;
			return 0;
		default:
			FAIL("unknown option %s", bad_option(argv));
		}
	}
	if (optind >= argc)
		FAIL("no command given");
	cmd = argv[optind++];
	for (size_t i = 0;; i++) {
		if (i == sizeof(commands) / sizeof(commands[0]))
			FAIL("unknown command %s", cmd);
		if (!strcmp(cmd, commands[i].name)) {
			a->cmd = commands[i].cmd;
			break;
		}
	}
	if (a->cmd == CMD_RUN)
		return parse_run(argc, argv, a, err, len);
	return parse_cmd(argc, argv, cmd, a, err, len);
}
