// SPDX-License-Identifier: BSD-2-Clause
/* Right names: the table, lookup, parse and format. */
#include <ctype.h>
#include <errno.h>
#include <string.h>

#include <criterion/criterion.h>

#include <capsicum/rights_names.h>

struct fbsd_name {
	const char *name;
	uint64_t ours;
	uint64_t freebsd;
};

static const struct fbsd_name fbsd_names[] = {
#include "freebsd_rights_table.h"
};

#define NNAMES (sizeof(fbsd_names) / sizeof(fbsd_names[0]))

static const struct capsicum_right_name *table(size_t *n)
{
	const struct capsicum_right_name *tab = NULL;

	*n = capsicum_rights_table(&tab);
	cr_assert_not_null(tab);
	return tab;
}

static const struct capsicum_right_name *find(const char *name)
{
	const struct capsicum_right_name *tab;
	size_t i, n;

	tab = table(&n);
	for (i = 0; i < n; i++) {
		if (strcmp(tab[i].name, name) == 0)
			return &tab[i];
	}
	return NULL;
}

static int word(uint64_t v)
{
	return __builtin_ctzll(v >> 57);
}

static bool rights_eq(const cap_rights_t *a, const cap_rights_t *b)
{
	return a->cr_rights[0] == b->cr_rights[0] &&
	       a->cr_rights[1] == b->cr_rights[1];
}

static void expect_parse(const char *list, uint64_t w0, uint64_t w1)
{
	cap_rights_t r;

	cr_expect_eq(capsicum_rights_parse(list, &r), 0, "parse \"%s\": %s",
		     list, strerror(errno));
	cr_expect_eq(r.cr_rights[0], w0, "\"%s\" word 0: 0x%016llx", list,
		     (unsigned long long)r.cr_rights[0]);
	cr_expect_eq(r.cr_rights[1], w1, "\"%s\" word 1: 0x%016llx", list,
		     (unsigned long long)r.cr_rights[1]);
}

static void expect_format(const cap_rights_t *r, const char *want)
{
	char buf[1024];
	int n = capsicum_rights_format(r, buf, sizeof(buf));

	cr_expect_eq(n, (int)strlen(want), "length %d for \"%s\"", n, want);
	cr_expect_str_eq(buf, want);
}

/* parse(format(r)) == r, and the text is lowercase without "cap_". */
static void expect_round_trip(const cap_rights_t *r, const char *what)
{
	char buf[2048];
	cap_rights_t back;
	int n = capsicum_rights_format(r, buf, sizeof(buf));
	size_t i;

	cr_assert_geq(n, 0, "%s: format failed", what);
	cr_assert_lt(n, (int)sizeof(buf));
	for (i = 0; buf[i]; i++)
		cr_expect(!isupper((unsigned char)buf[i]), "%s: \"%s\"", what,
			  buf);
	cr_expect_null(strstr(buf, "cap_"), "%s: \"%s\"", what, buf);
	cr_assert_eq(capsicum_rights_parse(buf, &back), 0, "%s: \"%s\"", what,
		     buf);
	cr_expect(rights_eq(r, &back), "%s: \"%s\" parses differently", what,
		  buf);
}

/* The table. */

Test(names_table, has_every_freebsd_right)
{
	size_t i;

	for (i = 0; i < NNAMES; i++) {
		const struct capsicum_right_name *e = find(fbsd_names[i].name);

		cr_assert_not_null(e, "%s missing", fbsd_names[i].name);
		cr_expect_eq(e->value, fbsd_names[i].ours, "%s", e->name);
		cr_expect_eq(e->origin, CAPSICUM_RIGHT_FREEBSD14, "%s",
			     e->name);
	}
}

