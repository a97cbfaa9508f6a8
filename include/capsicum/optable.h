/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The operation table: for each syscall that acts on a descriptor, which
 * argument is the descriptor, which rights it needs, and whether the stock
 * and the patched kernels enforce that.  One X-macro row per syscall;
 * doc/enforcement.md's right and verdict columns and the selftest rows'
 * rights are checked against it by `make test-unit`
 * (tests/test_optable.c; doc/design.md says how to add a row).
 *
 * Not installed, not an API: a table of this tree's enforcement.  The
 * BPF side expands it where it decides reads and writes (rw_need_of in
 * bpf/syscalls.bpf.h: the CAPSICUM_OPS_RW rows a stock hook enforces),
 * lookups through a dirfd (at_need_of in bpf/syscalls_at.bpf.h: the
 * CAPSICUM_OPS_AT rows a stock hook enforces, for the path, attribute
 * and exec hooks), mappings, control and attributes (mmap_need_of,
 * ioctl_, fcntl_, lock_ and attr_need_of in bpf/hooks_file.bpf.h: the
 * CAPSICUM_OPS_MMAP, _CTL and _FILE rows) and what the patched kernel's
 * fget hook checks (fget_need_of in bpf/fget.bpf.h: every row whose
 * patched verdict is better than its stock one), with each rule a
 * function of bpf/optable.bpf.h, and takes its NR_ numbers from it, as
 * do the socket hooks (sock_need_of in bpf/hooks_sock.bpf.h: the
 * CAPSICUM_OPS_SOCK rows), task_kill (proc_need_of in
 * bpf/hooks_task.bpf.h) and libcapsicum's pdwait4 (waitid's row, in
 * lib/procdesc.c).
 *
 * Includable from BPF C and from userspace, like abi.h.
 */
#ifndef _CAPSICUM_OPTABLE_H
#define _CAPSICUM_OPTABLE_H

#include "abi.h"

/* No syscall of that name on i386 (or none the project maps). */
#define OPT_NO_NR (-1)

/* The descriptor arguments, as a mask of argument positions (0-based). */
#define OPT_ARG(n) (1U << (n))
/* The descriptors are in fd_set or pollfd arrays the call is given. */
#define OPT_ARGSETS (1U << 8)
/* No descriptor: the call acts on a mapping's file (mprotect). */
#define OPT_NOFD 0U

/* Whether a kernel enforces a row. */
enum opt_verdict {
	OPT_YES,  /* a hook checks every form of the call */
	OPT_PART, /* some forms only: the reason names the others */
	OPT_NO,	  /* no hook: the reason says why */
	OPT_LIB,  /* libcapsicum refuses; a raw syscall is not checked */
};

/*
 * Rules that refine a row's rights from the call's arguments.  may: every
 * right the rule can add to (or use instead of) the row's rights; fcntls:
 * the fcntl sub-rights (CAP_FCNTL_*) it can ask for.
 *
 *	X(rule, may, fcntls, what)
 */
