// SPDX-License-Identifier: BSD-2-Clause
/*
 * What each Linux x86-64 syscall may do in capability mode: FreeBSD's
 * sys/kern/capabilities.conf mapped onto Linux.  One row per syscall, in
 * syscall-number order; a number not listed gets ECAPMODE, so a syscall
 * added to Linux after this table is denied until someone decides.
 *
 * doc/capmode.md carries the same rows (tests/test_capmode_filter.c checks
 * that they agree): change both together.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/prctl.h>
#include <linux/sched.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include <sys/capsicum.h>

#include "capmode.h"

/*
 * Syscalls newer than Debian 12's uapi headers.  x86-64 numbers are ABI and
 * never change, so naming them here is safe; a kernel without one returns
 * ENOSYS by itself once the filter allows it.
 */
#ifndef __NR_cachestat
#define __NR_cachestat 451
#endif
#ifndef __NR_fchmodat2
#define __NR_fchmodat2 452
#endif
#ifndef __NR_map_shadow_stack
#define __NR_map_shadow_stack 453
#endif
#ifndef __NR_futex_wake
#define __NR_futex_wake 454
#endif
#ifndef __NR_futex_wait
#define __NR_futex_wait 455
#endif
#ifndef __NR_futex_requeue
#define __NR_futex_requeue 456
#endif
#ifndef __NR_statmount
#define __NR_statmount 457
#endif
#ifndef __NR_listmount
#define __NR_listmount 458
#endif
#ifndef __NR_lsm_get_self_attr
#define __NR_lsm_get_self_attr 459
#endif
#ifndef __NR_lsm_set_self_attr
#define __NR_lsm_set_self_attr 460
#endif
#ifndef __NR_lsm_list_modules
#define __NR_lsm_list_modules 461
#endif
#ifndef __NR_mseal
#define __NR_mseal 462
#endif

/* The namespace flags clone(2) accepts (CLONE_NEWTIME is clone3-only). */
#define CLONE_NEW_ANY                                                          \
	(CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC |         \
	 CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET)

/*
 * prctl options that only read the caller's own state, or only narrow it.
 * PR_SET_SECCOMP and PR_SET_NO_NEW_PRIVS only ever add restrictions, and
 * libcapsicum itself needs them to re-enter; CAPSICUM_PRCTL_OPTION is the
 * control plane (include/capsicum/abi.h).
 */
static const uint32_t prctl_ok[] = {
	CAPSICUM_PRCTL_OPTION,
	PR_SET_PDEATHSIG,
	PR_GET_PDEATHSIG,
	PR_GET_DUMPABLE,
	PR_GET_KEEPCAPS,
	PR_GET_TIMING,
	PR_SET_NAME,
	PR_GET_NAME,
	PR_GET_SECCOMP,
	PR_SET_SECCOMP,
	PR_CAPBSET_READ,
	PR_GET_SECUREBITS,
	PR_GET_TIMERSLACK,
	PR_GET_CHILD_SUBREAPER,
	PR_SET_NO_NEW_PRIVS,
	PR_GET_NO_NEW_PRIVS,
	PR_GET_TID_ADDRESS,
	PR_GET_THP_DISABLE,
	PR_GET_SPECULATION_CTRL,
};

/*
 * Sockets that reach global state, which FreeBSD's capability mode has no
 * way to: netlink (routing, audit, the kernel's configuration), packet
 * sockets and raw IP (every packet of the host, with CAP_NET_RAW). The
 * type is compared without SOCK_NONBLOCK/SOCK_CLOEXEC (SOCK_TYPE_MASK).
 */
static const uint32_t socket_domain_no[] = { AF_NETLINK, AF_PACKET };
static const uint32_t socket_type_no[] = { SOCK_RAW, SOCK_PACKET };
#define SOCK_TYPE_MASK 0xf

/*
 * Terminal ioctls that reach other processes: TIOCSTI pushes input to
 * whatever reads the terminal next; TIOCSIG (a pty master: the slave's
 * foreground group), TIOCNOTTY (a session leader: its terminal's
 * foreground group) and TIOCVHANGUP signal process groups with no
 * permission check and no LSM hook. The request is compared whole.
 */
static const uint32_t ioctl_no[] = { TIOCSTI, TIOCSIG, TIOCNOTTY, TIOCVHANGUP };

#define ROW(n, v, w)                                                           \
	{                                                                      \
		.name = #n, .nr = __NR_##n, .verdict = v, .cond = "", .why = w \
	}
#define ALLOW(n, w) ROW(n, CAPMODE_ALLOW, w)
#define DENY(n, w)  ROW(n, CAPMODE_DENY, w)
#define NOSYS(n, w) ROW(n, CAPMODE_ENOSYS, w)
#define IF(n, c, w, ...)                                                       \
	{                                                                      \
		.name = #n, .nr = __NR_##n, .verdict = CAPMODE_ALLOW_IF,       \
		.check = { __VA_ARGS__ }, .cond = c, .why = w                  \
	}

