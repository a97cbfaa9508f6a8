/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The casper message: what FreeBSD's libcasper carries in an nvlist, here
 * a flat list of typed fields (key, type, length, value) plus descriptors,
 * one message per SOCK_SEQPACKET packet. Keys are small numbers each
 * service defines; a key may repeat (a list). Sizes are bounded and
 * msg_parse() checks every field before anything reads one: a peer that
 * sends garbage gets EBADMSG, never a read past the buffer.
 *
 * Wire format of a field (host byte order: both ends run on one machine):
 *   u16 key, u8 type, u8 zero, u32 length, then length bytes.
 *   MSG_U64: length 8. MSG_STR: at least 1 byte, the last one NUL and the
 *   only NUL. MSG_BYTES: any length.
 */
#ifndef CASPER_MSG_H
#define CASPER_MSG_H

#include <stddef.h>
#include <stdint.h>

#define MSG_MAX_BYTES  65536
#define MSG_MAX_FIELDS 1024
#define MSG_MAX_FDS    4

enum msg_type { MSG_U64 = 1, MSG_STR = 2, MSG_BYTES = 3 };

/* Keys every channel understands; the services number theirs from 16. */
enum {
	MK_CMD = 1,   /* str: the request */
	MK_ERROR = 2, /* u64: the reply's errno, 0 on success */
	MK_SERVICE_FIRST = 16,
};

struct msg_field {
	uint16_t key;
	uint8_t type;
	uint32_t len;
	const unsigned char *data;
};

struct msg {
	unsigned char buf[MSG_MAX_BYTES];
	size_t len;
	struct msg_field fields[MSG_MAX_FIELDS];
	size_t nfields;
	int fds[MSG_MAX_FDS];
	size_t nfds;
	/* Set by a failed msg_add_*(): msg_send() then fails with it. */
	int error;
};

struct msg *msg_new(void);
/* Closes the descriptors the message still holds. */
void msg_free(struct msg *m);

void msg_add_u64(struct msg *m, uint16_t key, uint64_t v);
void msg_add_str(struct msg *m, uint16_t key, const char *s);
void msg_add_bytes(struct msg *m, uint16_t key, const void *p, size_t len);
/* The message owns fd from now on (dup() it to keep one). */
void msg_add_fd(struct msg *m, int fd);

/* Checks and indexes len bytes of buf (copied in); -1 and EBADMSG if bad. */
int msg_parse(struct msg *m, const void *buf, size_t len);

/* How many fields have this key; any of them of another type: -1. */
int msg_count(const struct msg *m, uint16_t key, enum msg_type type);
/* The i-th field with key, of that type, or NULL. */
const struct msg_field *msg_get(const struct msg *m, uint16_t key,
				enum msg_type type, size_t i);
/* 0 and *v, or -1 if absent or of another type. */
int msg_get_u64(const struct msg *m, uint16_t key, uint64_t *v);
const char *msg_get_str(const struct msg *m, uint16_t key);
const char *msg_get_str_at(const struct msg *m, uint16_t key, size_t i);
/* Only keys in keys[] (0-terminated), each with its type: 0, or -1. */
int msg_only(const struct msg *m, const uint16_t *keys,
	     const enum msg_type *types);
/* The i-th descriptor, now the caller's, or -1. */
int msg_take_fd(struct msg *m, size_t i);

/* One message as one packet on a SOCK_SEQPACKET socket. */
int msg_send(int sock, const struct msg *m);
/* NULL and errno: EBADMSG for a malformed or truncated one, ECONNRESET at
 * end of stream. Descriptors arrive close-on-exec if cloexec. */
struct msg *msg_recv(int sock, int cloexec);

#endif
