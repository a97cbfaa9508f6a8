// SPDX-License-Identifier: GPL-2.0
/*
 * capctl's command line: commands, options, --limit and --allow-dir,
 * --policy merged with the command line, --learn and --write-policy.
 */
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "cli/args.h"

static int parse(struct capctl_args *a, char *err, int argc, char **argv)
{
	return capctl_parse(argc, argv, a, err, 256);
}

#define PARSE(a, err, ...)                                                     \
	parse((a), (err), sizeof((char *[]){ __VA_ARGS__ }) / sizeof(char *),  \
	      (char *[]){ __VA_ARGS__, NULL })

Test(capctl_args, commands_and_json_anywhere)
{
	struct capctl_args a;
	char err[256];

	cr_assert_eq(PARSE(&a, err, "capctl", "status"), 0, "%s", err);
	cr_expect_eq(a.cmd, CMD_STATUS);
	cr_expect_not(a.json);
	cr_assert_eq(PARSE(&a, err, "capctl", "--json", "ps"), 0, "%s", err);
	cr_expect_eq(a.cmd, CMD_PS);
	cr_expect(a.json);
	cr_assert_eq(PARSE(&a, err, "capctl", "fds", "42", "--json"), 0, "%s",
		     err);
	cr_expect_eq(a.cmd, CMD_FDS);
	cr_expect_eq(a.pid, 42);
	cr_expect(a.json);
	cr_assert_eq(PARSE(&a, err, "capctl", "audit", "-f", "--file", "/x"), 0,
		     "%s", err);
	cr_expect(a.follow);
	cr_expect_str_eq(a.audit_file, "/x");
	cr_assert_eq(PARSE(&a, err, "capctl", "rights", "read,seek"), 0);
	cr_expect_str_eq(a.rights, "read,seek");
	cr_assert_eq(PARSE(&a, err, "capctl", "status", "--help"), 0);
	cr_expect_eq(a.cmd, CMD_HELP);
}

Test(capctl_args, errors_say_why)
{
	struct capctl_args a;
	char err[256];

	cr_expect_eq(PARSE(&a, err, "capctl"), -1);
	cr_expect_str_eq(err, "no command given");
	cr_expect_eq(PARSE(&a, err, "capctl", "frobnicate"), -1);
	cr_expect(strstr(err, "frobnicate"));
	cr_expect_eq(PARSE(&a, err, "capctl", "fds"), -1);
	cr_expect_eq(PARSE(&a, err, "capctl", "fds", "0"), -1);
	cr_expect_eq(PARSE(&a, err, "capctl", "fds", "-3"), -1);
	cr_expect_eq(PARSE(&a, err, "capctl", "fds", "12x"), -1);
	cr_expect_eq(PARSE(&a, err, "capctl", "fds", "1", "2"), -1);
	cr_expect_eq(PARSE(&a, err, "capctl", "ps", "--follow"), -1);
	cr_expect_eq(PARSE(&a, err, "capctl", "rights"), -1);
	cr_expect_eq(PARSE(&a, err, "capctl", "--bogus", "ps"), -1);
	cr_expect_eq(PARSE(&a, err, "capctl", "run"), -1);
	cr_expect_eq(PARSE(&a, err, "capctl", "run", "--limit"), -1);
	cr_expect_eq(PARSE(&a, err, "capctl", "run", "--"), -1);
	cr_expect_eq(PARSE(&a, err, "capctl", "run", "--nope", "--", "x"), -1);
}

Test(capctl_args, run_options_and_command)
{
	struct capctl_args a;
	char err[256];

	cr_assert_eq(PARSE(&a, err, "capctl", "run", "--limit", "1=write",
			   "--limit=3=read,seek", "--allow-dir", "/tmp=lookup",
			   "--allow-dir=/var", "--capmode", "--", "cat", "-n"),
		     0, "%s", err);
	cr_expect_eq(a.cmd, CMD_RUN);
	cr_assert_eq(a.run.nlimits, 2);
	cr_expect_eq(a.run.limits[0].fd, 1);
	cr_expect_eq(a.run.limits[0].rights.cr_rights[0], CAP_WRITE);
	cr_expect_eq(a.run.limits[1].fd, 3);
	cr_expect_eq(a.run.limits[1].rights.cr_rights[0], CAP_READ | CAP_SEEK);
	cr_assert_eq(a.run.ndirs, 2);
	cr_expect_str_eq(a.run.dirs[0].path, "/tmp");
	cr_expect(a.run.dirs[0].limited);
	cr_expect_eq(a.run.dirs[0].rights.cr_rights[0], CAP_LOOKUP);
	cr_expect_str_eq(a.run.dirs[1].path, "/var");
	cr_expect_not(a.run.dirs[1].limited);
	cr_expect(a.run.capmode);
	cr_expect_str_eq(a.run.argv[0], "cat");
	cr_expect_str_eq(a.run.argv[1], "-n");
	cr_expect_null(a.run.argv[2]);
	/* Without "--" the first non-option is the command. */
	cr_assert_eq(PARSE(&a, err, "capctl", "run", "true", "--limit"), 0);
	cr_expect_str_eq(a.run.argv[0], "true");
	cr_expect_str_eq(a.run.argv[1], "--limit");
}

