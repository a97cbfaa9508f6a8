// SPDX-License-Identifier: GPL-2.0
/* capctl's JSON writer: structure, commas, escaping. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#include <criterion/criterion.h>

#include "cli/json.h"

/* Runs fn on a memory stream and returns what it wrote (to free). */
static char *render(void (*fn)(struct json *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json j;

	cr_assert_not_null(f);
	json_init(&j, f);
	fn(&j);
	fclose(f);
	return buf;
}

static void nested(struct json *j)
{
	json_begin_object(j);
	json_kv_int(j, "fd", -1);
	json_kv_uint(j, "big", 18446744073709551615ULL);
	json_kv_bool(j, "ok", true);
	json_key(j, "list");
	json_begin_array(j);
	json_hex(j, 0x0200000000000001ULL);
	json_null(j);
	json_begin_object(j);
	json_end_object(j);
	json_begin_array(j);
	json_end_array(j);
	json_end_array(j);
	json_kv_string(j, "s", NULL);
	json_end_object(j);
}

Test(json, structure_and_commas)
{
	char *out = render(nested);

	cr_expect_str_eq(out, "{\"fd\":-1,\"big\":18446744073709551615,"
			      "\"ok\":true,\"list\":[\"0x0200000000000001\","
			      "null,{},[]],\"s\":null}\n");
	free(out);
}

static void escapes(struct json *j)
{
	json_begin_array(j);
	json_string(j, "a\"b\\c/d");
	json_string(j, "\n\t\r\x01\x1f\x7f");
	json_string(j, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	/* Invalid UTF-8: lone continuation, truncated, overlong, surrogate */
	json_string(j, "\x80|\xc3|\xc0\xaf|\xed\xa0\x80|\xff");
	json_string_n(j, "nul\0in", 6);
	json_end_array(j);
}

Test(json, strings_are_escaped_and_valid_utf8)
{
	char *out = render(escapes);

	cr_expect_str_eq(out, "[\"a\\\"b\\\\c/d\","
			      "\"\\n\\t\\r\\u0001\\u001f\\u007f\","
			      "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\","
			      "\"\\ufffd|\\ufffd|\\ufffd\\ufffd|"
			      "\\ufffd\\ufffd\\ufffd|\\ufffd\","
			      "\"nul\\u0000in\"]\n");
	free(out);
}

static void two_docs(struct json *j)
{
	json_begin_object(j);
	json_kv_int(j, "a", 1);
	json_end_object(j);
	json_begin_object(j);
	json_kv_int(j, "b", 2);
	json_end_object(j);
}

Test(json, top_level_documents_are_lines)
{
	char *out = render(two_docs);

	/* Documents written one after the other give JSON lines. */
	cr_expect_str_eq(out, "{\"a\":1}\n{\"b\":2}\n");
	free(out);
}
