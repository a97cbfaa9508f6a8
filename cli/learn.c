// SPDX-License-Identifier: GPL-2.0
/*
 * capctl run --learn's accounting (learn.h): records in, the suggestion
 * and the reasons it may fall short out. The report is learn_report.c.
 */
#include "learn.h"

#include <errno.h>
#include <string.h>

_Static_assert(CAPSICUM_HOOK_MAX <= 64, "hooks seen are a 64-bit mask");
_Static_assert(CAPCTL_MAX_DIRS <= 64, "directories are a 64-bit mask");

void learn_init(struct learn *l, const struct run_opts *r)
{
	memset(l, 0, sizeof(*l));
	l->run = r;
}

/* Equal rights, whatever the version and index bits say. */
static bool same_rights(const cap_rights_t *a, const cap_rights_t *b)
{
	for (int i = 0; i < CAP_RIGHTS_VERSION + 2; i++)
		if ((a->cr_rights[i] ^ b->cr_rights[i]) & CAP_RIGHTS_BITS_MASK)
			return false;
	return true;
}

/* A directory a descriptor holding these rights may come from. */
static bool dir_gives(const struct allow_dir *d, const cap_rights_t *held)
{
	return d->limited && same_rights(&d->rights, held);
}

static void attribute(const struct run_opts *r, struct learn_group *g)
{
	int matches = 0;

	for (int i = 0; i < r->nlimits; i++) {
		if (r->limits[i].fd == g->fd &&
		    same_rights(&r->limits[i].rights, &g->held)) {
			g->owner = LEARN_LIMIT;
			g->index = i;
			return;
		}
	}
	/*
	 * The fd alone is not enough: a child may have put another file at
	 * that number. The rights it holds say whose it can be.
	 */
	for (int i = 0; i < r->ndirs; i++) {
		if (g->fd == CAPCTL_FIRST_DIR_FD + i &&
		    dir_gives(&r->dirs[i], &g->held)) {
			g->owner = LEARN_DIR;
			g->index = i;
			return;
		}
	}
	/* openat() through a limited directory passes its rights on. */
	g->owner = LEARN_UNATTRIBUTED;
	for (int i = 0; i < r->ndirs; i++) {
		if (dir_gives(&r->dirs[i], &g->held)) {
			g->dirs |= 1ULL << i;
			matches++;
		}
	}
	if (matches)
		g->owner = matches == 1 ? LEARN_DERIVED : LEARN_AMBIGUOUS;
}

/* Counts nr in tab; -1 if it is new and tab is full. */
static int count_call(struct learn_count *tab, int *n, int max, int nr)
{
	for (int i = 0; i < *n; i++) {
		if (tab[i].nr == nr) {
			tab[i].count++;
			return 0;
		}
	}
	if (*n == max)
		return -1;
	tab[*n].nr = nr;
	tab[(*n)++].count = 1;
	return 0;
}

static int lost(struct learn *l)
{
	l->lost++;
	return -1;
}

static struct learn_group *find_group(struct learn *l,
				      const struct learn_group *key)
{
	for (int i = 0; i < l->ngroups; i++) {
		struct learn_group *g = &l->group[i];

		if (g->fd == key->fd && g->owner == key->owner &&
		    g->index == key->index && g->dirs == key->dirs &&
		    g->bad_rights == key->bad_rights &&
		    !memcmp(&g->held, &key->held, sizeof(g->held)) &&
		    !memcmp(&g->missing, &key->missing, sizeof(g->missing)))
			return g;
	}
	if (l->ngroups == LEARN_MAX_GROUPS)
		return NULL;
	l->group[l->ngroups] = *key;
	return &l->group[l->ngroups++];
}

/*
 * A record's rights words as a cap_rights_t: the BPF side writes a word
 * that names no right as 0, where cap_rights_t keeps its index bits.
 */
static void record_rights(const __u64 w[2], cap_rights_t *r)
{
	r->cr_rights[0] = w[0] ? w[0] : CAPRIGHT(0, 0ULL);
	r->cr_rights[1] = w[1] ? w[1] : CAPRIGHT(1, 0ULL);
}

static int add_refusal(struct learn *l, const struct capsicum_denial *d)
{
	struct learn_group key = { .fd = d->fd };
	struct learn_group *g;
	cap_rights_t needed;

	record_rights(d->needed, &needed);
	record_rights(d->held, &key.held);
	if (cap_rights_is_valid(&needed) && cap_rights_is_valid(&key.held)) {
		key.missing = needed;
		cap_rights_remove(&key.missing, &key.held);
		attribute(l->run, &key);
	} else {
		/* Nothing to add them to: shown as they came, unattributed. */
		key.bad_rights = true;
		key.owner = LEARN_UNATTRIBUTED;
		memcpy(key.missing.cr_rights, d->needed,
		       sizeof(key.missing.cr_rights));
	}
	g = find_group(l, &key);
	if (!g)
		return lost(l);
	g->count++;
	if (d->hook < 64)
		g->hooks |= 1ULL << d->hook;
	if (count_call(g->calls.call, &g->calls.ncalls, LEARN_MAX_CALLS,
		       d->syscall_nr))
		g->calls.other++;
	return 0;
}

