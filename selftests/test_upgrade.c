// SPDX-License-Identifier: GPL-2.0
/*
 * Live upgrade (issue 15, item 1; doc/daemon.md, "Upgrading"): capsicumd
 * --upgrade takes the pinned state over to a second build with no window.
 * Two sandboxes loop on forbidden operations through the whole upgrade,
 * counting any that succeeds: a descriptor limited to CAP_READ (write
 * refused, its rights read back through the control plane, whose own
 * hook is swapped too) and a process in capability mode (an openat
 * escaping its directory refused, cap_getmode still 1). The second build
 * is capsicumd-variant1 (Makefile: the same object with
 * -DCAPSICUM_BUILD_VARIANT=1, another hash, the same maps), installed as
 * a package does, by rename over the running daemon's binary. The same
 * build installed again (a new file) only moves the daemon to it. Then
 * capsicumd-variant2, whose bss grew, is refused and changes nothing.
 *
 * Attaching a program to a hook another vCPU runs crashes QEMU 7.2's
 * multi-threaded TCG (int3 at the patched call site), so the test runs
 * only where that cannot happen: one CPU, or a VM booted with run-vm.sh
 * --tcg-single (capsicum_tcg=single on the kernel command line). Root, in
 * a boot without capsicumd. Synchronisation by pipes and waitpid; every
 * wait is bounded.
 */
#define _GNU_SOURCE
#include "fixture.h"
#include "selftest.h"

#include "counters.h"
#include "load.h"

#include <bpf/bpf.h>
#include <capsicum/pins.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/capsicum.h>
#include <sys/mman.h>
#include <sys/procdesc.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

#define DIR_	     "/tmp/upgrade"
#define DAEMON	     DIR_ "/capsicumd" /* the "installed" binary */
#define LOG	     "/tmp/capsicumd-upgrade.log"
#define ULOG	     "/tmp/capsicumd-upgrade-cmd.log"
#define WAIT_MS	     120000 /* TCG is slow: a bound, not a synchronisation */
#define TICK	     32
#define EXIT_VERSION 4
#define EXIT_NODAEMN 7

enum { LIMITED, CAPMODE, CHECKERS };

/* What each checker counts, in shared memory. */
struct tally {
	volatile unsigned long tries[CHECKERS];
	volatile unsigned long escapes[CHECKERS]; /* succeeded: must be 0 */
	volatile unsigned long ctl_failed;	  /* cap_rights_get failed */
	volatile int stop;
};

static bool readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, WAIT_MS) == 1;
}

/* n more ticks from a checker; false after the bound. */
static bool ticks(int fd, int n)
{
	char c;

	while (n-- > 0)
		if (!readable(fd) || read(fd, &c, 1) != 1)
			return false;
	return true;
}

static void tick(struct tally *t, int who, int fd)
{
	if (++t->tries[who] % TICK == 0 && write(fd, "t", 1) < 0 &&
	    errno != EAGAIN)
		_exit(1);
}

/* A descriptor limited to CAP_READ: write refused, rights unchanged. */
static void limited_loop(struct tally *t, int out)
{
	int fd = fixture_scratch_file("data");
	cap_rights_t r;

	if (fd < 0 || fixture_limit(fd, CAP_READ))
		_exit(1);
	while (!t->stop) {
		if (write(fd, "x", 1) >= 0 || errno != ENOTCAPABLE)
			t->escapes[LIMITED]++;
		if (cap_rights_get(fd, &r))
			t->ctl_failed++;
		else if (cap_rights_is_set(&r, CAP_WRITE) ||
			 !cap_rights_is_set(&r, CAP_READ))
			t->escapes[LIMITED]++;
		tick(t, LIMITED, out);
	}
	_exit(0);
}

