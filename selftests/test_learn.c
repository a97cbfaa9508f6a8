// SPDX-License-Identifier: GPL-2.0
/*
 * Learning (doc/learn.md): CAPSICUM_OP_LEARN is the host admin's only and
 * never switches a sandbox off; a learning process records each refusal
 * and goes on, while a sandbox beside it stays enforced; capctl run
 * --learn prints a policy that lets the same run pass under enforcement
 * and that no right can be taken from.
 */
#define _GNU_SOURCE
#include "fixture.h"
#include "selftest.h"

#include <capsicum/abi.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capsicum.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#define PROBE "/usr/libexec/capsicum/learn_probe"

/* CAPSICUM_OP_LEARN for the caller: 0, or -1 with errno. */
static int learn_enable(void)
{
	struct capsicum_req req = { .magic = CAPSICUM_REQ_MAGIC,
				    .version = CAPSICUM_ABI_VERSION,
				    .op = CAPSICUM_OP_LEARN };

	if (prctl(CAPSICUM_PRCTL_OPTION, &req, 0, 0, 0) >= 0)
		return 0;
	return errno == CAPSICUM_STATUS_OK ? 0 : -1;
}

/* What a process does before it asks to learn. */
static int limit_stdin(void)
{
	cap_rights_t r;

	return cap_rights_limit(0, cap_rights_init(&r, CAP_READ));
}

static int enter_capmode(void)
{
	return cap_enter();
}

static int new_user_namespace(void)
{
	return unshare(CLONE_NEWUSER);
}

static int nothing(void)
{
	return 0;
}

static const struct learn_case {
	int (*before)(void);
	int err; /* of CAPSICUM_OP_LEARN; 0: it learns */
	const char *what;
} learn_cases[] = {
	{ limit_stdin, EPERM, "no learning once a descriptor is limited" },
	{ enter_capmode, EPERM, "no learning in capability mode" },
	{ new_user_namespace, EPERM,
	  "root of a user namespace is no host admin" },
	{ nothing, 0, "the host admin, unrestricted, learns" },
};

/* One case in a child: 0 if CAPSICUM_OP_LEARN answered as it should. */
static int learn_case_run(const struct learn_case *c)
{
	int bits;

	if (!ASSERT_OK(c->before(), "the restriction"))
		return 1;
	if (c->err)
		return ASSERT_ERRNO(learn_enable(), c->err, c->what) ? 0 : 1;
	if (!ASSERT_OK(learn_enable(), c->what))
		return 1;
	bits = fixture_self_bits();
	return ASSERT_TRUE(bits >= 0 && (bits & CAPSICUM_SELF_LEARNING),
			   "SELF says learning")
		       ? 0
		       : 1;
}

/*
 * Only CAP_SYS_ADMIN of the initial user namespace, and only before the
 * process is restricted: a sandbox cannot switch itself off, root in it
 * included (as root), and a user cannot learn at all (uid 1000).
 */
SELFTEST(learn_needs_the_host_admin_and_no_sandbox)
{
	if (!fixture_loaded())
		return;
	if (!selftest_is_root()) {
		ASSERT_ERRNO(learn_enable(), EPERM, "a user cannot learn");
		ASSERT_EQ(fixture_self_bits() & CAPSICUM_SELF_LEARNING, 0,
			  "and does not");
		return;
	}
	for (size_t i = 0; i < sizeof(learn_cases) / sizeof(learn_cases[0]);
	     i++) {
		pid_t pid = fork();

		if (pid == 0)
			_exit(learn_case_run(&learn_cases[i]));
		ASSERT_EQ(selftest_wait(pid), 0, learn_cases[i].what);
	}
}

/* Capability mode refuses a path: ECAPMODE, not recorded and allowed. */
static bool capmode_enforced(void)
{
	return open("/etc/passwd", O_RDONLY) == -1 && errno == ECAPMODE;
}

/*
 * A learning process reads a pipe limited to CAP_WRITE (recorded, then
 * allowed); a sandbox started before it, with the same limit, is refused
 * after it, and a learning tree without a supervisor gets capability
 * mode's own filter from cap_enter() (learning never fails open into an
 * unsupervised tree).
 */
