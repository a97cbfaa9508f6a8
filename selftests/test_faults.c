// SPDX-License-Identifier: GPL-2.0
/*
 * capsicumd under faults (issue 15, item 3): killed between its last pin
 * and the version pin, killed in a storm of denials, started twice at
 * once. Through all of it a sandboxed process keeps getting ENOTCAPABLE.
 * The tests that load need Capsicum unloaded: root, in the boot without
 * capsicumd; they give the state back to this binary when done
 * (fixture_capsicumd_unload). Synchronisation is by waitpid, pipes and
 * pidfds; every wait is bounded.
 */
#define _GNU_SOURCE
#include "fixture.h"
#include "selftest.h"

#include "capctl_exit.h"
#include "load.h"
#include "pinned.h"

#include <bpf/bpf.h>
#include <capsicum/pins.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/capsicum.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define LOG	"/tmp/capsicumd-faults.log"
#define AUDIT	"/tmp/capsicumd-faults-audit.log"
#define WAIT_MS 60000 /* TCG is slow; a bound, not a synchronisation */
/* capsicumd's exit codes (capsicumd(8)). */
#define EXIT_VERSION 4
#define EXIT_DENIED  5
#define EXIT_RUNNING 6

/* capsicumd --load, logging to LOG: load (or re-use), and exit. */
static char *load[] = { "capsicumd", "--load",	    "--log", LOG, "--pidfile",
			"none",	     "--audit-log", "none",  NULL };

/* Waits up to WAIT_MS for fd to be readable; true if it is. */
static bool readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, WAIT_MS) == 1;
}

/*
 * A sandboxed process: a scratch file limited to CAP_READ. Each byte on
 * `cmd` makes it try a write; it answers with the errno (0: it wrote).
 */
struct limited {
	pid_t pid;
	int cmd, ans;
};

static void limited_serve(int cmd, int ans)
{
	int fd = fixture_scratch_file(NULL);
	unsigned char err = 0;
	cap_rights_t r;
	char c;

	cap_rights_init(&r, CAP_READ);
	if (fd < 0 || cap_rights_limit(fd, &r))
		err = (unsigned char)errno;
	c = err ? 'e' : 'r';
	if (write(ans, &c, 1) != 1 || err)
		_exit(1);
	while (read(cmd, &c, 1) == 1) {
		err = write(fd, "x", 1) < 0 ? (unsigned char)errno : 0;
		if (write(ans, &err, 1) != 1)
			_exit(1);
	}
	_exit(0);
}

static bool limited_start(struct limited *l)
{
	int cmd[2], ans[2];
	char ready = 0;

	if (!ASSERT_OK(pipe2(cmd, O_CLOEXEC), "pipe") ||
	    !ASSERT_OK(pipe2(ans, O_CLOEXEC), "pipe"))
		return false;
	l->pid = fork();
	if (l->pid == 0) {
		alarm(300); /* outlives no failed test */
		close(cmd[1]);
		close(ans[0]);
		limited_serve(cmd[0], ans[1]);
	}
	close(cmd[0]);
	close(ans[1]);
	l->cmd = cmd[1];
	l->ans = ans[0];
	return ASSERT_TRUE(l->pid > 0 && readable(l->ans) &&
				   read(l->ans, &ready, 1) == 1 && ready == 'r',
			   "a process limited a descriptor to CAP_READ");
}

/* The errno the limited process's write saw; -1 if it did not answer. */
static int limited_write(struct limited *l)
{
	unsigned char err;

	if (write(l->cmd, "w", 1) != 1 || !readable(l->ans) ||
	    read(l->ans, &err, 1) != 1)
		return -1;
	return err;
}

static void limited_stop(struct limited *l)
{
	close(l->cmd);
	close(l->ans);
	ASSERT_EQ(selftest_wait(l->pid), 0, "the limited process exits");
}

/* Skips unless Capsicum can be unloaded here; unloads it. */
static bool unloaded(void)
{
	/*
	 * capsicumd attaches while other processes run the hooks (this one
	 * polls the control plane, a storm refuses): that crashed a guest
	 * on QEMU's multi-threaded TCG (int3 in bpf_lsm_file_fcntl), so
	 * these run in the --tcg-single boot (selftests/vm/matrix.sh).
	 */
	if (!fixture_single_threaded_vm())
		selftest_skip("loads while other processes run the hooks, "
			      "which crashes QEMU's multi-threaded TCG; boot "
			      "with run-vm.sh --tcg-single");
	if (!fixture_unload())
		return false;
	unlink(LOG);
	unlink(AUDIT);
	return true;
}

