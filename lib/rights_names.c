// SPDX-License-Identifier: BSD-2-Clause
/* Right names for tools: lookup, list parsing and formatting. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <capsicum/rights_names.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Stringize at the outer level, before the name expands to its value. */
/* clang-format off */
#define R(str, n, prim, orig) { str, n, prim, CAPSICUM_RIGHT_##orig }
/* clang-format on */
#define P14(n) R(#n, n, true, FREEBSD14)
#define C14(n) R(#n, n, false, FREEBSD14)
#define P15(n) R(#n, n, true, FREEBSD15)
#define PLX(n) R(#n, n, true, LINUX)

static const struct capsicum_right_name rights_table[] = {
	P14(CAP_READ),
	P14(CAP_WRITE),
	P14(CAP_SEEK_TELL),
	P14(CAP_SEEK),
	C14(CAP_PREAD),
	C14(CAP_PWRITE),
	P14(CAP_MMAP),
	C14(CAP_MMAP_R),
	C14(CAP_MMAP_W),
	P14(CAP_MMAP_X),
	C14(CAP_MMAP_RW),
	C14(CAP_MMAP_RX),
	C14(CAP_MMAP_WX),
	C14(CAP_MMAP_RWX),
	P14(CAP_CREATE),
	P14(CAP_FEXECVE),
	P14(CAP_FSYNC),
	P14(CAP_FTRUNCATE),
	P14(CAP_LOOKUP),
	P14(CAP_FCHDIR),
	P14(CAP_FCHFLAGS),
	C14(CAP_CHFLAGSAT),
	P14(CAP_FCHMOD),
	C14(CAP_FCHMODAT),
	P14(CAP_FCHOWN),
	C14(CAP_FCHOWNAT),
	P14(CAP_FCNTL),
	P14(CAP_FLOCK),
	P14(CAP_FPATHCONF),
	P14(CAP_FSCK),
	P14(CAP_FSTAT),
	C14(CAP_FSTATAT),
	P14(CAP_FSTATFS),
	P14(CAP_FUTIMES),
	C14(CAP_FUTIMESAT),
	P14(CAP_LINKAT_TARGET),
	P14(CAP_MKDIRAT),
	P14(CAP_MKFIFOAT),
	P14(CAP_MKNODAT),
	P14(CAP_RENAMEAT_SOURCE),
	P14(CAP_SYMLINKAT),
	P14(CAP_UNLINKAT),
	P14(CAP_ACCEPT),
	P14(CAP_BIND),
	P14(CAP_CONNECT),
	P14(CAP_GETPEERNAME),
	P14(CAP_GETSOCKNAME),
	P14(CAP_GETSOCKOPT),
	P14(CAP_LISTEN),
	P14(CAP_PEELOFF),
	C14(CAP_RECV),
	C14(CAP_SEND),
	P14(CAP_SETSOCKOPT),
	P14(CAP_SHUTDOWN),
	P14(CAP_BINDAT),
	P14(CAP_CONNECTAT),
	P14(CAP_LINKAT_SOURCE),
	P14(CAP_RENAMEAT_TARGET),
	C14(CAP_SOCK_CLIENT),
	C14(CAP_SOCK_SERVER),
	P15(CAP_FCHROOT),
	C14(CAP_ALL0),
	P14(CAP_MAC_GET),
	P14(CAP_MAC_SET),
	P14(CAP_SEM_GETVALUE),
	P14(CAP_SEM_POST),
	P14(CAP_SEM_WAIT),
	P14(CAP_EVENT),
	P14(CAP_KQUEUE_EVENT),
	P14(CAP_IOCTL),
	P14(CAP_TTYHOOK),
	P14(CAP_PDGETPID),
	P14(CAP_PDWAIT),
	P14(CAP_PDKILL),
	P14(CAP_EXTATTR_DELETE),
	P14(CAP_EXTATTR_GET),
	P14(CAP_EXTATTR_LIST),
	P14(CAP_EXTATTR_SET),
	P14(CAP_ACL_CHECK),
	P14(CAP_ACL_DELETE),
	P14(CAP_ACL_GET),
	P14(CAP_ACL_SET),
	P14(CAP_KQUEUE_CHANGE),
	C14(CAP_KQUEUE),
	P15(CAP_INOTIFY_ADD),
	P15(CAP_INOTIFY_RM),
	PLX(CAP_FSIGNAL),
	PLX(CAP_EPOLL_CTL),
	PLX(CAP_SETNS),
	PLX(CAP_PERF_EVENT),
	PLX(CAP_BPF_OBJ),
	C14(CAP_ALL1),
	C14(CAP_POLL_EVENT),
};

static const uint64_t all_words[CAP_RIGHTS_VERSION + 2] = {
	CAP_ALL0,
	CAP_ALL1,
};

/* Longest item worth comparing; anything longer is unknown anyway. */
#define ITEM_MAX 64

size_t capsicum_rights_table(const struct capsicum_right_name **tab)
{
	if (tab)
		*tab = rights_table;
	return ARRAY_SIZE(rights_table);
}

const char *capsicum_right_name(uint64_t right)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rights_table); i++) {
		if (rights_table[i].value == right)
			return rights_table[i].name;
	}
	return NULL;
}

/* Word of a single rights word, -1 unless exactly one valid index bit. */
static int word_of(uint64_t w)
{
	unsigned int idx = CAPIDXBIT(w);

	if (idx == 0 || (idx & (idx - 1)) != 0)
		return -1;
	idx = __builtin_ctz(idx);
	return idx < ARRAY_SIZE(all_words) ? (int)idx : -1;
}