#define CAPSICUM_OPT_RULES(X)                                                  \
	X(none, 0, 0, "none: the row's rights, whatever the arguments")        \
	X(offset_ptr, CAP_SEEK, 0,                                             \
	  "an offset other than -1 (the file position) adds CAP_SEEK")         \
	X(splice_end, CAP_SEEK, 0,                                             \
	  "the input end needs CAP_READ, the output end CAP_WRITE; an "        \
	  "offset pointer on an end adds CAP_SEEK for that end")               \
	X(open_flags,                                                          \
	  CAP_READ | CAP_WRITE | CAP_SEEK | CAP_CREATE | CAP_FTRUNCATE |       \
		  CAP_FSYNC,                                                   \
	  0,                                                                   \
	  "O_RDONLY/O_RDWR add CAP_READ, O_WRONLY/O_RDWR CAP_WRITE (and "      \
	  "CAP_SEEK without O_APPEND or O_TRUNC), O_CREAT/O_TMPFILE "          \
	  "CAP_CREATE, O_TRUNC CAP_FTRUNCATE, O_SYNC/O_DSYNC CAP_FSYNC, on "   \
	  "the dirfd")                                                         \
	X(mmap_prot, CAP_MMAP_R | CAP_MMAP_W | CAP_MMAP_X, 0,                  \
	  "PROT_READ adds CAP_MMAP_R, PROT_EXEC CAP_MMAP_X, PROT_WRITE on a "  \
	  "MAP_SHARED mapping CAP_MMAP_W (not on MAP_PRIVATE)")                \
	X(fcntl_cmd, CAP_FLOCK | CAP_FSTAT | CAP_FCHMOD, CAP_FCNTL_ALL,        \
	  "F_GETFL/F_SETFL/F_GETOWN/F_SETOWN need their CAP_FCNTL_* "          \
	  "sub-right; locks and leases CAP_FLOCK instead of CAP_FCNTL, "       \
	  "F_GET_SEALS CAP_FSTAT, F_ADD_SEALS CAP_FCHMOD; "                    \
	  "F_DUPFD*/F_GETFD/F_SETFD none")                                     \
	X(ioctl_list, 0, 0,                                                    \
	  "the command must be in the descriptor's ioctl list, if it has "     \
	  "one; FIOCLEX/FIONCLEX always allowed")                              \
	X(lseek_whence, CAP_SEEK_TELL, 0,                                      \
	  "SEEK_CUR with offset 0 needs only CAP_SEEK_TELL")                   \
	X(msg_dest, CAP_CONNECT, 0, "a destination address adds CAP_CONNECT")  \
	X(empty_path, CAP_FSTAT | CAP_FUTIMES, 0,                              \
	  "an empty path (AT_EMPTY_PATH: fstatat, statx, faccessat) or a "     \
	  "NULL one (utimensat, futimesat) acts on the descriptor: CAP_FSTAT " \
	  "or CAP_FUTIMES instead of the *at right (utimensat's "              \
	  "AT_EMPTY_PATH is still a lookup of the dirfd itself)")              \
	X(lookup_path, CAP_LOOKUP, 0,                                          \
	  "a path (not AT_EMPTY_PATH) adds CAP_LOOKUP on the dirfd")           \
	X(mknod_mode, CAP_MKFIFOAT | CAP_MKNODAT, 0,                           \
	  "a FIFO needs CAP_MKFIFOAT, any other node CAP_MKNODAT")             \
	X(two_dirfds, 0, 0,                                                    \
	  "the source's dirfd needs the _SOURCE right, the target's the "      \
	  "_TARGET right")                                                     \
	X(epoll_ends, 0, 0,                                                    \
	  "the epoll descriptor needs CAP_EPOLL_CTL, the descriptor added "    \
	  "or modified CAP_EVENT")                                             \
	X(old_value, CAP_READ, 0,                                              \
	  "asking the old value back (a non-NULL pointer) adds CAP_READ")      \
	X(fanotify_ends, CAP_FSTAT | CAP_LOOKUP, 0,                            \
	  "the fanotify descriptor needs the row's rights (CAP_NOTIFY of "     \
	  "<linux/capsicum.h>), the marked dirfd CAP_FSTAT, and CAP_LOOKUP "   \
	  "too when a path is given")                                          \
	X(uring_offset, CAP_SEEK, 0,                                           \
	  "an io_uring read or write at an offset (not -1, the file "          \
	  "position) of a file with a position adds CAP_SEEK")                 \
	X(uring_splice_end, CAP_SEEK, 0,                                       \
	  "an io_uring splice or tee: the input end needs CAP_READ, the "      \
	  "output end CAP_WRITE; an offset on an end adds CAP_SEEK there")     \
	X(uring_sockopt, CAP_GETSOCKOPT | CAP_SETSOCKOPT, 0,                   \
	  "a socket's option command (SOCKET_URING_OP_GETSOCKOPT, "            \
	  "_SETSOCKOPT) adds CAP_GETSOCKOPT or CAP_SETSOCKOPT, which the "      \
	  "uring_cmd hook asks of the file's floor on every kernel")           \
	X(aio_op, CAP_READ | CAP_WRITE | CAP_FSYNC, 0,                         \
	  "each iocb's descriptor: a read (IOCB_CMD_PREAD/PREADV) adds "       \
	  "CAP_READ, a write CAP_WRITE; IOCB_CMD_FSYNC/FDSYNC needs "          \
	  "CAP_FSYNC (and, FreeBSD's, no CAP_SEEK); where the lookup cannot "  \
	  "tell the opcode (the patched kernel's), all of these and "          \
	  "CAP_EVENT, IOCB_CMD_POLL's")

enum opt_rule {
#define OPT_RULE_ENUM(rule, may, fcntls, what) OPT_RULE_##rule,
	CAPSICUM_OPT_RULES(OPT_RULE_ENUM)
#undef OPT_RULE_ENUM
};

/* The reasons doc/enforcement.md prints after "no: ". */
#define OPT_WHY_TEE                                                            \
	"`do_tee()` and a pipe-to-pipe splice call no LSM hook (a pipe "       \
	"limited without the right tees and splices on 6.1 and 6.12)"
#define OPT_WHY_VMSPLICE                                                       \
	"`vmsplice()` moves pages into or out of the pipe without "            \
	"`rw_verify_area()`, so no stock hook sees it, and a pipe end "        \
	"limited without the right still takes or gives data"
#define OPT_WHY_LSEEK "no LSM hook on `lseek`"
#define OPT_WHY_FSTAT                                                          \
	"`security_inode_getattr()` calls no LSM for an `S_PRIVATE` inode "    \
	"(found by `fuzz_control`, `doc/security.md`)"
#define OPT_WHY_NOHOOK "no LSM hook"
#define OPT_WHY_FACCESSAT                                                      \
	"the access check (`inode_permission`) comes after the walk has "      \
	"ended and sees an inode, nothing that ties it to the dirfd (the "     \
	"walk to it is confined like every other: "                            \
	"`walk_faccessat_limited_never_steps_outside`); capability mode "      \
	"refuses both calls"
#define OPT_WHY_POLL                                                           \
	"no LSM hook sees a descriptor being polled, so one limited without "  \
	"`CAP_EVENT` still reports its readiness"
#define OPT_WHY_FGET_ONLY "no stock LSM hook sees these descriptors"
#define OPT_WHY_EPOLL_WAIT                                                     \
	"`epoll_wait` looks up the epoll descriptor only, not those in its "   \
	"set; `epoll_ctl` checks `CAP_EVENT` when one is added"
#define OPT_WHY_FANOTIFY_FLUSH                                                 \
	"`FAN_MARK_FLUSH` looks no path up and reaches no LSM hook, so the "   \
	"fanotify descriptor's right is not asked for it"
#define OPT_WHY_AIO                                                            \
	"`IOCB_CMD_POLL` reaches no LSM hook; no stock hook sees the iocb's "  \
	"descriptor, so a read or write is checked against the file's "        \
	"floor, and `IOCB_CMD_FSYNC`/`FDSYNC` by it too, at the "              \
	"`prepare_creds()` inside `aio_fsync()`, which fails them with "       \
	"`ENOMEM`, not `ENOTCAPABLE`"
#define OPT_WHY_PDWAIT                                                         \
	"no hook sees `waitid(P_PIDFD)`'s descriptor, so a raw `waitid` "      \
	"bypasses it (`procdesc_rights` checks the library's refusal)"

