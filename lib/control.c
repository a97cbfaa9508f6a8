// SPDX-License-Identifier: BSD-2-Clause
/*
 * The syscall-level half of libcapsicum on stock kernels: each call is a
 * request to the BPF side over fcntl(fd, F_GETFD, &req) or prctl(), and
 * answers that do not fit a status are read from the pinned answers map.
 * Protocol: include/capsicum/abi.h. Without the BPF side, every call fails
 * with ENOSYS.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <sys/capsicum.h>

#include "capmode.h"
#include "control.h"

static void req_init(struct capsicum_req *req, __u32 op)
{
	memset(req, 0, sizeof(*req));
	req->magic = CAPSICUM_REQ_MAGIC;
	req->version = CAPSICUM_ABI_VERSION;
	req->op = op;
}

/*
 * Sends an fd request. 0 on success, -1 with errno set otherwise. The BPF
 * side signals success through errno (CAPSICUM_STATUS_OK, 4000): the
 * caller's errno is put back, since no API call may leak that status.
 */
static int fd_request(int fd, struct capsicum_req *req)
{
	int saved = errno;
	int ret = fcntl(fd, F_GETFD, req);

	if (ret >= 0) {
		/* Plain F_GETFD ran: nobody intercepted the request. */
		errno = ENOSYS;
		return -1;
	}
	if (errno == CAPSICUM_STATUS_OK) {
		errno = saved;
		return 0;
	}
	return -1;
}

/*
 * A process request. Returns the success status, or -1 with errno; on
 * success errno is the caller's again (see fd_request).
 */
static int proc_request(__u32 op)
{
	struct capsicum_req req;
	int saved = errno, status;

	req_init(&req, op);
	if (prctl(CAPSICUM_PRCTL_OPTION, &req, 0, 0, 0) >= 0 ||
	    errno == EINVAL) {
		/* The kernel's own answer to an unknown prctl option. */
		errno = ENOSYS;
		return -1;
	}
	status = errno;
	if (status == CAPSICUM_STATUS_OK ||
	    status == CAPSICUM_STATUS_OK_CAPMODE) {
		errno = saved;
		return status;
	}
	return -1;
}

/*
 * The answers map, opened read-only once per process. In capability mode
 * the pin cannot be opened any more, so cap_enter() opens it first.
 */
static atomic_int answers_fd = -1;

/* Where cap_enter() leaves the map's descriptor for programs it execs. */
#define ANSWERS_FD_ENV "CAPSICUM_ANSWERS_FD"

/*
 * After an execve in capability mode the pin cannot be opened: the
 * descriptor cap_enter() kept open across exec serves, if it still is a
 * map (a lookup of a key nobody uses answers ENOENT).
 */
static int inherited_answers_map(void)
{
	const char *env = getenv(ANSWERS_FD_ENV);
	struct capsicum_answer a;
	struct bpf_map_info info;
	union bpf_attr attr;
	__u32 key = 0;
	char *end;
	long fd;

	if (!env || (fd = strtol(env, &end, 10)) < 0 || *end || fd > 1 << 20)
		goto unloaded;
	/* Its shape first: a lookup writes value_size bytes into a. */
	memset(&info, 0, sizeof(info));
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = (__u32)fd;
	attr.info.info_len = sizeof(info);
	attr.info.info = (__u64)(unsigned long)&info;
	if (syscall(__NR_bpf, BPF_OBJ_GET_INFO_BY_FD, &attr, sizeof(attr)) ||
	    info.type != BPF_MAP_TYPE_HASH || info.key_size != sizeof(key) ||
	    info.value_size != sizeof(a) || strcmp(info.name, "answers"))
		goto unloaded;
	memset(&attr, 0, sizeof(attr));
	attr.map_fd = (__u32)fd;
	attr.key = (__u64)(unsigned long)&key;
	attr.value = (__u64)(unsigned long)&a;
	if (syscall(__NR_bpf, BPF_MAP_LOOKUP_ELEM, &attr, sizeof(attr)) == 0 ||
	    errno == ENOENT) {
		/* ENOENT here is success: the caller restores its errno. */
		atomic_store(&answers_fd, (int)fd);
		return (int)fd;
	}
unloaded:
	errno = ENOSYS;
	return -1;
}

static int answers_map(void)
{
	union bpf_attr attr;
	int fd = atomic_load(&answers_fd), expected = -1, saved = errno;

	if (fd >= 0)
		return fd;
	memset(&attr, 0, sizeof(attr));
	attr.pathname = (__u64)(unsigned long)CAPSICUM_PIN_ANSWERS;
	attr.file_flags = BPF_F_RDONLY;
	fd = (int)syscall(__NR_bpf, BPF_OBJ_GET, &attr, sizeof(attr));
	if (fd < 0 && errno == ECAPMODE) {
		fd = inherited_answers_map();
		if (fd >= 0)
			errno = saved; /* the ECAPMODE was expected */
		return fd;
	}
	if (fd < 0) {
		errno = ENOSYS;
		return -1;
	}
	/* Move it out of the low numbers programs expect to own. */
	int high = fcntl(fd, F_DUPFD_CLOEXEC, 100);
	close(fd);
	if (high < 0)
		return -1;
	if (!atomic_compare_exchange_strong(&answers_fd, &expected, high)) {
		close(high);
		return expected;
	}
	return high;
}

static _Thread_local __u64 nonce_counter;

