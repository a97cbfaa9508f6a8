/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CAPCTL_JSON_H
#define CAPCTL_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * A small streaming JSON writer: compact output, commas placed for the
 * caller, strings escaped (", \, control characters, and bytes that are
 * not valid UTF-8 as U+FFFD, so any path or comm gives valid JSON).
 */
#define JSON_MAX_DEPTH 16

struct json {
	FILE *f;
	int depth;
	bool need_comma[JSON_MAX_DEPTH];
	bool after_key;
};

void json_init(struct json *j, FILE *f);
void json_begin_object(struct json *j);
void json_end_object(struct json *j);
void json_begin_array(struct json *j);
void json_end_array(struct json *j);
void json_key(struct json *j, const char *key);
void json_string(struct json *j, const char *s);
void json_string_n(struct json *j, const char *s, size_t n);
void json_uint(struct json *j, uint64_t v);
void json_int(struct json *j, int64_t v);
void json_bool(struct json *j, bool v);
void json_null(struct json *j);
/* A 64-bit word as a "0x%016llx" string: JSON numbers lose 64-bit words. */
void json_hex(struct json *j, uint64_t v);

/* key + value shorthands for objects. */
void json_kv_string(struct json *j, const char *key, const char *s);
void json_kv_uint(struct json *j, const char *key, uint64_t v);
void json_kv_int(struct json *j, const char *key, int64_t v);
void json_kv_bool(struct json *j, const char *key, bool v);
void json_kv_hex(struct json *j, const char *key, uint64_t v);

#endif
