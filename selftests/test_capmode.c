// SPDX-License-Identifier: GPL-2.0
/*
 * Capability mode: after cap_enter() a process keeps working on the
 * descriptors it holds and reaches nothing else. Each SELFTEST runs in its
 * own child, so entering never leaks into the next test. Allowed groups
 * must work; denied groups fail with ECAPMODE (global namespaces) or
 * ENOTCAPABLE (escapes through a held directory).
 */
#define _GNU_SOURCE
#include "fixture.h"
#include "selftest.h"

#include <fcntl.h>
#include <linux/bpf.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capsicum.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static bool enter(void)
{
	return ASSERT_OK(cap_enter(), "cap_enter");
}

SELFTEST(capmode_enter_getmode_inherit)
{
	unsigned int mode = 7;
	pid_t pid;

	if (!fixture_loaded())
		return;
	ASSERT_OK(cap_getmode(&mode), "getmode before");
	ASSERT_EQ(mode, 0, "not in capability mode yet");
	ASSERT_TRUE(!cap_sandboxed(), "not sandboxed yet");
	pid = fork();
	if (pid == 0) {
		/* The child enters; its parent stays out. */
		_exit(cap_enter() ? 1 : 0);
	}
	ASSERT_EQ(selftest_wait(pid), 0, "child entered");
	ASSERT_OK(cap_getmode(&mode), "parent getmode");
	ASSERT_EQ(mode, 0, "the parent is not in capability mode");
	if (!enter())
		return;
	ASSERT_OK(cap_enter(), "a second cap_enter succeeds");
	ASSERT_OK(cap_getmode(&mode), "getmode in capability mode");
	ASSERT_EQ(mode, 1, "in capability mode");
	ASSERT_TRUE(cap_sandboxed(), "sandboxed");
	ASSERT_EQ(prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0), 1, "no_new_privs");
	pid = fork();
	if (pid == 0) {
		unsigned int m = 0;

		/* A child stays in capability mode. */
		_exit(cap_getmode(&m) == 0 && m == 1 &&
				      open("/etc/passwd", O_RDONLY) < 0 &&
				      errno == ECAPMODE
			      ? 0
			      : 1);
	}
	ASSERT_EQ(selftest_wait(pid), 0, "the child is in capability mode");
}

static void *thread_fn(void *arg)
{
	int *fds = arg;
	char c;

	return (void *)(long)(read(fds[0], &c, 1) == 1 && c == 't');
}

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

SELFTEST(capmode_allowed_groups_work)
{
	struct fixture_box b;
	struct timespec ts;
	cap_rights_t r, got;
	pthread_t th;
	void *res;
	char buf[16];
	int p[2], sv[2], fd;
	void *m;

	if (!fixture_loaded() || !ASSERT_TRUE(fixture_make_box(&b), "box") ||
	    !enter())
		return;
	/* Identifiers, time, memory. */
	ASSERT_TRUE(getpid() > 0 && getuid() == geteuid(), "identifiers");
	ASSERT_OK(clock_gettime(CLOCK_MONOTONIC, &ts), "clock_gettime");
	m = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(m != MAP_FAILED, "anonymous mmap");
	ASSERT_OK(munmap(m, 8192), "munmap");
	free(malloc(1 << 20));
	/* Pipes and sockets on held descriptors. */
	ASSERT_OK(pipe(p), "pipe");
	ASSERT_EQ(write(p[1], "t", 1), 1, "pipe write");
	ASSERT_OK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), "socketpair");
	ASSERT_EQ(send(sv[0], "s", 1, 0), 1, "send");
	ASSERT_EQ(recv(sv[1], buf, 1, 0), 1, "recv");
	/* Threads (glibc falls back from clone3 to clone). */
	if (ASSERT_EQ(pthread_create(&th, NULL, thread_fn, p), 0, "thread")) {
		ASSERT_EQ(pthread_join(th, &res), 0, "join");
		ASSERT_TRUE(res == (void *)1, "the thread read the pipe");
	}
	/* at-calls through a held directory. */
	fd = openat(b.dfd, "f", O_RDWR);
	if (ASSERT_OK(fd, "openat through the held dir")) {
		ASSERT_EQ(read(fd, buf, 6), 6, "read it");
		ASSERT_OK(cap_rights_get(fd, &got), "cap_rights_get works");
		cap_rights_init(&r, CAP_READ, CAP_FSTAT);
		ASSERT_OK(cap_rights_limit(fd, &r), "cap_rights_limit works");
		ASSERT_ERRNO(write(fd, "x", 1), ENOTCAPABLE, "limited");
	}
	ASSERT_OK(mkdirat(b.dfd, "newdir", 0755), "mkdirat beneath");
	ASSERT_OK(unlinkat(b.dfd, "newdir", AT_REMOVEDIR), "unlinkat beneath");
	/* Signals to itself. */
	signal(SIGUSR1, on_signal);
	ASSERT_OK(kill(getpid(), SIGUSR1), "kill self");
	ASSERT_EQ(got_signal, SIGUSR1, "the signal arrived");
	ASSERT_OK(raise(SIGUSR1), "raise");
}