/*
 * One row per syscall:
 *
 *	X(name, nr64, nr32, fds, rights, rule, stock, stock_why, patched,
 *	  patched_why)
 *
 * name: the syscall as doc/enforcement.md names it; nr64, nr32: its
 * x86-64 and i386 numbers (OPT_NO_NR where i386 has none); fds: the
 * descriptor arguments; rights: what every form of the call needs (one
 * rights word: all CAP_* of one index), the rule adding to it; stock,
 * patched: enum opt_verdict, with the reason doc/enforcement.md prints
 * for OPT_NO and OPT_PART ("" for OPT_YES). "patched" is the patched
 * 6.12 with the stock hooks still attached.
 *
 * i386 numbers are the syscalls of the same name (fstatat64 for
 * newfstatat; mmap's is old_mmap, mmap2 is 192). The stock hooks give
 * i386 calls the file's floor or refuse them (doc/enforcement.md); the
 * patched kernel's fget hook maps the i386 and x32 calls of the rows it
 * decides to those rows (bpf/fget.bpf.h, CAPSICUM_OPT_I386_NRS below).
 */
/* Reads and writes: bpf/syscalls.bpf.h (rw_need_of). */
#define CAPSICUM_OPS_RW(X)                                                     \
	X(read, 0, 3, OPT_ARG(0), CAP_READ, none, OPT_YES, "", OPT_YES, "")    \
	X(readv, 19, 145, OPT_ARG(0), CAP_READ, none, OPT_YES, "", OPT_YES,    \
	  "")                                                                  \
	X(getdents64, 217, 220, OPT_ARG(0), CAP_READ, none, OPT_YES, "",       \
	  OPT_YES, "")                                                         \
	X(getdents, 78, 141, OPT_ARG(0), CAP_READ, none, OPT_YES, "", OPT_YES, \
	  "")                                                                  \
	X(write, 1, 4, OPT_ARG(0), CAP_WRITE, none, OPT_YES, "", OPT_YES, "")  \
	X(writev, 20, 146, OPT_ARG(0), CAP_WRITE, none, OPT_YES, "", OPT_YES,  \
	  "")                                                                  \
	X(pread64, 17, 180, OPT_ARG(0), CAP_PREAD, none, OPT_YES, "", OPT_YES, \
	  "")                                                                  \
	X(pwrite64, 18, 181, OPT_ARG(0), CAP_PWRITE, none, OPT_YES, "",        \
	  OPT_YES, "")                                                         \
	X(preadv, 295, 333, OPT_ARG(0), CAP_PREAD, none, OPT_YES, "", OPT_YES, \
	  "")                                                                  \
	X(pwritev, 296, 334, OPT_ARG(0), CAP_PWRITE, none, OPT_YES, "",        \
	  OPT_YES, "")                                                         \
	X(fallocate, 285, 324, OPT_ARG(0), CAP_PWRITE, none, OPT_YES, "",      \
	  OPT_YES, "")                                                         \
	X(preadv2, 327, 378, OPT_ARG(0), CAP_READ, offset_ptr, OPT_YES, "",    \
	  OPT_YES, "")                                                         \
	X(pwritev2, 328, 379, OPT_ARG(0), CAP_WRITE, offset_ptr, OPT_YES, "",  \
	  OPT_YES, "")                                                         \
	X(sendfile, 40, 187, OPT_ARG(0) | OPT_ARG(1), CAP_READ | CAP_WRITE,    \
	  splice_end, OPT_YES, "", OPT_YES, "")                                \
	X(splice, 275, 313, OPT_ARG(0) | OPT_ARG(2), CAP_READ | CAP_WRITE,     \
	  splice_end, OPT_PART, OPT_WHY_TEE, OPT_YES, "")                      \
	X(copy_file_range, 326, 377, OPT_ARG(0) | OPT_ARG(2),                  \
	  CAP_READ | CAP_WRITE, splice_end, OPT_YES, "", OPT_YES, "")          \
	X(tee, 276, 315, OPT_ARG(0) | OPT_ARG(1), CAP_READ | CAP_WRITE,        \
	  splice_end, OPT_NO, OPT_WHY_TEE, OPT_YES, "")                        \
	X(vmsplice, 278, 316, OPT_ARG(0), CAP_READ | CAP_WRITE, splice_end,    \
	  OPT_NO, OPT_WHY_VMSPLICE, OPT_YES, "")                               \
	X(lseek, 8, 19, OPT_ARG(0), CAP_SEEK, lseek_whence, OPT_NO,            \
	  OPT_WHY_LSEEK, OPT_YES, "")                                          \
	X(io_submit, 209, 248, OPT_ARGSETS, CAP_SEEK, aio_op, OPT_PART,        \
	  OPT_WHY_AIO, OPT_YES, "")

/*
 * Mappings: bpf/hooks_file.bpf.h (mmap_need_of, for mmap_file and
 * mprotect). mmap's is mmap_file's row, which the patched kernel does
 * not load (CAPSICUM_OPS_SUPERSEDED).
 */
#define CAPSICUM_OPS_MMAP_FILE(X)                                              \
	X(mmap, 9, 90, OPT_ARG(4), CAP_MMAP, mmap_prot, OPT_YES, "", OPT_YES,  \
	  "")
#define CAPSICUM_OPS_MMAP(X)                                                   \
	CAPSICUM_OPS_MMAP_FILE(X)                                              \
	X(mprotect, 10, 125, OPT_NOFD, CAP_MMAP, mmap_prot, OPT_YES, "",       \
	  OPT_YES, "")

/*
 * Control: bpf/hooks_file.bpf.h (ctl_need_of, for file_ioctl, file_fcntl
 * and file_lock: fcntl's locks and leases pass file_lock too). flock's
 * is file_lock's row, which the patched kernel does not load
 * (CAPSICUM_OPS_SUPERSEDED): fcntl's locks are file_fcntl's there.
 */