/* Capability mode: an openat out of its directory refused. */
static void capmode_loop(struct tally *t, int out)
{
	struct fixture_box b;
	unsigned int mode;
	int fd;

	if (!fixture_make_box(&b) || cap_enter())
		_exit(1);
	while (!t->stop) {
		fd = openat(b.dfd, "../outside", O_RDONLY);
		if (fd >= 0) {
			t->escapes[CAPMODE]++;
			close(fd);
		}
		if (cap_getmode(&mode) || mode != 1)
			t->escapes[CAPMODE]++;
		tick(t, CAPMODE, out);
	}
	_exit(0);
}

static pid_t start_checker(struct tally *t, int who, int pipefd[2])
{
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC) || fcntl(pipefd[1], F_SETFL, O_NONBLOCK))
		return -1;
	pid = fork();
	if (pid == 0) {
		alarm(600); /* outlives no failed test */
		close(pipefd[0]);
		if (who == LIMITED)
			limited_loop(t, pipefd[1]);
		capmode_loop(t, pipefd[1]);
	}
	close(pipefd[1]);
	return pid;
}

/* Installs src at DAEMON as a package manager does: a new inode, renamed. */
static bool install(const char *src)
{
	int in = open(src, O_RDONLY | O_CLOEXEC), out;
	struct stat st;
	bool ok;

	if (in < 0 || fstat(in, &st))
		return false;
	out = open(DAEMON ".new", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
		   0755);
	ok = out >= 0 &&
	     sendfile(out, in, NULL, (size_t)st.st_size) == st.st_size;
	close(in);
	if (out >= 0)
		close(out);
	return ok && !rename(DAEMON ".new", DAEMON);
}

static struct capsicum_state_version stamp(__u32 key)
{
	LIBBPF_OPTS(bpf_obj_get_opts, ro, .file_flags = BPF_F_RDONLY);
	struct capsicum_state_version v = { 0 };
	int fd = bpf_obj_get_opts(CAPSICUM_PIN_VERSION, &ro);

	if (fd >= 0) {
		if (bpf_map_lookup_elem(fd, &key, &v))
			v.magic = 0;
		close(fd);
	}
	return v;
}

/* Runs DAEMON (or argv0) with args; its exit status. */
static int daemon_run(const char *argv0, const char *a1, const char *a2,
		      const char *a3)
{
	char *argv[] = { (char *)argv0, (char *)a1, (char *)a2, (char *)a3,
			 NULL };

	return fixture_run(argv);
}

/* A log, on the test's output, when an assertion about it failed. */
static void show(const char *path)
{
	char line[1024];
	FILE *f = fopen(path, "re");

	while (f && fgets(line, sizeof(line), f))
		printf("    | %s", line);
	if (f)
		fclose(f);
}

/*
 * A pdfork child that exits 5 once its pipe says so (or closes), its
 * descriptor limited to CAP_PDGETPID and CAP_PDWAIT: no CAP_PDKILL.
 */
static pid_t pd_sandbox(int *pd, int release[2])
{
	pid_t pid;
	char c;

	if (pipe(release))
		return -1;
	pid = pdfork(pd, 0);
	if (pid == 0) {
		close(release[1]);
		_exit(read(release[0], &c, 1) >= 0 ? 5 : 6);
	}
	close(release[0]);
	release[0] = -1;
	if (pid > 0 && fixture_limit(*pd, CAP_PDGETPID, CAP_PDWAIT))
		return -1;
	return pid;
}