SELFTEST(capmode_denied_groups_ecapmode)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK),
				 .sin_port = htons(9) };
	struct iovec v = { "x", 1 };
	struct msghdr mh = { .msg_name = &a,
			     .msg_namelen = sizeof(a),
			     .msg_iov = &v,
			     .msg_iovlen = 1 };
	union bpf_attr attr = { .pathname =
					(__u64)(unsigned long)"/sys/fs/bpf" };
	struct stat st;
	struct fixture_box b;
	pid_t parent = getppid();
	int s, u;

	if (!fixture_loaded() || !ASSERT_TRUE(fixture_make_box(&b), "box") ||
	    !enter())
		return;
	ASSERT_ERRNO(open("/etc/passwd", O_RDONLY), ECAPMODE, "open");
	ASSERT_ERRNO(openat(AT_FDCWD, "/etc/passwd", O_RDONLY), ECAPMODE,
		     "openat(AT_FDCWD)");
	ASSERT_ERRNO(stat("/", &st), ECAPMODE, "stat");
	ASSERT_ERRNO(mkdir("/tmp/x", 0755), ECAPMODE, "mkdir");
	ASSERT_ERRNO(openat(b.dfd, "f", O_PATH), ECAPMODE, "O_PATH");
	ASSERT_ERRNO(faccessat(b.dfd, "f", R_OK, 0), ECAPMODE, "faccessat");
	ASSERT_ERRNO(execve("/bin/true", (char *[]){ "true", NULL },
			    (char *[]){ NULL }),
		     ECAPMODE, "execve");
	s = socket(AF_INET, SOCK_STREAM, 0);
	if (ASSERT_OK(s, "socket is allowed")) {
		ASSERT_ERRNO(connect(s, (struct sockaddr *)&a, sizeof(a)),
			     ECAPMODE, "connect");
		ASSERT_ERRNO(bind(s, (struct sockaddr *)&a, sizeof(a)),
			     ECAPMODE, "bind");
	}
	u = socket(AF_INET, SOCK_DGRAM, 0);
	if (ASSERT_OK(u, "udp socket")) {
		ASSERT_ERRNO(
			sendto(u, "x", 1, 0, (struct sockaddr *)&a, sizeof(a)),
			ECAPMODE, "sendto an address");
		/* seccomp cannot see msg_name: the BPF side refuses it. */
		ASSERT_ERRNO(sendmsg(u, &mh, 0), ECAPMODE,
			     "sendmsg to an address");
	}
	/* Other processes: the parent by pid, every process, a group. */
	ASSERT_ERRNO(kill(parent, 0), ECAPMODE, "kill another process");
	ASSERT_ERRNO(kill(-1, 0), ECAPMODE, "kill -1");
	ASSERT_ERRNO(kill(0, 0), ECAPMODE, "kill own group");
	ASSERT_ERRNO(ptrace(PTRACE_ATTACH, parent, 0, 0), ECAPMODE, "ptrace");
	ASSERT_ERRNO(mount("none", "/mnt", "tmpfs", 0, NULL), ECAPMODE,
		     "mount");
	ASSERT_ERRNO(syscall(SYS_bpf, BPF_OBJ_GET, &attr, sizeof(attr)),
		     ECAPMODE, "bpf(BPF_OBJ_GET)");
	ASSERT_ERRNO(syscall(SYS_io_uring_setup, 4, NULL), ECAPMODE,
		     "io_uring_setup");
	ASSERT_ERRNO(syscall(SYS_process_vm_readv, parent, NULL, 0, NULL, 0, 0),
		     ECAPMODE, "process_vm_readv");
	ASSERT_ERRNO(syscall(SYS_pidfd_open, parent, 0), ECAPMODE,
		     "pidfd_open");
	ASSERT_ERRNO(setuid(getuid() + 1), ECAPMODE, "setuid to another id");
	ASSERT_ERRNO(unshare(CLONE_NEWNS), ECAPMODE, "unshare");
}