/* Argument checks. */
#define NE(a, v)                                                               \
	{                                                                      \
		.arg = a, .op = CAPMODE_NE, .value = (uint32_t)(v)             \
	}
#define DIRFD(a)                                                               \
	{                                                                      \
		.arg = a, .op = CAPMODE_NE, .value = (uint32_t)AT_FDCWD        \
	}
#define EQ(a, v)                                                               \
	{                                                                      \
		.arg = a, .op = CAPMODE_EQ, .value = (uint32_t)(v)             \
	}
#define POS(a)                                                                 \
	{                                                                      \
		.arg = a, .op = CAPMODE_POSITIVE                               \
	}
#define NO_BITS(a, m)                                                          \
	{                                                                      \
		.arg = a, .op = CAPMODE_NO_BITS, .value = (uint32_t)(m)        \
	}
#define NUL(a)                                                                 \
	{                                                                      \
		.arg = a, .op = CAPMODE_NULL                                   \
	}
#define ONE_OF(a, s)                                                           \
	{                                                                      \
		.arg = a, .op = CAPMODE_ONE_OF, .set = s,                      \
		.nset = sizeof(s) / sizeof(s[0])                               \
	}
#define NONE_OF_MASKED(a, m, s)                                                \
	{                                                                      \
		.arg = a, .op = CAPMODE_NONE_OF, .value = (m), .set = s,       \
		.nset = sizeof(s) / sizeof(s[0])                               \
	}
#define NONE_OF(a, s) NONE_OF_MASKED(a, 0xffffffffU, s)
#define ID(a, op_)                                                             \
	{                                                                      \
		.arg = a, .op = op_                                            \
	}

/* Shared condition texts, so the doc reads the same for the same check. */
#define C_DIRFD "dirfd != AT_FDCWD"
#define C_SELF	"pid == 0 (the caller)"
#define P_PATH	"path outside any dirfd: global namespace"
#define P_SYSV	"SysV IPC keys and ids are a global namespace; FreeBSD denies"
#define P_XATTR "FreeBSD allows only extattr_*_fd"
#define P_AT	"FreeBSD allows it relative to a dirfd; BPF checks beneath"
#define P_NOHOOK                                                               \
	"FreeBSD allows it relative to a dirfd; its walk is confined, but "    \
	"its final check, inode_permission, sees an inode, not the path that " \
	"reached it (a trailing .. or a hard link), so the object cannot be "  \
	"checked beneath"
#define P_GONE	 "not implemented on x86-64 Linux"
#define P_MEM	 "caller's own address space; FreeBSD allows the VM calls"
#define P_PRIV	 "system administration; FreeBSD denies"
#define P_AIO	 "FreeBSD allows aio_* by descriptor; fds checked by BPF"
#define P_SIGSLF "FreeBSD: signal state of the own process"

