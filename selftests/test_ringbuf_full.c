// SPDX-License-Identifier: GPL-2.0
/*
 * The denial ring buffer full (issue 15, daemon faults): with no
 * capsicumd reading it, denials beyond its room are counted as dropped,
 * every one is still counted and refused, and nothing blocks. The same
 * for the kill requests of process descriptors (issue 27).
 */
#define _GNU_SOURCE
#include "fixture.h"
#include "fuzz.h"
#include "selftest.h"

#include <capsicum/abi.h>
#include <capsicum/pins.h>
#include <sys/capsicum.h>
#include <sys/procdesc.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* bpf/state.bpf.h: 256 KiB of records, each with an 8-byte header. */
#define RING_BYTES   (256 * 1024)
#define RING_RECORDS (RING_BYTES / (sizeof(struct capsicum_denial) + 8))
/* More denials than the ring holds, whatever earlier tests left in it. */
#define DENIALS (RING_RECORDS + 1000)

/*
 * Skips unless root (the counters) and no capsicumd drains the rings;
 * the counters' fd with *before read, or -1 (failed).
 */
static int undrained_counters(struct fuzz_counters *before)
{
	int bss;

	if (!selftest_is_root() || fixture_daemon_pid())
		selftest_skip("needs root (the counters) and no capsicumd "
			      "draining the ring");
	if (!fixture_loaded())
		return -1;
	bss = fuzz_counters_open();
	if (!ASSERT_OK(bss, "open the counters"))
		return -1;
	if (!ASSERT_OK(fuzz_counters_read(bss, before), "counters")) {
		close(bss);
		return -1;
	}
	return bss;
}

SELFTEST(ringbuf_full_counts_drops)
{
	struct fuzz_counters before, after;
	struct timespec t0, t1;
	unsigned int refused = 0;
	struct stat st;
	int bss, fd;

	bss = undrained_counters(&before);
	if (bss < 0)
		return;
	fd = fixture_scratch_file("x");
	if (!ASSERT_OK(fd, "file") ||
	    !ASSERT_OK(fixture_limit_all_but(fd, CAP_FSTAT), "limit"))
		return;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (size_t i = 0; i < DENIALS; i++)
		refused += fstat(fd, &st) == -1 && errno == ENOTCAPABLE;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (!ASSERT_OK(fuzz_counters_read(bss, &after), "counters"))
		return;
	ASSERT_EQ(refused, DENIALS, "every fstat refused");
	ASSERT_EQ(after.denials - before.denials, DENIALS,
		  "every denial counted");
	ASSERT_TRUE(after.dropped - before.dropped >= DENIALS - RING_RECORDS,
		    "denials past the ring's room counted as dropped");
	ASSERT_TRUE(after.dropped - before.dropped <= DENIALS,
		    "no more drops than denials");
	printf("    ringbuf_full: %zu denials in %.2f s, %llu dropped\n",
	       (size_t)DENIALS,
	       (double)(t1.tv_sec - t0.tv_sec) +
		       (t1.tv_nsec - t0.tv_nsec) / 1e9,
	       (unsigned long long)(after.dropped - before.dropped));
	close(fd);
	close(bss);
}

/* bpf/control.bpf.h: 16 KiB of 16-byte records, each with its header. */
#define PD_RING_RECORDS (16 * 1024 / (sizeof(struct capsicum_pd_kill) + 8))
#define PD_CLOSES	(PD_RING_RECORDS + 100)

/*
 * Each last close of a child's descriptor is one kill request, written or
 * counted as dropped, never lost silently; the child, doomed either way,
 * still meets the self-kill at its next hook. Here each child has exited
 * already (a zombie still counts) and is reaped after.
 */
SELFTEST(ringbuf_full_counts_pd_kill_drops)
{
	struct fuzz_counters before, after;
	unsigned int closed = 0;
	siginfo_t si;
	int bss, pd;
	pid_t pid;

	bss = undrained_counters(&before);
	if (bss < 0)
		return;
	for (size_t i = 0; i < PD_CLOSES; i++) {
		pid = pdfork(&pd, 0);
		if (pid == 0)
			_exit(0);
		if (!ASSERT_OK(pid, "pdfork"))
			break;
		/* Exited, not reaped: the close still dooms it. */
		if (!ASSERT_OK(waitid(P_PID, (id_t)pid, &si,
				      WEXITED | WNOWAIT | __WALL),
			       "wait for the exit") ||
		    !ASSERT_OK(close(pd), "close"))
			break;
		closed++;
		ASSERT_EQ(waitpid(pid, NULL, __WALL), pid, "reap");
	}
	if (!ASSERT_OK(fuzz_counters_read(bss, &after), "counters"))
		return;
	ASSERT_EQ(closed, PD_CLOSES, "every child closed");
	ASSERT_EQ((after.pd_kill_requests - before.pd_kill_requests) +
			  (after.pd_kill_dropped - before.pd_kill_dropped),
		  PD_CLOSES, "each last close requested or counted");
	ASSERT_TRUE(after.pd_kill_dropped - before.pd_kill_dropped >=
			    PD_CLOSES - PD_RING_RECORDS,
		    "requests past the ring's room counted as dropped");
	close(bss);
}
