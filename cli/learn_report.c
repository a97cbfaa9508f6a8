// SPDX-License-Identifier: GPL-2.0
/*
 * capctl run --learn's report (learn.h): what would have been refused,
 * by descriptor, then capability mode's refusals, why the result may
 * fall short, and the command line that would have run it.
 */
#include "learn.h"

#include "../lib/capmode.h"
#include "audit_line.h"
#include "fmt.h"
#include "json.h"
#include "run_line.h"

#include <inttypes.h>
#include <string.h>

/* Syscall names come from capability mode's table: one list of them. */
static const char *syscall_name(int nr, char *buf, size_t len)
{
	size_t lo = 0, hi = capsicum_capmode_table_len;

	if (nr < 0)
		return "?";
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (capsicum_capmode_table[mid].nr == nr)
			return capsicum_capmode_table[mid].name;
		if (capsicum_capmode_table[mid].nr < nr)
			lo = mid + 1;
		else
			hi = mid;
	}
	snprintf(buf, len, "syscall %d", nr);
	return buf;
}

/* Rights by name; words as they came if they are not valid rights. */
static void rights_text(const cap_rights_t *r, bool bad, char *buf, size_t len)
{
	if (bad || rights_display(r, buf, len) < 0)
		snprintf(buf, len, "0x%016" PRIx64 ",0x%016" PRIx64,
			 r->cr_rights[0], r->cr_rights[1]);
}

/* "--limit 0", "/srv/data (fd 3)", "fd 5, opened through /a (fd 3)". */
static void describe(const struct learn *l, const struct learn_group *g,
		     char *buf, size_t len)
{
	const struct run_opts *r = l->run;
	size_t o = 0;
	int n = 0;

	switch (g->owner) {
	case LEARN_LIMIT:
		snprintf(buf, len, "--limit %d", g->fd);
		return;
	case LEARN_DIR:
		snprintf(buf, len, "%s (fd %d)", r->dirs[g->index].path, g->fd);
		return;
	case LEARN_UNATTRIBUTED:
		snprintf(buf, len, "fd %d", g->fd);
		return;
	default:
		break;
	}
	o = (size_t)snprintf(buf, len, "fd %d, opened through", g->fd);
	for (int i = 0; i < r->ndirs && o < len; i++) {
		if (!(g->dirs & 1ULL << i))
			continue;
		o += (size_t)snprintf(buf + o, len - o, "%s %s (fd %d)",
				      n++ ? " or" : "", r->dirs[i].path,
				      CAPCTL_FIRST_DIR_FD + i);
	}
}

/* The same descriptor: its refusals are listed together. */
static bool same_descriptor(const struct learn_group *a,
			    const struct learn_group *b)
{
	return a->fd == b->fd && a->owner == b->owner && a->index == b->index &&
	       a->dirs == b->dirs && a->bad_rights == b->bad_rights &&
	       !memcmp(&a->held, &b->held, sizeof(a->held));
}

/* Whether g is the first group of its descriptor. */
static bool first_of_descriptor(const struct learn *l, int i)
{
	for (int j = 0; j < i; j++)
		if (same_descriptor(&l->group[j], &l->group[i]))
			return false;
	return true;
}

static void print_counts(FILE *out, const struct learn_count *c, int n,
			 unsigned long other)
{
	char buf[32];

	for (int i = 0; i < n; i++)
		fprintf(out, "%s%s x%lu", i ? ", " : " ",
			syscall_name(c[i].nr, buf, sizeof(buf)), c[i].count);
	if (other)
		fprintf(out, "%s%lu more of other syscalls", n ? ", " : " ",
			other);
}

static void print_hooks(FILE *out, uint64_t hooks)
{
	const char *sep = "; hooks ";

	for (unsigned int h = 0; h < 64; h++) {
		if (!(hooks & 1ULL << h))
			continue;
		fprintf(out, "%s%s", sep, audit_hook_name(h));
		sep = ", ";
	}
}

static const char *const owner_note[] = {
	[LEARN_AMBIGUOUS] = "    (could not tell these directories apart: "
			    "they hold the same rights; each is widened)\n",
	[LEARN_UNATTRIBUTED] = "    (unattributed: no --limit or --allow-dir "
			       "gives these rights; not in the suggestion)\n",
};

static void text_descriptor(const struct learn *l, int first, FILE *out)
{
	const struct learn_group *d = &l->group[first];
	char what[4096 + 512], rights[2048];

	describe(l, d, what, sizeof(what));
	rights_text(&d->held, d->bad_rights, rights, sizeof(rights));
	fprintf(out, "%s, holding %s:\n", what, rights);
	if (d->owner == LEARN_AMBIGUOUS || d->owner == LEARN_UNATTRIBUTED)
		fputs(owner_note[d->owner], out);
	for (int i = first; i < l->ngroups; i++) {
		const struct learn_group *g = &l->group[i];

		if (!same_descriptor(g, d))
			continue;
		rights_text(&g->missing, g->bad_rights, rights, sizeof(rights));
		fprintf(out, "  %s %s: %lu time%s;",
			g->bad_rights ? "needed" : "missing", rights, g->count,
			g->count == 1 ? "" : "s");
		print_counts(out, g->calls.call, g->calls.ncalls,
			     g->calls.other);
		print_hooks(out, g->hooks);
		fputc('\n', out);
	}
}

static void text_reason(void *ctx, const char *why)
{
	fprintf(ctx, "incomplete: %s\n", why);
}

