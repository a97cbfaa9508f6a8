/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CAPCTL_RUN_LINE_H
#define CAPCTL_RUN_LINE_H

/*
 * A run's options written back as the words of a capctl command line,
 * for the suggestion capctl run --learn prints and the policy file:
 * whatever is written parses back (capctl_parse, policy_read) to the
 * same options.
 */
#include "args.h"

#include <stdio.h>

/* Called once per word, in order. */
typedef void run_word_fn(void *ctx, const char *word);

/*
 * "capctl", "run", the options of *r, "--", then argv (the command; none
 * if NULL). The options are spelled out, a --policy file's included, so
 * --policy itself is never a word; --learn and --write-policy are, if
 * set.
 */
void run_line_words(const struct run_opts *r, char *const argv[],
		    run_word_fn *emit, void *ctx);

/* The run_line_words() words shell-quoted, blank-separated, no newline. */
void run_line_print(FILE *f, const struct run_opts *r, char *const argv[]);

/*
 * "FD=RIGHTS" of a --limit, "PATH" or "PATH=RIGHTS" of an --allow-dir:
 * what parse_limit() and parse_allow_dir() read back. snprintf-style.
 */
int limit_word(const struct fd_limit *l, char *buf, size_t len);
int allow_dir_word(const struct allow_dir *d, char *buf, size_t len);

/*
 * s as one shell word that a POSIX shell reads back as s, on one line:
 * as it is if it is only safe characters, else in single quotes, or in
 * $'...' with escapes if it has control characters (a newline would
 * otherwise split the line it is printed on).
 */
void shell_quote(FILE *f, const char *s);

#endif