Test(capctl_args, allow_procfs_option)
{
	struct capctl_args a;
	char err[256];

	cr_assert_eq(PARSE(&a, err, "capctl", "run", "--allow-dir", "/proc",
			   "--", "true"),
		     0, "%s", err);
	cr_expect_not(a.run.allow_procfs);
	cr_assert_eq(PARSE(&a, err, "capctl", "run", "--allow-procfs",
			   "--allow-dir", "/proc", "--", "true"),
		     0, "%s", err);
	cr_expect(a.run.allow_procfs);
}

/* A procfs directory (statfs f_type) is refused unless --allow-procfs. */
Test(capctl_args, allow_dir_on_procfs)
{
	char msg[512] = "";

	cr_expect_eq(allow_dir_fs_check("/tmp", TMPFS_MAGIC, false, msg,
					sizeof(msg)),
		     0);
	cr_expect_str_empty(msg);
	cr_expect_eq(allow_dir_fs_check("/proc/self", PROC_SUPER_MAGIC, false,
					msg, sizeof(msg)),
		     -1);
	cr_expect(strstr(msg, "/proc/self") && strstr(msg, "refused") &&
			  strstr(msg, "--allow-procfs"),
		  "%s", msg);
	cr_expect_eq(allow_dir_fs_check("/proc", PROC_SUPER_MAGIC, true, msg,
					sizeof(msg)),
		     1);
	cr_expect(!strncmp(msg, "warning: ", 9), "%s", msg);
}

Test(capctl_args, limit_parser)
{
	struct fd_limit l;

	cr_assert_eq(parse_limit("0=read", &l), 0);
	cr_expect_eq(l.fd, 0);
	cr_expect_eq(l.rights.cr_rights[0], CAP_READ);
	cr_assert_eq(parse_limit("7=CAP_READ CAP_EVENT", &l), 0);
	cr_expect_eq(l.fd, 7);
	cr_expect_eq(l.rights.cr_rights[1], CAP_EVENT);
	cr_assert_eq(parse_limit("2=none", &l), 0);
	cr_expect_eq(l.rights.cr_rights[0], CAPRIGHT(0, 0));
	cr_assert_eq(parse_limit("4=0x0200000000000003", &l), 0);
	cr_expect_eq(l.rights.cr_rights[0], CAP_READ | CAP_WRITE);
	/* Bad fds, empty or unknown rights, missing parts. */
	cr_expect_eq(parse_limit("=read", &l), -1);
	cr_expect_eq(parse_limit("1", &l), -1);
	cr_expect_eq(parse_limit("1=", &l), -1);
	cr_expect_eq(parse_limit("-1=read", &l), -1);
	cr_expect_eq(parse_limit("+1=read", &l), -1);
	cr_expect_eq(parse_limit("x=read", &l), -1);
	cr_expect_eq(parse_limit("99999999999=read", &l), -1);
	cr_expect_eq(parse_limit("1=reed", &l), -1);
	cr_expect_eq(parse_limit("1=read,,write", &l), -1);
}

Test(capctl_args, allow_dir_parser)
{
	struct allow_dir d;

	cr_assert_eq(parse_allow_dir("/srv/www", &d), 0);
	cr_expect_str_eq(d.path, "/srv/www");
	cr_expect_not(d.limited);
	cr_assert_eq(parse_allow_dir("/srv=lookup,read", &d), 0);
	cr_expect_str_eq(d.path, "/srv");
	cr_expect(d.limited);
	cr_expect_eq(d.rights.cr_rights[0], CAP_LOOKUP | CAP_READ);
	/* A '=' in the name is kept when what follows is not rights. */
	cr_assert_eq(parse_allow_dir("/tmp/a=b", &d), 0);
	cr_expect_str_eq(d.path, "/tmp/a=b");
	cr_expect_not(d.limited);
	cr_expect_eq(parse_allow_dir("", &d), -1);
	cr_expect_eq(parse_allow_dir("=read", &d), 0);
	cr_expect_str_eq(d.path, "=read");
}

