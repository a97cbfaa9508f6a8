// SPDX-License-Identifier: GPL-2.0
#include "fixture.h"

#include "load.h"
#include "pinned.h"
#include "selftest.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <capsicum/abi.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <sys/capsicum.h>
#include <sys/prctl.h>
#include <sys/procdesc.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PIDFILE "/run/capsicumd.pid"
/* TCG is slow; a bound, not a synchronisation. */
#define DETACH_WAIT_S 60

bool fixture_loaded(void)
{
	if (access(CAPSICUM_PIN_ANSWERS, F_OK) && selftest_is_root())
		capsicum_load(CAPSICUM_PIN_DIR, NULL);
	return ASSERT_TRUE(access(CAPSICUM_PIN_ANSWERS, F_OK) == 0,
			   "capsicum programs loaded");
}

pid_t fixture_daemon_pid(void)
{
	char path[64], comm[32] = "";
	FILE *f = fopen(PIDFILE, "re");
	int pid = 0;

	if (!f)
		return 0;
	if (fscanf(f, "%d", &pid) != 1)
		pid = 0;
	fclose(f);
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	f = pid > 0 ? fopen(path, "re") : NULL;
	if (!f)
		return 0;
	if (!fgets(comm, sizeof(comm), f))
		comm[0] = '\0';
	fclose(f);
	return strcmp(comm, "capsicumd\n") ? 0 : pid;
}

/* Does any Capsicum program still answer a process or an fd request? */
static bool control_plane_answers(void)
{
	cap_rights_t r;
	unsigned int mode;
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	bool answers = cap_getmode(&mode) == 0 || errno != ENOSYS;

	cap_rights_init(&r, CAP_READ);
	if (fd >= 0 && (cap_rights_limit(fd, &r) == 0 || errno != ENOSYS))
		answers = true;
	if (fd >= 0)
		close(fd);
	return answers;
}

/*
 * Is any BPF link attached? Nothing else in the test VM attaches BPF
 * programs, and a test's own links go with its skeleton, so between tests
 * a link is one of Capsicum's. One we may not open is protected: ours.
 */
static bool any_link(void)
{
	__u32 id = 0;
	int fd;

	while (!bpf_link_get_next_id(id, &id)) {
		fd = bpf_link_get_fd_by_id(id);
		if (fd >= 0 || errno != ENOENT) {
			if (fd >= 0)
				close(fd);
			return true;
		}
	}
	return false;
}

bool fixture_wait_detached(void)
{
	struct timespec start, now;

	clock_gettime(CLOCK_MONOTONIC, &start);
	/*
	 * An unpinned link is released after an RCU grace period and a
	 * workqueue hop, and nothing tells userspace when: poll the fact
	 * itself, with a bound.
	 */
	while (control_plane_answers() || any_link()) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - start.tv_sec > DETACH_WAIT_S)
			return false;
		usleep(10000);
	}
	return true;
}

bool fixture_unload(void)
{
	if (!selftest_is_root() || fixture_daemon_pid())
		selftest_skip("needs root in a boot without capsicumd: only "
			      "the binary that loaded Capsicum may unload it");
	return ASSERT_OK(pinned_unload(), "unload the pinned state") &&
	       ASSERT_TRUE(fixture_wait_detached(),
			   "programs detached once unpinned");
}

int fixture_self_bits(void)
{
	struct capsicum_req req = { .magic = CAPSICUM_REQ_MAGIC,
				    .version = CAPSICUM_ABI_VERSION,
				    .op = CAPSICUM_OP_SELF };

	if (prctl(CAPSICUM_PRCTL_OPTION, &req, 0, 0, 0) >= 0 ||
	    errno < CAPSICUM_STATUS_SELF || errno >= CAPSICUM_STATUS_SELF + 32)
		return -1;
	return errno - CAPSICUM_STATUS_SELF;
}

int fixture_run(char *const argv[])
{
	pid_t pid = fork();

	if (pid == 0) {
		execvp(argv[0], argv);
		_exit(127);
	}
	return selftest_wait(pid);
}

