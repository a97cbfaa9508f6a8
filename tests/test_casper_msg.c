// SPDX-License-Identifier: BSD-2-Clause
/*
 * The casper message codec: what it builds parses back the same, and
 * every malformed buffer a sandboxed peer could send is refused whole
 * (EBADMSG) before any field is read; sizes are bounded on both ends.
 */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "casper/msg.h"

static struct msg *roundtrip(const struct msg *m)
{
	struct msg *p = msg_new();

	cr_assert_not_null(p);
	cr_assert_eq(msg_parse(p, m->buf, m->len), 0);
	return p;
}

Test(casper_msg, roundtrip_and_lists)
{
	struct msg *m = msg_new(), *p;
	const struct msg_field *f;
	uint64_t v;

	msg_add_str(m, 20, "one");
	msg_add_u64(m, 21, 42);
	msg_add_str(m, 20, "two");
	msg_add_bytes(m, 22, "\0\1\2", 3);
	msg_add_bytes(m, 23, NULL, 0);
	cr_assert_eq(m->error, 0);
	p = roundtrip(m);
	cr_expect_eq(msg_count(p, 20, MSG_STR), 2);
	cr_expect_str_eq(msg_get_str_at(p, 20, 1), "two");
	cr_expect_eq(msg_get_u64(p, 21, &v), 0);
	cr_expect_eq(v, 42);
	f = msg_get(p, 22, MSG_BYTES, 0);
	cr_assert_not_null(f);
	cr_expect_eq(f->len, 3);
	cr_expect_eq(memcmp(f->data, "\0\1\2", 3), 0);
	/* A field of another type is not there for the getters... */
	cr_expect_null(msg_get_str(p, 21));
	cr_expect_eq(msg_get_u64(p, 20, &v), -1);
	/* ...and makes a count of that key fail. */
	cr_expect_eq(msg_count(p, 21, MSG_STR), -1);
	cr_expect_eq(msg_only(p, (uint16_t[]){ 20, 21, 22, 0 },
			      (enum msg_type[]){ MSG_STR, MSG_U64, MSG_BYTES }),
		     -1);
	msg_free(m);
	msg_free(p);
}

/* Each way of corrupting one valid field. */
Test(casper_msg, strict_parsing)
{
	struct msg *m = msg_new(), *p = msg_new();
	unsigned char buf[64];
	size_t len;

	msg_add_str(m, 20, "abc");
	len = m->len;
	memcpy(buf, m->buf, len);
	cr_assert_eq(msg_parse(p, buf, len), 0);
	/* Truncated, in the header and in the value. */
	for (size_t cut = 1; cut < len; cut++) {
		errno = 0;
		cr_expect_eq(msg_parse(p, buf, cut), -1, "cut at %zu", cut);
		cr_expect_eq(errno, EBADMSG);
		cr_expect_eq(p->nfields, 0);
	}
	/* Unknown type, nonzero pad, a length past the end. */
	buf[2] = 9;
	cr_expect_eq(msg_parse(p, buf, len), -1);
	buf[2] = MSG_STR;
	buf[3] = 1;
	cr_expect_eq(msg_parse(p, buf, len), -1);
	buf[3] = 0;
	buf[4] = 200;
	cr_expect_eq(msg_parse(p, buf, len), -1);
	buf[4] = 4;
	/* A string without its NUL, or with one inside. */
	buf[len - 1] = 'x';
	cr_expect_eq(msg_parse(p, buf, len), -1);
	buf[len - 1] = '\0';
	buf[9] = '\0';
	cr_expect_eq(msg_parse(p, buf, len), -1);
	buf[9] = 'b';
	/* A number of the wrong size. */
	msg_free(m);
	m = msg_new();
	msg_add_u64(m, 20, 1);
	memcpy(buf, m->buf, m->len);
	buf[4] = 4;
	cr_expect_eq(msg_parse(p, buf, 12), -1);
	cr_expect_eq(msg_parse(p, buf, 1000000), -1);
	msg_free(m);
	msg_free(p);
}

Test(casper_msg, bounded_building)
{
	static char big[MSG_MAX_BYTES];
	struct msg *m = msg_new();

	memset(big, 'a', sizeof(big) - 1);
	msg_add_str(m, 20, big);
	cr_expect_eq(m->error, EMSGSIZE);
	msg_free(m);
	m = msg_new();
	for (int i = 0; i <= MSG_MAX_FIELDS; i++)
		msg_add_u64(m, 20, (uint64_t)i);
	cr_expect_eq(m->error, EMSGSIZE);
	cr_expect_eq(m->nfields, MSG_MAX_FIELDS);
	msg_free(m);
	m = msg_new();
	msg_add_str(m, 20, NULL);
	cr_expect_eq(m->error, EINVAL);
	errno = 0;
	cr_expect_eq(msg_send(-1, m), -1);
	cr_expect_eq(errno, EINVAL);
	msg_free(m);
}

Test(casper_msg, transport_with_descriptors)
{
	struct msg *m = msg_new(), *r;
	int sv[2], fd;
	char c;

	cr_assert_eq(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv), 0);
	msg_add_str(m, MK_CMD, "x");
	msg_add_fd(m, dup(sv[0]));
	cr_assert_eq(msg_send(sv[0], m), 0);
	r = msg_recv(sv[1], 1);
	cr_assert_not_null(r);
	cr_expect_str_eq(msg_get_str(r, MK_CMD), "x");
	fd = msg_take_fd(r, 0);
	cr_expect_geq(fd, 0);
	cr_expect_eq(msg_take_fd(r, 0), -1);
	/* The descriptor is the sender's socket: a write through it arrives. */
	cr_expect_eq(write(fd, "y", 1), 1);
	cr_expect_eq(read(sv[1], &c, 1), 1);
	close(fd);
	msg_free(r);
	/* Garbage on the wire: EBADMSG; the end of the stream: ECONNRESET. */
	cr_expect_eq(write(sv[0], "\1\0\2\0\377\0\0\0", 8), 8);
	errno = 0;
	cr_expect_null(msg_recv(sv[1], 1));
	cr_expect_eq(errno, EBADMSG);
	msg_free(m); /* it still holds a descriptor of sv[0] */
	close(sv[0]);
	errno = 0;
	cr_expect_null(msg_recv(sv[1], 1));
	cr_expect_eq(errno, ECONNRESET);
	close(sv[1]);
}
