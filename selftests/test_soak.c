// SPDX-License-Identifier: GPL-2.0
/*
 * A soak: SOAK_PROCS sandboxed processes doing real work at once for a
 * bounded time, each checking its own invariant at every step, then all
 * gone and the BPF side's tables back where they were.
 *
 *   limits   a descriptor limited to CAP_READ|CAP_SEEK: reads work, writes
 *            fail, through dups and in forked children too
 *   capmode  capability mode: the global namespace is ECAPMODE, a ".." out
 *            of the held directory ENOTCAPABLE, a file beneath opens and
 *            reads, in forked children too
 *   pdfork   process descriptor trees: a child (with a grandchild of its
 *            own) exits with a code pdwait4 reads back; another is killed
 *            with pdkill
 *   passing  a limited descriptor sent over SCM_RIGHTS keeps its limit on
 *            arrival; fork and exec of a program with it inherited
 *
 * In the boot without capsicumd (its audit log would take the flood of
 * refusals). Bounded: SOAK_SECONDS of guest time (CAPSICUM_SOAK_SECONDS
 * overrides), every wait bounded. As root the counters are sampled for their
 * peak and must return to the baseline afterwards (no table, tracked file or
 * process descriptor leaked).
 */
#define _GNU_SOURCE
#include "fixture.h"
#include "fuzz.h"
#include "selftest.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capsicum.h>
#include <sys/procdesc.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SOAK_PROCS   64
#define SOAK_SECONDS 30
/* How long the counters may take to come back once every process is gone. */
#define SOAK_SETTLE_MS 10000

enum soak_kind {
	SOAK_LIMITS,
	SOAK_CAPMODE,
	SOAK_PDFORK,
	SOAK_PASSING,
	SOAK_KINDS
};
static const char *const kind_name[] = { "limits", "capmode", "pdfork",
					 "passing" };

/* What a worker sends back when it is done. */
struct soak_result {
	unsigned int kind;
	unsigned int failed_step; /* 0: none */
	unsigned long ops;
	unsigned long procs;
	char why[96];
};

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Whether fd reads and refuses writes with ENOTCAPABLE. */
static bool read_only(int fd)
{
	char c;

	return pread(fd, &c, 1, 0) == 1 && write(fd, "x", 1) == -1 &&
	       errno == ENOTCAPABLE;
}

