// SPDX-License-Identifier: GPL-2.0
#include "json.h"

#include <inttypes.h>
#include <string.h>

void json_init(struct json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->need_comma[0] = false;
	j->after_key = false;
}

/* Before any value: the comma that separates it from its predecessor. */
static void value_start(struct json *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	/* Top-level documents are separate lines, not list items. */
	if (j->depth && j->need_comma[j->depth])
		fputc(',', j->f);
	j->need_comma[j->depth] = true;
}

static void open_container(struct json *j, char c)
{
	value_start(j);
	fputc(c, j->f);
	if (j->depth + 1 < JSON_MAX_DEPTH)
		j->depth++;
	j->need_comma[j->depth] = false;
}

static void close_container(struct json *j, char c)
{
	if (j->depth > 0)
		j->depth--;
	fputc(c, j->f);
	if (j->depth == 0)
		fputc('\n', j->f);
}

void json_begin_object(struct json *j)
{
	open_container(j, '{');
}

void json_end_object(struct json *j)
{
	close_container(j, '}');
}

void json_begin_array(struct json *j)
{
	open_container(j, '[');
}

void json_end_array(struct json *j)
{
	close_container(j, ']');
}

/* Length of the valid UTF-8 sequence at s (at most n bytes), or 0. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0) {
		len = 2;
		cp = s[0] & 0x1f;
	} else if ((s[0] & 0xf0) == 0xe0) {
		len = 3;
		cp = s[0] & 0x0f;
	} else if ((s[0] & 0xf8) == 0xf0) {
		len = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* Overlong forms, surrogates and values past U+10FFFF are invalid. */
	if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) ||
	    (len == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

void json_string_n(struct json *j, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;

	value_start(j);
	fputc('"', j->f);
	for (size_t i = 0; i < n;) {
		unsigned char c = s[i];
		size_t len;

		switch (c) {
		case '"':
			fputs("\\\"", j->f);
			break;
		case '\\':
			fputs("\\\\", j->f);
			break;
		case '\n':
			fputs("\\n", j->f);
			break;
		case '\t':
			fputs("\\t", j->f);
			break;
		case '\r':
			fputs("\\r", j->f);
			break;
		default:
			if (c < 0x20 || c == 0x7f) {
				fprintf(j->f, "\\u%04x", c);
				break;
			}
			len = utf8_len(s + i, n - i);
			if (!len) {
				fputs("\\ufffd", j->f);
				break;
			}
			fwrite(s + i, 1, len, j->f);
			i += len;
			continue;
		}
		i++;
	}
	fputc('"', j->f);
}

void json_string(struct json *j, const char *s)
{
	if (!s) {
		json_null(j);
		return;
	}
	json_string_n(j, s, strlen(s));
}

void json_key(struct json *j, const char *key)
{
	json_string(j, key);
	fputc(':', j->f);
	j->after_key = true;
}

void json_uint(struct json *j, uint64_t v)
{
	value_start(j);
	fprintf(j->f, "%" PRIu64, v);
}

void json_int(struct json *j, int64_t v)
{
	value_start(j);
	fprintf(j->f, "%" PRId64, v);
}

void json_bool(struct json *j, bool v)
{
	value_start(j);
	fputs(v ? "true" : "false", j->f);
}

void json_null(struct json *j)
{
	value_start(j);
	fputs("null", j->f);
}

void json_hex(struct json *j, uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "0x%016" PRIx64, v);
	json_string(j, buf);
}

void json_kv_string(struct json *j, const char *key, const char *s)
{
	json_key(j, key);
	json_string(j, s);
}

void json_kv_uint(struct json *j, const char *key, uint64_t v)
{
	json_key(j, key);
	json_uint(j, v);
}

void json_kv_int(struct json *j, const char *key, int64_t v)
{
	json_key(j, key);
	json_int(j, v);
}

void json_kv_bool(struct json *j, const char *key, bool v)
{
	json_key(j, key);
	json_bool(j, v);
}

void json_kv_hex(struct json *j, const char *key, uint64_t v)
{
	json_key(j, key);
	json_hex(j, v);
}