SELFTEST(learning_allows_only_itself)
{
	int go[2], res[2], data[2];
	pid_t enforced, learner;
	cap_rights_t w;
	char byte = 0;
	int status;

	if (!fixture_loaded())
		return;
	if (!selftest_is_root())
		selftest_skip("learning needs root");
	if (!ASSERT_OK(pipe(go), "pipe") || !ASSERT_OK(pipe(res), "pipe") ||
	    !ASSERT_OK(pipe(data), "pipe"))
		return;
	cap_rights_init(&w, CAP_WRITE);
	enforced = fork();
	if (enforced == 0) {
		char c;

		close(go[1]);
		if (cap_rights_limit(data[0], &w) || cap_enter() ||
		    read(go[0], &c, 1) != 1)
			_exit(10);
		/* The learner ran meanwhile; this sandbox is unchanged. */
		if (read(data[0], &c, 1) != -1 || errno != ENOTCAPABLE)
			_exit(11);
		_exit(capmode_enforced() ? 0 : 12);
	}
	learner = fork();
	if (learner == 0) {
		char c;

		if (learn_enable() || cap_rights_limit(data[0], &w))
			_exit(20);
		if (write(data[1], "x", 1) != 1 || read(data[0], &c, 1) != 1)
			_exit(21); /* allowed, recorded */
		/* No supervisor listens: capability mode's own filter. */
		if (cap_enter())
			_exit(22);
		_exit(capmode_enforced() ? 0 : 23);
	}
	status = selftest_wait(learner);
	ASSERT_EQ(status, 0,
		  "the learner read without CAP_READ, and was "
		  "refused ECAPMODE without a supervisor");
	if (!ASSERT_EQ(write(data[1], "y", 1), 1, "a byte for the sandbox") ||
	    !ASSERT_EQ(write(go[1], &byte, 1), 1, "go"))
		kill(enforced, SIGKILL);
	ASSERT_EQ(selftest_wait(enforced), 0,
		  "the sandbox beside it stayed enforced");
	close(go[0]);
	close(go[1]);
	close(res[0]);
	close(res[1]);
	close(data[0]);
	close(data[1]);
}

/*
 * A user squatting on a learning tree's supervisor name (after capctl is
 * gone, say) gets nothing: cap_enter() hands its filter to root only, and
 * enforces capability mode itself.
 */
SELFTEST(learning_hands_its_filter_to_root_only)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int ready[2], go[2], sock, conn, n;
	pid_t learner, squatter;
	char byte, buf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr m = { .msg_iov = &iov,
			    .msg_iovlen = 1,
			    .msg_control = buf,
			    .msg_controllen = sizeof(buf) };

	if (!fixture_loaded())
		return;
	if (!selftest_is_root())
		selftest_skip("learning needs root");
	if (!ASSERT_OK(pipe(ready), "pipe") || !ASSERT_OK(pipe(go), "pipe"))
		return;
	learner = fork();
	if (learner == 0) {
		close(go[1]);
		if (learn_enable() || read(go[0], &byte, 1) != 1)
			_exit(10);
		if (cap_enter())
			_exit(11);
		_exit(capmode_enforced() ? 0 : 12);
	}
	squatter = fork();
	if (squatter == 0) {
		if (setgid(1000) || setuid(1000))
			_exit(20);
		n = snprintf(a.sun_path + 1, sizeof(a.sun_path) - 1,
			     CAPSICUM_LEARN_SOCKET_PREFIX "%d", learner);
		sock = socket(AF_UNIX, SOCK_STREAM, 0);
		if (sock < 0 ||
		    bind(sock, (const struct sockaddr *)&a,
			 (socklen_t)(offsetof(struct sockaddr_un, sun_path) +
				     1 + (size_t)n)) ||
		    listen(sock, 1) || write(ready[1], "r", 1) != 1)
			_exit(21);
		conn = accept(sock, NULL, NULL);
		/* Connected, then closed without a byte or a descriptor. */
		if (conn < 0 || recvmsg(conn, &m, 0) != 0)
			_exit(22);
		_exit(0);
	}
	close(ready[1]);
	if (ASSERT_EQ(read(ready[0], &byte, 1), 1, "the squatter listens"))
		ASSERT_EQ(write(go[1], "g", 1), 1, "go");
	close(go[1]);
	ASSERT_EQ(selftest_wait(learner), 0,
		  "cap_enter() enforced capability mode itself");
	ASSERT_EQ(selftest_wait(squatter), 0, "the squatter got nothing");
	close(ready[0]);
	close(go[0]);
}

/*
 * capctl run --learn needs root and capsicumd (the records come through
 * it): skips without them; false if Capsicum is not loaded.
 */
static bool capctl_can_learn(void)
{
	if (!fixture_loaded())
		return false;
	if (!selftest_is_root())
		selftest_skip("learning needs root");
	if (!fixture_daemon_pid())
		selftest_skip("capsicumd is not running (boot without "
			      "--daemon)");
	return true;
}

