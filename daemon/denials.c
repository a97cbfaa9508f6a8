// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "denials.h"

#include "audit_line.h"
#include "log.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <capsicum/pins.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void summarise(struct denials *d)
{
	uint64_t k = ratelimit_roll(&d->rl, now_ns());

	if (k)
		log_msg(LOG_WARNING, "denial",
			"suppressed %llu denials (rate limit %u/s)",
			(unsigned long long)k, d->rl.burst);
}

/*
 * Records one turn of the main loop handles at most: under a storm the
 * producers outrun us and ring_buffer__consume() would never return,
 * starving signals (SIGTERM, an upgrade's hand-over) and queries.
 */
#define DRAIN_BUDGET 1024

static int handle_record(void *ctx, void *data, size_t size);

/* Consumed either way; a negative value ends this turn's consume. */
static int on_record(void *ctx, void *data, size_t size)
{
	struct denials *d = ctx;

	handle_record(ctx, data, size);
	return --d->budget ? 0 : -EAGAIN;
}

static int handle_record(void *ctx, void *data, size_t size)
{
	struct denials *d = ctx;
	struct capsicum_denial rec = { 0 };
	char line[1024];

	memcpy(&rec, data, size < sizeof(rec) ? size : sizeof(rec));
	d->received++;
	if (d->audit) {
		audit_line_format(&rec, line, sizeof(line));
		fputs(line, d->audit);
		fflush(d->audit);
	}
	if (d->tap)
		d->tap(d->tap_ctx, &rec);
	summarise(d);
	if (!ratelimit_allow(&d->rl, now_ns())) {
		d->suppressed++;
		return 0;
	}
	d->logged++;
	audit_describe(&rec, line, sizeof(line));
	log_msg(LOG_NOTICE, "denial", "%s", line);
	return 0;
}

int denials_reopen(struct denials *d)
{
	FILE *f;
	int fd;

	if (!d->audit_path)
		return 0;
	/*
	 * Every user's denials: root's only, whatever the umask or the
	 * directory (systemd's RuntimeDirectory= is 0755 by default).
	 */
	fd = open(d->audit_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC,
		  0600);
	if (fd < 0)
		return -errno;
	if (fchmod(fd, 0600) || !(f = fdopen(fd, "a"))) {
		int err = -errno;

		close(fd);
		return err;
	}
	if (d->audit)
		fclose(d->audit);
	d->audit = f;
	return 0;
}

int denials_open(struct denials *d, const char *audit_path,
		 unsigned int per_second)
{
	int fd, err;

	memset(d, 0, sizeof(*d));
	d->map_fd = -1;
	d->audit_path = audit_path;
	ratelimit_init(&d->rl, per_second);
	err = denials_reopen(d);
	if (err)
		return err;
	fd = bpf_obj_get(CAPSICUM_PIN_DENIALS);
	if (fd < 0)
		return -errno;
	d->map_fd = fd;
	d->rb = ring_buffer__new(fd, on_record, d, NULL);
	return d->rb ? 0 : -errno;
}

int denials_fd(const struct denials *d)
{
	return ring_buffer__epoll_fd(d->rb);
}

int denials_drain(struct denials *d)
{
	int n;

	d->budget = DRAIN_BUDGET;
	n = ring_buffer__consume(d->rb);
	summarise(d);
	/* The rest waits: the ring's fd stays readable for the next poll. */
	return n < 0 && n != -EAGAIN ? n : 0;
}

void denials_close(struct denials *d)
{
	ring_buffer__free(d->rb);
	if (d->audit)
		fclose(d->audit);
	if (d->map_fd >= 0)
		close(d->map_fd);
	d->rb = NULL;
	d->audit = NULL;
	d->map_fd = -1;
}