#define CAPSICUM_OPS_LOCK(X)                                                   \
	X(flock, 73, 143, OPT_ARG(0), CAP_FLOCK, none, OPT_YES, "", OPT_YES, "")
#define CAPSICUM_OPS_CTL(X)                                                    \
	X(ioctl, 16, 54, OPT_ARG(0), CAP_IOCTL, ioctl_list, OPT_YES, "",       \
	  OPT_YES, "")                                                         \
	X(fcntl, 72, 55, OPT_ARG(0), CAP_FCNTL, fcntl_cmd, OPT_YES, "",        \
	  OPT_YES, "")                                                         \
	CAPSICUM_OPS_LOCK(X)

/*
 * Attributes: bpf/hooks_file.bpf.h (attr_need_of, for the hooks that see
 * the descriptor's dentry or path: inode_getattr, inode_setattr, the
 * xattr hooks, sb_statfs, path_notify).
 */
#define CAPSICUM_OPS_FILE(X)                                                   \
	X(fstat, 5, 108, OPT_ARG(0), CAP_FSTAT, none, OPT_PART, OPT_WHY_FSTAT, \
	  OPT_YES, "")                                                         \
	X(ftruncate, 77, 93, OPT_ARG(0), CAP_FTRUNCATE, none, OPT_YES, "",     \
	  OPT_YES, "")                                                         \
	X(fchmod, 91, 94, OPT_ARG(0), CAP_FCHMOD, none, OPT_YES, "", OPT_YES,  \
	  "")                                                                  \
	X(fchown, 93, 95, OPT_ARG(0), CAP_FCHOWN, none, OPT_YES, "", OPT_YES,  \
	  "")                                                                  \
	X(flistxattr, 196, 234, OPT_ARG(0), CAP_EXTATTR_LIST, none, OPT_YES,   \
	  "", OPT_YES, "")                                                     \
	X(fgetxattr, 193, 231, OPT_ARG(0), CAP_EXTATTR_GET, none, OPT_YES, "", \
	  OPT_YES, "")                                                         \
	X(fsetxattr, 190, 228, OPT_ARG(0), CAP_EXTATTR_SET, none, OPT_YES, "", \
	  OPT_YES, "")                                                         \
	X(fremovexattr, 199, 237, OPT_ARG(0), CAP_EXTATTR_DELETE, none,        \
	  OPT_YES, "", OPT_YES, "")                                            \
	X(fstatfs, 138, 100, OPT_ARG(0), CAP_FSTATFS, none, OPT_YES, "",       \
	  OPT_YES, "")                                                         \
	X(inotify_add_watch, 254, 292, OPT_ARG(0), CAP_INOTIFY_ADD, none,      \
	  OPT_YES, "", OPT_YES, "")                                            \
	X(fanotify_mark, 301, 339, OPT_ARG(0) | OPT_ARG(3),                    \
	  CAP_INOTIFY_ADD | CAP_INOTIFY_RM, fanotify_ends, OPT_PART,           \
	  OPT_WHY_FANOTIFY_FLUSH, OPT_YES, "")

/*
 * Sockets: bpf/hooks_sock.bpf.h (sock_need_of, for every socket hook;
 * read, write and splice reach them too, as their own rows' calls).
 * CAPSICUM_OPS_SOCK_PLAIN are the rows whose hook needs nothing but the
 * socket (no address, message or new socket): the patched kernel does
 * not load those hooks (CAPSICUM_OPS_SUPERSEDED); io_uring's socket
 * option commands are the uring_cmd hook's there (bpf/hooks_file.bpf.h).
 */
#define CAPSICUM_OPS_SOCK_PLAIN(X)                                             \
	X(recvfrom, 45, 371, OPT_ARG(0), CAP_RECV, none, OPT_YES, "", OPT_YES, \
	  "")                                                                  \
	X(recvmmsg, 299, 337, OPT_ARG(0), CAP_RECV, none, OPT_YES, "",         \
	  OPT_YES, "")                                                         \
	X(recvmsg, 47, 372, OPT_ARG(0), CAP_RECV, none, OPT_YES, "", OPT_YES,  \
	  "")                                                                  \
	X(getsockname, 51, 367, OPT_ARG(0), CAP_GETSOCKNAME, none, OPT_YES,    \
	  "", OPT_YES, "")                                                     \
	X(getpeername, 52, 368, OPT_ARG(0), CAP_GETPEERNAME, none, OPT_YES,    \
	  "", OPT_YES, "")                                                     \
	X(shutdown, 48, 373, OPT_ARG(0), CAP_SHUTDOWN, none, OPT_YES, "",      \
	  OPT_YES, "")                                                         \
	X(listen, 50, 363, OPT_ARG(0), CAP_LISTEN, none, OPT_YES, "", OPT_YES, \
	  "")                                                                  \
	X(getsockopt, 55, 365, OPT_ARG(0), CAP_GETSOCKOPT, none, OPT_YES, "",  \
	  OPT_YES, "")                                                         \
	X(setsockopt, 54, 366, OPT_ARG(0), CAP_SETSOCKOPT, none, OPT_YES, "",  \
	  OPT_YES, "")