/* Runs argv; its stdout and stderr into out/err (NUL-terminated). */
static int run_captured(char *const argv[], char *out, size_t outlen, char *err,
			size_t errlen)
{
	int o = memfd_create("out", MFD_CLOEXEC), e = memfd_create("err", 0);
	pid_t pid;
	int status;
	ssize_t n;

	if (o < 0 || e < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		dup2(null, 0);
		dup2(o, 1);
		dup2(e, 2);
		close_range(3, ~0U, 0);
		execvp(argv[0], argv);
		_exit(127);
	}
	status = selftest_wait(pid);
	n = pread(o, out, outlen - 1, 0);
	out[n > 0 ? n : 0] = '\0';
	n = pread(e, err, errlen - 1, 0);
	err[n > 0 ? n : 0] = '\0';
	close(o);
	close(e);
	return status;
}

struct probe_box {
	char dir[64], policy[96], port[16];
	int listener;
};

/* A directory holding "data", and a loopback listener for the probe. */
static bool probe_box(struct probe_box *b)
{
	struct sockaddr_in a;
	char path[128];
	int fd;

	snprintf(b->dir, sizeof(b->dir), "/tmp/learn.XXXXXX");
	if (!ASSERT_OK_PTR(mkdtemp(b->dir), "mkdtemp"))
		return false;
	snprintf(path, sizeof(path), "%s/data", b->dir);
	snprintf(b->policy, sizeof(b->policy), "%s.policy", b->dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (!ASSERT_TRUE(fd >= 0 && write(fd, "payload\n", 8) == 8,
			 "the data file"))
		return false;
	close(fd);
	b->listener = fixture_listener(&a);
	if (!ASSERT_TRUE(b->listener >= 0, "a loopback listener"))
		return false;
	snprintf(b->port, sizeof(b->port), "%u", ntohs(a.sin_port));
	return true;
}

/* The text of a file (at most len - 1 bytes). */
static bool read_text(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, len - 1);

	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return n > 0;
}

static bool write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	bool ok = fd >= 0 &&
		  write(fd, text, strlen(text)) == (ssize_t)strlen(text);

	if (fd >= 0)
		close(fd);
	return ok;
}

/*
 * `policy` with right number `which` (0-based) of its line `line` taken
 * out of the line's list ("none" if it was the only one), into out.
 * False when that line has no such right.
 */
static bool policy_without(const char *policy, int line, int which, char *out,
			   size_t len)
{
	const char *l = policy, *eq, *end, *r;
	size_t o = 0;
	int i = 0, kept = 0;

	for (int n = 0; n < line && l; n++)
		l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL;
	if (!l || !*l)
		return false;
	end = l + strcspn(l, "\n");
	eq = memchr(l, '=', (size_t)(end - l));
	if (!eq || l[0] == '#')
		return false;
	o += (size_t)snprintf(out + o, len - o, "%.*s", (int)(eq + 1 - policy),
			      policy);
	for (r = eq + 1; r < end; i++) {
		size_t n = strcspn(r, ",\n");

		if (i != which)
			o += (size_t)snprintf(out + o, len - o, "%s%.*s",
					      kept++ ? "," : "", (int)n, r);
		r += n + (r[n] == ',');
	}
	if (which >= i || (i == 1 && !strncmp(eq + 1, "all", 3)))
		return false;
	if (!kept)
		o += (size_t)snprintf(out + o, len - o, "none");
	snprintf(out + o, len - o, "%s", end);
	return true;
}

/*
 * Each policy made from `policy` by taking one right out of one line's
 * list: the probe must then fail with ENOTCAPABLE or ECAPMODE (its exit
 * code is the errno of the step that failed). Returns how many rights
 * were tried.
 */
static int each_right_is_needed(const struct probe_box *b, const char *policy)
{
	char var[96], out[4096], err[4096], text[4096];
	char *argv[] = { "capctl", "run", "--policy",	   var,
			 "--",	   PROBE, (char *)b->port, NULL };
	int tried = 0;

	snprintf(var, sizeof(var), "%s.var", b->dir);
	for (int line = 0; line < 64; line++) {
		for (int which = 0;
		     policy_without(policy, line, which, text, sizeof(text));
		     which++) {
			int status;

			if (!write_text(var, text))
				return -1;
			status = run_captured(argv, out, sizeof(out), err,
					      sizeof(err));
			if (!ASSERT_TRUE(status == ENOTCAPABLE ||
						 status == ECAPMODE,
					 "without one right the run fails"))
				printf("    policy:\n%s    exit %d: %s\n", text,
				       status, err);
			tried++;
		}
	}
	unlink(var);
	return tried;
}