Test(names_table, additions)
{
	static const struct {
		const char *name;
		uint64_t value;
		enum capsicum_right_origin origin;
	} add[] = {
		{ "CAP_FCHROOT", CAP_FCHROOT, CAPSICUM_RIGHT_FREEBSD15 },
		{ "CAP_INOTIFY_ADD", CAP_INOTIFY_ADD,
		  CAPSICUM_RIGHT_FREEBSD15 },
		{ "CAP_INOTIFY_RM", CAP_INOTIFY_RM, CAPSICUM_RIGHT_FREEBSD15 },
		{ "CAP_FSIGNAL", CAP_FSIGNAL, CAPSICUM_RIGHT_LINUX },
		{ "CAP_EPOLL_CTL", CAP_EPOLL_CTL, CAPSICUM_RIGHT_LINUX },
		{ "CAP_SETNS", CAP_SETNS, CAPSICUM_RIGHT_LINUX },
		{ "CAP_PERF_EVENT", CAP_PERF_EVENT, CAPSICUM_RIGHT_LINUX },
		{ "CAP_BPF_OBJ", CAP_BPF_OBJ, CAPSICUM_RIGHT_LINUX },
	};
	size_t i, n;

	for (i = 0; i < sizeof(add) / sizeof(add[0]); i++) {
		const struct capsicum_right_name *e = find(add[i].name);

		cr_assert_not_null(e, "%s missing", add[i].name);
		cr_expect_eq(e->value, add[i].value, "%s", e->name);
		cr_expect_eq(e->origin, add[i].origin, "%s", e->name);
		cr_expect(e->primitive, "%s", e->name);
	}
	table(&n);
	cr_expect_eq(n, NNAMES + sizeof(add) / sizeof(add[0]));
	cr_expect_eq(capsicum_rights_table(NULL), n);
}

Test(names_table, unique_and_valid)
{
	const struct capsicum_right_name *tab;
	size_t i, j, n;

	tab = table(&n);
	for (i = 0; i < n; i++) {
		cap_rights_t r;

		cr_expect_eq(strncmp(tab[i].name, "CAP_", 4), 0);
		cap_rights_init(&r, tab[i].value);
		cr_expect(cap_rights_is_valid(&r), "%s", tab[i].name);
		for (j = i + 1; j < n; j++)
			cr_expect_str_neq(tab[i].name, tab[j].name);
	}
}

/*
 * Primitive, worked out independently: the right is not an alias of an
 * earlier entry and is not the union of the rights strictly inside it.
 */
Test(names_table, primitive_flags)
{
	const struct capsicum_right_name *tab;
	size_t i, j, n;

	tab = table(&n);
	for (i = 0; i < n; i++) {
		uint64_t v = tab[i].value, inner = 0;
		bool alias = false, prim;

		for (j = 0; j < n; j++) {
			uint64_t u = tab[j].value;

			if (j < i && u == v)
				alias = true;
			if (u != v && word(u) == word(v) && (u & v) == u)
				inner |= u;
		}
		prim = !alias && (inner & CAP_RIGHTS_BITS_MASK) !=
					 (v & CAP_RIGHTS_BITS_MASK);
		cr_expect_eq(tab[i].primitive, prim, "%s: primitive %d",
			     tab[i].name, tab[i].primitive);
	}
}

/* Every bit of CAP_ALL is the new bit of some primitive. */
Test(names_table, primitives_cover_all)
{
	const struct capsicum_right_name *tab;
	uint64_t cover[2] = { 0, 0 };
	size_t i, n;

	tab = table(&n);
	for (i = 0; i < n; i++) {
		if (tab[i].primitive)
			cover[word(tab[i].value)] |= tab[i].value;
	}
	cr_expect_eq(cover[0], CAP_ALL0);
	cr_expect_eq(cover[1], CAP_ALL1);
}

/* capsicum_right_name. */

Test(right_name, exact_values)
{
	const struct capsicum_right_name *tab;
	size_t i, n;

	tab = table(&n);
	for (i = 0; i < n; i++) {
		const char *name = capsicum_right_name(tab[i].value);

		cr_assert_not_null(name, "%s", tab[i].name);
		/* Aliases give the name they alias. */
		cr_expect_eq(find(name)->value, tab[i].value);
	}
	cr_expect_str_eq(capsicum_right_name(CAP_READ), "CAP_READ");
	cr_expect_str_eq(capsicum_right_name(CAP_RECV), "CAP_READ");
	cr_expect_str_eq(capsicum_right_name(CAP_SEND), "CAP_WRITE");
	cr_expect_str_eq(capsicum_right_name(CAP_POLL_EVENT), "CAP_EVENT");
	cr_expect_str_eq(capsicum_right_name(CAP_MMAP_RW), "CAP_MMAP_RW");
	cr_expect_str_eq(capsicum_right_name(CAP_ALL1), "CAP_ALL1");
	cr_expect_str_eq(capsicum_right_name(CAP_BPF_OBJ), "CAP_BPF_OBJ");
}

