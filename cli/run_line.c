// SPDX-License-Identifier: GPL-2.0
#include "run_line.h"

#include "fmt.h"

#include <string.h>

/*
 * Every right's name once is about 1,500 bytes; a word is a path (under
 * 4096 bytes) and rights.
 */
#define RIGHTS_TEXT_MAX 2048
#define RUN_WORD_MAX	8192

int limit_word(const struct fd_limit *l, char *buf, size_t len)
{
	char rights[RIGHTS_TEXT_MAX];

	rights_display(&l->rights, rights, sizeof(rights));
	return snprintf(buf, len, "%d=%s", l->fd, rights);
}

int allow_dir_word(const struct allow_dir *d, char *buf, size_t len)
{
	char rights[RIGHTS_TEXT_MAX];
	struct allow_dir back;

	if (d->limited) {
		/* The last '=' is the one parse_allow_dir() splits at. */
		rights_display(&d->rights, rights, sizeof(rights));
		return snprintf(buf, len, "%s=%s", d->path, rights);
	}
	/*
	 * An unlimited "/x=read" would read back as /x limited to read; a
	 * trailing '/' names the same directory and is no list of rights.
	 */
	if (parse_allow_dir(d->path, &back) == 0 && back.limited)
		return snprintf(buf, len, "%s/", d->path);
	return snprintf(buf, len, "%s", d->path);
}

static bool shell_safe(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (!(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') &&
		    !(c >= '0' && c <= '9') && !strchr("_@%+=:,./-", c))
			return false;
	}
	return true;
}

static bool has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

void shell_quote(FILE *f, const char *s)
{
	if (shell_safe(s)) {
		fputs(s, f);
		return;
	}
	if (!has_control(s)) {
		/* Nothing is special between single quotes but the quote. */
		fputc('\'', f);
		for (; *s; s++) {
			if (*s == '\'')
				fputs("'\\''", f);
			else
				fputc(*s, f);
		}
		fputc('\'', f);
		return;
	}
	fputs("$'", f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\\' || c == '\'')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
	fputc('\'', f);
}

static void option(run_word_fn *emit, void *ctx, const char *name,
		   const char *value)
{
	emit(ctx, name);
	emit(ctx, value);
}

void run_line_words(const struct run_opts *r, char *const argv[],
		    run_word_fn *emit, void *ctx)
{
	char word[RUN_WORD_MAX];

	emit(ctx, "capctl");
	emit(ctx, "run");
	if (r->learn)
		emit(ctx, "--learn");
	if (r->write_policy)
		option(emit, ctx, "--write-policy", r->write_policy);
	for (int i = 0; i < r->nlimits; i++) {
		limit_word(&r->limits[i], word, sizeof(word));
		option(emit, ctx, "--limit", word);
	}
	for (int i = 0; i < r->ndirs; i++) {
		allow_dir_word(&r->dirs[i], word, sizeof(word));
		option(emit, ctx, "--allow-dir", word);
	}
	if (r->capmode)
		emit(ctx, "--capmode");
	if (r->allow_procfs)
		emit(ctx, "--allow-procfs");
	emit(ctx, "--");
	for (size_t i = 0; argv && argv[i]; i++)
		emit(ctx, argv[i]);
}

struct print_ctx {
	FILE *f;
	bool first;
};

static void print_word(void *ctx, const char *word)
{
	struct print_ctx *p = ctx;

	if (!p->first)
		fputc(' ', p->f);
	p->first = false;
	shell_quote(p->f, word);
}

void run_line_print(FILE *f, const struct run_opts *r, char *const argv[])
{
	struct print_ctx p = { f, true };

	run_line_words(r, argv, print_word, &p);
}