/* The stamp pinned at path, or magic 0. */
static struct capsicum_state_version stamp(const char *path)
{
	LIBBPF_OPTS(bpf_obj_get_opts, ro, .file_flags = BPF_F_RDONLY);
	struct capsicum_state_version v = { 0 };
	__u32 zero = 0;
	int fd = bpf_obj_get_opts(path, &ro);

	if (fd >= 0) {
		if (bpf_map_lookup_elem(fd, &zero, &v))
			v.magic = 0;
		close(fd);
	}
	return v;
}

/*
 * Starts `capsicumd --load` with the test hook: it pins everything but
 * the version pin and stops. Returns its pid, stopped there, or -1.
 */
static pid_t load_stopped_before_version(void)
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		setenv("CAPSICUMD_TEST_STOP_BEFORE_VERSION", "1", 1);
		execvp(load[0], load);
		_exit(127);
	}
	if (!ASSERT_TRUE(pid > 0 && waitpid(pid, &status, WUNTRACED) == pid,
			 "wait for the loader") ||
	    !ASSERT_TRUE(WIFSTOPPED(status), "the loader stopped at the hook"))
		return -1;
	return pid;
}

/* SIGKILLs a stopped child and reaps it: a zombie pins nothing. */
static bool kill_stopped(pid_t pid)
{
	int status;

	return ASSERT_OK(kill(pid, SIGKILL), "SIGKILL the loader") &&
	       ASSERT_EQ(waitpid(pid, &status, 0), pid, "reap it") &&
	       ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
			   "killed by SIGKILL");
}

/*
 * capsicumd SIGKILLed after pinning every program, link and map but
 * before the version pin: a process limits a descriptor in that window
 * (the answers pin and the links are there), keeps ENOTCAPABLE across
 * the kill, and a restarted capsicumd completes the state, the same
 * one (the stamp still names the killed loader), with a warning.
 */
SELFTEST(capsicumd_killed_before_version_pin_is_completed)
{
	char *status[] = { "capctl", "status", NULL };
	char said[128];
	struct limited l = { .pid = -1 };
	pid_t loader;

	if (!unloaded())
		return;
	loader = load_stopped_before_version();
	if (loader < 0)
		goto out;
	ASSERT_TRUE(access(CAPSICUM_PIN_VERSION, F_OK) && errno == ENOENT,
		    "no version pin yet");
	ASSERT_EQ(stamp(CAPSICUM_PIN_LOADING).loader_pid, (__u32)loader,
		  "the loading stamp names the loader");
	ASSERT_EQ(fixture_run(status), CAPCTL_EXIT_VERSION,
		  "capctl status: an unfinished load, not 'unloaded'");
	if (limited_start(&l))
		ASSERT_EQ(limited_write(&l), ENOTCAPABLE,
			  "denied in the window");
	if (!kill_stopped(loader) || l.pid < 0)
		goto out;
	ASSERT_EQ(limited_write(&l), ENOTCAPABLE, "denied, loader killed");
	ASSERT_EQ(fixture_run(load), 0, "a restarted capsicumd --load");
	snprintf(said, sizeof(said), "completed the unfinished load of pid %d",
		 loader);
	ASSERT_TRUE(fixture_file_has(LOG, said), "its log says so");
	ASSERT_TRUE(access(CAPSICUM_PIN_LOADING, F_OK) && errno == ENOENT,
		    "the loading pin is gone");
	ASSERT_EQ(stamp(CAPSICUM_PIN_VERSION).loader_pid, (__u32)loader,
		  "the version pin is the killed loader's stamp");
	ASSERT_EQ(limited_write(&l), ENOTCAPABLE, "denied after");
out:
	if (l.pid > 0)
		limited_stop(&l);
	/* Completed or not, capsicumd's binary loaded it: it unloads. */
	fixture_capsicumd_unload();
}