Test(right_name, no_match)
{
	cr_expect_null(capsicum_right_name(0));
	cr_expect_null(capsicum_right_name(CAPRIGHT(0, 0ULL)));
	cr_expect_null(capsicum_right_name(CAP_READ | CAP_WRITE));
	cr_expect_null(capsicum_right_name(CAP_READ & CAP_RIGHTS_BITS_MASK));
	cr_expect_null(capsicum_right_name(CAPRIGHT(1, 0x1ULL << 40)));
}

/* capsicum_rights_parse. */

Test(parse, spellings)
{
	expect_parse("CAP_READ", CAP_READ, CAPRIGHT(1, 0));
	expect_parse("read", CAP_READ, CAPRIGHT(1, 0));
	expect_parse("ReAd", CAP_READ, CAPRIGHT(1, 0));
	expect_parse("cap_read", CAP_READ, CAPRIGHT(1, 0));
	expect_parse("Cap_Ioctl", CAPRIGHT(0, 0), CAP_IOCTL);
	expect_parse("recv", CAP_READ, CAPRIGHT(1, 0));
	expect_parse("send", CAP_WRITE, CAPRIGHT(1, 0));
	expect_parse("poll_event", CAPRIGHT(0, 0), CAP_EVENT);
}

Test(parse, composites)
{
	expect_parse("mmap_rw", CAP_MMAP_RW, CAPRIGHT(1, 0));
	expect_parse("sock_client", CAP_SOCK_CLIENT, CAPRIGHT(1, 0));
	expect_parse("pread", CAP_PREAD, CAPRIGHT(1, 0));
	expect_parse("renameat_source", CAP_RENAMEAT_SOURCE, CAPRIGHT(1, 0));
	expect_parse("kqueue", CAPRIGHT(0, 0), CAP_KQUEUE);
	expect_parse("all", CAP_ALL0, CAP_ALL1);
	expect_parse("ALL", CAP_ALL0, CAP_ALL1);
	expect_parse("all,read", CAP_ALL0, CAP_ALL1);
	expect_parse("none", CAPRIGHT(0, 0), CAPRIGHT(1, 0));
	expect_parse("none,write", CAP_WRITE, CAPRIGHT(1, 0));
	expect_parse("all0", CAP_ALL0, CAPRIGHT(1, 0));
}

Test(parse, separators)
{
	uint64_t rw = CAP_READ | CAP_WRITE;

	expect_parse("read,write", rw, CAPRIGHT(1, 0));
	expect_parse(" read , write ", rw, CAPRIGHT(1, 0));
	expect_parse("read write", rw, CAPRIGHT(1, 0));
	expect_parse("read,\twrite\n", rw, CAPRIGHT(1, 0));
	expect_parse("read,write,ioctl,bpf_obj", rw, CAP_IOCTL | CAP_BPF_OBJ);
	expect_parse("", CAPRIGHT(0, 0), CAPRIGHT(1, 0));
	expect_parse("  \t", CAPRIGHT(0, 0), CAPRIGHT(1, 0));
}

Test(parse, hex)
{
	expect_parse("0x0200000000000001", CAP_READ, CAPRIGHT(1, 0));
	expect_parse("0X0400000000000080", CAPRIGHT(0, 0), CAP_IOCTL);
	expect_parse("0x0200000000000001,0x0400000000000080", CAP_READ,
		     CAP_IOCTL);
	expect_parse("0x0200000000000000", CAPRIGHT(0, 0), CAPRIGHT(1, 0));
	expect_parse("0x020000000000000D", CAP_PREAD, CAPRIGHT(1, 0));
	expect_parse("0x020007ffffffffff,write", CAPRIGHT(0, 0x7FFFFFFFFFFULL),
		     CAPRIGHT(1, 0));
}