#define CAPSICUM_OPS_SOCK(X)                                                   \
	X(sendto, 44, 369, OPT_ARG(0), CAP_SEND, msg_dest, OPT_YES, "",        \
	  OPT_YES, "")                                                         \
	X(sendmsg, 46, 370, OPT_ARG(0), CAP_SEND, msg_dest, OPT_YES, "",       \
	  OPT_YES, "")                                                         \
	X(sendmmsg, 307, 345, OPT_ARG(0), CAP_SEND, msg_dest, OPT_YES, "",     \
	  OPT_YES, "")                                                         \
	CAPSICUM_OPS_SOCK_PLAIN(X)                                             \
	X(bind, 49, 361, OPT_ARG(0), CAP_BIND, none, OPT_YES, "", OPT_YES, "") \
	X(connect, 42, 362, OPT_ARG(0), CAP_CONNECT, none, OPT_YES, "",        \
	  OPT_YES, "")                                                         \
	X(accept, 43, OPT_NO_NR, OPT_ARG(0), CAP_ACCEPT, none, OPT_YES, "",    \
	  OPT_YES, "")                                                         \
	X(accept4, 288, 364, OPT_ARG(0), CAP_ACCEPT, none, OPT_YES, "",        \
	  OPT_YES, "")

/* Through a dirfd: bpf/syscalls_at.bpf.h (at_need_of), bpf/hooks_at.bpf.h. */
#define CAPSICUM_OPS_AT(X)                                                     \
	X(openat, 257, 295, OPT_ARG(0), CAP_LOOKUP, open_flags, OPT_YES, "",   \
	  OPT_YES, "")                                                         \
	X(openat2, 437, 437, OPT_ARG(0), CAP_LOOKUP, open_flags, OPT_YES, "",  \
	  OPT_YES, "")                                                         \
	X(newfstatat, 262, 300, OPT_ARG(0), CAP_FSTATAT, empty_path, OPT_PART, \
	  OPT_WHY_FSTAT, OPT_YES, "")                                          \
	X(statx, 332, 383, OPT_ARG(0), CAP_FSTATAT, empty_path, OPT_PART,      \
	  OPT_WHY_FSTAT, OPT_YES, "")                                          \
	X(utimensat, 280, 320, OPT_ARG(0), CAP_FUTIMESAT, empty_path, OPT_YES, \
	  "", OPT_YES, "")                                                     \
	X(futimesat, 261, 299, OPT_ARG(0), CAP_FUTIMESAT, empty_path, OPT_YES, \
	  "", OPT_YES, "")                                                     \
	X(execveat, 322, 358, OPT_ARG(0), CAP_FEXECVE, lookup_path, OPT_YES,   \
	  "", OPT_YES, "")                                                     \
	X(mkdirat, 258, 296, OPT_ARG(0), CAP_MKDIRAT, none, OPT_YES, "",       \
	  OPT_YES, "")                                                         \
	X(mknodat, 259, 297, OPT_ARG(0), CAP_LOOKUP, mknod_mode, OPT_YES, "",  \
	  OPT_YES, "")                                                         \
	X(unlinkat, 263, 301, OPT_ARG(0), CAP_UNLINKAT, none, OPT_YES, "",     \
	  OPT_YES, "")                                                         \
	X(renameat, 264, 302, OPT_ARG(0) | OPT_ARG(2),                         \
	  CAP_RENAMEAT_SOURCE | CAP_RENAMEAT_TARGET, two_dirfds, OPT_YES, "",  \
	  OPT_YES, "")                                                         \
	X(renameat2, 316, 353, OPT_ARG(0) | OPT_ARG(2),                        \
	  CAP_RENAMEAT_SOURCE | CAP_RENAMEAT_TARGET, two_dirfds, OPT_YES, "",  \
	  OPT_YES, "")                                                         \
	X(linkat, 265, 303, OPT_ARG(0) | OPT_ARG(2),                           \
	  CAP_LINKAT_SOURCE | CAP_LINKAT_TARGET, two_dirfds, OPT_YES, "",      \
	  OPT_YES, "")                                                         \
	X(symlinkat, 266, 304, OPT_ARG(1), CAP_SYMLINKAT, none, OPT_YES, "",   \
	  OPT_YES, "")                                                         \
	X(readlinkat, 267, 305, OPT_ARG(0), CAP_LOOKUP, none, OPT_YES, "",     \
	  OPT_YES, "")                                                         \
	X(fchmodat, 268, 306, OPT_ARG(0), CAP_FCHMODAT, none, OPT_YES, "",     \
	  OPT_YES, "")                                                         \
	X(fchmodat2, 452, 452, OPT_ARG(0), CAP_FCHMODAT, none, OPT_YES, "",    \
	  OPT_YES, "")                                                         \
	X(fchownat, 260, 298, OPT_ARG(0), CAP_FCHOWNAT, none, OPT_YES, "",     \
	  OPT_YES, "")                                                         \
	X(faccessat, 269, 307, OPT_ARG(0), CAP_FSTATAT, empty_path, OPT_NO,    \
	  OPT_WHY_FACCESSAT, OPT_YES, "")                                      \
	X(faccessat2, 439, 439, OPT_ARG(0), CAP_FSTATAT, empty_path, OPT_NO,   \
	  OPT_WHY_FACCESSAT, OPT_YES, "")