static int parse_hex(const char *s, cap_rights_t *acc)
{
	uint64_t v = 0;
	size_t n;
	int i;

	/* strtoull would also take signs, blanks and overflow quietly. */
	for (n = 0; s[n] != '\0'; n++) {
		if (n == 16 || !isxdigit((unsigned char)s[n]))
			return -1;
		v = v << 4 |
		    (uint64_t)(isdigit((unsigned char)s[n]) ? s[n] - '0'
							    : s[n] - 'a' + 10);
	}
	if (n == 0 || (v >> CAP_RIGHTS_VERSION_SHIFT) != 0)
		return -1;
	i = word_of(v);
	if (i < 0 || (v & CAP_RIGHTS_BITS_MASK & ~all_words[i]) != 0)
		return -1;
	acc->cr_rights[i] |= v;
	return 0;
}

/* One item, already lowercased and NUL-terminated. */
static int parse_item(const char *item, cap_rights_t *acc)
{
	const char *name = item;
	size_t i;

	if (strncmp(item, "0x", 2) == 0)
		return parse_hex(item + 2, acc);
	if (strncmp(name, "cap_", 4) == 0)
		name += 4;
	if (strcmp(name, "all") == 0) {
		cap_rights_t all;

		CAP_ALL(&all);
		cap_rights_merge(acc, &all);
		return 0;
	}
	if (strcmp(name, "none") == 0)
		return 0;
	for (i = 0; i < ARRAY_SIZE(rights_table); i++) {
		if (strcasecmp(name, rights_table[i].name + 4) == 0) {
			cap_rights_set(acc, rights_table[i].value);
			return 0;
		}
	}
	return -1;
}

int capsicum_rights_parse(const char *list, cap_rights_t *out)
{
	const char *p = list;
	bool after_comma = false;
	cap_rights_t acc;

	if (!list || !out)
		goto inval;
	cap_rights_init(&acc);
	for (;;) {
		char item[ITEM_MAX + 1];
		size_t n = 0;

		while (isspace((unsigned char)*p))
			p++;
		if (*p == '\0') {
			if (after_comma)
				goto inval;
			break;
		}
		if (*p == ',')
			goto inval; /* empty item */
		while (*p != '\0' && *p != ',' && !isspace((unsigned char)*p)) {
			if (n == ITEM_MAX)
				goto inval;
			item[n++] = (char)tolower((unsigned char)*p++);
		}
		item[n] = '\0';
		if (parse_item(item, &acc) < 0)
			goto inval;
		while (isspace((unsigned char)*p))
			p++;
		after_comma = *p == ',';
		if (after_comma)
			p++;
	}
	*out = acc;
	return 0;
inval:
	errno = EINVAL;
	return -1;
}

struct outbuf {
	char *buf;
	size_t len;
	size_t pos; /* length so far, even past len */
};

static void out_put(struct outbuf *o, const char *s)
{
	size_t n = strlen(s);

	if (o->pos > 0)
		n++;
	if (o->pos < o->len) {
		/* snprintf truncates and keeps the NUL inside len. */
		snprintf(o->buf + o->pos, o->len - o->pos, "%s%s",
			 o->pos > 0 ? "," : "", s);
	}
	o->pos += n;
}

static void out_lower(struct outbuf *o, const char *name)
{
	char tmp[ITEM_MAX + 1];
	size_t i;

	for (i = 0; name[i] != '\0' && i < ITEM_MAX; i++)
		tmp[i] = (char)tolower((unsigned char)name[i]);
	tmp[i] = '\0';
	out_put(o, tmp);
}

int capsicum_rights_format(const cap_rights_t *r, char *buf, size_t len)
{
	struct outbuf o = { buf, len, 0 };
	uint64_t covered[ARRAY_SIZE(all_words)] = { 0 };
	bool chosen[ARRAY_SIZE(rights_table)] = { false };
	cap_rights_t all;
	size_t i;
	int level;

	if (!r || (!buf && len > 0) || !cap_rights_is_valid(r))
		goto inval;
	if (len > 0)
		buf[0] = '\0';
	CAP_ALL(&all);
	if (memcmp(r, &all, sizeof(all)) == 0) {
		out_put(&o, "all");
		goto done;
	}
	/*
	 * Widest primitives first, so CAP_SEEK is taken before CAP_SEEK_TELL
	 * and CAP_MKDIRAT before CAP_LOOKUP; then skip any whose bits are
	 * already printed.
	 */
	for (level = 64; level > 0; level--) {
		for (i = 0; i < ARRAY_SIZE(rights_table); i++) {
			const struct capsicum_right_name *e = &rights_table[i];
			uint64_t bits = e->value & CAP_RIGHTS_BITS_MASK;
			int w = word_of(e->value);

			if (!e->primitive ||
			    __builtin_popcountll(bits) != level)
				continue;
			if ((r->cr_rights[w] & bits) != bits ||
			    (covered[w] & bits) == bits)
				continue;
			chosen[i] = true;
			covered[w] |= bits;
		}
	}
	for (i = 0; i < ARRAY_SIZE(rights_table); i++) {
		if (chosen[i])
			out_lower(&o, rights_table[i].name + 4);
	}
	/* Leftovers, e.g. CAP_MKDIRAT's own bit with CAP_LOOKUP cleared. */
	for (i = 0; i < ARRAY_SIZE(all_words); i++) {
		uint64_t rest =
			r->cr_rights[i] & CAP_RIGHTS_BITS_MASK & ~covered[i];
		char hex[24];

		if (rest == 0)
			continue;
		snprintf(hex, sizeof(hex), "0x%016llx",
			 (unsigned long long)CAPRIGHT(i, rest));
		out_put(&o, hex);
	}
done:
	if (o.pos > (size_t)__INT_MAX__)
		goto inval;
	return (int)o.pos;
inval:
	errno = EINVAL;
	return -1;
}
