// SPDX-License-Identifier: GPL-2.0
/*
 * capctl: the operator's view of Capsicum (capctl(8)). Parsing is in
 * args.c, each command in its cmd_*.c.
 */
#include "args.h"
#include "commands.h"

#include <bpf/libbpf.h>
#include <stdarg.h>
#include <stdio.h>

static void usage(FILE *f)
{
	fputs("usage: capctl [--json] COMMAND [ARGS]\n"
	      "  status                 loaded?, health, counters\n"
	      "  ps                     processes with Capsicum state\n"
	      "  fds PID                every descriptor of PID and its "
	      "rights\n"
	      "  audit [--follow] [--file FILE]\n"
	      "                         the denial log capsicumd writes\n"
	      "  rights NAMES|HEX       convert between right names and "
	      "bits\n"
	      "  run [--limit FD=RIGHTS]... [--allow-dir DIR[=RIGHTS]]... "
	      "[--capmode]\n"
	      "      [--allow-procfs] [--policy FILE]\n"
	      "      [--learn [--write-policy FILE]] -- CMD [ARGS]\n"
	      "                         start CMD with limited descriptors;"
	      " --learn: allow\n"
	      "                         all, report what would be refused "
	      "and the options\n"
	      "                         it needs (as root)\n"
	      "--json: machine-readable output for every read command.\n"
	      "Exit: 0 ok, 1 error, 2 usage, 3 Capsicum not loaded, 4 state "
	      "of another build,\n5 permission denied; run: 126/127 when "
	      "CMD cannot be executed / found.\n",
	      f);
}

/* libbpf's own messages stay out of capctl's output unless they matter. */
static int libbpf_quiet(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	if (level != LIBBPF_WARN)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

int main(int argc, char **argv)
{
	struct capctl_args a;
	char err[256];

	if (capctl_parse(argc, argv, &a, err, sizeof(err))) {
		fprintf(stderr, "capctl: %s\n", err);
		usage(stderr);
		return CAPCTL_EXIT_USAGE;
	}
	libbpf_set_print(libbpf_quiet);
	switch (a.cmd) {
	case CMD_STATUS:
		return cmd_status(&a);
	case CMD_PS:
		return cmd_ps(&a);
	case CMD_FDS:
		return cmd_fds(&a);
	case CMD_AUDIT:
		return cmd_audit(&a);
	case CMD_RIGHTS:
		return cmd_rights(&a);
	case CMD_RUN:
		return cmd_run(&a);
	default:
		usage(stdout);
		return CAPCTL_EXIT_OK;
	}
}
