// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzzing the raw control plane (doc/security.md, "Testing"). A seeded,
 * structure-aware mutation loop rather than libFuzzer: what the requests
 * exercise is BPF code in the kernel, which no coverage instrumentation
 * of ours sees, so coverage guidance would steer nothing, and a loop needs
 * nothing in the VM but this binary. Every input follows from the printed
 * seed; CAPSICUM_FUZZ_SEED=N repeats a run, CAPSICUM_FUZZ_SECONDS=N runs
 * longer (default 8 per run, well under a minute per kernel and user).
 *
 * Inputs run in workers of FUZZ_BATCH inputs each, so capability mode, a
 * pdfork watch or a table entered by one worker does not hide the next's
 * bugs. Running as root, every other worker drops to uid 1000 after
 * opening the kernel log and the BPF side's counters, so the
 * unprivileged path is checked with both; run as uid 1000, neither can be
 * opened and only the descriptors are checked. After each worker the
 * table and file counters must come back to where they were (or below:
 * an earlier test's process may still be being freed): nothing the
 * fuzzer did leaked.
 */
#define _GNU_SOURCE
#include "fixture.h"
#include "fuzz.h"
#include "selftest.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define FUZZ_BATCH	200
#define DEFAULT_SECONDS 8
#define FUZZ_UID	1000
/* TCG is slow and task_free runs after an RCU grace period: a bound. */
#define BASELINE_WAIT_S 30

static unsigned long env_ulong(const char *name, unsigned long dflt)
{
	const char *v = getenv(name);
	char *end;
	unsigned long n;

	if (!v || !*v)
		return dflt;
	n = strtoul(v, &end, 0);
	return *end ? dflt : n;
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* One worker: FUZZ_BATCH inputs (or until the deadline), then a sweep. */
static void worker(uint64_t seed, bool drop, int kmsg, int bss, double end,
		   int out)
{
	struct fuzz_run r;
	int bad = 0;

	signal(SIGPIPE, SIG_IGN);
	if (drop && (setresgid(FUZZ_UID, FUZZ_UID, FUZZ_UID) ||
		     setresuid(FUZZ_UID, FUZZ_UID, FUZZ_UID)))
		_exit(3);
	if (!fuzz_run_init(&r, kmsg, bss))
		_exit(2);
	r.verbose = env_ulong("CAPSICUM_FUZZ_VERBOSE", 0);
	for (int i = 0; i < FUZZ_BATCH && !bad && now_s() < end; i++)
		bad += fuzz_one(&r, &seed);
	if (!bad)
		bad += fuzz_sweep(&r, NULL);
	if (write(out, &r.st, sizeof(r.st)) != sizeof(r.st))
		bad++;
	fuzz_run_free(&r);
	_exit(bad ? 1 : 0);
}

/* The tables and files of the worker are gone again (bounded poll). */
static bool back_to(int bss, const struct fuzz_counters *base)
{
	struct fuzz_counters c;
	double start = now_s();

	for (;;) {
		if (fuzz_counters_read(bss, &c))
			return ASSERT_TRUE(false, "read the counters");
		/*
		 * At most: a process of an earlier test may still be freed
		 * (task_free follows an RCU grace period), and nothing else
		 * in the VM makes tables meanwhile.
		 */
		if (c.live_tables <= base->live_tables &&
		    c.tracked_files <= base->tracked_files &&
		    c.pd_doomed <= base->pd_doomed &&
		    c.pd_files_live <= base->pd_files_live)
			return true;
		if (now_s() - start > BASELINE_WAIT_S) {
			selftest_fail(__FILE__, __LINE__,
				      "leaked: live_tables %lld -> %lld, "
				      "tracked_files %lld -> %lld, pd_doomed "
				      "%lld -> %lld, pd_files_live %lld -> "
				      "%lld",
				      (long long)base->live_tables,
				      (long long)c.live_tables,
				      (long long)base->tracked_files,
				      (long long)c.tracked_files,
				      (long long)base->pd_doomed,
				      (long long)c.pd_doomed,
				      (long long)base->pd_files_live,
				      (long long)c.pd_files_live);
			return false;
		}
		usleep(10000);
	}
}

SELFTEST(fuzz_control)
{
	uint64_t seed = env_ulong("CAPSICUM_FUZZ_SEED", 0);
	unsigned long secs =
		env_ulong("CAPSICUM_FUZZ_SECONDS", DEFAULT_SECONDS);
	struct fuzz_stats total = { 0 };
	struct fuzz_counters base;
	int kmsg, bss, batches = 0;
	double start, end;

	if (!fixture_loaded())
		return;
	/*
	 * Its thousands of denials would flood the audit log the daemon
	 * tests read: the boot without capsicumd fuzzes the same programs.
	 */
	if (fixture_daemon_pid()) {
		selftest_skip("capsicumd runs: fuzzed in the boot without it");
		return;
	}
	if (!seed)
		seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	kmsg = fuzz_kmsg_open();
	bss = fuzz_counters_open();
	printf("    fuzz_control: seed %#llx (CAPSICUM_FUZZ_SEED=%#llx "
	       "repeats it), %lu s; kernel log %s, counters %s\n",
	       (unsigned long long)seed, (unsigned long long)seed, secs,
	       kmsg >= 0 ? "checked" : "not readable here",
	       bss >= 0 ? "checked" : "not readable here");
	start = now_s();
	end = start + (double)secs;
	while (now_s() < end) {
		uint64_t batch_seed = fuzz_next(&seed);
		bool drop = selftest_is_root() && batches % 2;
		struct fuzz_stats st = { 0 };
		int p[2], status;
		pid_t pid;

		if (bss >= 0 && !ASSERT_OK(fuzz_counters_read(bss, &base),
					   "counters before a worker"))
			break;
		if (!ASSERT_OK(pipe(p), "pipe"))
			break;
		pid = fork();
		if (pid == 0) {
			close(p[0]);
			worker(batch_seed, drop, kmsg, bss, end, p[1]);
		}
		close(p[1]);
		if (read(p[0], &st, sizeof(st)) != sizeof(st))
			memset(&st, 0, sizeof(st));
		close(p[0]);
		if (waitpid(pid, &status, 0) != pid)
			status = -1;
		else if (WIFSIGNALED(status))
			printf("    fuzz_control: worker killed by signal %d\n",
			       WTERMSIG(status));
		status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
		total.inputs += st.inputs;
		total.requests += st.requests;
		total.accepted += st.accepted;
		total.denied_probes += st.denied_probes;
		batches++;
		if (!ASSERT_EQ(status, 0, "fuzz worker")) {
			printf("    fuzz_control: worker %d (%s) failed; its "
			       "seed state %#llx\n",
			       batches, drop ? "uid 1000" : "as the test",
			       (unsigned long long)batch_seed);
			break;
		}
		if (bss >= 0 && !back_to(bss, &base))
			break;
	}
	printf("    fuzz_control: %llu inputs (%llu requests, %llu accepted), "
	       "%llu denials probed, %d workers, %.1f s\n",
	       (unsigned long long)total.inputs,
	       (unsigned long long)total.requests,
	       (unsigned long long)total.accepted,
	       (unsigned long long)total.denied_probes, batches,
	       now_s() - start);
	ASSERT_TRUE(total.inputs > 0, "some input ran");
	if (kmsg >= 0)
		close(kmsg);
	if (bss >= 0)
		close(bss);
}