/* Seen by the patched kernel only: bpf/fget.bpf.h. */
#define CAPSICUM_OPS_FGET(X)                                                   \
	X(fsync, 74, 118, OPT_ARG(0), CAP_FSYNC, none, OPT_NO, OPT_WHY_NOHOOK, \
	  OPT_YES, "")                                                         \
	X(fdatasync, 75, 148, OPT_ARG(0), CAP_FSYNC, none, OPT_NO,             \
	  OPT_WHY_NOHOOK, OPT_YES, "")                                         \
	X(syncfs, 306, 344, OPT_ARG(0), CAP_FSYNC, none, OPT_NO,               \
	  OPT_WHY_NOHOOK, OPT_YES, "")                                         \
	X(sync_file_range, 277, 314, OPT_ARG(0), CAP_FSYNC, none, OPT_NO,      \
	  OPT_WHY_NOHOOK, OPT_YES, "")                                         \
	X(poll, 7, 168, OPT_ARGSETS, CAP_EVENT, none, OPT_NO, OPT_WHY_POLL,    \
	  OPT_YES, "")                                                         \
	X(ppoll, 271, 309, OPT_ARGSETS, CAP_EVENT, none, OPT_NO, OPT_WHY_POLL, \
	  OPT_YES, "")                                                         \
	X(select, 23, 82, OPT_ARGSETS, CAP_EVENT, none, OPT_NO, OPT_WHY_POLL,  \
	  OPT_YES, "")                                                         \
	X(pselect6, 270, 308, OPT_ARGSETS, CAP_EVENT, none, OPT_NO,            \
	  OPT_WHY_POLL, OPT_YES, "")                                           \
	X(epoll_ctl, 233, 255, OPT_ARG(0) | OPT_ARG(2),                        \
	  CAP_EPOLL_CTL | CAP_EVENT, epoll_ends, OPT_NO, OPT_WHY_FGET_ONLY,    \
	  OPT_YES, "")                                                         \
	X(epoll_wait, 232, 256, OPT_ARG(0), CAP_EVENT, none, OPT_NO,           \
	  OPT_WHY_POLL, OPT_PART, OPT_WHY_EPOLL_WAIT)                          \
	X(epoll_pwait, 281, 319, OPT_ARG(0), CAP_EVENT, none, OPT_NO,          \
	  OPT_WHY_POLL, OPT_PART, OPT_WHY_EPOLL_WAIT)                          \
	X(epoll_pwait2, 441, 441, OPT_ARG(0), CAP_EVENT, none, OPT_NO,         \
	  OPT_WHY_POLL, OPT_PART, OPT_WHY_EPOLL_WAIT)                          \
	X(timerfd_settime, 286, 325, OPT_ARG(0), CAP_WRITE, old_value, OPT_NO, \
	  OPT_WHY_FGET_ONLY, OPT_YES, "")                                      \
	X(timerfd_gettime, 287, 326, OPT_ARG(0), CAP_READ, none, OPT_NO,       \
	  OPT_WHY_FGET_ONLY, OPT_YES, "")                                      \
	X(mq_timedsend, 242, 279, OPT_ARG(0), CAP_WRITE, none, OPT_NO,         \
	  OPT_WHY_FGET_ONLY, OPT_YES, "")                                      \
	X(mq_timedreceive, 243, 280, OPT_ARG(0), CAP_READ, none, OPT_NO,       \
	  OPT_WHY_FGET_ONLY, OPT_YES, "")                                      \
	X(mq_notify, 244, 281, OPT_ARG(0), CAP_EVENT, none, OPT_NO,            \
	  OPT_WHY_FGET_ONLY, OPT_YES, "")                                      \
	X(mq_getsetattr, 245, 282, OPT_ARG(0), CAP_EVENT, none, OPT_NO,        \
	  OPT_WHY_FGET_ONLY, OPT_YES, "")                                      \
	X(setns, 308, 346, OPT_ARG(0), CAP_SETNS, none, OPT_NO,                \
	  OPT_WHY_FGET_ONLY, OPT_YES, "")                                      \
	X(signalfd, 282, 321, OPT_ARG(0), CAP_FSIGNAL, none, OPT_NO,           \
	  OPT_WHY_FGET_ONLY, OPT_YES, "")                                      \
	X(signalfd4, 289, 327, OPT_ARG(0), CAP_FSIGNAL, none, OPT_NO,          \
	  OPT_WHY_FGET_ONLY, OPT_YES, "")                                      \
	X(inotify_rm_watch, 255, 293, OPT_ARG(0), CAP_INOTIFY_RM, none,        \
	  OPT_NO, OPT_WHY_FGET_ONLY, OPT_YES, "")

/*
 * Changing the working directory to a descriptor's: bpf/hooks_at.bpf.h
 * (chdir_need_of, on inode_permission with MAY_CHDIR).
 */
#define CAPSICUM_OPS_CHDIR(X)                                                  \
	X(fchdir, 81, 133, OPT_ARG(0), CAP_FCHDIR, none, OPT_YES, "", OPT_YES, \
	  "")

/*
 * Process descriptors: bpf/hooks_task.bpf.h (proc_need_of), lib/procdesc.c
 * (waitid_need).
 */
#define CAPSICUM_OPS_PROC(X)                                                   \
	X(pidfd_send_signal, 424, 424, OPT_ARG(0), CAP_PDKILL, none, OPT_YES,  \
	  "", OPT_YES, "")                                                     \
	X(waitid, 247, 284, OPT_ARG(1), CAP_PDWAIT, none, OPT_LIB,             \
	  OPT_WHY_PDWAIT, OPT_YES, "")

/* libc's and the doc's other names for table syscalls: X(alias, name). */
#define CAPSICUM_OPT_ALIASES(X)                                                \
	X(fstatat, newfstatat)                                                 \
	X(futimens, utimensat)                                                 \
	X(fexecve, execveat)                                                   \
	X(send, sendto)                                                        \
	X(recv, recvfrom)                                                      \
	X(pread, pread64)                                                      \
	X(pwrite, pwrite64)

/*
 * Table syscalls under other numbers: X(name, nr). i386's 64-bit offset
 * and time64 forms, which its libc calls instead of the row's i386
 * number; x32's own numbers (without __X32_SYSCALL_BIT) for calls whose
 * arguments it passes in the compat layout (its other calls use the
 * x86-64 numbers). The patched kernel's fget hook maps them to their row
 * (bpf/fget.bpf.h); only rows it decides need to be here (every row of
 * CAPSICUM_OPS_SUPERSEDED: no stock hook checks them there), and ioctl,
 * whose other descriptors it checks.
 */