bool fixture_capsicumd_unload(void)
{
	char *unload[] = { "capsicumd", "--unload", NULL };

	return ASSERT_EQ(fixture_run(unload), 0, "capsicumd --unload") &&
	       ASSERT_TRUE(fixture_wait_detached(), "programs detached") &&
	       fixture_loaded();
}

bool fixture_file_has(const char *path, const char *what)
{
	static char text[65536];
	size_t n = 0;
	FILE *f = fopen(path, "re");

	if (!f)
		return false;
	n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = '\0';
	fclose(f);
	return strstr(text, what) != NULL;
}

bool fixture_kill_and_wait(pid_t pid, int sig)
{
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	struct pollfd p = { .fd = pidfd, .events = POLLIN };
	bool ok;

	if (!ASSERT_OK(pidfd, "pidfd_open"))
		return false;
	ok = ASSERT_OK(kill(pid, sig), "kill") &&
	     ASSERT_EQ(poll(&p, 1, DETACH_WAIT_S * 1000), 1, "process gone");
	close(pidfd);
	return ok;
}

int fixture_scratch_file(const char *content)
{
	char path[] = "/tmp/scratch.XXXXXX";
	int fd = mkstemp(path);
	size_t n = content ? strlen(content) : 0;

	if (fd < 0)
		return -1;
	unlink(path);
	if (n && write(fd, content, n) != (ssize_t)n) {
		close(fd);
		return -1;
	}
	return fd;
}

bool fixture_scratch_twice(int fds[2])
{
	char path[] = "/tmp/scratch2.XXXXXX";

	fds[0] = mkstemp(path);
	fds[1] = fds[0] < 0 ? -1 : open(path, O_RDWR);
	if (fds[0] >= 0)
		unlink(path);
	return fds[0] >= 0 && fds[1] >= 0;
}

pid_t fixture_pdfork_piped(struct fixture_pdchild *c, int flags)
{
	pid_t pid;

	if (pipe(c->go) || pipe(c->ack))
		return -1;
	pid = pdfork(&c->pd, flags);
	/* A bound, so a child whose parent failed cannot outlive the run. */
	if (pid == 0)
		alarm(30);
	return pid;
}

int fixture_pdchild_close_release(struct fixture_pdchild *c, pid_t pid)
{
	int status;

	if (pid < 0 || close(c->pd) || write(c->go[1], "x", 1) != 1 ||
	    waitpid(pid, &status, __WALL) != pid)
		return -1;
	return status;
}

int fixture_execveat_true(int dfd, const char *path)
{
	char *argv[] = { "true", NULL }, *envp[] = { NULL };
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		syscall(SYS_execveat, dfd, path, argv, envp, 0);
		_exit(errno);
	}
	status = selftest_wait(pid);
	errno = status < 0 ? ECHILD : status;
	return status ? -1 : 0;
}

int fixture_limit_all_but(int fd, uint64_t right)
{
	cap_rights_t r;

	CAP_ALL(&r);
	cap_rights_clear(&r, right);
	return cap_rights_limit(fd, &r);
}

int fixture_send_fd(int sock, int fd)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 }, c = 'x';
	struct iovec v = { &c, 1 };
	struct msghdr m = { .msg_iov = &v,
			    .msg_iovlen = 1,
			    .msg_control = cbuf,
			    .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *h = CMSG_FIRSTHDR(&m);

	h->cmsg_level = SOL_SOCKET;
	h->cmsg_type = SCM_RIGHTS;
	h->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(h), &fd, sizeof(int));
	return sendmsg(sock, &m, 0) == 1 ? 0 : -1;
}

int fixture_recv_fd(int sock)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 }, c;
	struct iovec v = { &c, 1 };
	struct msghdr m = { .msg_iov = &v,
			    .msg_iovlen = 1,
			    .msg_control = cbuf,
			    .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *h;
	int got = -1;

	if (recvmsg(sock, &m, 0) != 1)
		return -1;
	h = CMSG_FIRSTHDR(&m);
	if (h && h->cmsg_type == SCM_RIGHTS)
		memcpy(&got, CMSG_DATA(h), sizeof(int));
	return got;
}

static int pass_over(const int sv[2], int fd, bool close_sent)
{
	if (fixture_send_fd(sv[0], fd) || (close_sent && close(fd)))
		return -1;
	return fixture_recv_fd(sv[1]);
}