const struct capsicum_capmode_rule capsicum_capmode_table[] = {
	ALLOW(read, "FreeBSD: read; CAP_READ"),
	ALLOW(write, "FreeBSD: write; CAP_WRITE"),
	DENY(open, P_PATH " (FreeBSD: open denied, openat allowed)"),
	ALLOW(close, "FreeBSD: close"),
	DENY(stat, P_PATH " (FreeBSD: fstatat with a dirfd)"),
	ALLOW(fstat, "FreeBSD: fstat; CAP_FSTAT"),
	DENY(lstat, P_PATH),
	ALLOW(poll, "FreeBSD: poll; CAP_EVENT"),
	ALLOW(lseek, "FreeBSD: lseek; CAP_SEEK"),
	ALLOW(mmap, "FreeBSD: mmap; CAP_MMAP_*"),
	ALLOW(mprotect, "FreeBSD: mprotect"),
	ALLOW(munmap, "FreeBSD: munmap"),
	ALLOW(brk, "FreeBSD: sbrk"),
	ALLOW(rt_sigaction, "FreeBSD: sigaction"),
	ALLOW(rt_sigprocmask, "FreeBSD: sigprocmask"),
	ALLOW(rt_sigreturn, "FreeBSD: sigreturn"),
	IF(ioctl, "request not TIOCSTI, TIOCSIG, TIOCNOTTY, TIOCVHANGUP",
	   "FreeBSD: ioctl; CAP_IOCTL and the allowlist. TIOCSTI (6.1 still "
	   "allows it on the own terminal) pushes input to whatever reads "
	   "the terminal after the sandbox; TIOCSIG, TIOCNOTTY and "
	   "TIOCVHANGUP signal a terminal's process groups, unchecked",
	   NONE_OF(1, ioctl_no)),
	ALLOW(pread64, "FreeBSD: pread; CAP_PREAD"),
	ALLOW(pwrite64, "FreeBSD: pwrite; CAP_PWRITE"),
	ALLOW(readv, "FreeBSD: readv"),
	ALLOW(writev, "FreeBSD: writev"),
	DENY(access, P_PATH " (FreeBSD: faccessat with a dirfd)"),
	ALLOW(pipe, "FreeBSD: pipe"),
	ALLOW(select, "FreeBSD: select"),
	ALLOW(sched_yield, "FreeBSD: sched_yield"),
	ALLOW(mremap, P_MEM),
	ALLOW(msync, "FreeBSD: msync"),
	ALLOW(mincore, "FreeBSD: mincore"),
	ALLOW(madvise, "FreeBSD: madvise"),
	DENY(shmget, P_SYSV),
	DENY(shmat, P_SYSV),
	DENY(shmctl, P_SYSV),
	ALLOW(dup, "FreeBSD: dup"),
	ALLOW(dup2, "FreeBSD: dup2"),
	ALLOW(pause, "FreeBSD: sigsuspend (libc pause)"),
	ALLOW(nanosleep, "FreeBSD: nanosleep"),
	ALLOW(getitimer, "FreeBSD: getitimer"),
	ALLOW(alarm, "FreeBSD: setitimer (libc alarm)"),
	ALLOW(setitimer, "FreeBSD: setitimer"),
	ALLOW(getpid, "FreeBSD: getpid"),
	ALLOW(sendfile, "FreeBSD: sendfile; CAP_READ/CAP_WRITE"),
	IF(socket,
	   "domain not AF_NETLINK or AF_PACKET, type not SOCK_RAW or "
	   "SOCK_PACKET",
	   "FreeBSD: socket; netlink, packet and raw sockets reach the "
	   "host's global state",
	   NONE_OF(0, socket_domain_no),
	   NONE_OF_MASKED(1, SOCK_TYPE_MASK, socket_type_no)),
	DENY(connect, "FreeBSD denies connect (connectat only); Linux has "
		      "no connectat"),
	ALLOW(accept, "FreeBSD: accept; CAP_ACCEPT"),
	IF(sendto, "dest_addr == NULL",
	   "FreeBSD: sendto, ECAPMODE with a destination", NUL(4)),
	ALLOW(recvfrom, "FreeBSD: recvfrom"),
	ALLOW(sendmsg, "FreeBSD: sendmsg; the BPF side denies msg_name"),
	ALLOW(recvmsg, "FreeBSD: recvmsg"),
	ALLOW(shutdown, "FreeBSD: shutdown; CAP_SHUTDOWN"),
	DENY(bind, "FreeBSD denies bind (bindat only); Linux has no bindat"),
	ALLOW(listen, "FreeBSD: listen; CAP_LISTEN"),
	ALLOW(getsockname, "FreeBSD: getsockname"),
	ALLOW(getpeername, "FreeBSD: getpeername"),
	ALLOW(socketpair, "FreeBSD: socketpair"),
	ALLOW(setsockopt, "FreeBSD: setsockopt"),
	ALLOW(getsockopt, "FreeBSD: getsockopt"),
	IF(clone, "no CLONE_NEW* or CLONE_PARENT flag in flags",
	   "FreeBSD: fork, thr_new; new namespaces are global state, "
	   "CLONE_PARENT makes a child of another process (its exit "
	   "signal and its reaping are that process's)",
	   NO_BITS(0, CLONE_NEW_ANY | CLONE_PARENT)),
	ALLOW(fork, "FreeBSD: fork"),
	ALLOW(vfork, "FreeBSD: vfork"),
	DENY(execve, P_PATH " (FreeBSD: fexecve only)"),
	ALLOW(exit, "FreeBSD: thr_exit"),
	ALLOW(wait4, "FreeBSD: wait4; own children only"),
	IF(kill, "pid > 0", "FreeBSD: kill, own process only (BPF task_kill)",
	   POS(0)),
	ALLOW(uname, "FreeBSD: sysctl kern.ostype and friends"),
	DENY(semget, P_SYSV),
	DENY(semop, P_SYSV),
	DENY(semctl, P_SYSV),
	DENY(shmdt, P_SYSV),
	DENY(msgget, P_SYSV),
	DENY(msgsnd, P_SYSV),
	DENY(msgrcv, P_SYSV),
	DENY(msgctl, P_SYSV),
	ALLOW(fcntl, "FreeBSD: fcntl; CAP_FCNTL, the control plane"),
	ALLOW(flock, "FreeBSD: flock; CAP_FLOCK"),
	ALLOW(fsync, "FreeBSD: fsync; CAP_FSYNC"),
	ALLOW(fdatasync, "FreeBSD: fdatasync"),
	DENY(truncate, P_PATH),
	ALLOW(ftruncate, "FreeBSD: ftruncate; CAP_FTRUNCATE"),
	ALLOW(getdents, "FreeBSD: getdirentries; CAP_READ"),
	DENY(getcwd, "reveals the cwd's place in the global namespace"),
	DENY(chdir, P_PATH),
	DENY(fchdir, "FreeBSD denies fchdir: the cwd is AT_FDCWD"),
	DENY(rename, P_PATH),
	DENY(mkdir, P_PATH),
	DENY(rmdir, P_PATH),
	DENY(creat, P_PATH),
	DENY(link, P_PATH),
	DENY(unlink, P_PATH),
	DENY(symlink, P_PATH),
	DENY(readlink, P_PATH),
	DENY(chmod, P_PATH),
	ALLOW(fchmod, "FreeBSD: fchmod; CAP_FCHMOD"),
	DENY(chown, P_PATH),
	ALLOW(fchown, "FreeBSD: fchown; CAP_FCHOWN"),
	DENY(lchown, P_PATH),
	ALLOW(umask, "FreeBSD: umask"),
	ALLOW(gettimeofday, "FreeBSD: gettimeofday"),
	ALLOW(getrlimit, "FreeBSD: getrlimit"),
	ALLOW(getrusage, "FreeBSD: getrusage; self, children or thread"),
	ALLOW(sysinfo, "like FreeBSD's scoped sysctl reads"),
	ALLOW(times, "FreeBSD: getrusage (libc times)"),
	DENY(ptrace, "other processes; FreeBSD denies"),
	ALLOW(getuid, "FreeBSD: getuid"),
	DENY(syslog, "kernel log; FreeBSD denies"),
	ALLOW(getgid, "FreeBSD: getgid"),
	IF(setuid, "uid held at entry", "FreeBSD: setuid, here never a new id",
	   ID(0, CAPMODE_UID)),
	IF(setgid, "gid held at entry", "FreeBSD: setgid, here never a new id",
	   ID(0, CAPMODE_GID)),
	ALLOW(geteuid, "FreeBSD: geteuid"),
	ALLOW(getegid, "FreeBSD: getegid"),
	IF(setpgid, "pid == 0 and pgid == 0",
	   "only makes the caller a group leader; no other process", EQ(0, 0),
	   EQ(1, 0)),
	ALLOW(getppid, "FreeBSD: getppid"),
	ALLOW(getpgrp, "FreeBSD: getpgrp"),
	ALLOW(setsid, "FreeBSD: setsid"),
	IF(setreuid, "each id held at entry or -1", "FreeBSD: setreuid",
	   ID(0, CAPMODE_UID_OR_NEG), ID(1, CAPMODE_UID_OR_NEG)),
	IF(setregid, "each id held at entry or -1", "FreeBSD: setregid",
	   ID(0, CAPMODE_GID_OR_NEG), ID(1, CAPMODE_GID_OR_NEG)),
	ALLOW(getgroups, "FreeBSD: getgroups"),
	DENY(setgroups, "could name groups not held at entry; no id list "
			"seccomp can read"),
	IF(setresuid, "each id held at entry or -1", "FreeBSD: setresuid",
	   ID(0, CAPMODE_UID_OR_NEG), ID(1, CAPMODE_UID_OR_NEG),
	   ID(2, CAPMODE_UID_OR_NEG)),
	ALLOW(getresuid, "FreeBSD: getresuid"),
	IF(setresgid, "each id held at entry or -1", "FreeBSD: setresgid",
	   ID(0, CAPMODE_GID_OR_NEG), ID(1, CAPMODE_GID_OR_NEG),
	   ID(2, CAPMODE_GID_OR_NEG)),
	ALLOW(getresgid, "FreeBSD: getresgid"),
	ALLOW(getpgid, "FreeBSD: getpgid; BPF task_getpgid: own process only "
		       "(FreeBSD: any)"),
	IF(setfsuid, "uid held at entry or -1",
	   "Linux only; -1 is the query idiom", ID(0, CAPMODE_UID_OR_NEG)),
	IF(setfsgid, "gid held at entry or -1",
	   "Linux only; -1 is the query idiom", ID(0, CAPMODE_GID_OR_NEG)),
	ALLOW(getsid, "FreeBSD: getsid; BPF task_getsid: own process only "
		      "(FreeBSD: any)"),
	DENY(capget, "Linux only; its pid is in user memory, so seccomp "
		     "cannot scope it"),
	DENY(capset, "Linux only; no FreeBSD counterpart"),
	ALLOW(rt_sigpending, "FreeBSD: sigpending"),
	ALLOW(rt_sigtimedwait, "FreeBSD: sigtimedwait"),
	IF(rt_sigqueueinfo, "tgid > 0",
	   "FreeBSD: sigqueue, own process only (BPF task_kill)", POS(0)),
	ALLOW(rt_sigsuspend, "FreeBSD: sigsuspend"),
	ALLOW(sigaltstack, "FreeBSD: sigaltstack"),
	DENY(utime, P_PATH),
	DENY(mknod, P_PATH),
	DENY(uselib, P_PATH),
	IF(personality, "persona == 0xffffffff (query)",
	   "Linux only; setting one changes the ABI", EQ(0, 0xffffffff)),
	DENY(ustat, "device namespace; obsolete"),
	DENY(statfs, P_PATH " (FreeBSD: fstatfs only)"),
	ALLOW(fstatfs, "FreeBSD: fstatfs; CAP_FSTATFS"),
	DENY(sysfs, "Linux only, obsolete; filesystem type table"),
	IF(getpriority, "which == PRIO_PROCESS and who == 0",
	   "FreeBSD: getpriority (unscoped there)", EQ(0, PRIO_PROCESS),
	   EQ(1, 0)),
	IF(setpriority, "which == PRIO_PROCESS and who == 0",
	   "FreeBSD: setpriority; PRIO_USER would reach other processes",
	   EQ(0, PRIO_PROCESS), EQ(1, 0)),
	IF(sched_setparam, C_SELF, "FreeBSD: sched_setparam", EQ(0, 0)),
	IF(sched_getparam, C_SELF, "FreeBSD: sched_getparam", EQ(0, 0)),
	IF(sched_setscheduler, C_SELF, "FreeBSD: sched_setscheduler", EQ(0, 0)),
	IF(sched_getscheduler, C_SELF, "FreeBSD: sched_getscheduler", EQ(0, 0)),
	ALLOW(sched_get_priority_max, "FreeBSD: sched_get_priority_max"),
	ALLOW(sched_get_priority_min, "FreeBSD: sched_get_priority_min"),
	IF(sched_rr_get_interval, C_SELF, "FreeBSD: sched_rr_get_interval",
	   EQ(0, 0)),
	ALLOW(mlock, "FreeBSD: mlock"),
	ALLOW(munlock, "FreeBSD: munlock"),
	ALLOW(mlockall, "FreeBSD: mlockall"),
	ALLOW(munlockall, "FreeBSD: munlockall"),
	DENY(vhangup, "the controlling terminal; Linux only"),
	DENY(modify_ldt, "Linux only; x86-64 libc uses arch_prctl"),
	DENY(pivot_root, P_PRIV),
	DENY(_sysctl, "removed in Linux 5.5"),
	IF(prctl, "option in a read-only or narrowing set (doc)",
	   "Linux only; control plane, PR_GET_*, NO_NEW_PRIVS, SECCOMP",
	   ONE_OF(0, prctl_ok)),
	ALLOW(arch_prctl, "FreeBSD: sysarch (thread pointer)"),
	DENY(adjtimex, "system clock; FreeBSD denies"),
	ALLOW(setrlimit, "FreeBSD: setrlimit"),
	DENY(chroot, P_PATH),
	ALLOW(sync, "FreeBSD: sync"),
	DENY(acct, P_PRIV),
	DENY(settimeofday, "system clock; FreeBSD denies"),
	DENY(mount, P_PRIV),
	DENY(umount2, P_PRIV),
	DENY(swapon, P_PRIV),
	DENY(swapoff, P_PRIV),
	DENY(reboot, P_PRIV),
	DENY(sethostname, "global name; FreeBSD denies"),
	DENY(setdomainname, "global name; FreeBSD denies"),
	DENY(iopl, "I/O ports; Linux only"),
	DENY(ioperm, "I/O ports; Linux only"),
	DENY(create_module, P_GONE),
	DENY(init_module, "kernel modules; FreeBSD denies kldload"),
	DENY(delete_module, "kernel modules; FreeBSD denies kldunload"),
	DENY(get_kernel_syms, P_GONE),
	DENY(query_module, P_GONE),
	DENY(quotactl, P_PATH " (FreeBSD denies quotactl)"),
	DENY(nfsservctl, P_GONE),
	DENY(getpmsg, P_GONE),
	DENY(putpmsg, P_GONE),
	DENY(afs_syscall, P_GONE),
	DENY(tuxcall, P_GONE),
	DENY(security, P_GONE),
	ALLOW(gettid, "FreeBSD: thr_self"),
	ALLOW(readahead, "Linux only; by descriptor"),
	DENY(setxattr, P_PATH "; " P_XATTR),
	DENY(lsetxattr, P_PATH "; " P_XATTR),
	ALLOW(fsetxattr, "FreeBSD: extattr_set_fd"),
	DENY(getxattr, P_PATH "; " P_XATTR),
	DENY(lgetxattr, P_PATH "; " P_XATTR),
	ALLOW(fgetxattr, "FreeBSD: extattr_get_fd"),
	DENY(listxattr, P_PATH "; " P_XATTR),
	DENY(llistxattr, P_PATH "; " P_XATTR),
	ALLOW(flistxattr, "FreeBSD: extattr_list_fd"),
	DENY(removexattr, P_PATH "; " P_XATTR),
	DENY(lremovexattr, P_PATH "; " P_XATTR),
	ALLOW(fremovexattr, "FreeBSD: extattr_delete_fd"),
	IF(tkill, "tid > 0", "FreeBSD: thr_kill, own process only (BPF)",
	   POS(0)),
	ALLOW(time, "FreeBSD: gettimeofday (libc time)"),
	ALLOW(futex, "FreeBSD: _umtx_op"),
	IF(sched_setaffinity, C_SELF, "FreeBSD: cpuset_setaffinity (own)",
	   EQ(0, 0)),
	ALLOW(sched_getaffinity, "FreeBSD: cpuset_getaffinity; libc passes "
				 "thread ids"),
	DENY(set_thread_area, "i386 TLS; x86-64 libc uses arch_prctl"),
	ALLOW(io_setup, P_AIO),
	ALLOW(io_destroy, P_AIO),
	ALLOW(io_getevents, P_AIO),
	ALLOW(io_submit, P_AIO),
	ALLOW(io_cancel, P_AIO),
	DENY(get_thread_area, "i386 TLS; x86-64 libc uses arch_prctl"),
	DENY(lookup_dcookie, "profiling, privileged; removed in Linux 6.9"),
	ALLOW(epoll_create, "FreeBSD: kqueue"),
	DENY(epoll_ctl_old, P_GONE),
	DENY(epoll_wait_old, P_GONE),
	DENY(remap_file_pages, "Linux only, deprecated"),
	ALLOW(getdents64, "FreeBSD: getdirentries; CAP_READ"),
	ALLOW(set_tid_address, "FreeBSD: thr_new (thread setup)"),
	ALLOW(restart_syscall, "restarts an interrupted allowed call"),
	DENY(semtimedop, P_SYSV),
	ALLOW(fadvise64, "FreeBSD: posix_fadvise"),
	ALLOW(timer_create, "FreeBSD: ktimer_create"),
	ALLOW(timer_settime, "FreeBSD: ktimer_settime"),
	ALLOW(timer_gettime, "FreeBSD: ktimer_gettime"),
	ALLOW(timer_getoverrun, "FreeBSD: ktimer_getoverrun"),
	ALLOW(timer_delete, "FreeBSD: ktimer_delete"),
	DENY(clock_settime, "system clock; FreeBSD allows only reads"),
	ALLOW(clock_gettime, "FreeBSD: clock_gettime"),
	ALLOW(clock_getres, "FreeBSD: clock_getres"),
	ALLOW(clock_nanosleep, "FreeBSD: clock_nanosleep"),
	ALLOW(exit_group, "FreeBSD: exit"),
	ALLOW(epoll_wait, "FreeBSD: kevent"),
	ALLOW(epoll_ctl, "FreeBSD: kevent; CAP_EPOLL_CTL"),
	IF(tgkill, "tgid > 0 and tid > 0",
	   "FreeBSD: thr_kill, own process only (BPF)", POS(0), POS(1)),
	DENY(utimes, P_PATH),
	DENY(vserver, P_GONE),
	ALLOW(mbind, P_MEM),
	ALLOW(set_mempolicy, P_MEM),
	ALLOW(get_mempolicy, P_MEM),
	DENY(mq_open, "POSIX queue names are global; FreeBSD denies"),
	DENY(mq_unlink, "POSIX queue names are global; FreeBSD denies"),
	ALLOW(mq_timedsend, "FreeBSD: kmq_timedsend"),
	ALLOW(mq_timedreceive, "FreeBSD: kmq_timedreceive"),
	ALLOW(mq_notify, "FreeBSD: kmq_notify"),
	ALLOW(mq_getsetattr, "FreeBSD: kmq_setattr"),
	DENY(kexec_load, P_PRIV),
	ALLOW(waitid, "FreeBSD: wait6; own children only"),
	DENY(add_key, "kernel keyrings are shared; Linux only"),
	DENY(request_key, "kernel keyrings are shared; Linux only"),
	DENY(keyctl, "kernel keyrings are shared; Linux only"),
	IF(ioprio_set, "which == IOPRIO_WHO_PROCESS and who == 0",
	   "Linux only; other processes otherwise", EQ(0, 1), EQ(1, 0)),
	IF(ioprio_get, "which == IOPRIO_WHO_PROCESS and who == 0",
	   "Linux only; other processes otherwise", EQ(0, 1), EQ(1, 0)),
	ALLOW(inotify_init, "FreeBSD 15: inotify"),
	DENY(inotify_add_watch, P_PATH " (FreeBSD 15: inotify_add_watch_at)"),
	ALLOW(inotify_rm_watch, "FreeBSD 15: inotify_rm_watch; CAP_INOTIFY_RM"),
	DENY(migrate_pages, "other processes' memory"),
	IF(openat, "dirfd != AT_FDCWD, no O_PATH in flags",
	   "FreeBSD allows it relative to a dirfd; BPF checks beneath, and "
	   "O_PATH opens run no LSM hook that could",
	   DIRFD(0), NO_BITS(2, O_PATH)),
	IF(mkdirat, C_DIRFD, P_AT, DIRFD(0)),
	IF(mknodat, C_DIRFD, P_AT, DIRFD(0)),
	IF(fchownat, C_DIRFD, P_AT, DIRFD(0)),
	IF(futimesat, C_DIRFD, P_AT, DIRFD(0)),
	IF(newfstatat, C_DIRFD, "FreeBSD: fstatat; BPF checks beneath",
	   DIRFD(0)),
	IF(unlinkat, C_DIRFD, P_AT, DIRFD(0)),
	IF(renameat, "olddirfd and newdirfd != AT_FDCWD", P_AT, DIRFD(0),
	   DIRFD(2)),
	IF(linkat, "olddirfd and newdirfd != AT_FDCWD", P_AT, DIRFD(0),
	   DIRFD(2)),
	IF(symlinkat, "newdirfd (arg 1) != AT_FDCWD", P_AT, DIRFD(1)),
	IF(readlinkat, C_DIRFD, P_AT, DIRFD(0)),
	IF(fchmodat, C_DIRFD, P_AT, DIRFD(0)),
	DENY(faccessat, P_NOHOOK),
	ALLOW(pselect6, "FreeBSD: pselect"),
	ALLOW(ppoll, "FreeBSD: ppoll"),
	DENY(unshare, "new namespaces are global state; Linux only"),
	ALLOW(set_robust_list, "FreeBSD: _umtx_op (robust mutexes)"),
	IF(get_robust_list, C_SELF, "other processes otherwise", EQ(0, 0)),
	ALLOW(splice, "Linux only; by descriptor"),
	ALLOW(tee, "Linux only; by descriptor"),
	ALLOW(sync_file_range, "Linux only; by descriptor"),
	ALLOW(vmsplice, "Linux only; by descriptor"),
	IF(move_pages, C_SELF, "other processes' memory otherwise", EQ(0, 0)),
	IF(utimensat, C_DIRFD, "FreeBSD: utimensat; (fd, NULL) is futimens",
	   DIRFD(0)),
	ALLOW(epoll_pwait, "FreeBSD: kevent"),
	ALLOW(signalfd, "Linux only; the caller's own signals"),
	ALLOW(timerfd_create, "FreeBSD 14: timerfd_create"),
	ALLOW(eventfd, "FreeBSD: eventfd (__specialfd)"),
	ALLOW(fallocate, "FreeBSD: posix_fallocate, fspacectl"),
	ALLOW(timerfd_settime, "FreeBSD 14: timerfd_settime"),
	ALLOW(timerfd_gettime, "FreeBSD 14: timerfd_gettime"),
	ALLOW(accept4, "FreeBSD: accept4"),
	ALLOW(signalfd4, "Linux only; the caller's own signals"),
	ALLOW(eventfd2, "FreeBSD: eventfd (__specialfd)"),
	ALLOW(epoll_create1, "FreeBSD: kqueue"),
	ALLOW(dup3, "FreeBSD: dup3 (libc over fcntl)"),
	ALLOW(pipe2, "FreeBSD: pipe2"),
	ALLOW(inotify_init1, "FreeBSD 15: inotify"),
	ALLOW(preadv, "FreeBSD: preadv"),
	ALLOW(pwritev, "FreeBSD: pwritev"),
	IF(rt_tgsigqueueinfo, "tgid > 0 and tid > 0",
	   "FreeBSD: sigqueue, own process only (BPF)", POS(0), POS(1)),
	DENY(perf_event_open, "other processes and the kernel; Linux only"),
	ALLOW(recvmmsg, "FreeBSD: recvmmsg"),
	DENY(fanotify_init, "mount- and filesystem-wide events; Linux only"),
	DENY(fanotify_mark, "paths and mounts outside any dirfd"),
	IF(prlimit64, C_SELF, "FreeBSD: getrlimit/setrlimit (own process)",
	   EQ(0, 0)),
	DENY(name_to_handle_at,
	     "file handles bypass the namespace (open_by_handle_at)"),
	DENY(open_by_handle_at, "opens any inode by handle; FreeBSD denies "
				"fhopen"),
	DENY(clock_adjtime, "system clock; FreeBSD denies"),
	ALLOW(syncfs, "Linux only; by descriptor"),
	ALLOW(sendmmsg, "FreeBSD: sendmmsg; the BPF side denies msg_name"),
	DENY(setns, "joins other namespaces; Linux only"),
	ALLOW(getcpu, "Linux only; the caller's own CPU"),
	DENY(process_vm_readv, "other processes' memory"),
	DENY(process_vm_writev, "other processes' memory"),
	DENY(kcmp, "compares other processes' resources"),
	DENY(finit_module, "kernel modules; FreeBSD denies kldload"),
	IF(sched_setattr, C_SELF, "FreeBSD: sched_setscheduler", EQ(0, 0)),
	IF(sched_getattr, C_SELF, "FreeBSD: sched_getscheduler", EQ(0, 0)),
	IF(renameat2, "olddirfd and newdirfd != AT_FDCWD", P_AT, DIRFD(0),
	   DIRFD(2)),
	ALLOW(seccomp, "only narrows the caller; cap_enter re-entry"),
	ALLOW(getrandom, "FreeBSD: getrandom"),
	ALLOW(memfd_create, "FreeBSD: shm_open(SHM_ANON), memfd_create"),
	DENY(kexec_file_load, P_PRIV),
	DENY(bpf, "Linux only; the control plane needs no BPF descriptor"),
	IF(execveat, C_DIRFD, "FreeBSD: fexecve (AT_EMPTY_PATH); BPF checks",
	   DIRFD(0)),
	DENY(userfaultfd, "Linux only; a kernel-exploit primitive"),
	ALLOW(membarrier, "Linux only; the caller's own threads"),
	ALLOW(mlock2, "FreeBSD: mlock"),
	ALLOW(copy_file_range, "FreeBSD: copy_file_range"),
	ALLOW(preadv2, "FreeBSD: preadv"),
	ALLOW(pwritev2, "FreeBSD: pwritev"),
	ALLOW(pkey_mprotect, P_MEM),
	ALLOW(pkey_alloc, P_MEM),
	ALLOW(pkey_free, P_MEM),
	IF(statx, C_DIRFD, "FreeBSD: fstatat; BPF checks beneath", DIRFD(0)),
	ALLOW(io_pgetevents, P_AIO),
	ALLOW(rseq, "Linux only; libc thread setup"),
	ALLOW(pidfd_send_signal, "FreeBSD: pdkill; CAP_PDKILL"),
	DENY(io_uring_setup, "bypasses syscall filtering; Linux only"),
	DENY(io_uring_enter, "bypasses syscall filtering; Linux only"),
	DENY(io_uring_register, "bypasses syscall filtering; Linux only"),
	DENY(open_tree, "mount API; FreeBSD denies mount"),
	DENY(move_mount, "mount API; FreeBSD denies mount"),
	DENY(fsopen, "mount API; FreeBSD denies mount"),
	DENY(fsconfig, "mount API; FreeBSD denies mount"),
	DENY(fsmount, "mount API; FreeBSD denies mount"),
	DENY(fspick, "mount API; FreeBSD denies mount"),
	DENY(pidfd_open, "names any pid; FreeBSD has only pdfork"),
	NOSYS(clone3, "flags are in user memory: ENOSYS so libc uses clone"),
	ALLOW(close_range, "FreeBSD: close_range"),
	DENY(openat2, "its flags are in user memory, where O_PATH cannot be "
		      "seen; openat serves"),
	DENY(pidfd_getfd, "takes descriptors from other processes"),
	DENY(faccessat2, P_NOHOOK),
	DENY(process_madvise, "other processes' memory"),
	ALLOW(epoll_pwait2, "FreeBSD: kevent"),
	DENY(mount_setattr, "mount API; FreeBSD denies mount"),
	DENY(quotactl_fd, "quota administration; FreeBSD denies quotactl"),
	ALLOW(landlock_create_ruleset, "Linux only; only narrows the caller"),
	ALLOW(landlock_add_rule, "Linux only; only narrows the caller"),
	ALLOW(landlock_restrict_self, "Linux only; only narrows the caller"),
	ALLOW(memfd_secret, P_MEM),
	DENY(process_mrelease, "other processes' memory"),
	ALLOW(futex_waitv, "FreeBSD: _umtx_op"),
	ALLOW(set_mempolicy_home_node, P_MEM),
	ALLOW(cachestat, "Linux only; page cache state by descriptor"),
	IF(fchmodat2, C_DIRFD, P_AT, DIRFD(0)),
	ALLOW(map_shadow_stack, "Linux only; libc CET thread setup"),
	ALLOW(futex_wake, "FreeBSD: _umtx_op"),
	ALLOW(futex_wait, "FreeBSD: _umtx_op"),
	ALLOW(futex_requeue, "FreeBSD: _umtx_op"),
	DENY(statmount, "the mount table is global; Linux only"),
	DENY(listmount, "the mount table is global; Linux only"),
	ALLOW(lsm_get_self_attr, "Linux only; the caller's own labels"),
	DENY(lsm_set_self_attr, "may move the caller to a wider LSM domain"),
	ALLOW(lsm_list_modules, "Linux only; read-only"),
	ALLOW(mseal, "Linux only; only narrows the caller"),
};

const size_t capsicum_capmode_table_len =
	sizeof(capsicum_capmode_table) / sizeof(capsicum_capmode_table[0]);

_Static_assert(sizeof(capsicum_capmode_table) /
			       sizeof(capsicum_capmode_table[0]) <=
		       CAPSICUM_CAPMODE_TABLE_MAX,
	       "raise CAPSICUM_CAPMODE_TABLE_MAX");
