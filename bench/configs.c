// SPDX-License-Identifier: GPL-2.0
/*
 * What a configuration puts in place in the timed process, after every
 * operation has opened its descriptors: Capsicum limits (c), capability
 * mode (d), a Landlock ruleset over the same files (e), a seccomp filter
 * of the size of a capability-mode filter (f). None can be undone, so the
 * caller applies each in a child of its own.
 */
#define _GNU_SOURCE
#include "bench.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/landlock.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Unrelated restricted descriptors: a sandboxed process has a table. */
static int limit_unrelated(void)
{
	static const struct {
		const char *path;
		int flags;
		__u64 right;
	} extra[] = {
		{ "/dev/zero", O_RDONLY, CAP_READ },
		{ "/dev/null", O_WRONLY, CAP_WRITE },
		{ BENCH_FILE, O_RDONLY, CAP_FSTAT },
		{ BENCH_DIR, O_RDONLY | O_DIRECTORY, CAP_LOOKUP },
	};

	for (size_t i = 0; i < sizeof(extra) / sizeof(extra[0]); i++) {
		cap_rights_t r;
		int fd = open(extra[i].path, extra[i].flags);

		/* Kept open on purpose: they live as long as the process. */
		if (fd < 0)
			return -errno;
		if (cap_rights_limit(fd, cap_rights_init(&r, extra[i].right)))
			return -errno;
	}
	return 0;
}

int config_limit(struct op_state *states, int n)
{
	for (int i = 0; i < n; i++) {
		for (int j = 0; j < BENCH_MAX_FDS; j++) {
			if (states[i].fd[j] < 0)
				continue;
			if (cap_rights_limit(states[i].fd[j],
					     &states[i].rights[j]))
				return -errno;
		}
	}
	return limit_unrelated();
}

int config_capmode(void)
{
	return cap_enter() ? -errno : 0;
}

/* Rights newer than the uapi headers of the build host. */
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)
#endif
#ifndef LANDLOCK_ACCESS_FS_IOCTL_DEV
#define LANDLOCK_ACCESS_FS_IOCTL_DEV (1ULL << 15)
#endif

/* Every filesystem right the running kernel's Landlock ABI knows. */
static __u64 landlock_fs_rights(int abi)
{
	__u64 all = (LANDLOCK_ACCESS_FS_MAKE_SYM << 1) - 1; /* ABI 1 */

	if (abi >= 2)
		all |= LANDLOCK_ACCESS_FS_REFER;
	if (abi >= 3)
		all |= LANDLOCK_ACCESS_FS_TRUNCATE;
	if (abi >= 5)
		all |= LANDLOCK_ACCESS_FS_IOCTL_DEV;
	return all;
}

static int landlock_allow(int ruleset, const char *path, __u64 access)
{
	struct landlock_path_beneath_attr pb = { .allowed_access = access };
	int err = 0;

	pb.parent_fd = open(path, O_PATH | O_CLOEXEC);
	if (pb.parent_fd < 0)
		return -errno;
	if (syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH,
		    &pb, 0))
		err = -errno;
	close(pb.parent_fd);
	return err;
}

/*
 * Every filesystem access is handled (denied unless a rule allows it), and
 * the rules allow what the operations touch: the tree, the two devices and
 * the binary exec runs. Network rights are left alone: the comparison is
 * about files, and 6.1's Landlock has none.
 */
int config_landlock(void)
{
	const __u64 rw =
		LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_WRITE_FILE;
	struct landlock_ruleset_attr attr = { 0 };
	int abi, ruleset, err;

	abi = syscall(SYS_landlock_create_ruleset, NULL, 0,
		      LANDLOCK_CREATE_RULESET_VERSION);
	if (abi < 0)
		return -errno;
	attr.handled_access_fs = landlock_fs_rights(abi);
	ruleset = syscall(SYS_landlock_create_ruleset, &attr, sizeof(attr), 0);
	if (ruleset < 0)
		return -errno;
	err = landlock_allow(
		ruleset, BENCH_DIR,
		rw | LANDLOCK_ACCESS_FS_READ_DIR |
			(abi >= 3 ? LANDLOCK_ACCESS_FS_TRUNCATE : 0));
	if (!err)
		err = landlock_allow(ruleset, "/dev/zero", rw);
	if (!err)
		err = landlock_allow(ruleset, "/dev/null", rw);
	if (!err)
		err = landlock_allow(ruleset, BENCH_EXIT0,
				     LANDLOCK_ACCESS_FS_EXECUTE |
					     LANDLOCK_ACCESS_FS_READ_FILE);
	if (!err && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		err = -errno;
	if (!err && syscall(SYS_landlock_restrict_self, ruleset, 0))
		err = -errno;
	close(ruleset);
	return err;
}

/* Denied syscall numbers: past the table, so no operation matches one. */
#define SECCOMP_DENIED	 150
#define SECCOMP_FIRST_NR 1000

static int seccomp_install(const struct sock_fprog *prog)
{
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, prog))
		return -errno;
	return 0;
}

/*
 * A filter of the size a capability-mode filter has: the arch check, 150
 * comparisons on the syscall number, and one argument load before ALLOW.
 * The argument load matters: the kernel caches the verdict of filters
 * that read only the number and arch and then skips them altogether,
 * which a capability-mode filter (it checks dirfd arguments) cannot get.
 */
int config_seccomp(void)
{
	struct sock_filter f[SECCOMP_DENIED + 8];
	struct sock_fprog prog = { .filter = f };
	unsigned int n = 0;

	f[n++] = (struct sock_filter)BPF_STMT(
		BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
					      AUDIT_ARCH_X86_64, 1, 0);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
					      SECCOMP_RET_KILL_PROCESS);
	f[n++] = (struct sock_filter)BPF_STMT(
		BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
	for (unsigned int i = 0; i < SECCOMP_DENIED; i++) {
		/* Jump to the ERRNO return after the last comparison. */
		unsigned int to_deny = SECCOMP_DENIED - 1 - i + 2;

		f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
						      SECCOMP_FIRST_NR + i,
						      to_deny, 0);
	}
	/* Reading an argument is enough to keep the verdict uncached. */
	f[n++] = (struct sock_filter)BPF_STMT(
		BPF_LD | BPF_W | BPF_ABS,
		offsetof(struct seccomp_data, args[0]));
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
					      SECCOMP_RET_ALLOW);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
					      SECCOMP_RET_ERRNO | EPERM);
	prog.len = n;
	return seccomp_install(&prog);
}

/*
 * The least any filter costs: one that allows everything. The kernel
 * caches its verdict for every syscall and never runs it, but every
 * syscall still takes seccomp's entry path; capability mode pays that
 * whatever its filter does.
 */
int config_seccomp_allow(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = 1, .filter = f };

	return seccomp_install(&prog);
}