SELFTEST(capmode_escapes_never_reach_outside)
{
	struct fixture_box b;
	char abs[96];

	if (!fixture_loaded() || !ASSERT_TRUE(fixture_make_box(&b), "box") ||
	    !enter())
		return;
	/* The dirfd is unrestricted: capability mode alone confines it. */
	ASSERT_ERRNO(openat(b.dfd, "../outside", O_RDONLY), ENOTCAPABLE, "../");
	ASSERT_ERRNO(openat(b.dfd, "abs/outside", O_RDONLY), ENOTCAPABLE,
		     "absolute symlink");
	ASSERT_ERRNO(openat(b.dfd, "loop", O_RDONLY), ELOOP, "symlink loop");
	snprintf(abs, sizeof(abs), "%s/outside", b.top);
	ASSERT_ERRNO(openat(b.dfd, abs, O_RDONLY), ENOTCAPABLE,
		     "absolute path");
	ASSERT_ERRNO(mkdirat(b.dfd, "../made", 0755), ENOTCAPABLE,
		     "mkdirat outside");
	ASSERT_ERRNO(openat(b.dfd, "../made", O_WRONLY | O_CREAT, 0600),
		     ENOTCAPABLE, "create outside");
	ASSERT_ERRNO(unlinkat(b.dfd, "../outside", 0), ENOTCAPABLE,
		     "unlink outside");
	ASSERT_ERRNO(renameat(b.dfd, "f", b.dfd, "../f"), ENOTCAPABLE,
		     "rename out");
	ASSERT_ERRNO(symlinkat("x", b.dfd, "../sl"), ENOTCAPABLE,
		     "symlinkat outside");
	ASSERT_ERRNO(fchmodat(b.dfd, "../outside", 0600, 0), ENOTCAPABLE,
		     "fchmodat outside");
	ASSERT_OK(openat(b.dfd, "f", O_RDONLY), "beneath still works");
}

/*
 * A directory renamed out from under the lookup: the child in capability
 * mode opens RACE_PATH through d while its parent (outside the sandbox)
 * keeps moving d/sub to TOP/sub and back. Whatever the timing, the lookup
 * ends in d (ENOENT: d has no "outside"), or, when sub moved during it,
 * is refused before it looks "outside" up: ENOTCAPABLE, or EAGAIN where
 * the kernel's own LOOKUP_BENEATH saw the rename (the patched kernel, as
 * openat2). Every other lookup asks for "outside/x": had a step outside
 * looked "outside" up, that would be ENOTDIR (it exists, a file), a
 * probe of a name outside. Bounded in iterations and time.
 */
#define RENAME_RACE_ITERS 20000
#define RENAME_RACE_SECS  20
#define RACE_DEPTH	  8
/* From d: into sub, 8 levels down, 9 up: d's parent if sub moved up. */
#define RACE_PATH "sub/a/a/a/a/a/a/a/a/../../../../../../../../../outside"

