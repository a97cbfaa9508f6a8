// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "pd_kills.h"

#include "log.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <capsicum/pins.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/*
 * pidfd_open() pins the process the number names now; the hook then
 * checks, on the very task the signal reaches, that it is the doomed
 * child the request named (its start time), so a number reused between
 * the request and here is refused with EPERM and nothing else dies.
 */
static int kill_child(const struct capsicum_pd_kill *rec)
{
	siginfo_t si;
	int pidfd, err = 0;

	pidfd = (int)syscall(SYS_pidfd_open, (pid_t)rec->tgid, 0);
	if (pidfd < 0)
		return -errno;
	memset(&si, 0, sizeof(si));
	si.si_signo = SIGKILL;
	si.si_code = SI_QUEUE; /* another process: only si_code < 0 */
	si.si_errno = CAPSICUM_PD_KILL_MAGIC;
	si.si_pid = getpid();
	si.si_uid = getuid();
	si.si_value.sival_ptr = (void *)(uintptr_t)rec->start_boottime;
	if (syscall(SYS_pidfd_send_signal, pidfd, SIGKILL, &si, 0))
		err = -errno;
	close(pidfd);
	return err;
}

static int on_request(void *ctx, void *data, size_t size)
{
	struct capsicum_pd_kill rec = { 0 };
	struct pd_kills *k = ctx;
	int err;

	memcpy(&rec, data, size < sizeof(rec) ? size : sizeof(rec));
	k->received++;
	err = kill_child(&rec);
	if (!err) {
		k->killed++;
		log_msg(LOG_DEBUG, "procdesc",
			"killed pid %u: its last process descriptor closed",
			rec.tgid);
	} else if (err == -ESRCH || err == -EPERM) {
		/* Reaped, or (EPERM) the number names another process now. */
		k->gone++;
	} else {
		k->failed++;
		log_msg(LOG_WARNING, "procdesc",
			"cannot kill pid %u (its last process descriptor "
			"closed): %s; it dies at its next checked operation",
			rec.tgid, strerror(-err));
	}
	return 0;
}

int pd_kills_open(struct pd_kills *k)
{
	int fd;

	memset(k, 0, sizeof(*k));
	k->map_fd = -1;
	fd = bpf_obj_get(CAPSICUM_PIN_PD_KILLS);
	if (fd < 0)
		return -errno;
	k->map_fd = fd;
	k->rb = ring_buffer__new(fd, on_request, k, NULL);
	return k->rb ? 0 : -errno;
}

int pd_kills_fd(const struct pd_kills *k)
{
	return k->rb ? ring_buffer__epoll_fd(k->rb) : -1;
}

int pd_kills_drain(struct pd_kills *k)
{
	int n;

	if (!k->rb)
		return 0;
	n = ring_buffer__consume(k->rb);
	return n < 0 ? n : 0;
}

void pd_kills_close(struct pd_kills *k)
{
	ring_buffer__free(k->rb);
	if (k->map_fd >= 0)
		close(k->map_fd);
	k->rb = NULL;
	k->map_fd = -1;
}
