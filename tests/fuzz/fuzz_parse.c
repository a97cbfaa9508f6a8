// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for what capctl and capsicumd parse (doc/security.md,
 * "Testing"): rights lists, --limit and --allow-dir specs, capctl's and
 * capsicumd's command lines, audit log lines, and the JSON writer's
 * escaping of any bytes. The first input byte picks the parser, the rest
 * is its input (argv: NUL-separated words). Each parser is held to a
 * property, not only to not crashing: what parses formats back to itself.
 * Built by `make fuzz` with clang -fsanitize=fuzzer,address,undefined.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* capsicumd's parse_options() is static: take the file whole. */
#define main capsicumd_main
#include "daemon/capsicumd.c"
#undef main

#include "cli/args.h"
#include "admin/audit_line.h"
#include "cli/json.h"

#include <capsicum/rights_names.h>

#define MAX_ARGS 32

/* A property failed: libFuzzer saves the input and stops. */
#define PROPERTY(cond)                                                         \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "property failed: %s (%s:%d)\n",       \
				#cond, __FILE__, __LINE__);                    \
			abort();                                               \
		}                                                              \
	} while (0)

static void rights_list(const char *s)
{
	cap_rights_t r, back;
	char buf[4096];
	int n;

	if (capsicum_rights_parse(s, &r))
		return;
	PROPERTY(cap_rights_is_valid(&r));
	n = capsicum_rights_format(&r, buf, sizeof(buf));
	PROPERTY(n >= 0 && (size_t)n < sizeof(buf));
	PROPERTY(capsicum_rights_parse(buf, &back) == 0);
	PROPERTY(!memcmp(&r, &back, sizeof(r)));
}

static void limit_spec(const char *s)
{
	struct fd_limit l;
	struct allow_dir d;

	if (!parse_limit(s, &l))
		PROPERTY(l.fd >= 0 && cap_rights_is_valid(&l.rights));
	if (!parse_allow_dir(s, &d)) {
		PROPERTY(memchr(d.path, '\0', sizeof(d.path)));
		PROPERTY(!d.limited || cap_rights_is_valid(&d.rights));
	}
}

static int split(char *data, size_t len, char **argv)
{
	int argc = 1;

	argv[0] = "prog";
	for (size_t i = 0; i < len && argc < MAX_ARGS;) {
		argv[argc++] = data + i;
		i += strlen(data + i) + 1;
	}
	argv[argc] = NULL;
	return argc;
}

static void capctl_args(char *data, size_t len)
{
	static struct capctl_args a;
	char *argv[MAX_ARGS + 1], err[256];
	int argc = split(data, len, argv);

	/* --policy (any abbreviation) reads a file: a FIFO would hang. */
	for (int i = 1; i < argc; i++)
		if (!strncmp(argv[i], "--p", 3))
			return;
	argv[0] = "capctl";
	optind = 0;
	opterr = 0;
	if (capctl_parse(argc, argv, &a, err, sizeof(err))) {
		PROPERTY(memchr(err, '\0', sizeof(err)) && err[0]);
		return;
	}
	PROPERTY(a.run.nlimits >= 0 && a.run.nlimits <= CAPCTL_MAX_LIMITS);
	PROPERTY(a.run.ndirs >= 0 && a.run.ndirs <= CAPCTL_MAX_DIRS);
	for (int i = 0; i < a.run.nlimits; i++)
		PROPERTY(cap_rights_is_valid(&a.run.limits[i].rights));
}

static void capsicumd_args(char *data, size_t len)
{
	char *argv[MAX_ARGS + 1];
	struct options o;
	int argc = split(data, len, argv);

	/* --help (any abbreviation) prints the usage and exits: not here. */
	for (int i = 1; i < argc; i++)
		if (!strncmp(argv[i], "--h", 3))
			return;
	argv[0] = "capsicumd";
	optind = 0;
	opterr = 0;
	if (parse_options(argc, argv, &o))
		return;
	PROPERTY(o.rate > 0);
	PROPERTY(!capsicum_load_opts_check(&o.load));
}

static bool same_denial(const struct capsicum_denial *a,
			const struct capsicum_denial *b)
{
	return a->time_ns == b->time_ns && a->pid == b->pid &&
	       a->tid == b->tid && a->fd == b->fd &&
	       a->syscall_nr == b->syscall_nr && a->hook == b->hook &&
	       a->error == b->error && !memcmp(a->needed, b->needed, 16) &&
	       !memcmp(a->held, b->held, 16) &&
	       !strncmp(a->comm, b->comm, sizeof(a->comm));
}

static void audit(const char *s)
{
	struct capsicum_denial d, back;
	char line[1024], text[1024];
	int n;

	memset(&d, 0, sizeof(d));
	if (audit_line_parse(s, &d))
		return;
	n = audit_line_format(&d, line, sizeof(line));
	PROPERTY(n > 0 && (size_t)n < sizeof(line) && line[n - 1] == '\n');
	line[n - 1] = '\0';
	memset(&back, 0, sizeof(back));
	PROPERTY(audit_line_parse(line, &back) == 0);
	PROPERTY(same_denial(&d, &back));
	n = audit_describe(&d, text, sizeof(text));
	PROPERTY(n >= 0);
}

/* Is s[0..n) one JSON string: quoted, escaped, valid UTF-8? */
static bool json_string_ok(const unsigned char *s, size_t n)
{
	size_t i = 1;

	if (n < 2 || s[0] != '"' || s[n - 1] != '"')
		return false;
	while (i < n - 1) {
		unsigned char c = s[i];
		size_t extra;

		if (c < 0x20 || c == '"')
			return false;
		if (c == '\\') {
			if (i + 1 >= n - 1 || !strchr("\"\\/bfnrtu", s[i + 1]))
				return false;
			i += s[i + 1] == 'u' ? 6 : 2;
			continue;
		}
		extra = c < 0x80	     ? 0
			: (c & 0xE0) == 0xC0 ? 1
			: (c & 0xF0) == 0xE0 ? 2
			: (c & 0xF8) == 0xF0 ? 3
					     : 9;
		if (extra == 9 || i + extra >= n)
			return false;
		for (size_t k = 1; k <= extra; k++)
			if ((s[i + k] & 0xC0) != 0x80)
				return false;
		i += extra + 1;
	}
	return i == n - 1;
}

static void json(const char *data, size_t len)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	struct json j;

	if (!f)
		return;
	json_init(&j, f);
	json_string_n(&j, data, len);
	fclose(f);
	PROPERTY(json_string_ok((const unsigned char *)buf, n));
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t len)
{
	char *s;

	if (len < 1)
		return 0;
	/* A NUL-terminated copy: every parser takes C strings. */
	s = malloc(len);
	memcpy(s, in + 1, len - 1);
	s[len - 1] = '\0';
	switch (in[0] % 6) {
	case 0:
		rights_list(s);
		break;
	case 1:
		limit_spec(s);
		break;
	case 2:
		capctl_args(s, len - 1);
		break;
	case 3:
		capsicumd_args(s, len - 1);
		break;
	case 4:
		audit(s);
		break;
	default:
		json(s, len - 1);
	}
	free(s);
	return 0;
}