SELFTEST(capmode_rename_race_never_escapes)
{
	char in[128], out[128];
	struct fixture_box b;
	int escaped = 0, refused = 0, other = 0, moves = 0, status = 0;
	time_t end = time(NULL) + RENAME_RACE_SECS;
	pid_t pid;

	pid_t done;

	if (!fixture_loaded() || !ASSERT_TRUE(fixture_make_box(&b), "box"))
		return;
	snprintf(in, sizeof(in), "%s/d/sub", b.top);
	snprintf(out, sizeof(out), "%s/sub", b.top);
	if (!ASSERT_OK(mkdir(in, 0755), "d/sub"))
		return;
	/* Depth beneath sub widens the window between "sub" and its "..". */
	for (int i = 0; i < RACE_DEPTH; i++) {
		strcat(in, "/a");
		if (!ASSERT_OK(mkdir(in, 0755), "d/sub/a..."))
			return;
	}
	snprintf(in, sizeof(in), "%s/d/sub", b.top);
	pid = fork();
	if (pid == 0) {
		if (cap_enter())
			_exit(2);
		for (int i = 0; i < RENAME_RACE_ITERS && time(NULL) < end;
		     i++) {
			int fd = openat(b.dfd,
					i % 2 ? RACE_PATH : RACE_PATH "/x",
					O_RDONLY);

			if (fd >= 0)
				escaped++;
			else if (errno == ENOTCAPABLE || errno == EAGAIN)
				refused++;
			else if (errno != ENOENT)
				other++;
			if (fd >= 0)
				close(fd);
		}
		printf("    %d lookups refused as escapes\n", refused);
		fflush(stdout);
		_exit(escaped ? 3 : other ? 4 : 0);
	}
	/* Move until the child is done; the child bounds the race. */
	while ((done = waitpid(pid, &status, WNOHANG)) == 0 &&
	       moves < 8 * RENAME_RACE_ITERS) {
		if (rename(in, out) == 0) {
			rename(out, in);
			moves++;
		}
	}
	if (done == 0)
		done = waitpid(pid, &status, 0);
	ASSERT_TRUE(moves > 0, "the directory moved");
	if (ASSERT_TRUE(done == pid && WIFEXITED(status), "child exited")) {
		ASSERT_TRUE(WEXITSTATUS(status) != 3,
			    "no lookup reached outside the directory");
		ASSERT_EQ(WEXITSTATUS(status), 0,
			  "only ENOENT/ENOTCAPABLE/EAGAIN (ENOTDIR: a probe)");
	}
}

/*
 * A real tool in capability mode: busybox's shell, fexecve'd from a held
 * descriptor after cap_enter(), runs a script over the descriptors it was
 * given (fd 3 in, fd 4 out) and cannot reach anything else.
 */
static const char script[] =
	"n=0\n"
	"while read -r line <&3; do n=$((n + 1)); done\n"
	"echo \"lines=$n\" >&4\n"
	"if echo x >/tmp/capmode-escape 2>/dev/null; then echo wrote >&4; fi\n"
	"if read -r l </etc/passwd 2>/dev/null; then echo read >&4; fi\n"
	"if cat /etc/passwd >&4 2>/dev/null; then echo cat >&4; fi\n"
	"echo done >&4\n";

SELFTEST(capmode_shell_script_runs_on_held_descriptors)
{
	char in[] = "/tmp/capmode-in.XXXXXX", out[] = "/tmp/capmode-out.XXXXXX";
	char buf[256] = "";
	int ifd, ofd, bin, status;
	pid_t pid;

	if (!fixture_loaded())
		return;
	ifd = mkstemp(in);
	ofd = mkstemp(out);
	bin = open("/bin/busybox", O_RDONLY | O_CLOEXEC);
	if (!ASSERT_OK(ifd, "in") || !ASSERT_OK(ofd, "out") ||
	    !ASSERT_OK(bin, "busybox") ||
	    !ASSERT_EQ(write(ifd, "a\nb\nc\n", 6), 6, "input") ||
	    !ASSERT_OK(lseek(ifd, 0, SEEK_SET), "rewind"))
		return;
	pid = fork();
	if (pid == 0) {
		char *argv[] = { "sh", "-c", (char *)script, NULL };
		char *envp[] = { "PATH=/bin", NULL };

		if (dup2(ifd, 3) != 3 || dup2(ofd, 4) != 4 || cap_enter())
			_exit(2);
		fexecve(bin, argv, envp);
		_exit(3);
	}
	status = selftest_wait(pid);
	ASSERT_EQ(status, 0, "the script ran to its end");
	ASSERT_TRUE(pread(ofd, buf, sizeof(buf) - 1, 0) > 0, "output");
	ASSERT_TRUE(!strcmp(buf, "lines=3\ndone\n"), "only what it may do");
	if (strcmp(buf, "lines=3\ndone\n"))
		printf("    script output: '%s'\n", buf);
	ASSERT_ERRNO(access("/tmp/capmode-escape", F_OK), ENOENT,
		     "nothing written outside");
	unlink(in);
	unlink(out);
}