SELFTEST(capsicumd_upgrade_leaves_no_window)
{
	struct tally *t = mmap(NULL, sizeof(*t), PROT_READ | PROT_WRITE,
			       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	struct capsicum_counters c0 = { 0 }, c1 = { 0 };
	struct capsicum_state_version now, before;
	int pipes[CHECKERS][2] = { { -1, -1 }, { -1, -1 } };
	pid_t checker[CHECKERS] = { -1, -1 }, daemon = 0;
	/* One denial line a second: the log's start stays readable. */
	char *start[] = { DAEMON, "--background", "--log", LOG, "--rate", "1",
			  NULL };
	unsigned long during[CHECKERS] = { 0 };
	int pd = -1, release[2] = { -1, -1 }, status = 0;
	pid_t pd_child = -1, got = -1;
	struct stat st;

	if (!fixture_single_threaded_vm())
		selftest_skip("attaching BPF programs to hooks other vCPUs run "
			      "crashes QEMU's multi-threaded TCG; boot with "
			      "run-vm.sh --tcg-single (doc/daemon.md, "
			      "\"Upgrading\")");
	if (!ASSERT_TRUE(t != MAP_FAILED, "shared tally") || !fixture_unload())
		return;
	unlink(LOG);
	mkdir(DIR_, 0755);
	if (!ASSERT_TRUE(install("/usr/bin/capsicumd"),
			 "capsicumd installed at " DAEMON) ||
	    !ASSERT_EQ(fixture_run(start), 0,
		       "the first build's daemon starts"))
		goto out;
	daemon = fixture_daemon_pid();
	before = stamp(0);
	for (int i = 0; i < CHECKERS; i++) {
		checker[i] = start_checker(t, i, pipes[i]);
		if (!ASSERT_TRUE(checker[i] > 0 && ticks(pipes[i][0], 4),
				 "a sandbox loops on forbidden operations"))
			goto out;
	}
	pd_child = pd_sandbox(&pd, release);
	if (!ASSERT_TRUE(pd_child > 0,
			 "a pdfork child, its descriptor limited"))
		goto out;
	ASSERT_OK(counters_read(&c0), "counters before");

	/* The second build, installed over the running daemon's binary. */
	if (!ASSERT_TRUE(install("/usr/bin/capsicumd-variant1"),
			 "the second build installed"))
		goto out;
	for (int i = 0; i < CHECKERS; i++)
		during[i] = t->tries[i];
	if (!ASSERT_EQ(daemon_run(DAEMON, "--upgrade", "--log", ULOG), 0,
		       "capsicumd --upgrade"))
		show(ULOG);
	for (int i = 0; i < CHECKERS; i++) {
		during[i] = t->tries[i] - during[i];
		ASSERT_TRUE(during[i] > 0,
			    "the sandbox ran during the upgrade");
		ASSERT_TRUE(ticks(pipes[i][0], 4), "and runs after it");
	}

	/* The pdfork child's descriptor kept its process and its rights. */
	ASSERT_TRUE(!pdgetpid(pd, &got) && got == pd_child,
		    "pdgetpid of the pdfork child after the upgrade");
	ASSERT_ERRNO(pdkill(pd, SIGKILL), ENOTCAPABLE,
		     "pdkill without CAP_PDKILL, after the upgrade");
	ASSERT_EQ(write(release[1], "x", 1), 1, "release the pdfork child");
	ASSERT_EQ(pdwait4(pd, &status, 0, NULL), pd_child,
		  "pdwait4 of the pdfork child");
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 5,
		    "it ran on and exited 5");
	pd_child = -1;

	/* The stamp names both builds; the daemon re-executed the new one. */
	now = stamp(0);
	ASSERT_TRUE(now.magic == CAPSICUM_STATE_MAGIC &&
			    now.object_hash != capsicum_object_hash() &&
			    !stat(DAEMON, &st) && now.exe_ino == st.st_ino,
		    "version [0] names the new build and its binary");
	ASSERT_TRUE(stamp(1).object_hash == before.object_hash &&
			    before.object_hash == capsicum_object_hash(),
		    "version [1] names the build it replaced");
	ASSERT_TRUE(daemon > 0 && fixture_daemon_pid() == daemon,
		    "the daemon's pid stays");
	if (!ASSERT_TRUE(
		    fixture_file_has(LOG, "re-executing " DAEMON) &&
			    fixture_file_has(LOG, "re-using the pinned state"),
		    "it re-executed the new binary, which re-used the "
		    "state"))
		show(LOG);

	/* The tables and counters survived: nothing was reloaded. */
	ASSERT_OK(counters_read(&c1), "counters after");
	ASSERT_TRUE(c1.denials > c0.denials, "denials counted on");
	ASSERT_TRUE(c1.tables_created >= c0.tables_created &&
			    c1.live_tables >= 2,
		    "the tables were kept (no counter reset)");
	printf("    denials %llu -> %llu, tables created %llu -> %llu, "
	       "live %llu\n",
	       (unsigned long long)c0.denials, (unsigned long long)c1.denials,
	       (unsigned long long)c0.tables_created,
	       (unsigned long long)c1.tables_created,
	       (unsigned long long)c1.live_tables);

	/*
	 * The same build again as a new file (a package that changed only
	 * the daemon): nothing to swap, but the daemon moves to that file,
	 * or a restart would find its binary untrusted.
	 */
	if (ASSERT_TRUE(install("/usr/bin/capsicumd-variant1"),
			"the second build installed again, a new inode"))
		ASSERT_EQ(daemon_run(DAEMON, "--upgrade", "--log", ULOG), 0,
			  "--upgrade to the same object");
	ASSERT_TRUE(fixture_file_has(ULOG, "now runs this binary") &&
			    fixture_daemon_pid() == daemon,
		    "the daemon re-executed it, same pid");
	ASSERT_EQ(stamp(0).object_hash, now.object_hash, "the stamp is kept");

	/* A build whose bss grew is refused; the state keeps enforcing. */
	if (ASSERT_TRUE(install("/usr/bin/capsicumd-variant2"),
			"a third build, with another bss, installed"))
		ASSERT_EQ(daemon_run(DAEMON, "--upgrade", "--log", ULOG),
			  EXIT_VERSION, "its upgrade is refused (exit 4)");
	ASSERT_TRUE(fixture_file_has(ULOG, "changed its layout"),
		    "saying which map changed");
	ASSERT_EQ(stamp(0).object_hash, now.object_hash,
		  "the stamp still names the second build");
	for (int i = 0; i < CHECKERS; i++)
		ASSERT_TRUE(ticks(pipes[i][0], 2), "sandboxes still refused");
out:
	t->stop = 1;
	if (release[1] >= 0)
		close(release[1]); /* a child still waiting exits now */
	if (pd_child > 0)
		pdwait4(pd, &status, 0, NULL);
	if (pd >= 0)
		close(pd);
	for (int i = 0; i < CHECKERS; i++) {
		if (checker[i] > 0)
			ASSERT_EQ(selftest_wait(checker[i]), 0,
				  "the sandbox exits");
		if (pipes[i][0] >= 0)
			close(pipes[i][0]);
	}
	printf("    limited: %lu tries (%lu during the upgrade), %lu "
	       "succeeded, control plane failed %lu; capability mode: %lu "
	       "tries (%lu during), %lu succeeded\n",
	       t->tries[LIMITED], during[LIMITED], t->escapes[LIMITED],
	       t->ctl_failed, t->tries[CAPMODE], during[CAPMODE],
	       t->escapes[CAPMODE]);
	ASSERT_EQ(t->escapes[LIMITED] + t->escapes[CAPMODE], 0UL,
		  "no forbidden operation succeeded, ever");
	ASSERT_EQ(t->ctl_failed, 0UL, "the control plane answered throughout");
	daemon = fixture_daemon_pid();
	if (daemon > 0)
		ASSERT_TRUE(fixture_kill_and_wait(daemon, SIGTERM),
			    "the daemon stops");
	/* Not trusted, and no daemon to hand trust over: exit 7. */
	ASSERT_EQ(daemon_run("/usr/bin/capsicumd", "--upgrade", "--log", ULOG),
		  EXIT_NODAEMN, "--upgrade with no running daemon exits 7");
	/* The binary at DAEMON holds the trust now: it unloads. */
	ASSERT_EQ(daemon_run(DAEMON, "--unload", "--log", ULOG), 0,
		  "the trusted binary unloads");
	ASSERT_TRUE(fixture_wait_detached(), "programs detached");
	fixture_loaded();
}