Test(parse, rejects)
{
	static const char *const bad[] = {
		"bogus",
		"read,bogus",
		"read,,write",
		",read",
		"read,",
		",",
		" , ",
		"cap_",
		"cap_cap_read",
		"read;write",
		"readwrite",
		"0x",
		"0xg",
		"0x02000000000000g1",
		"0x1",
		"0x0600000000000001",
		"0x4200000000000001",
		"0x0800000000000001",
		"0x0200100000000000",
		"0x0400000000800000",
		"0x0408000000000000",
		"0x00200000000000001",
		"-0x0200000000000001",
		"0x+200000000000001",
		"0x 0200000000000001",
		"0200000000000001",
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cap_rights_t r, before;

		memset(&r, 0x5A, sizeof(r));
		before = r;
		errno = 0;
		cr_expect_eq(capsicum_rights_parse(bad[i], &r), -1, "\"%s\"",
			     bad[i]);
		cr_expect_eq(errno, EINVAL, "\"%s\"", bad[i]);
		cr_expect(rights_eq(&r, &before), "\"%s\" wrote *out", bad[i]);
	}
	errno = 0;
	cr_expect_eq(capsicum_rights_parse(NULL, &(cap_rights_t){ 0 }), -1);
	cr_expect_eq(errno, EINVAL);
	errno = 0;
	cr_expect_eq(capsicum_rights_parse("read", NULL), -1);
	cr_expect_eq(errno, EINVAL);
}

Test(parse, long_item)
{
	char item[200];
	cap_rights_t r;

	/* Longer than any name: must be refused, not cut down to a name. */
	memset(item, 'x', sizeof(item) - 1);
	item[sizeof(item) - 1] = '\0';
	memcpy(item, "read", 4);
	errno = 0;
	cr_expect_eq(capsicum_rights_parse(item, &r), -1);
	cr_expect_eq(errno, EINVAL);
}

Test(parse, every_name_every_spelling)
{
	const struct capsicum_right_name *tab;
	size_t i, n, k;

	tab = table(&n);
	for (i = 0; i < n; i++) {
		char lower[80], mixed[80];
		const char *full = tab[i].name;
		uint64_t w[2] = { CAPRIGHT(0, 0), CAPRIGHT(1, 0) };

		for (k = 0; full[k]; k++) {
			lower[k] = (char)tolower((unsigned char)full[k]);
			mixed[k] = k % 2 ? lower[k] : full[k];
		}
		lower[k] = mixed[k] = '\0';
		w[word(tab[i].value)] = tab[i].value;
		expect_parse(full, w[0], w[1]);
		expect_parse(lower + 4, w[0], w[1]);
		expect_parse(mixed, w[0], w[1]);
	}
}

/* capsicum_rights_format. */

Test(format, examples)
{
	cap_rights_t r;

	cap_rights_init(&r);
	expect_format(&r, "");
	CAP_ALL(&r);
	expect_format(&r, "all");
	cap_rights_init(&r, CAP_READ);
	expect_format(&r, "read");
	cap_rights_init(&r, CAP_RECV, CAP_SEND);
	expect_format(&r, "read,write");
	cap_rights_init(&r, CAP_POLL_EVENT);
	expect_format(&r, "event");
	cap_rights_init(&r, CAP_PREAD);
	expect_format(&r, "read,seek");
	cap_rights_init(&r, CAP_SEEK_TELL);
	expect_format(&r, "seek_tell");
	cap_rights_init(&r, CAP_MMAP_RX);
	expect_format(&r, "read,mmap_x");
	cap_rights_init(&r, CAP_MKDIRAT, CAP_UNLINKAT);
	expect_format(&r, "mkdirat,unlinkat");
	cap_rights_init(&r, CAP_FSTATAT);
	expect_format(&r, "lookup,fstat");
	cap_rights_init(&r, CAP_READ, CAP_IOCTL, CAP_FSIGNAL);
	expect_format(&r, "read,ioctl,fsignal");
	/* Only word 0 full is not CAP_ALL: listed right by right. */
	cap_rights_init(&r, CAP_ALL0);
	expect_round_trip(&r, "CAP_ALL0 alone");
	/* mmap_x stands for mmap, seek and seek_tell too. */
	expect_format(&r, "read,write,mmap_x,create,fexecve,fsync,ftruncate,"
			  "fchdir,fchflags,fchmod,fchown,fcntl,flock,"
			  "fpathconf,fsck,fstat,fstatfs,futimes,"
			  "linkat_target,mkdirat,mkfifoat,mknodat,"
			  "renameat_source,symlinkat,unlinkat,accept,bind,"
			  "connect,getpeername,getsockname,getsockopt,listen,"
			  "peeloff,setsockopt,shutdown,bindat,connectat,"
			  "linkat_source,renameat_target,fchroot");
}