static int add_other(struct learn *l, const struct capsicum_denial *d)
{
	for (int i = 0; i < l->nother; i++) {
		if (l->other[i].error == d->error &&
		    l->other[i].hook == d->hook) {
			l->other[i].count++;
			return 0;
		}
	}
	if (l->nother == LEARN_MAX_OTHER)
		return lost(l);
	l->other[l->nother++] = (struct learn_other){ d->error, d->hook, 1 };
	return 0;
}

int learn_add(struct learn *l, const struct capsicum_denial *d)
{
	l->records++;
	if (d->error == ENOTCAPABLE)
		return add_refusal(l, d);
	if (d->error != ECAPMODE)
		return add_other(l, d);
	if (count_call(l->capmode, &l->ncapmode, LEARN_MAX_CAPMODE,
		       d->syscall_nr))
		return lost(l);
	l->capmode_records++;
	return 0;
}

void learn_incomplete(struct learn *l, const char *why)
{
	for (int i = 0; i < l->nwhy; i++)
		if (!strncmp(l->why[i], why, LEARN_WHY_LEN - 1))
			return;
	if (l->nwhy == LEARN_MAX_WHY) {
		l->more_why++;
		return;
	}
	snprintf(l->why[l->nwhy++], LEARN_WHY_LEN, "%s", why);
}

/* A refusal the suggestion widens something for. */
static bool fixable(const struct learn_group *g)
{
	return !g->bad_rights && g->owner != LEARN_UNATTRIBUTED &&
	       !cap_rights_is_empty(&g->missing);
}

void learn_reasons(const struct learn *l,
		   void (*fn)(void *ctx, const char *why), void *ctx)
{
	unsigned long unattributed = 0, held = 0;
	char buf[256];

	for (int i = 0; i < l->nwhy; i++)
		fn(ctx, l->why[i]);
	if (l->more_why) {
		snprintf(buf, sizeof(buf), "and %lu more reasons", l->more_why);
		fn(ctx, buf);
	}
	if (l->lost) {
		snprintf(buf, sizeof(buf),
			 "%lu records did not fit in the learning tables (at "
			 "most %d descriptor groups, %d syscalls refused by "
			 "capability mode, %d other kinds)",
			 l->lost, LEARN_MAX_GROUPS, LEARN_MAX_CAPMODE,
			 LEARN_MAX_OTHER);
		fn(ctx, buf);
	}
	for (int i = 0; i < l->ngroups; i++) {
		const struct learn_group *g = &l->group[i];

		if (g->bad_rights || g->owner == LEARN_UNATTRIBUTED)
			unattributed += g->count;
		else if (!fixable(g))
			held += g->count;
	}
	if (unattributed) {
		snprintf(buf, sizeof(buf),
			 "%lu refusals on descriptors that no --limit or "
			 "--allow-dir accounts for: the suggestion does not "
			 "cover them",
			 unattributed);
		fn(ctx, buf);
	}
	if (held) {
		snprintf(buf, sizeof(buf),
			 "%lu refusals on descriptors that held every right "
			 "needed (fcntl or ioctl limits?): no option of capctl "
			 "run widens them",
			 held);
		fn(ctx, buf);
	}
	if (l->capmode_records && !l->run->capmode) {
		snprintf(buf, sizeof(buf),
			 "%lu calls refused by capability mode the program "
			 "entered itself: no option of capctl run allows them",
			 l->capmode_records);
		fn(ctx, buf);
	}
}

static void count_reason(void *ctx, const char *why)
{
	(void)why;
	++*(int *)ctx;
}

bool learn_complete(const struct learn *l)
{
	int n = 0;

	learn_reasons(l, count_reason, &n);
	return n == 0;
}

void learn_suggest(const struct learn *l, struct run_opts *out)
{
	const struct run_opts *r = l->run;

	*out = *r;
	out->learn = false;
	out->write_policy = NULL;
	out->policy = NULL;
	for (int i = 0; i < l->ngroups; i++) {
		const struct learn_group *g = &l->group[i];

		if (!fixable(g))
			continue;
		if (g->owner == LEARN_LIMIT) {
			cap_rights_merge(&out->limits[g->index].rights,
					 &g->missing);
			continue;
		}
		if (g->owner == LEARN_DIR) {
			cap_rights_merge(&out->dirs[g->index].rights,
					 &g->missing);
			continue;
		}
		for (int d = 0; d < r->ndirs; d++)
			if (g->dirs & 1ULL << d)
				cap_rights_merge(&out->dirs[d].rights,
						 &g->missing);
	}
	if (l->capmode_records && r->capmode)
		out->capmode = false;
}