#define CAPSICUM_OPT_I386_NRS(X)                                               \
	X(getdents, 89)		/* readdir */                                  \
	X(lseek, 140)		/* _llseek */                                  \
	X(mmap, 192)		/* mmap2 */                                    \
	X(sendfile, 239)	/* sendfile64 */                               \
	X(select, 142)		/* _newselect */                               \
	X(timerfd_gettime, 410) /* timerfd_gettime64 */                        \
	X(timerfd_settime, 411) /* timerfd_settime64 */                        \
	X(pselect6, 413)	/* pselect6_time64 */                          \
	X(ppoll, 414)		/* ppoll_time64 */                             \
	X(recvmmsg, 417)	/* recvmmsg_time64 */                          \
	X(mq_timedsend, 418)	/* mq_timedsend_time64 */                      \
	X(mq_timedreceive, 419) /* mq_timedreceive_time64 */
#define CAPSICUM_OPT_X32_NRS(X)                                                \
	X(ioctl, 514)                                                          \
	X(readv, 515)                                                          \
	X(writev, 516)                                                         \
	X(recvfrom, 517)                                                       \
	X(recvmsg, 519)                                                        \
	X(mq_notify, 527)                                                      \
	X(waitid, 529)                                                         \
	X(vmsplice, 532)                                                       \
	X(preadv, 534)                                                         \
	X(pwritev, 535)                                                        \
	X(recvmmsg, 537)                                                       \
	X(setsockopt, 541)                                                     \
	X(getsockopt, 542)                                                     \
	X(io_submit, 544)                                                      \
	X(preadv2, 546)                                                        \
	X(pwritev2, 547)

/*
 * i386's socketcall(call, args): the call numbers (linux/net.h) of the
 * rows the patched kernel's fget hook decides, X(name, call). The
 * descriptor is in args, in user memory: the hook takes the one the
 * kernel looked up, and asks the row's widest rights, as of every i386
 * call (bpf/fget.bpf.h).
 */
#define CAPSICUM_OPT_SOCKETCALLS(X)                                            \
	X(listen, 4)                                                           \
	X(getsockname, 6)                                                      \
	X(getpeername, 7)                                                      \
	X(recvfrom, 10) /* recv */                                             \
	X(recvfrom, 12)                                                        \
	X(shutdown, 13)                                                        \
	X(setsockopt, 14)                                                      \
	X(getsockopt, 15)                                                      \
	X(recvmsg, 17)                                                         \
	X(recvmmsg, 19)

/*
 * The families whose stock hook the patched kernel does not load
 * (admin/load.c, superseded_progs: file_permission, mmap_file,
 * file_lock and the plain socket hooks): its fget hook decides each of
 * their rows, whatever the verdicts (bpf/fget.bpf.h). file_ioctl_compat
 * is not loaded there either: the fget hook checks an i386 or x32
 * ioctl's list itself (fget_ioctl_cmd); file_ioctl stays.
 */
#define CAPSICUM_OPS_SUPERSEDED(X)                                             \
	CAPSICUM_OPS_RW(X)                                                     \
	CAPSICUM_OPS_MMAP_FILE(X)                                              \
	CAPSICUM_OPS_LOCK(X)                                                   \
	CAPSICUM_OPS_SOCK_PLAIN(X)

/*
 * Every row. The sections above are the families the BPF side expands
 * apart: CAPSICUM_OPS_RW is what the file_permission hook decides
 * (bpf/syscalls.bpf.h, rw_need_of), CAPSICUM_OPS_MMAP and
 * CAPSICUM_OPS_CTL what the mapping and control hooks do
 * (bpf/hooks_file.bpf.h), CAPSICUM_OPS_AT the *at() hooks',
 * CAPSICUM_OPS_CHDIR fchdir's on inode_permission (bpf/hooks_at.bpf.h).
 */
/* clang-format off */
#define CAPSICUM_OPS(X)                                                        \
	CAPSICUM_OPS_RW(X)                                                     \
	CAPSICUM_OPS_MMAP(X)                                                   \
	CAPSICUM_OPS_CTL(X)                                                    \
	CAPSICUM_OPS_FILE(X)                                                   \
	CAPSICUM_OPS_SOCK(X)                                                   \
	CAPSICUM_OPS_AT(X)                                                     \
	CAPSICUM_OPS_FGET(X)                                                   \
	CAPSICUM_OPS_CHDIR(X)                                                  \
	CAPSICUM_OPS_PROC(X)
/* clang-format on */

/*
 * io_uring requests on normal (non-fixed) files, by opcode: the kernel's
 * enum io_uring_op numbers (6.12's list). The patched kernel's fget hook
 * sees each lookup io_uring makes for a request with the opcode in hand
 * (bpf/uring.bpf.h: io_file_get_normal() notes it) and asks the row's
 * rights, refined by its rule, of exactly (table, fd); an opcode that
 * looks a descriptor up but has no row here needs every right. The
 * stock kernels see no descriptor: their hooks check a request against
 * the file's floor (its low where the table has none), or refuse it
 * (doc/enforcement.md). Fixed files are not looked up by number: the
 * stock kernels decide them by those rules; on the patched kernel only
 * an unlimited descriptor becomes one, which keeps every right
 * (bpf/fget.bpf.h, fget_unclaimed).
 *
 *	X(name, opcode, rights, rule, stock, stock_why, patched, patched_why)
 *
 * name: IORING_OP_ without its prefix; rights: those of the syscall the
 * request does (FreeBSD's, and the 2014 Linux port's, for it).
 */
#define OPT_WHY_URING_FLOOR                                                    \
	"checked against the file's floor (its low where the table has "       \
	"none): no stock hook sees the request's descriptor"