Test(format, uncovered_bits_as_hex)
{
	cap_rights_t r;

	/* CAP_MKDIRAT's own bit survives clearing CAP_LOOKUP; no name fits. */
	cap_rights_init(&r, CAP_MKDIRAT, CAP_READ);
	cap_rights_clear(&r, CAP_LOOKUP);
	expect_format(&r, "read,0x0200000000800000");
	expect_round_trip(&r, "mkdirat without lookup");
	cap_rights_init(&r, CAP_SEEK, CAP_EVENT);
	cap_rights_clear(&r, CAP_SEEK_TELL);
	expect_format(&r, "event,0x0200000000000008");
}

Test(format, all_but_one)
{
	const struct capsicum_right_name *tab;
	size_t i, n;

	tab = table(&n);
	for (i = 0; i < n; i++) {
		cap_rights_t r;
		char buf[2048];

		CAP_ALL(&r);
		cap_rights_clear(&r, tab[i].value);
		cr_assert_gt(capsicum_rights_format(&r, buf, sizeof(buf)), 0);
		cr_expect_null(strstr(buf, "all"), "%s", tab[i].name);
		expect_round_trip(&r, tab[i].name);
	}
}

Test(format, truncation)
{
	cap_rights_t r;
	char buf[8];

	cap_rights_init(&r, CAP_READ, CAP_WRITE);
	memset(buf, 'X', sizeof(buf));
	cr_expect_eq(capsicum_rights_format(&r, buf, 4), 10);
	cr_expect_str_eq(buf, "rea");
	cr_expect_eq(buf[4], 'X');
	cr_expect_eq(capsicum_rights_format(&r, buf, 6), 10);
	cr_expect_str_eq(buf, "read,");
	cr_expect_eq(capsicum_rights_format(&r, NULL, 0), 10);
	buf[0] = 'X';
	cr_expect_eq(capsicum_rights_format(&r, buf, 1), 10);
	cr_expect_eq(buf[0], '\0');
}

Test(format, rejects_invalid)
{
	cap_rights_t r;
	char buf[64];

	cap_rights_init(&r);
	r.cr_rights[1] |= 1ULL << 40;
	errno = 0;
	cr_expect_eq(capsicum_rights_format(&r, buf, sizeof(buf)), -1);
	cr_expect_eq(errno, EINVAL);
	cap_rights_init(&r);
	r.cr_rights[0] |= 1ULL << 62;
	errno = 0;
	cr_expect_eq(capsicum_rights_format(&r, buf, sizeof(buf)), -1);
	cr_expect_eq(errno, EINVAL);
	cap_rights_init(&r);
	errno = 0;
	cr_expect_eq(capsicum_rights_format(&r, NULL, 5), -1);
	cr_expect_eq(errno, EINVAL);
	errno = 0;
	cr_expect_eq(capsicum_rights_format(NULL, buf, sizeof(buf)), -1);
	cr_expect_eq(errno, EINVAL);
}

Test(format, round_trip_every_name)
{
	const struct capsicum_right_name *tab;
	size_t i, n;

	tab = table(&n);
	for (i = 0; i < n; i++) {
		cap_rights_t r;

		cr_assert_eq(capsicum_rights_parse(tab[i].name, &r), 0);
		expect_round_trip(&r, tab[i].name);
	}
}

/* Deterministic pseudo-random sets, including stray component bits. */
Test(format, round_trip_mixtures)
{
	uint64_t x = 0x9E3779B97F4A7C15ULL;
	int k;

	for (k = 0; k < 2000; k++) {
		cap_rights_t r;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		cap_rights_init(&r);
		r.cr_rights[0] |= x & CAP_ALL0 & CAP_RIGHTS_BITS_MASK;
		r.cr_rights[1] |=
			(x >> 21 | x << 43) & CAP_ALL1 & CAP_RIGHTS_BITS_MASK;
		expect_round_trip(&r, "mixture");
	}
}
