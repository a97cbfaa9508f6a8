// SPDX-License-Identifier: BSD-2-Clause
/* The casper message codec and its transport (msg.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "msg.h"

#define FIELD_HEADER 8

struct msg *msg_new(void)
{
	return calloc(1, sizeof(struct msg));
}

void msg_free(struct msg *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->nfds; i++)
		if (m->fds[i] >= 0)
			close(m->fds[i]);
	free(m);
}

static void add(struct msg *m, uint16_t key, uint8_t type, const void *p,
		size_t len)
{
	unsigned char *h;
	uint32_t l = (uint32_t)len;

	if (m->error)
		return;
	if (m->nfields == MSG_MAX_FIELDS ||
	    len > MSG_MAX_BYTES - FIELD_HEADER ||
	    m->len + FIELD_HEADER + len > MSG_MAX_BYTES) {
		m->error = EMSGSIZE;
		return;
	}
	h = m->buf + m->len;
	memcpy(h, &key, 2);
	h[2] = type;
	h[3] = 0;
	memcpy(h + 4, &l, 4);
	if (len)
		memcpy(h + FIELD_HEADER, p, len);
	m->fields[m->nfields++] = (struct msg_field){
		.key = key, .type = type, .len = l, .data = h + FIELD_HEADER
	};
	m->len += FIELD_HEADER + len;
}

void msg_add_u64(struct msg *m, uint16_t key, uint64_t v)
{
	add(m, key, MSG_U64, &v, sizeof(v));
}

void msg_add_str(struct msg *m, uint16_t key, const char *s)
{
	if (!s) {
		if (!m->error)
			m->error = EINVAL;
		return;
	}
	add(m, key, MSG_STR, s, strlen(s) + 1);
}

void msg_add_bytes(struct msg *m, uint16_t key, const void *p, size_t len)
{
	add(m, key, MSG_BYTES, p, len);
}

void msg_add_fd(struct msg *m, int fd)
{
	if (fd < 0 || m->nfds == MSG_MAX_FDS) {
		if (fd >= 0)
			close(fd);
		if (!m->error)
			m->error = fd < 0 ? EBADF : EMSGSIZE;
		return;
	}
	m->fds[m->nfds++] = fd;
}

static int field_ok(uint8_t type, const unsigned char *p, uint32_t len)
{
	switch (type) {
	case MSG_U64:
		return len == 8;
	case MSG_STR:
		return len >= 1 && memchr(p, '\0', len) == p + len - 1;
	case MSG_BYTES:
		return 1;
	}
	return 0;
}

int msg_parse(struct msg *m, const void *buf, size_t len)
{
	size_t off = 0;

	m->len = 0;
	m->nfields = 0;
	if (len > MSG_MAX_BYTES)
		goto bad;
	memcpy(m->buf, buf, len);
	while (off < len) {
		const unsigned char *h = m->buf + off;
		uint16_t key;
		uint32_t l;

		if (len - off < FIELD_HEADER || m->nfields == MSG_MAX_FIELDS)
			goto bad;
		memcpy(&key, h, 2);
		memcpy(&l, h + 4, 4);
		if (h[3] != 0 || l > len - off - FIELD_HEADER ||
		    !field_ok(h[2], h + FIELD_HEADER, l))
			goto bad;
		m->fields[m->nfields++] =
			(struct msg_field){ .key = key,
					    .type = h[2],
					    .len = l,
					    .data = h + FIELD_HEADER };
		off += FIELD_HEADER + l;
	}
	m->len = len;
	return 0;
bad:
	m->nfields = 0;
	errno = EBADMSG;
	return -1;
}

int msg_count(const struct msg *m, uint16_t key, enum msg_type type)
{
	size_t i;
	int n = 0;

	for (i = 0; i < m->nfields; i++) {
		if (m->fields[i].key != key)
			continue;
		if (m->fields[i].type != type)
			return -1;
		n++;
	}
	return n;
}

const struct msg_field *msg_get(const struct msg *m, uint16_t key,
				enum msg_type type, size_t i)
{
	size_t j;

	for (j = 0; j < m->nfields; j++) {
		if (m->fields[j].key != key || m->fields[j].type != type)
			continue;
		if (i-- == 0)
			return &m->fields[j];
	}
	return NULL;
}

int msg_get_u64(const struct msg *m, uint16_t key, uint64_t *v)
{
	const struct msg_field *f = msg_get(m, key, MSG_U64, 0);

	if (!f)
		return -1;
	memcpy(v, f->data, sizeof(*v));
	return 0;
}

const char *msg_get_str_at(const struct msg *m, uint16_t key, size_t i)
{
	const struct msg_field *f = msg_get(m, key, MSG_STR, i);

	return f ? (const char *)f->data : NULL;
}

const char *msg_get_str(const struct msg *m, uint16_t key)
{
	return msg_get_str_at(m, key, 0);
}

int msg_only(const struct msg *m, const uint16_t *keys,
	     const enum msg_type *types)
{
	size_t i, k;

	for (i = 0; i < m->nfields; i++) {
		for (k = 0; keys[k]; k++)
			if (keys[k] == m->fields[i].key)
				break;
		if (!keys[k] || types[k] != m->fields[i].type)
			return -1;
	}
	return 0;
}

int msg_take_fd(struct msg *m, size_t i)
{
	int fd;

	if (i >= m->nfds)
		return -1;
	fd = m->fds[i];
	m->fds[i] = -1;
	return fd;
}

int msg_send(int sock, const struct msg *m)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int) * MSG_MAX_FDS)];
	} c;
	struct iovec iov = { .iov_base = (void *)m->buf, .iov_len = m->len };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	ssize_t n;

	if (m->error) {
		errno = m->error;
		return -1;
	}
	if (m->nfds) {
		memset(&c, 0, sizeof(c));
		mh.msg_control = c.buf;
		mh.msg_controllen = CMSG_SPACE(sizeof(int) * m->nfds);
		c.h.cmsg_level = SOL_SOCKET;
		c.h.cmsg_type = SCM_RIGHTS;
		c.h.cmsg_len = CMSG_LEN(sizeof(int) * m->nfds);
		memcpy(CMSG_DATA(&c.h), m->fds, sizeof(int) * m->nfds);
	}
	do
		n = sendmsg(sock, &mh, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -1;
	return 0;
}

/* Takes every descriptor of the control data, closing the surplus. */
static int take_fds(struct msg *m, struct msghdr *mh)
{
	struct cmsghdr *c;
	int bad = 0;

	for (c = CMSG_FIRSTHDR(mh); c; c = CMSG_NXTHDR(mh, c)) {
		size_t n, i;
		int fd;

		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) {
			bad = 1;
			continue;
		}
		n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (i = 0; i < n; i++) {
			memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(fd));
			if (m->nfds < MSG_MAX_FDS)
				m->fds[m->nfds++] = fd;
			else {
				close(fd);
				bad = 1;
			}
		}
	}
	return bad ? -1 : 0;
}

struct msg *msg_recv(int sock, int cloexec)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int) * MSG_MAX_FDS)];
	} c;
	struct msg *m = msg_new();
	static __thread unsigned char raw[MSG_MAX_BYTES];
	struct iovec iov = { .iov_base = raw, .iov_len = sizeof(raw) };
	struct msghdr mh = { .msg_iov = &iov,
			     .msg_iovlen = 1,
			     .msg_control = c.buf,
			     .msg_controllen = sizeof(c.buf) };
	ssize_t n;

	if (!m)
		return NULL;
	do
		n = recvmsg(sock, &mh, cloexec ? MSG_CMSG_CLOEXEC : 0);
	while (n < 0 && errno == EINTR);
	if (n <= 0) {
		msg_free(m);
		if (n == 0)
			errno = ECONNRESET;
		return NULL;
	}
	if (take_fds(m, &mh) < 0 || (mh.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) ||
	    msg_parse(m, raw, (size_t)n) < 0) {
		msg_free(m);
		errno = EBADMSG;
		return NULL;
	}
	return m;
}