static void text_report(const struct learn *l, const struct run_opts *s,
			char *const argv[], FILE *out)
{
	if (!l->records)
		fputs("nothing would have been refused\n", out);
	for (int i = 0; i < l->ngroups; i++)
		if (first_of_descriptor(l, i))
			text_descriptor(l, i, out);
	if (l->capmode_records) {
		fprintf(out, "capability mode %s refused %lu call%s:",
			l->run->capmode ? "(--capmode)"
					: "(entered by the program itself)",
			l->capmode_records, l->capmode_records == 1 ? "" : "s");
		print_counts(out, l->capmode, l->ncapmode, 0);
		fputs(l->run->capmode
			      ? "\n  the suggestion drops --capmode\n"
			      : "\n  no option of capctl run allows them: the "
				"suggestion cannot fix them\n",
		      out);
	}
	for (int i = 0; i < l->nother; i++) {
		const char *e = audit_error_name(l->other[i].error);

		fprintf(out, "other: %lu record%s of error ", l->other[i].count,
			l->other[i].count == 1 ? "" : "s");
		if (e)
			fputs(e, out);
		else
			fprintf(out, "%u", l->other[i].error);
		fprintf(out,
			" (hook %s): no rights or capability mode to "
			"widen\n",
			audit_hook_name(l->other[i].hook));
	}
	learn_reasons(l, text_reason, out);
	fputs("suggested: ", out);
	run_line_print(out, s, argv);
	fputc('\n', out);
}

static const char *const owner_names[] = {
	[LEARN_LIMIT] = "limit",
	[LEARN_DIR] = "dir",
	[LEARN_DERIVED] = "derived",
	[LEARN_AMBIGUOUS] = "ambiguous",
	[LEARN_UNATTRIBUTED] = "unattributed",
};

static void json_counts(struct json *j, const struct learn_count *c, int n)
{
	char buf[32];

	json_begin_array(j);
	for (int i = 0; i < n; i++) {
		json_begin_object(j);
		json_kv_string(j, "name",
			       syscall_name(c[i].nr, buf, sizeof(buf)));
		json_kv_int(j, "nr", c[i].nr);
		json_kv_uint(j, "count", c[i].count);
		json_end_object(j);
	}
	json_end_array(j);
}

static void json_refusal(struct json *j, const struct learn_group *g)
{
	char rights[2048];

	json_begin_object(j);
	rights_text(&g->missing, g->bad_rights, rights, sizeof(rights));
	json_kv_string(j, g->bad_rights ? "needed" : "missing", rights);
	json_kv_uint(j, "count", g->count);
	json_key(j, "syscalls");
	json_counts(j, g->calls.call, g->calls.ncalls);
	json_kv_uint(j, "other_syscalls", g->calls.other);
	json_key(j, "hooks");
	json_begin_array(j);
	for (unsigned int h = 0; h < 64; h++)
		if (g->hooks & 1ULL << h)
			json_string(j, audit_hook_name(h));
	json_end_array(j);
	json_end_object(j);
}

static void json_descriptor(struct json *j, const struct learn *l, int first)
{
	const struct learn_group *d = &l->group[first];
	char what[4096 + 512], rights[2048];

	json_begin_object(j);
	json_kv_int(j, "fd", d->fd);
	json_kv_string(j, "attribution", owner_names[d->owner]);
	describe(l, d, what, sizeof(what));
	json_kv_string(j, "what", what);
	rights_text(&d->held, d->bad_rights, rights, sizeof(rights));
	json_kv_string(j, "held", rights);
	json_key(j, "refusals");
	json_begin_array(j);
	for (int i = first; i < l->ngroups; i++)
		if (same_descriptor(&l->group[i], d))
			json_refusal(j, &l->group[i]);
	json_end_array(j);
	json_end_object(j);
}

static void json_reason(void *ctx, const char *why)
{
	json_string(ctx, why);
}

static void json_word(void *ctx, const char *word)
{
	json_string(ctx, word);
}

static void json_report(const struct learn *l, const struct run_opts *s,
			char *const argv[], FILE *out)
{
	struct json j;

	json_init(&j, out);
	json_begin_object(&j);
	json_kv_uint(&j, "records", l->records);
	json_key(&j, "descriptors");
	json_begin_array(&j);
	for (int i = 0; i < l->ngroups; i++)
		if (first_of_descriptor(l, i))
			json_descriptor(&j, l, i);
	json_end_array(&j);
	json_key(&j, "capmode");
	json_begin_object(&j);
	json_kv_string(&j, "entered_by",
		       l->run->capmode ? "capctl" : "program");
	json_kv_uint(&j, "count", l->capmode_records);
	json_key(&j, "syscalls");
	json_counts(&j, l->capmode, l->ncapmode);
	json_kv_bool(&j, "dropped",
		     l->run->capmode && l->capmode_records && !s->capmode);
	json_end_object(&j);
	json_key(&j, "other");
	json_begin_array(&j);
	for (int i = 0; i < l->nother; i++) {
		json_begin_object(&j);
		json_kv_uint(&j, "error", l->other[i].error);
		json_kv_string(&j, "error_name",
			       audit_error_name(l->other[i].error));
		json_kv_string(&j, "hook", audit_hook_name(l->other[i].hook));
		json_kv_uint(&j, "count", l->other[i].count);
		json_end_object(&j);
	}
	json_end_array(&j);
	json_kv_bool(&j, "complete", learn_complete(l));
	json_key(&j, "incomplete");
	json_begin_array(&j);
	learn_reasons(l, json_reason, &j);
	json_end_array(&j);
	json_key(&j, "suggested");
	json_begin_array(&j);
	run_line_words(s, argv, json_word, &j);
	json_end_array(&j);
	json_end_object(&j);
}

void learn_report(const struct learn *l, const struct run_opts *suggested,
		  char *const argv[], FILE *out, bool json)
{
	char *const *cmd = argv ? argv : suggested->argv;

	if (json)
		json_report(l, suggested, cmd, out);
	else
		text_report(l, suggested, cmd, out);
}