/* A script's interpreter is looked up by absolute path: refused. */
SELFTEST(capmode_refuses_a_script_interpreter)
{
	struct fixture_box b;
	char *argv[] = { "s", NULL }, *envp[] = { NULL };
	int fd, status;
	pid_t pid;

	if (!fixture_loaded() || !ASSERT_TRUE(fixture_make_box(&b), "box"))
		return;
	fd = openat(b.dfd, "s", O_WRONLY | O_CREAT, 0755);
	if (!ASSERT_OK(fd, "script") ||
	    !ASSERT_EQ(write(fd, "#!/bin/sh\nexit 0\n", 18), 18, "write") ||
	    !ASSERT_OK(close(fd), "close"))
		return;
	pid = fork();
	if (pid == 0) {
		if (cap_enter())
			_exit(1);
		syscall(SYS_execveat, b.dfd, "s", argv, envp, 0);
		_exit(errno == ECAPMODE ? 0 : 2);
	}
	status = selftest_wait(pid);
	ASSERT_EQ(status, 0, "execveat of a script fails with ECAPMODE");
}

/*
 * A program exec'd in capability mode still reaches the control plane:
 * the control plane needs no descriptor to be handed down.
 */
SELFTEST(capmode_exec_keeps_the_control_plane)
{
	char out[256] = "", want[128];
	cap_rights_t r;
	int p[2], bin, status;
	pid_t pid;

	if (!fixture_loaded() || !ASSERT_OK(pipe(p), "pipe"))
		return;
	bin = open("/bin/capinfo", O_RDONLY | O_CLOEXEC);
	if (!ASSERT_OK(bin, "capinfo"))
		return;
	pid = fork();
	if (pid == 0) {
		char *argv[] = { "capinfo", "1", NULL };

		cap_rights_init(&r, CAP_WRITE, CAP_FSTAT);
		if (dup2(p[1], 1) != 1 || cap_rights_limit(1, &r) ||
		    cap_enter())
			_exit(2);
		/* With the environment cap_enter() set. */
		fexecve(bin, argv, environ);
		_exit(3);
	}
	close(p[1]);
	ASSERT_TRUE(read(p[0], out, sizeof(out) - 1) > 0, "output");
	status = selftest_wait(pid);
	ASSERT_EQ(status, 0, "capinfo ran");
	cap_rights_init(&r, CAP_WRITE, CAP_FSTAT);
	snprintf(want, sizeof(want), "mode 1\n1 %#llx %#llx\n",
		 (unsigned long long)r.cr_rights[0],
		 (unsigned long long)r.cr_rights[1]);
	if (!ASSERT_TRUE(!strcmp(out, want), "mode and rights after exec"))
		printf("    got '%s'\n", out);
}

/*
 * fchmod and fchown act on a held descriptor, so capability mode allows
 * them as FreeBSD does, with CAP_FCHMOD / CAP_FCHOWN; without the right
 * they fail with ENOTCAPABLE. (Linux runs the path_chmod/path_chown hooks
 * for them too, which once refused them as lookups: ECAPMODE.)
 */
SELFTEST(capmode_fchmod_fchown_need_their_rights)
{
	pid_t pid;

	if (!fixture_loaded())
		return;
	pid = fork();
	if (pid == 0) {
		int all = fixture_scratch_file("x"), no_mod = dup(all),
		    no_own = dup(all);
		struct stat st;

		if (all < 0 || no_mod < 0 || no_own < 0 ||
		    fixture_limit_all_but(no_mod, CAP_FCHMOD) ||
		    fixture_limit_all_but(no_own, CAP_FCHOWN) || cap_enter())
			_exit(10);
		if (fchmod(all, 0640) || fstat(all, &st) ||
		    (st.st_mode & 0777) != 0640)
			_exit(11);
		if (fchown(all, geteuid(), getegid()))
			_exit(12);
		errno = 0;
		if (fchmod(no_mod, 0600) != -1 || errno != ENOTCAPABLE)
			_exit(13);
		if (fstat(all, &st) || (st.st_mode & 0777) != 0640)
			_exit(14);
		errno = 0;
		if (fchown(no_own, geteuid(), getegid()) != -1 ||
		    errno != ENOTCAPABLE)
			_exit(15);
		/* The other right is no help. */
		if (fchown(no_mod, geteuid(), getegid()) ||
		    fchmod(no_own, 0600))
			_exit(16);
		_exit(0);
	}
	ASSERT_EQ(
		selftest_wait(pid), 0,
		"fchmod/fchown in capability mode, with and without the right");
}
