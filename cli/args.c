// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "args.h"

#include <capsicum/rights_names.h>
#include <errno.h>
#include <limits.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parse_int(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	if (!*s || *s == '+' || *s == '-' || *s == ' ')
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int parse_pid(const char *s, pid_t *pid)
{
	long v;

	if (parse_int(s, 1, INT_MAX, &v))
		return -1;
	*pid = (pid_t)v;
	return 0;
}

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

/* Options of `run`, up to "--"; i indexes argv. */
static int parse_run(int argc, char **argv, int i, struct capctl_args *a,
		     char *err, size_t len)
{
	struct run_opts *r = &a->run;

	for (; i < argc; i++) {
		const char *arg = argv[i], *val = NULL;

		if (!strcmp(arg, "--")) {
			i++;
			break;
		}
		if (!strcmp(arg, "--capmode")) {
			r->capmode = true;
			continue;
		}
		if (!strcmp(arg, "--json")) {
			a->json = true;
			continue;
		}
		if (!strcmp(arg, "--allow-procfs")) {
			r->allow_procfs = true;
			continue;
		}
		if (!strcmp(arg, "--limit") || !strcmp(arg, "--allow-dir")) {
			if (i + 1 >= argc)
				FAIL("%s needs an argument", arg);
			val = argv[++i];
		} else if (!strncmp(arg, "--limit=", 8)) {
			val = arg + 8;
			arg = "--limit";
		} else if (!strncmp(arg, "--allow-dir=", 12)) {
			val = arg + 12;
			arg = "--allow-dir";
		} else if (arg[0] == '-') {
			FAIL("run: unknown option %s", arg);
		} else {
			break; /* the command, without "--" */
		}
		if (!strcmp(arg, "--limit")) {
			if (r->nlimits == CAPCTL_MAX_LIMITS)
				FAIL("at most %d --limit", CAPCTL_MAX_LIMITS);
			if (parse_limit(val, &r->limits[r->nlimits++]))
				FAIL("--limit %s: expected FD=RIGHTS (e.g. "
				     "1=write or 3=read,seek)",
				     val);
		} else {
			if (r->ndirs == CAPCTL_MAX_DIRS)
				FAIL("at most %d --allow-dir", CAPCTL_MAX_DIRS);
			if (parse_allow_dir(val, &r->dirs[r->ndirs++]))
				FAIL("--allow-dir %s: expected DIR[=RIGHTS]",
				     val);
		}
	}
	if (i >= argc)
		FAIL("run: no command given (capctl run [OPTIONS] -- CMD "
		     "[ARGS])");
	r->argv = argv + i;
	return 0;
}

int capctl_parse(int argc, char **argv, struct capctl_args *a, char *err,
		 size_t len)
{
	const char *cmd = NULL;
	int i;

	memset(a, 0, sizeof(*a));
	a->audit_file = CAPCTL_DEFAULT_AUDIT;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) {
			a->json = true;
		} else if (!strcmp(argv[i], "--help") ||
			   !strcmp(argv[i], "-h")) {
			a->cmd = CMD_HELP;
			return 0;
		} else if (argv[i][0] == '-') {
			FAIL("unknown option %s", argv[i]);
		} else {
			cmd = argv[i++];
			break;
		}
	}
	if (!cmd)
		FAIL("no command given");
	for (size_t c = 0;; c++) {
		if (c == sizeof(commands) / sizeof(commands[0]))
			FAIL("unknown command %s", cmd);
		if (!strcmp(cmd, commands[c].name)) {
			a->cmd = commands[c].cmd;
			break;
		}
	}
	if (a->cmd == CMD_RUN)
		return parse_run(argc, argv, i, a, err, len);
	for (; i < argc; i++) {
		const char *arg = argv[i];

		if (!strcmp(arg, "--json")) {
			a->json = true;
		} else if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
			a->cmd = CMD_HELP;
			return 0;
		} else if (a->cmd == CMD_AUDIT &&
			   (!strcmp(arg, "--follow") || !strcmp(arg, "-f"))) {
			a->follow = true;
		} else if (a->cmd == CMD_AUDIT && !strcmp(arg, "--file")) {
			if (i + 1 >= argc)
				FAIL("--file needs an argument");
			a->audit_file = argv[++i];
		} else if (a->cmd == CMD_FDS && !a->pid && arg[0] != '-') {
			if (parse_pid(arg, &a->pid))
				FAIL("fds: bad pid %s", arg);
		} else if (a->cmd == CMD_RIGHTS && !a->rights &&
			   (arg[0] != '-' || !arg[1])) {
			a->rights = arg;
		} else {
			FAIL("%s: unexpected argument %s", cmd, arg);
		}
	}
	if (a->cmd == CMD_FDS && !a->pid)
		FAIL("fds: which PID?");
	if (a->cmd == CMD_RIGHTS && !a->rights)
		FAIL("rights: give NAMES or HEX (e.g. read,seek)");
	return 0;
}