int fixture_pass_over(const int sv[2], int fd)
{
	return pass_over(sv, fd, false);
}

int fixture_pass_closed(const int sv[2], int fd)
{
	return pass_over(sv, fd, true);
}

int fixture_pass_to_self(int fd)
{
	int sv[2], got;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		return -1;
	got = fixture_pass_over(sv, fd);
	close(sv[0]);
	close(sv[1]);
	return got;
}

int fixture_tcp_bound(struct sockaddr_in *a)
{
	socklen_t l = sizeof(*a);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	memset(a, 0, sizeof(*a));
	a->sin_family = AF_INET;
	a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || bind(fd, (struct sockaddr *)a, sizeof(*a)) ||
	    getsockname(fd, (struct sockaddr *)a, &l))
		return -1;
	return fd;
}

int fixture_listener(struct sockaddr_in *a)
{
	int fd = fixture_tcp_bound(a);

	return fd < 0 || listen(fd, 4) ? -1 : fd;
}

bool fixture_make_box(struct fixture_box *b)
{
	char p[128];
	int fd;

	snprintf(b->top, sizeof(b->top), "/tmp/capmode.XXXXXX");
	if (!mkdtemp(b->top))
		return false;
	snprintf(p, sizeof(p), "%s/outside", b->top);
	fd = open(p, O_WRONLY | O_CREAT, 0644);
	if (fd < 0 || close(fd))
		return false;
	snprintf(p, sizeof(p), "%s/d", b->top);
	if (mkdir(p, 0755))
		return false;
	snprintf(p, sizeof(p), "%s/d/f", b->top);
	fd = open(p, O_WRONLY | O_CREAT, 0644);
	if (fd < 0 || write(fd, "inside", 6) != 6 || close(fd))
		return false;
	snprintf(p, sizeof(p), "%s/d/abs", b->top);
	if (symlink(b->top, p))
		return false;
	snprintf(p, sizeof(p), "%s/d/loop", b->top);
	if (symlink("loop", p))
		return false;
	snprintf(p, sizeof(p), "%s/d", b->top);
	b->dfd = open(p, O_RDONLY | O_DIRECTORY);
	return b->dfd >= 0;
}

static void *dup2_race_loop(void *arg)
{
	struct fixture_dup2_race *r = arg;

	struct timespec t0, t;

	/*
	 * Runs as long as the user does: a count bound let it finish before
	 * a descheduled user got going, which then saw one file only. The
	 * clock only guards a lost stop.
	 */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (long i = 0; !r->stop; i++) {
		dup2(i & 1 ? r->full : r->limited, r->fd);
		if (i % 4096)
			continue;
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec > 120)
			break;
	}
	return NULL;
}

int fixture_dup2_race_start(struct fixture_dup2_race *r)
{
	pthread_t th;
	int err;

	r->stop = false;
	if (dup2(r->full, r->fd) != r->fd)
		return -1;
	err = pthread_create(&th, NULL, dup2_race_loop, r);
	if (err) {
		errno = err;
		return -1;
	}
	r->th = th;
	return 0;
}

void fixture_dup2_race_stop(struct fixture_dup2_race *r)
{
	r->stop = true;
	pthread_join(r->th, NULL);
}

unsigned int fixture_kernel_version(void)
{
	unsigned int major = 0, minor = 0;
	struct utsname u;

	if (uname(&u) || sscanf(u.release, "%u.%u", &major, &minor) != 2)
		return 0; /* older than every kernel: a row says so */
	return FIXTURE_KERNEL(major, minor);
}

bool fixture_patched_kernel(void)
{
	struct btf *btf = btf__load_vmlinux_btf();
	bool has;

	if (!btf)
		return false;
	has = btf__find_by_name_kind(btf, "bpf_lsm_file_fget", BTF_KIND_FUNC) >=
	      0;
	btf__free(btf);
	return has;
}

bool fixture_single_threaded_vm(void)
{
	char line[1024] = "";
	FILE *f = fopen("/proc/cmdline", "re");

	if (f) {
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		fclose(f);
	}
	return sysconf(_SC_NPROCESSORS_ONLN) == 1 ||
	       strstr(line, "capsicum_tcg=single");
}