/*
 * A loader killed after making the pin directory, before its first pin,
 * leaves it empty: that is nothing pinned, and capsicumd loads into it
 * instead of refusing an "unknown" state (exit 4) until someone removes it.
 */
SELFTEST(capsicumd_loads_over_an_empty_pin_directory)
{

	if (!unloaded())
		return;
	if (ASSERT_OK(mkdir(CAPSICUM_PIN_DIR, 0755), "an empty pin directory"))
		ASSERT_EQ(fixture_run(load), 0, "capsicumd --load loads");
	ASSERT_TRUE(!access(CAPSICUM_PIN_VERSION, F_OK), "a whole state");
	if (!access(CAPSICUM_PIN_VERSION, F_OK)) {
		fixture_capsicumd_unload();
		return;
	}
	rmdir(CAPSICUM_PIN_DIR);
	fixture_loaded();
}

static void stop_here(void)
{
	raise(SIGSTOP);
}

/*
 * The same window, the loader being this binary (so it may remove a
 * pin): capsicumd, not the loader's binary, may not complete the state
 * (exit 5); with a pin gone it refuses it as incomplete (exit 4) and
 * names the pin; the limited process stays denied throughout.
 */
SELFTEST(capsicumd_refuses_an_unfinished_load_it_cannot_complete)
{
	char missing[64] = "";
	struct limited l = { .pid = -1 };
	int status;
	pid_t loader;

	if (!unloaded())
		return;
	loader = fork();
	if (loader == 0) {
		capsicum_load_set_before_version(stop_here);
		_exit(capsicum_load(CAPSICUM_PIN_DIR, NULL) ? 1 : 0);
	}
	if (!ASSERT_TRUE(loader > 0 &&
				 waitpid(loader, &status, WUNTRACED) ==
					 loader &&
				 WIFSTOPPED(status),
			 "the loader stopped before the version pin"))
		goto out;
	if (!kill_stopped(loader) || !limited_start(&l))
		goto out;
	ASSERT_EQ(limited_write(&l), ENOTCAPABLE, "denied, loader killed");
	ASSERT_EQ(fixture_run(load), EXIT_DENIED,
		  "capsicumd may not complete another binary's load");
	ASSERT_TRUE(fixture_file_has(LOG, "only the binary that loaded it "
					  "may; it stays as it is"),
		    "and says so");
	ASSERT_OK(unlink(CAPSICUM_PIN_DIR "/prog_capsicum_prctl"),
		  "the loader's binary removes a pin");
	ASSERT_EQ(fixture_run(load), EXIT_VERSION,
		  "capsicumd refuses an incomplete state");
	ASSERT_TRUE(fixture_file_has(LOG, "lacks 1 of its pins "
					  "(prog_capsicum_prctl first)"),
		    "and names the missing pin");
	ASSERT_EQ(capsicum_load_finish(CAPSICUM_PIN_DIR, missing,
				       sizeof(missing)),
		  1, "nor can the loader's binary complete it");
	ASSERT_TRUE(access(CAPSICUM_PIN_VERSION, F_OK) && errno == ENOENT &&
			    !access(CAPSICUM_PIN_LOADING, F_OK),
		    "still unfinished, nothing unloaded");
	ASSERT_EQ(limited_write(&l), ENOTCAPABLE, "denied after both");
out:
	if (l.pid > 0)
		limited_stop(&l);
	ASSERT_OK(pinned_unload(), "this binary unloads it");
	ASSERT_TRUE(fixture_wait_detached(), "programs detached");
	fixture_loaded();
}

/*
 * A process looping on a refused write: it counts each outcome in
 * shared memory and writes a byte to `tick` every TICK refusals (never
 * blocking: a full pipe drops ticks), until told to stop.
 */
#define TICK 64
struct storm {
	volatile unsigned long denied, other;
	volatile int stop;
};

static void storm_loop(struct storm *s, int tick)
{
	int fd = fixture_scratch_file(NULL);
	cap_rights_t r;

	cap_rights_init(&r, CAP_READ);
	if (fd < 0 || cap_rights_limit(fd, &r))
		_exit(1);
	while (!s->stop) {
		if (write(fd, "x", 1) < 0 && errno == ENOTCAPABLE)
			s->denied++;
		else
			s->other++;
		if (s->denied && s->denied % TICK == 0 &&
		    write(tick, "t", 1) < 0 && errno != EAGAIN)
			_exit(1);
	}
	_exit(0);
}

