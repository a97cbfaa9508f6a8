// SPDX-License-Identifier: BSD-2-Clause
/*
 * libFuzzer target for libcasper's wire format (casper/msg.c): what a
 * sandboxed, possibly compromised, program can write to its casper socket.
 * Any bytes either fail msg_parse() with EBADMSG or parse into fields that
 * lie inside the message and re-encode, field by field through the
 * msg_add_*() a sender uses, to the very same bytes; the lookups a service
 * makes (msg_count, msg_get_*, msg_only) then stay within what was parsed.
 * Built by `make fuzz` with clang -fsanitize=fuzzer,address,undefined.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "casper/msg.h"

#define PROPERTY(cond)                                                         \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "property failed: %s (%s:%d)\n",       \
				#cond, __FILE__, __LINE__);                    \
			abort();                                               \
		}                                                              \
	} while (0)

static void reencode(const struct msg *m)
{
	struct msg *again = msg_new();

	PROPERTY(again != NULL);
	for (size_t i = 0; i < m->nfields; i++) {
		const struct msg_field *f = &m->fields[i];

		PROPERTY(f->data >= m->buf &&
			 f->data + f->len <= m->buf + m->len);
		switch (f->type) {
		case MSG_U64: {
			uint64_t v;

			PROPERTY(f->len == sizeof(v));
			memcpy(&v, f->data, sizeof(v));
			msg_add_u64(again, f->key, v);
			break;
		}
		case MSG_STR:
			PROPERTY(f->len >= 1 && f->data[f->len - 1] == '\0' &&
				 strlen((const char *)f->data) == f->len - 1);
			msg_add_str(again, f->key, (const char *)f->data);
			break;
		case MSG_BYTES:
			msg_add_bytes(again, f->key, f->data, f->len);
			break;
		default:
			PROPERTY(!"a field of an unknown type was accepted");
		}
	}
	PROPERTY(again->error == 0);
	PROPERTY(again->len == m->len && !memcmp(again->buf, m->buf, m->len));
	msg_free(again);
}

/* What a service asks of a request, on keys that may or may not be there. */
static void lookups(const struct msg *m)
{
	static const uint16_t keys[] = { MK_CMD, MK_SERVICE_FIRST, 0 };
	static const enum msg_type types[] = { MSG_STR, MSG_U64 };
	const char *s;
	uint64_t v;

	for (uint16_t key = 0; key < MK_SERVICE_FIRST + 4; key++) {
		int n = msg_count(m, key, MSG_STR);

		for (int i = 0; i < n; i++) {
			s = msg_get_str_at(m, key, (size_t)i);
			PROPERTY(s != NULL);
			PROPERTY((const unsigned char *)s >= m->buf &&
				 (const unsigned char *)s < m->buf + m->len);
		}
		PROPERTY(msg_get_str_at(m, key, (size_t)(n < 0 ? 0 : n)) ==
				 NULL ||
			 n < 0);
		(void)msg_get_u64(m, key, &v);
	}
	s = msg_get_str(m, MK_CMD);
	(void)s;
	(void)msg_only(m, keys, types);
}

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t len)
{
	struct msg *m = msg_new();

	PROPERTY(m != NULL);
	errno = 0;
	if (msg_parse(m, in, len)) {
		PROPERTY(errno == EBADMSG);
	} else {
		PROPERTY(m->len == len && m->nfields <= MSG_MAX_FIELDS);
		reencode(m);
		lookups(m);
	}
	msg_free(m);
	return 0;
}