#define OPT_WHY_URING_NOHOOK "no LSM hook sees the request or its descriptor"
#define OPT_WHY_URING_REFUSED                                                  \
	"refused for a process with limits whatever the rights: no stock "     \
	"hook can tell which descriptor the request named"
#define OPT_WHY_URING_STILL_REFUSED                                            \
	"the fget hook asks the right exactly, but the stock xattr hooks "     \
	"stay attached and still refuse it"
#define CAPSICUM_URING_OPS(X)                                                  \
	X(READV, 1, CAP_READ, uring_offset, OPT_PART, OPT_WHY_URING_FLOOR,     \
	  OPT_YES, "")                                                         \
	X(WRITEV, 2, CAP_WRITE, uring_offset, OPT_PART, OPT_WHY_URING_FLOOR,   \
	  OPT_YES, "")                                                         \
	X(FSYNC, 3, CAP_FSYNC, none, OPT_NO, OPT_WHY_URING_NOHOOK, OPT_YES,    \
	  "")                                                                  \
	X(READ_FIXED, 4, CAP_READ, uring_offset, OPT_PART,                     \
	  OPT_WHY_URING_FLOOR, OPT_YES, "")                                    \
	X(WRITE_FIXED, 5, CAP_WRITE, uring_offset, OPT_PART,                   \
	  OPT_WHY_URING_FLOOR, OPT_YES, "")                                    \
	X(POLL_ADD, 6, CAP_EVENT, none, OPT_NO, OPT_WHY_URING_NOHOOK, OPT_YES, \
	  "")                                                                  \
	X(SYNC_FILE_RANGE, 8, CAP_FSYNC, none, OPT_NO, OPT_WHY_URING_NOHOOK,   \
	  OPT_YES, "")                                                         \
	X(SENDMSG, 9, CAP_SEND, none, OPT_PART, OPT_WHY_URING_FLOOR, OPT_YES,  \
	  "")                                                                  \
	X(RECVMSG, 10, CAP_RECV, none, OPT_PART, OPT_WHY_URING_FLOOR, OPT_YES, \
	  "")                                                                  \
	X(ACCEPT, 13, CAP_ACCEPT, none, OPT_PART, OPT_WHY_URING_FLOOR,         \
	  OPT_YES, "")                                                         \
	X(CONNECT, 16, CAP_CONNECT, none, OPT_PART, OPT_WHY_URING_FLOOR,       \
	  OPT_YES, "")                                                         \
	X(FALLOCATE, 17, CAP_PWRITE, none, OPT_PART, OPT_WHY_URING_FLOOR,      \
	  OPT_YES, "")                                                         \
	X(READ, 22, CAP_READ, uring_offset, OPT_PART, OPT_WHY_URING_FLOOR,     \
	  OPT_YES, "")                                                         \
	X(WRITE, 23, CAP_WRITE, uring_offset, OPT_PART, OPT_WHY_URING_FLOOR,   \
	  OPT_YES, "")                                                         \
	X(FADVISE, 24, 0, none, OPT_YES, "", OPT_YES, "")                      \
	X(SEND, 26, CAP_SEND, none, OPT_PART, OPT_WHY_URING_FLOOR, OPT_YES,    \
	  "")                                                                  \
	X(RECV, 27, CAP_RECV, none, OPT_PART, OPT_WHY_URING_FLOOR, OPT_YES,    \
	  "")                                                                  \
	X(SPLICE, 30, CAP_READ | CAP_WRITE, uring_splice_end, OPT_PART,        \
	  OPT_WHY_URING_FLOOR, OPT_YES, "")                                    \
	X(TEE, 33, CAP_READ | CAP_WRITE, uring_splice_end, OPT_NO,             \
	  OPT_WHY_URING_NOHOOK, OPT_YES, "")                                   \
	X(SHUTDOWN, 34, CAP_SHUTDOWN, none, OPT_PART, OPT_WHY_URING_FLOOR,     \
	  OPT_YES, "")                                                         \
	X(MSG_RING, 40, CAP_WRITE, none, OPT_NO, OPT_WHY_URING_NOHOOK,         \
	  OPT_YES, "")                                                         \
	X(FSETXATTR, 41, CAP_EXTATTR_SET, none, OPT_NO, OPT_WHY_URING_REFUSED, \
	  OPT_NO, OPT_WHY_URING_STILL_REFUSED)                                 \
	X(FGETXATTR, 43, CAP_EXTATTR_GET, none, OPT_NO, OPT_WHY_URING_REFUSED, \
	  OPT_NO, OPT_WHY_URING_STILL_REFUSED)                                 \
	X(URING_CMD, 46, CAP_IOCTL, uring_sockopt, OPT_YES, "", OPT_YES, "")   \
	X(SEND_ZC, 47, CAP_SEND, none, OPT_PART, OPT_WHY_URING_FLOOR, OPT_YES, \
	  "")                                                                  \
	X(SENDMSG_ZC, 48, CAP_SEND, none, OPT_PART, OPT_WHY_URING_FLOOR,       \
	  OPT_YES, "")                                                         \
	X(READ_MULTISHOT, 49, CAP_READ, uring_offset, OPT_PART,                \
	  OPT_WHY_URING_FLOOR, OPT_YES, "")                                    \
	X(FTRUNCATE, 55, CAP_FTRUNCATE, none, OPT_YES, "", OPT_YES, "")        \
	X(BIND, 56, CAP_BIND, none, OPT_PART, OPT_WHY_URING_FLOOR, OPT_YES,    \
	  "")                                                                  \
	X(LISTEN, 57, CAP_LISTEN, none, OPT_PART, OPT_WHY_URING_FLOOR,         \
	  OPT_YES, "")

#endif /* _CAPSICUM_OPTABLE_H */