/* Asks for fd's rights and reads the answer left for this thread. */
int capsicum_fd_query(int fd, struct capsicum_answer *a)
{
	struct capsicum_req req;
	union bpf_attr attr;
	__u32 tid = (__u32)gettid();
	int map = answers_map();

	if (map < 0)
		return -1;
	req_init(&req, CAPSICUM_OP_GET);
	/* Unique per thread and call, so a stale answer is never taken. */
	req.nonce = ((__u64)tid << 32) ^ ++nonce_counter ^
		    (__u64)(unsigned long)&req;
	if (fd_request(fd, &req))
		return -1;
	memset(&attr, 0, sizeof(attr));
	attr.map_fd = (__u32)map;
	attr.key = (__u64)(unsigned long)&tid;
	attr.value = (__u64)(unsigned long)a;
	if (syscall(__NR_bpf, BPF_MAP_LOOKUP_ELEM, &attr, sizeof(attr)) ||
	    a->nonce != req.nonce) {
		errno = EIO;
		return -1;
	}
	return 0;
}

int capsicum_pd_child(void)
{
	return proc_request(CAPSICUM_OP_PD_CHILD) < 0 ? -1 : 0;
}

int capsicum_pd_watch(int pidfd)
{
	struct capsicum_req req;

	req_init(&req, CAPSICUM_OP_PD_WATCH);
	return fd_request(pidfd, &req);
}

int cap_rights_limit(int fd, const cap_rights_t *rights)
{
	struct capsicum_req req;

	if (!rights || !cap_rights_is_valid(rights)) {
		errno = EINVAL;
		return -1;
	}
	req_init(&req, CAPSICUM_OP_LIMIT_RIGHTS);
	req.rights[0] = rights->cr_rights[0];
	req.rights[1] = rights->cr_rights[1];
	return fd_request(fd, &req);
}

int __cap_rights_get(int version, int fd, cap_rights_t *rights)
{
	struct capsicum_answer a;

	if (version != CAP_RIGHTS_VERSION_00 || !rights) {
		errno = EINVAL;
		return -1;
	}
	if (capsicum_fd_query(fd, &a))
		return -1;
	rights->cr_rights[0] = a.rights[0];
	rights->cr_rights[1] = a.rights[1];
	return 0;
}

int cap_fcntls_limit(int fd, uint32_t fcntlrights)
{
	struct capsicum_req req;

	if (fcntlrights & ~CAP_FCNTL_ALL) {
		errno = EINVAL;
		return -1;
	}
	req_init(&req, CAPSICUM_OP_LIMIT_FCNTLS);
	req.fcntls = fcntlrights;
	return fd_request(fd, &req);
}

int cap_fcntls_get(int fd, uint32_t *fcntlrightsp)
{
	struct capsicum_answer a;

	if (!fcntlrightsp) {
		errno = EINVAL;
		return -1;
	}
	if (capsicum_fd_query(fd, &a))
		return -1;
	*fcntlrightsp = a.fcntls;
	return 0;
}

int cap_ioctls_limit(int fd, const cap_ioctl_t *cmds, size_t ncmds)
{
	struct capsicum_req req;

	_Static_assert(sizeof(cap_ioctl_t) == sizeof(__u64),
		       "the ABI carries ioctl commands as 64-bit words");
	if (ncmds > CAP_IOCTLS_MAX || (ncmds && !cmds)) {
		errno = EINVAL;
		return -1;
	}
	req_init(&req, CAPSICUM_OP_LIMIT_IOCTLS);
	req.nioctls = (__s32)ncmds;
	req.ioctls = (__u64)(unsigned long)cmds;
	return fd_request(fd, &req);
}

ssize_t cap_ioctls_get(int fd, cap_ioctl_t *cmds, size_t maxcmds)
{
	struct capsicum_answer a;
	size_t n;

	if (capsicum_fd_query(fd, &a))
		return -1;
	if (a.nioctls < 0)
		return CAP_IOCTLS_ALL;
	n = (size_t)a.nioctls < maxcmds ? (size_t)a.nioctls : maxcmds;
	if (n && !cmds) {
		errno = EFAULT;
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		cmds[i] = (cap_ioctl_t)a.ioctls[i];
	return a.nioctls;
}

/* Set once this process image installed the filter (kept across fork). */
static atomic_bool capmode_filter_installed;

/*
 * The BPF side's flag first, then the seccomp filter: if the filter then
 * fails, the process is already refused every lookup outside its
 * descriptors, never the other way round. The answers map is opened
 * before: capability mode forbids opening its pin.
 */
int cap_enter(void)
{
	char env[16];
	int saved = errno, map = answers_map();

	if (map < 0)
		return -1;
	/* Kept across exec, named in the environment (see above). */
	snprintf(env, sizeof(env), "%d", map);
	if (fcntl(map, F_SETFD, 0) || setenv(ANSWERS_FD_ENV, env, 1))
		return -1;
	if (proc_request(CAPSICUM_OP_ENTER) < 0)
		return -1;
	if (!atomic_load(&capmode_filter_installed)) {
		/* A second cap_enter() succeeds, as on FreeBSD. */
		if (capsicum_capmode_install())
			return -1;
		atomic_store(&capmode_filter_installed, true);
	}
	errno = saved; /* setenv and the filter's setup may have set it */
	return 0;
}

int cap_getmode(unsigned int *modep)
{
	int status;

	if (!modep) {
		errno = EFAULT;
		return -1;
	}
	status = proc_request(CAPSICUM_OP_GETMODE);
	if (status < 0)
		return -1;
	*modep = status == CAPSICUM_STATUS_OK_CAPMODE;
	return 0;
}

/* Never fails, so it leaves errno alone even when unloaded (ENOSYS). */
bool cap_sandboxed(void)
{
	unsigned int mode;
	int saved = errno;
	bool in = cap_getmode(&mode) == 0 && mode;

	errno = saved;
	return in;
}
