/* SPDX-License-Identifier: GPL-2.0 */
/* What several selftest files need: the programs loaded, limits by omission. */
#ifndef CAPSICUM_SELFTEST_FIXTURE_H
#define CAPSICUM_SELFTEST_FIXTURE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/capsicum.h>
#include <sys/types.h>

/* capsicumd's default --uid-quota, which both selftest boots use. */
#define FIXTURE_UID_QUOTA 16384
/* A uid nobody else uses in the VM: root runs quota tests as it. */
#define FIXTURE_QUOTA_UID 2000

/* The patched kernel (kernel/): its fget hook is in the running BTF. */
bool fixture_patched_kernel(void);
/*
 * One vCPU thread (run-vm.sh --tcg-single: capsicum_tcg=single on the
 * command line) or one CPU: attaching programs to hooks another vCPU runs
 * crashes QEMU 7.2's multi-threaded TCG (doc/daemon.md, "Upgrading").
 */
bool fixture_single_threaded_vm(void);
/*
 * The running kernel's release as FIXTURE_KERNEL(major, minor), from
 * uname: for operations a kernel of the matrix does not have yet.
 */
#define FIXTURE_KERNEL(major, minor) ((major) << 8 | (minor))
unsigned int fixture_kernel_version(void);

/* Root loads the programs on first need; uid 1000 finds them pinned. */
bool fixture_loaded(void);
/* capsicumd's pid (its pidfile, checked against /proc), or 0. */
pid_t fixture_daemon_pid(void);
/*
 * Removes the pinned state and waits, bounded, until no Capsicum program
 * answers any more. Skips the test unless this binary loaded the state
 * (root, no capsicumd): for tests that need Capsicum unloaded, whatever
 * ran before them. fixture_loaded() loads it again.
 */
bool fixture_unload(void);
/*
 * The wait alone (root): true once no program answers and no BPF link is
 * left in the system, false after a bound.
 */
bool fixture_wait_detached(void);
/*
 * The BPF side's view of the calling process (CAPSICUM_OP_SELF): its
 * CAPSICUM_SELF_* bits, or -1.
 */
int fixture_self_bits(void);
/* Runs argv (argv[0] found on PATH); its exit status, or -1. */
int fixture_run(char *const argv[]);
/*
 * The state a test's capsicumd loaded goes back to this binary (root):
 * `capsicumd --unload` (only the loader's binary may), the programs
 * detached, and fixture_loaded().
 */
bool fixture_capsicumd_unload(void);
/* Whether the file at path (its first 64 KiB) contains `what`. */
bool fixture_file_has(const char *path, const char *what);
/* Sends pid `sig` and waits, through a pidfd and bounded, until it is gone. */
bool fixture_kill_and_wait(pid_t pid, int sig);
/*
 * A scratch file, already unlinked, open read-write, holding `content`
 * (NULL: empty) with the offset after it; -1 on failure.
 */
int fixture_scratch_file(const char *content);
/* One scratch file opened twice: two open files of it, both read-write. */
bool fixture_scratch_twice(int fds[2]);
/*
 * A pdfork child on two pipes: it waits for a byte on go[0] and answers
 * on ack[1]. fixture_pdfork_piped() returns as pdfork does (0 in the
 * child, whose life it bounds with alarm(30)); -1 if a pipe failed.
 */
struct fixture_pdchild {
	int pd;
	int go[2];
	int ack[2];
};
pid_t fixture_pdfork_piped(struct fixture_pdchild *c, int flags);
/*
 * Closes the process descriptor, then releases the child with one byte
 * and reaps it by pid: its wait status, or -1.
 */
int fixture_pdchild_close_release(struct fixture_pdchild *c, pid_t pid);
/*
 * execveat(dfd, path) of a busybox as `true`, in a child: 0 if it ran
 * and exited 0, else -1 with the child's errno (ECHILD: no status).
 */
int fixture_execveat_true(int dfd, const char *path);
/* Limits fd to every right except the bits of `right` (CAP_* value). */
int fixture_limit_all_but(int fd, uint64_t right);
/* cap_rights_limit(fd) to the rights listed (cap_rights_init's list). */
#define fixture_limit(fd, ...)                                                 \
	({                                                                     \
		cap_rights_t fixture_r_;                                       \
                                                                               \
		cap_rights_init(&fixture_r_, __VA_ARGS__);                     \
		cap_rights_limit((fd), &fixture_r_);                           \
	})

/* Sends fd over SCM_RIGHTS on sock (one byte with it): 0 or -1. */
int fixture_send_fd(int sock, int fd);
/* Receives one descriptor sent so on sock, or -1. */
int fixture_recv_fd(int sock);
/* Sends fd to this process over SCM_RIGHTS; the received descriptor. */
int fixture_pass_to_self(int fd);
/* The same over a socketpair the caller made (sv[0] sends, sv[1] gets). */
int fixture_pass_over(const int sv[2], int fd);
/* The same, closing fd once sent: the file is then only in flight. */
int fixture_pass_closed(const int sv[2], int fd);

struct sockaddr_in;
/* A TCP socket bound to an ephemeral loopback port, its address in *a. */
int fixture_tcp_bound(struct sockaddr_in *a);
/* The same, listening. */
int fixture_listener(struct sockaddr_in *a);

/*
 * A temporary directory `top` holding a file "outside" and a directory
 * "d" with a file "f" ("inside"), a symlink "abs" to top and a symlink
 * loop "loop"; dfd is d, opened O_RDONLY | O_DIRECTORY.
 */
struct fixture_box {
	char top[64];
	int dfd;
};
bool fixture_make_box(struct fixture_box *b);

/*
 * A thread that dup2()s `limited` and `full` in turn over `fd` until
 * stop is set (or 2,000,000 times, in case a stop is lost), for the
 * tests that race a descriptor number's meaning against its use.
 */
struct fixture_dup2_race {
	int limited, full, fd;
	volatile bool stop;
	pthread_t th;
};
/* fd must already be open (dup2 of full over it), so no use is EBADF. */
int fixture_dup2_race_start(struct fixture_dup2_race *r);
void fixture_dup2_race_stop(struct fixture_dup2_race *r);

#endif