/* A child that checks `fd` is still read-only; its exit says. */
static bool child_read_only(int fd, struct soak_result *r)
{
	pid_t pid = fork();
	int status;

	if (pid == 0)
		_exit(read_only(fd) ? 0 : 1);
	r->procs++;
	return pid > 0 && waitpid(pid, &status, 0) == pid &&
	       WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

#define FAIL_IF(cond, what)                                                    \
	do {                                                                   \
		if (cond) {                                                    \
			snprintf(r->why, sizeof(r->why), "%s (errno %d)",      \
				 what, errno);                                 \
			return false;                                          \
		}                                                              \
	} while (0)

static bool step_limits(int fd, unsigned long i, struct soak_result *r)
{
	int d;

	FAIL_IF(!read_only(fd), "the limited descriptor wrote or did not read");
	d = dup(fd);
	FAIL_IF(d < 0 || !read_only(d), "its dup wrote or did not read");
	close(d);
	if (i % 16 == 0)
		FAIL_IF(!child_read_only(fd, r), "a forked child wrote");
	return true;
}

static bool step_capmode(int dfd, unsigned long i, struct soak_result *r)
{
	char c;
	int fd;

	FAIL_IF(open("/etc/passwd", O_RDONLY) != -1 || errno != ECAPMODE,
		"open of a global path in capability mode");
	FAIL_IF(openat(dfd, "../soak-outside", O_RDONLY) != -1 ||
			errno != ENOTCAPABLE,
		"a lookup out of the held directory");
	fd = openat(dfd, "f", O_RDONLY);
	FAIL_IF(fd < 0 || read(fd, &c, 1) != 1, "a file beneath");
	close(fd);
	if (i % 16 == 0) {
		pid_t pid = fork();
		int status;

		if (pid == 0)
			_exit(open("/etc/passwd", O_RDONLY) == -1 &&
					      errno == ECAPMODE
				      ? 0
				      : 1);
		r->procs++;
		FAIL_IF(pid < 0 || waitpid(pid, &status, 0) != pid ||
				!WIFEXITED(status) || WEXITSTATUS(status),
			"a forked child left capability mode");
	}
	return true;
}

static bool step_pdfork(unsigned long i, struct soak_result *r)
{
	int pd, status = 0;
	pid_t pid;

	pid = pdfork(&pd, 0);
	if (pid == 0) {
		/* A grandchild of its own, waited for by pdwait4 too. */
		int gpd;
		pid_t g = pdfork(&gpd, 0);

		if (g == 0)
			_exit(5);
		_exit(g > 0 && pdwait4(gpd, &status, 0, NULL) == g &&
				      WIFEXITED(status) &&
				      WEXITSTATUS(status) == 5
			      ? 3
			      : 4);
	}
	FAIL_IF(pid < 0, "pdfork");
	r->procs += 2;
	FAIL_IF(pdwait4(pd, &status, 0, NULL) != pid || !WIFEXITED(status) ||
			WEXITSTATUS(status) != 3,
		"a pdfork tree's exit codes");
	close(pd);
	if (i % 8 == 0) {
		pid = pdfork(&pd, 0);
		if (pid == 0) {
			alarm(30);
			pause();
			_exit(1);
		}
		FAIL_IF(pid < 0, "pdfork to kill");
		r->procs++;
		FAIL_IF(pdkill(pd, SIGKILL) ||
				pdwait4(pd, &status, 0, NULL) != pid ||
				!WIFSIGNALED(status),
			"pdkill");
		close(pd);
	}
	return true;
}

static bool step_passing(int fd, const int sv[2], unsigned long i,
			 struct soak_result *r)
{
	int d = dup(fd), got;

	FAIL_IF(d < 0 || fixture_limit(d, CAP_READ, CAP_SEEK), "limit a dup");
	got = fixture_pass_over(sv, d);
	close(d);
	FAIL_IF(got < 0 || !read_only(got),
		"a received descriptor lost its limit");
	close(got);
	if (i % 32 == 0) {
		/* Exec with a limited descriptor inherited. */
		pid_t pid;
		int status;

		d = dup(fd);
		FAIL_IF(d < 0 || fixture_limit(d, CAP_READ, CAP_SEEK),
			"limit for exec");
		pid = fork();
		if (pid == 0) {
			execl("/bin/true", "true", (char *)NULL);
			_exit(127);
		}
		r->procs++;
		FAIL_IF(pid < 0 || waitpid(pid, &status, 0) != pid ||
				!WIFEXITED(status) || WEXITSTATUS(status),
			"fork and exec");
		close(d);
	}
	return true;
}

/* A worker of kind k until `end`; its result goes to `out`. */
static void worker(enum soak_kind k, double end, int out)
{
	struct soak_result r = { .kind = k };
	int fd = fixture_scratch_file("0123456789"), dfd = -1,
	    sv[2] = { -1, -1 };
	char dir[] = "/tmp/soak.XXXXXX", f[64];
	bool ok = fd >= 0;

	if (ok && k == SOAK_LIMITS)
		ok = !fixture_limit(fd, CAP_READ, CAP_SEEK);
	if (ok && k == SOAK_CAPMODE) {
		int w = -1;

		ok = mkdtemp(dir) != NULL;
		snprintf(f, sizeof(f), "%s/f", dir);
		ok = ok && (w = open(f, O_WRONLY | O_CREAT, 0600)) >= 0 &&
		     write(w, "y", 1) == 1;
		close(w);
		dfd = open(dir, O_RDONLY | O_DIRECTORY);
		ok = ok && dfd >= 0 && !cap_enter();
	}
	if (ok && k == SOAK_PASSING)
		ok = !socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	if (!ok) {
		r.failed_step = 1;
		snprintf(r.why, sizeof(r.why), "setup (errno %d)", errno);
	}
	for (unsigned long i = 1; ok && now_s() < end; i++, r.ops++) {
		switch (k) {
		case SOAK_LIMITS:
			ok = step_limits(fd, i, &r);
			break;
		case SOAK_CAPMODE:
			ok = step_capmode(dfd, i, &r);
			break;
		case SOAK_PDFORK:
			ok = step_pdfork(i, &r);
			break;
		default:
			ok = step_passing(fd, sv, i, &r);
		}
		if (!ok)
			r.failed_step = (unsigned int)i;
	}
	_exit(write(out, &r, sizeof(r)) == sizeof(r) && ok ? 0 : 1);
}

static void counters_sample(int cfd, struct fuzz_counters *peak)
{
	struct fuzz_counters c;

	if (cfd < 0 || fuzz_counters_read(cfd, &c))
		return;
	if (c.live_tables > peak->live_tables)
		peak->live_tables = c.live_tables;
	if (c.tracked_files > peak->tracked_files)
		peak->tracked_files = c.tracked_files;
	if (c.pd_files_live > peak->pd_files_live)
		peak->pd_files_live = c.pd_files_live;
}

/* Whether the counters are back at (or below) the baseline `b`. */
static bool counters_back(int cfd, const struct fuzz_counters *b,
			  struct fuzz_counters *now)
{
	return !fuzz_counters_read(cfd, now) &&
	       now->live_tables <= b->live_tables &&
	       now->tracked_files <= b->tracked_files &&
	       now->pd_files_live <= b->pd_files_live &&
	       now->pd_doomed <= b->pd_doomed;
}

SELFTEST(soak_sandboxes_keep_their_invariants)
{
	struct fuzz_counters base = { 0 }, peak = { 0 }, now = { 0 };
	unsigned long ops[SOAK_KINDS] = { 0 }, procs = SOAK_PROCS;
	const char *knob = getenv("CAPSICUM_SOAK_SECONDS");
	/* One kind of worker only, to tell which one a failure comes from. */
	const char *only = getenv("CAPSICUM_SOAK_ONLY");
	int seconds = knob ? atoi(knob) : SOAK_SECONDS, p[2], cfd = -1;
	int done = 0, failed = 0, waited = 0;
	double end;

	/*
	 * Its refusals are the point and number in the hundreds of
	 * thousands: with capsicumd running they would flood the audit log
	 * that the daemon tests of the uid 1000 run read after it.
	 */
	if (fixture_daemon_pid())
		selftest_skip("capsicumd runs: soaked in the boot without it");
	if (!fixture_loaded() || !ASSERT_OK(pipe(p), "pipe"))
		return;
	if (selftest_is_root()) {
		cfd = fuzz_counters_open();
		if (!ASSERT_OK(cfd, "the counters") ||
		    !ASSERT_OK(fuzz_counters_read(cfd, &base), "baseline"))
			return;
		peak = base;
	}
	end = now_s() + (seconds > 0 ? seconds : SOAK_SECONDS);
	for (int i = 0; i < SOAK_PROCS; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			close(p[0]);
			worker(only ? (enum soak_kind)(atoi(only) % SOAK_KINDS)
				    : (enum soak_kind)(i % SOAK_KINDS),
			       end, p[1]);
		}
		if (!ASSERT_OK(pid, "fork a worker"))
			break;
		waited++;
	}
	close(p[1]);
	/* Results as they come; the counters sampled meanwhile. */
	while (done < waited) {
		struct pollfd pf = { .fd = p[0], .events = POLLIN };
		struct soak_result r;

		counters_sample(cfd, &peak);
		if (poll(&pf, 1, 200) <= 0)
			continue;
		if (read(p[0], &r, sizeof(r)) != sizeof(r))
			break; /* every worker gone: the rest died silently */
		done++;
		ops[r.kind % SOAK_KINDS] += r.ops;
		procs += r.procs;
		if (r.failed_step) {
			failed++;
			selftest_fail(__FILE__, __LINE__,
				      "%s worker, step %u: %s",
				      kind_name[r.kind % SOAK_KINDS],
				      r.failed_step, r.why);
		}
	}
	close(p[0]);
	/* Their exit codes repeat what the results said. */
	for (int i = 0; i < waited; i++)
		wait(NULL);
	ASSERT_EQ(done, waited, "every worker reported");
	printf("    soak %ds: %d processes, %lu created; steps: limits %lu, "
	       "capmode %lu, pdfork %lu, passing %lu; %d failed\n",
	       seconds > 0 ? seconds : SOAK_SECONDS, waited, procs,
	       ops[SOAK_LIMITS], ops[SOAK_CAPMODE], ops[SOAK_PDFORK],
	       ops[SOAK_PASSING], failed);
	for (int k = 0; k < SOAK_KINDS; k++)
		ASSERT_TRUE(only || ops[k] > 0,
			    "each kind of worker made progress");
	if (cfd < 0)
		return; /* the counters are root's to read */
	printf("    peak: %lld tables, %lld tracked files, %lld process "
	       "descriptors (baseline %lld, %lld, %lld)\n",
	       (long long)peak.live_tables, (long long)peak.tracked_files,
	       (long long)peak.pd_files_live, (long long)base.live_tables,
	       (long long)base.tracked_files, (long long)base.pd_files_live);
	/* Tables and files go when their last holder does, soon after. */
	for (int ms = 0;
	     ms < SOAK_SETTLE_MS && !counters_back(cfd, &base, &now); ms += 50)
		poll(NULL, 0, 50);
	ASSERT_TRUE(counters_back(cfd, &base, &now),
		    "the counters return to their baseline");
	if (selftest_failed())
		printf("    now: %lld tables, %lld tracked files, %lld process "
		       "descriptors, %lld doomed\n",
		       (long long)now.live_tables, (long long)now.tracked_files,
		       (long long)now.pd_files_live, (long long)now.pd_doomed);
	close(cfd);
}