/* getopt_long()'s refusals, in capctl's own words. */
Test(capctl_args, errors_name_the_option)
{
	struct capctl_args a;
	char err[256];

	cr_expect_eq(PARSE(&a, err, "capctl", "--bogus", "ps"), -1);
	cr_expect_str_eq(err, "unknown option --bogus");
	cr_expect_eq(PARSE(&a, err, "capctl", "run", "--limit"), -1);
	cr_expect_str_eq(err, "--limit needs an argument");
	cr_expect_eq(PARSE(&a, err, "capctl", "run", "--nope", "--", "x"), -1);
	cr_expect_str_eq(err, "run: unknown option --nope");
	cr_expect_eq(PARSE(&a, err, "capctl", "ps", "--follow"), -1);
	cr_expect_str_eq(err, "ps: unexpected argument --follow");
	cr_expect_eq(PARSE(&a, err, "capctl", "audit", "--file"), -1);
	cr_expect_str_eq(err, "--file needs an argument");
	cr_expect_eq(PARSE(&a, err, "capctl", "fds", "1", "2"), -1);
	cr_expect_str_eq(err, "fds: unexpected argument 2");
	/* "-" alone is an argument (rights reads it), not an option. */
	cr_expect_eq(PARSE(&a, err, "capctl", "rights", "-"), 0);
	cr_expect_str_eq(a.rights, "-");
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	cr_assert_not_null(f);
	fputs(text, f);
	cr_assert_eq(fclose(f), 0);
}

/* The file's options first, the command line's after, wherever --policy. */
Test(capctl_args, policy_merges_with_the_command_line)
{
	static struct capctl_args a;
	char err[256], path[] = "/tmp/capctl-args-XXXXXX";
	cap_rights_t want;

	close(mkstemp(path));
	write_text(path, "limit 0=read\nlimit 1=write\nallow-dir /a=lookup\n");
	cr_assert_eq(PARSE(&a, err, "capctl", "run", "--limit", "1=write,fstat",
			   "--allow-dir", "/b", "--limit", "5=seek", "--policy",
			   path, "--capmode", "--", "prog", "-x"),
		     0, "%s", err);
	cr_expect_str_eq(a.run.policy, path);
	cr_assert_eq(a.run.nlimits, 3);
	cr_expect_eq(a.run.limits[0].fd, 0);
	cr_expect_eq(a.run.limits[0].rights.cr_rights[0], CAP_READ);
	cr_expect_eq(a.run.limits[1].fd, 1);
	cap_rights_init(&want, CAP_WRITE, CAP_FSTAT);
	cr_expect_arr_eq(&a.run.limits[1].rights, &want, sizeof(want));
	cr_expect_eq(a.run.limits[2].fd, 5);
	cr_assert_eq(a.run.ndirs, 2);
	cr_expect_str_eq(a.run.dirs[0].path, "/a");
	cr_expect(a.run.dirs[0].limited);
	cr_expect_str_eq(a.run.dirs[1].path, "/b");
	cr_expect(a.run.capmode);
	cr_expect_str_eq(a.run.argv[0], "prog");

	/* capmode from the file stays. */
	write_text(path, "capmode\n");
	cr_assert_eq(PARSE(&a, err, "capctl", "run", "--policy", path, "true"),
		     0, "%s", err);
	cr_expect(a.run.capmode);

	cr_expect_eq(PARSE(&a, err, "capctl", "run", "--policy", path,
			   "--policy", path, "true"),
		     -1);
	cr_expect_str_eq(err, "--policy given twice");
	cr_expect_eq(PARSE(&a, err, "capctl", "run", "--policy",
			   "/nonexistent/p", "true"),
		     -1);
	cr_expect(strstr(err, "No such file"), "%s", err);
	/* The command line's errors are still found after the file. */
	cr_expect_eq(PARSE(&a, err, "capctl", "run", "--policy", path, "--nope",
			   "true"),
		     -1);
	cr_expect_str_eq(err, "run: unknown option --nope");
	unlink(path);
}

Test(capctl_args, learn_options)
{
	static struct capctl_args a;
	char err[256];

	cr_assert_eq(PARSE(&a, err, "capctl", "run", "--learn",
			   "--write-policy", "out.policy", "--limit", "0=read",
			   "--", "prog"),
		     0, "%s", err);
	cr_expect(a.run.learn);
	cr_expect_str_eq(a.run.write_policy, "out.policy");
	cr_expect_null(a.run.policy);
	cr_assert_eq(PARSE(&a, err, "capctl", "run", "prog"), 0, "%s", err);
	cr_expect_not(a.run.learn);
	cr_expect_null(a.run.write_policy);
	cr_expect_eq(PARSE(&a, err, "capctl", "run", "--write-policy", "p",
			   "--", "prog"),
		     -1);
	cr_expect(!strncmp(err, "--write-policy needs --learn", 28), "%s", err);
	cr_expect_eq(
		PARSE(&a, err, "capctl", "run", "--learn", "--write-policy"),
		-1);
	cr_expect_str_eq(err, "--write-policy needs an argument");
}