/* Waits for n more ticks of the storm; false after the bound. */
static bool ticks(int tick, int n)
{
	char c;

	while (n-- > 0)
		if (!readable(tick) || read(tick, &c, 1) != 1)
			return false;
	return true;
}

/* capsicumd --background: returns once it is ready, with its pid. */
static pid_t start_daemon(void)
{
	char *argv[] = { "capsicumd",	"--background", "--log", LOG,
			 "--audit-log", AUDIT,		NULL };

	if (!ASSERT_EQ(fixture_run(argv), 0, "capsicumd --background"))
		return 0;
	return fixture_daemon_pid();
}

/*
 * capsicumd SIGKILLed while a process loops on a refused write, then
 * restarted: the process never once succeeded (its own counters), it
 * kept being refused while no daemon ran, and the restarted daemon
 * re-used the same state (its log, the stamp) and consumed denials.
 */
SELFTEST(capsicumd_killed_in_a_storm_of_denials_loses_nothing)
{
	struct storm *s = mmap(NULL, sizeof(*s), PROT_READ | PROT_WRITE,
			       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	char said[128];
	pid_t old, now = 0, child = -1;
	int tick[2] = { -1, -1 };

	if (!ASSERT_TRUE(s != MAP_FAILED, "shared counters") || !unloaded())
		return;
	old = start_daemon();
	if (!ASSERT_TRUE(old > 0, "capsicumd runs") ||
	    !ASSERT_OK(pipe2(tick, O_CLOEXEC), "pipe") ||
	    !ASSERT_OK(fcntl(tick[1], F_SETFL, O_NONBLOCK), "nonblocking"))
		goto out;
	child = fork();
	if (child == 0) {
		alarm(300);
		storm_loop(s, tick[1]);
	}
	close(tick[1]);
	if (!ASSERT_TRUE(ticks(tick[0], 8), "the storm is on") ||
	    !ASSERT_TRUE(fixture_kill_and_wait(old, SIGKILL),
			 "SIGKILL capsicumd in the storm") ||
	    !ASSERT_TRUE(ticks(tick[0], 8), "refused with no daemon"))
		goto out;
	now = start_daemon();
	ASSERT_TRUE(now > 0 && now != old, "a new capsicumd runs");
	snprintf(said, sizeof(said),
		 "re-using the pinned state under %s "
		 "(loaded by pid %d)",
		 CAPSICUM_PIN_DIR, old);
	ASSERT_TRUE(fixture_file_has(LOG, said), "it re-used the state");
	ASSERT_EQ(stamp(CAPSICUM_PIN_VERSION).loader_pid, (__u32)old,
		  "the stamp is the first daemon's");
	ASSERT_TRUE(ticks(tick[0], 8), "refused with the new daemon");
out:
	s->stop = 1;
	if (child > 0) {
		ASSERT_EQ(selftest_wait(child), 0, "the storm ends");
		printf("    storm: %lu refused, %lu not\n", s->denied,
		       s->other);
		ASSERT_EQ(s->other, 0UL, "no write escaped ENOTCAPABLE");
		ASSERT_TRUE(s->denied >= 24 * TICK, "all through the storm");
	}
	now = now ?: fixture_daemon_pid(); /* the first, if never killed */
	if (now > 0 && fixture_kill_and_wait(now, SIGTERM) && now != old)
		ASSERT_TRUE(
			fixture_file_has(LOG, "denials received ") &&
				!fixture_file_has(LOG, "denials received 0,"),
			"the new daemon consumed denials");
	if (tick[0] >= 0)
		close(tick[0]);
	fixture_capsicumd_unload();
}

/* Runs capsicumd argv in a child that waits for a byte on go first. */
static pid_t start_on(int go, char *const argv[])
{
	pid_t pid = fork();
	char c;

	if (pid == 0) {
		if (read(go, &c, 1) != 1)
			_exit(126);
		execvp("capsicumd", argv);
		_exit(127);
	}
	return pid;
}

/* The pid in a pidfile, or 0. */
static pid_t pidfile(const char *path)
{
	FILE *f = fopen(path, "re");
	int pid = 0;

	if (f) {
		if (fscanf(f, "%d", &pid) != 1)
			pid = 0;
		fclose(f);
	}
	return pid;
}

/*
 * Two capsicumd --background released by one byte each from the same
 * pipe write: exactly one becomes ready (exit 0), the other exits 6 and
 * its log names the winner's pid; while the winner runs, --unload is
 * refused the same way. The winner holds the lock, not a pidfile: the
 * loser found the pins unloaded or half made, and touched nothing.
 */
SELFTEST(capsicumd_two_started_at_once_one_wins)
{
	char *a[] = { "capsicumd",   "--background", "--log",
		      LOG ".a",	     "--pidfile",    "/tmp/capsicumd-a.pid",
		      "--audit-log", "none",	     NULL };
	char *b[] = { "capsicumd",   "--background", "--log",
		      LOG ".b",	     "--pidfile",    "/tmp/capsicumd-b.pid",
		      "--audit-log", "none",	     NULL };
	char *unload[] = { "capsicumd", "--unload", "--log", LOG, NULL };
	char said[128];
	int go[2], sa, sb;
	pid_t pa, pb, winner;
	const char *loser_log;

	if (!unloaded())
		return;
	unlink(LOG ".a");
	unlink(LOG ".b");
	if (!ASSERT_OK(pipe2(go, O_CLOEXEC), "pipe"))
		return;
	pa = start_on(go[0], a);
	pb = start_on(go[0], b);
	close(go[0]);
	/*
	 * A failed fork or release must fail the test by name, with its
	 * errno, not leave it waiting for children that never start.
	 */
	if (!ASSERT_TRUE(pa > 0 && pb > 0, "both forked") ||
	    !ASSERT_OK(write(go[1], "gg", 2) == 2 ? 0 : -1,
		       "release both at once")) {
		if (pa > 0)
			fixture_kill_and_wait(pa, SIGKILL);
		if (pb > 0)
			fixture_kill_and_wait(pb, SIGKILL);
		close(go[1]);
		return;
	}
	close(go[1]);
	sa = selftest_wait(pa);
	sb = selftest_wait(pb);
	ASSERT_TRUE((sa == 0 && sb == EXIT_RUNNING) ||
			    (sb == 0 && sa == EXIT_RUNNING),
		    "one is ready, the other exits 6");
	printf("    exit statuses %d and %d\n", sa, sb);
	winner = pidfile(sa == 0 ? "/tmp/capsicumd-a.pid"
				 : "/tmp/capsicumd-b.pid");
	loser_log = sa == 0 ? LOG ".b" : LOG ".a";
	snprintf(said, sizeof(said),
		 "another capsicumd is running (pid %d holds", winner);
	ASSERT_TRUE(winner > 0 && fixture_file_has(loser_log, said),
		    "the loser's log names the winner");
	ASSERT_EQ(fixture_run(unload), EXIT_RUNNING,
		  "--unload is refused while it runs");
	ASSERT_TRUE(!access(CAPSICUM_PIN_VERSION, F_OK), "the state is whole");
	if (winner > 0)
		fixture_kill_and_wait(winner, SIGTERM);
	fixture_capsicumd_unload();
}

/*
 * In the boot with capsicumd: one more, as an operator might start by
 * hand, exits 6 naming the running one, which goes on serving.
 */
SELFTEST(capsicumd_second_instance_exits)
{
	char *run[] = { "capsicumd", "--log",	    LOG,    "--pidfile",
			"none",	     "--audit-log", "none", NULL };
	char said[128];
	pid_t pid;

	if (!selftest_is_root())
		selftest_skip("needs root");
	pid = fixture_daemon_pid();
	if (!pid)
		selftest_skip(
			"capsicumd is not running (boot without "
			"--daemon); capsicumd_two_started_at_once_one_wins "
			"covers this boot");
	unlink(LOG);
	ASSERT_EQ(fixture_run(run), EXIT_RUNNING, "a second capsicumd exits 6");
	snprintf(said, sizeof(said),
		 "another capsicumd is running (pid %d holds", pid);
	ASSERT_TRUE(fixture_file_has(LOG, said), "naming the running one");
	ASSERT_EQ(fixture_daemon_pid(), pid, "which still runs");
	unlink(LOG);
}