/*
 * capctl run --learn with stdout limited to CAP_WRITE and the directory
 * to CAP_LOOKUP: the probe runs through, the report names what it
 * lacked, the written policy runs the probe under enforcement, and
 * taking any one right out of it makes the probe fail.
 */
SELFTEST(capctl_run_learn_writes_a_policy_that_runs)
{
	struct probe_box b;
	char allow[96], out[4096], err[8192], policy[4096], out2[4096];
	char *learn[] = { "capctl", "run",     "--learn", "--write-policy",
			  b.policy, "--limit", "1=write", "--allow-dir",
			  allow,    "--",      PROBE,	  b.port,
			  NULL };
	char *enforce[] = { "capctl", "run", "--policy", b.policy,
			    "--",     PROBE, b.port,	 NULL };
	int status;

	if (!capctl_can_learn())
		return;
	if (!probe_box(&b))
		return;
	snprintf(allow, sizeof(allow), "%s=lookup", b.dir);
	status = run_captured(learn, out, sizeof(out), err, sizeof(err));
	if (!ASSERT_EQ(status, 0, "the probe ran through while learning"))
		printf("    stderr: %s\n", err);
	ASSERT_TRUE(strstr(out, "payload\n") && strstr(out, "data\n") &&
			    strstr(out, "connected\n"),
		    "it did all its work");
	ASSERT_TRUE(strstr(err, "suggested: capctl run") != NULL,
		    "the report suggests a command line");
	if (!ASSERT_TRUE(read_text(b.policy, policy, sizeof(policy)),
			 "the policy was written"))
		return;
	printf("    learnt policy:\n%s", policy);
	ASSERT_TRUE(strstr(policy, "limit 1=write\n") != NULL,
		    "stdout needed nothing more");
	status = run_captured(enforce, out2, sizeof(out2), err, sizeof(err));
	if (!ASSERT_EQ(status, 0, "the policy runs the probe, enforced"))
		printf("    stderr: %s\n", err);
	ASSERT_TRUE(!strcmp(out, out2), "with the same output");
	ASSERT_TRUE(each_right_is_needed(&b, policy) >= 3,
		    "rights were taken out one at a time");
	close(b.listener);
}

/*
 * capctl run --learn --capmode: busybox's shell reads a file by its
 * absolute path, which capability mode refuses; learning lets it, the
 * report names the syscall, and the suggestion leaves capability mode
 * out, so the command runs as suggested.
 */
SELFTEST(capctl_run_learn_capmode_suggests_leaving_it)
{
	char out[4096], err[8192], policy[4096], out2[4096];
	char file[] = "/tmp/learn-capmode.XXXXXX", script[160];
	char pol[64] = "/tmp/learn-capmode.policy";
	char *learn[] = { "capctl", "run",	 "--learn", "--write-policy",
			  pol,	    "--capmode", "--",	    "/bin/busybox",
			  "sh",	    "-c",	 script,    NULL };
	char *enforce[] = { "capctl",	    "run", "--policy", pol,    "--",
			    "/bin/busybox", "sh",  "-c",       script, NULL };
	int fd, status;

	if (!capctl_can_learn())
		return;
	fd = mkstemp(file);
	if (!ASSERT_TRUE(fd >= 0 && write(fd, "secret\n", 7) == 7, "file"))
		return;
	close(fd);
	snprintf(script, sizeof(script), "cat %s && echo done", file);
	status = run_captured(learn, out, sizeof(out), err, sizeof(err));
	if (!ASSERT_EQ(status, 0, "the shell ran through while learning"))
		printf("    stderr: %s\n", err);
	ASSERT_TRUE(!strcmp(out, "secret\ndone\n"), "and read the file");
	if (!ASSERT_TRUE(strstr(err, "openat") != NULL,
			 "the report names capability mode's refusal"))
		printf("    stderr: %s\n", err);
	if (!ASSERT_TRUE(read_text(pol, policy, sizeof(policy)),
			 "the policy was written"))
		return;
	ASSERT_TRUE(!strstr(policy, "\ncapmode") &&
			    strncmp(policy, "capmode", 7),
		    "the policy leaves capability mode out");
	status = run_captured(enforce, out2, sizeof(out2), err, sizeof(err));
	ASSERT_EQ(status, 0, "the suggestion runs it");
	ASSERT_TRUE(!strcmp(out2, out), "with the same output");
	unlink(pol);
	unlink(file);
}
