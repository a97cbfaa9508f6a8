// SPDX-License-Identifier: BSD-2-Clause
/*
 * The capability-mode seccomp filter, three ways:
 *
 *   doc_*      doc/capmode.md's table agrees with lib/capmode_table.c
 *   bpf_*      the generated program, run by a small classic-BPF
 *              interpreter on synthetic seccomp_data, gives each row's
 *              verdict, for good and for bad arguments
 *   install_*  the real filter in forked children (seccomp works on the
 *              host): what a sandboxed process can and cannot do
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/audit.h>
#include <linux/bpf.h>
#include <linux/sched.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include <sys/capsicum.h>

#include "lib/capmode.h"

#define R_ALLOW	   SECCOMP_RET_ALLOW
#define R_ECAPMODE (SECCOMP_RET_ERRNO | ECAPMODE)
#define R_ENOSYS   (SECCOMP_RET_ERRNO | ENOSYS)

/* Distinct ids, so a filter that mixes up real/effective/saved shows. */
static const struct capsicum_capmode_ids test_ids = {
	.ruid = 1000,
	.euid = 1001,
	.suid = 1002,
	.rgid = 2000,
	.egid = 2001,
	.sgid = 2002,
};

static const struct capsicum_capmode_rule *rule_named(const char *name)
{
	size_t i;

	for (i = 0; i < capsicum_capmode_table_len; i++) {
		if (strcmp(capsicum_capmode_table[i].name, name) == 0)
			return &capsicum_capmode_table[i];
	}
	cr_assert_fail("%s is not in the table", name);
	return NULL;
}

static const struct capsicum_capmode_rule *rule_at(int nr)
{
	size_t i;

	for (i = 0; i < capsicum_capmode_table_len; i++) {
		if (capsicum_capmode_table[i].nr == nr)
			return &capsicum_capmode_table[i];
	}
	return NULL;
}

/* The table itself. */

Test(table, sorted_unique_and_consistent)
{
	const struct capsicum_capmode_rule *r;
	size_t i, j, k;

	cr_assert_gt(capsicum_capmode_table_len, 300);
	for (i = 0; i < capsicum_capmode_table_len; i++) {
		r = &capsicum_capmode_table[i];
		if (i)
			cr_expect_gt(r->nr, capsicum_capmode_table[i - 1].nr,
				     "%s out of order", r->name);
		cr_expect_lt(r->nr, __X32_SYSCALL_BIT);
		cr_expect(r->why && r->why[0], "%s has no reason", r->name);
		cr_expect_eq(r->verdict == CAPMODE_ALLOW_IF,
			     r->check[0].op != CAPMODE_NONE,
			     "%s: checks and verdict disagree", r->name);
		cr_expect_eq(r->verdict == CAPMODE_ALLOW_IF, r->cond[0] != 0,
			     "%s: condition text and verdict disagree",
			     r->name);
		for (j = 0; j < CAPMODE_MAX_CHECKS && r->check[j].op; j++) {
			cr_expect_lt(r->check[j].arg, 6, "%s", r->name);
			/* Two checks on one argument would need an OR. */
			for (k = 0; k < j; k++)
				cr_expect_neq(r->check[j].arg, r->check[k].arg,
					      "%s", r->name);
		}
		/* A table cell must not break the markdown row. */
		cr_expect_null(strchr(r->cond, '|'), "%s", r->name);
		cr_expect_null(strchr(r->why, '|'), "%s", r->name);
	}
}

Test(table, brief_must_haves)
{
	static const char *const denied[] = {
		"open",
		"creat",
		"stat",
		"lstat",
		"access",
		"chdir",
		"fchdir",
		"chroot",
		"mkdir",
		"rmdir",
		"unlink",
		"rename",
		"link",
		"symlink",
		"readlink",
		"chmod",
		"chown",
		"lchown",
		"utime",
		"utimes",
		"truncate",
		"mknod",
		"execve",
		"statfs",
		"uselib",
		"acct",
		"swapon",
		"quotactl",
		"ptrace",
		"mount",
		"umount2",
		"pivot_root",
		"process_vm_readv",
		"process_vm_writev",
		"io_uring_setup",
		"io_uring_enter",
		"io_uring_register",
		"perf_event_open",
		"kexec_load",
		"kexec_file_load",
		"init_module",
		"finit_module",
		"unshare",
		"setns",
		"pidfd_open",
		"pidfd_getfd",
		"kcmp",
		"bind",
		"connect",
		"keyctl",
		"add_key",
		"request_key",
		"sysfs",
		"syslog",
		"reboot",
		"settimeofday",
		"clock_settime",
		"adjtimex",
		"sethostname",
		"setdomainname",
		"shmget",
		"shmat",
		"mq_open",
		"fanotify_init",
		"fanotify_mark",
		"inotify_add_watch",
		"name_to_handle_at",
		"open_tree",
		"move_mount",
		"fsconfig",
		"setgroups",
	};
	static const char *const allowed[] = {
		"getsid",  /* own process: the BPF side */
		"getpgid", /* likewise */
		"fcntl",	 "fork",	 "vfork",
		"wait4",	 "waitid",	 "pidfd_send_signal",
		"inotify_init1", "memfd_create", "umask",
		"socketpair",	 "accept4",	 "listen",
		"sendmsg",	 "recvmsg",	 "mmap",
		"futex",	 "rseq",	 "exit_group",
		"getrandom",	 "close_range",	 "epoll_pwait2",
		"fstat",
	};
	static const char *const dirfd_checked[] = {
		"openat",    "mkdirat",	   "mknodat",  "unlinkat",
		"renameat",  "renameat2",  "linkat",   "symlinkat",
		"fchmodat",  "fchmodat2",  "fchownat", "utimensat",
		"futimesat", "newfstatat", "statx",    "readlinkat",
		"execveat",
	};
	/* No LSM hook could check their beneath-ness (openat2: O_PATH). */
	static const char *const unhooked[] = { "openat2", "faccessat",
						"faccessat2" };
	size_t i;

	for (i = 0; i < sizeof(denied) / sizeof(denied[0]); i++)
		cr_expect_eq(rule_named(denied[i])->verdict, CAPMODE_DENY, "%s",
			     denied[i]);
	for (i = 0; i < sizeof(allowed) / sizeof(allowed[0]); i++)
		cr_expect_eq(rule_named(allowed[i])->verdict, CAPMODE_ALLOW,
			     "%s", allowed[i]);
	for (i = 0; i < sizeof(dirfd_checked) / sizeof(dirfd_checked[0]); i++) {
		const struct capsicum_capmode_rule *r =
			rule_named(dirfd_checked[i]);

		cr_expect_eq(r->verdict, CAPMODE_ALLOW_IF, "%s", r->name);
		cr_expect_eq(r->check[0].op, CAPMODE_NE, "%s", r->name);
		cr_expect_eq(r->check[0].value, (uint32_t)AT_FDCWD, "%s",
			     r->name);
	}
	for (i = 0; i < sizeof(unhooked) / sizeof(unhooked[0]); i++)
		cr_expect_eq(rule_named(unhooked[i])->verdict, CAPMODE_DENY,
			     "%s", unhooked[i]);
	cr_expect_eq(rule_named("clone3")->verdict, CAPMODE_ENOSYS);
}

/* doc/capmode.md. */

/* The test binary runs from the repository root (make test-unit). */
#define DOC_PATH "doc/capmode.md"

static const char *verdict_word(enum capsicum_capmode_verdict v)
{
	switch (v) {
	case CAPMODE_ALLOW:
		return "allow";
	case CAPMODE_ALLOW_IF:
		return "allow if";
	case CAPMODE_DENY:
		return "ECAPMODE";
	case CAPMODE_ENOSYS:
		return "ENOSYS";
	}
	return "?";
}

static char *trim(char *s)
{
	char *end;

	while (*s == ' ')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\n'))
		*--end = 0;
	return s;
}

/* Splits "| a | b | c |" into at most max trimmed cells. */
static size_t cells(char *line, char **out, size_t max)
{
	size_t n = 0;
	char *p = line, *bar;

	if (*p != '|')
		return 0;
	p++;
	while (n < max && (bar = strchr(p, '|'))) {
		*bar = 0;
		out[n++] = trim(p);
		p = bar + 1;
	}
	return n;
}

static FILE *open_doc(void)
{
	FILE *f = fopen(DOC_PATH, "r");

	cr_assert_not_null(f, "%s: %s (run from the repository root)", DOC_PATH,
			   strerror(errno));
	return f;
}

Test(doc, table_matches_code_row_for_row)
{
	char line[1024], *c[6];
	FILE *f = open_doc();
	bool in_table = false;
	size_t row = 0, n;

	while (fgets(line, sizeof(line), f)) {
		if (!in_table) {
			in_table = strncmp(line, "| syscall | nr | verdict |",
					   26) == 0;
			if (in_table && !fgets(line, sizeof(line), f))
				break; /* the |---| line */
			continue;
		}
		if (line[0] != '|')
			break;
		n = cells(line, c, 6);
		cr_assert_eq(n, 5, "doc row %zu: %zu cells: %s", row, n, line);
		cr_assert_lt(row, capsicum_capmode_table_len,
			     "doc has more rows than the code: %s", c[0]);

		const struct capsicum_capmode_rule *r =
			&capsicum_capmode_table[row];
		char name[64];

		snprintf(name, sizeof(name), "`%s`", r->name);
		cr_expect_str_eq(c[0], name, "row %zu", row);
		cr_expect_eq(strtol(c[1], NULL, 10), r->nr, "%s: nr %s", name,
			     c[1]);
		cr_expect_str_eq(c[2], verdict_word(r->verdict), "%s", name);
		cr_expect_str_eq(c[3], r->cond, "%s: condition", name);
		cr_expect_neq(c[4][0], 0, "%s: no reason given", name);
		row++;
	}
	fclose(f);
	cr_assert(in_table, "no '| syscall | nr | verdict |' table in %s",
		  DOC_PATH);
	cr_expect_eq(row, capsicum_capmode_table_len,
		     "doc has %zu rows, the code %zu", row,
		     capsicum_capmode_table_len);
}

/* The doc states the size; a table change must update it. */
Test(doc, size_section_is_current)
{
	struct sock_filter buf[BPF_MAXINSNS];
	char text[256], line[1024];
	size_t len, counts[CAPMODE_ENOSYS + 1] = { 0 }, i;
	bool rows = false, insns = false;
	FILE *f = open_doc();

	cr_assert_eq(capsicum_capmode_filter_build(&test_ids, buf, BPF_MAXINSNS,
						   &len),
		     0);
	for (i = 0; i < capsicum_capmode_table_len; i++)
		counts[capsicum_capmode_table[i].verdict]++;
	while (fgets(line, sizeof(line), f)) {
		snprintf(text, sizeof(text),
			 "%zu rows: %zu allow, %zu allow if, %zu ECAPMODE, "
			 "%zu ENOSYS.",
			 capsicum_capmode_table_len, counts[CAPMODE_ALLOW],
			 counts[CAPMODE_ALLOW_IF], counts[CAPMODE_DENY],
			 counts[CAPMODE_ENOSYS]);
		rows |= strstr(line, text) != NULL;
		snprintf(text, sizeof(text), "program is %zu instructions",
			 len);
		insns |= strstr(line, text) != NULL;
	}
	fclose(f);
	cr_expect(rows, "doc/capmode.md lacks \"%zu rows: ...\"",
		  capsicum_capmode_table_len);
	cr_expect(insns, "doc/capmode.md lacks \"program is %zu instructions\"",
		  len);
}

/*
 * A classic-BPF interpreter for the subset a seccomp filter may use, with
 * the kernel's checks that matter here: no jump past the end, aligned
 * in-bounds loads, unknown opcodes rejected.  Counts executed instructions.
 */
static uint32_t run(const struct sock_filter *prog, size_t len,
		    const struct seccomp_data *d, size_t *steps)
{
	uint32_t a = 0;
	size_t pc = 0, n = 0;

	for (;;) {
		const struct sock_filter *f;

		cr_assert_lt(pc, len, "ran off the program");
		f = &prog[pc++];
		n++;
		switch (f->code) {
		case BPF_LD | BPF_W | BPF_ABS:
			cr_assert(f->k % 4 == 0 && f->k + 4 <= sizeof(*d),
				  "load at %u", f->k);
			memcpy(&a, (const char *)d + f->k, 4);
			break;
		case BPF_ALU | BPF_AND | BPF_K:
			a &= f->k;
			break;
		case BPF_JMP | BPF_JA | BPF_K:
			pc += f->k;
			break;
		case BPF_JMP | BPF_JEQ | BPF_K:
			pc += a == f->k ? f->jt : f->jf;
			break;
		case BPF_JMP | BPF_JGE | BPF_K:
			pc += a >= f->k ? f->jt : f->jf;
			break;
		case BPF_JMP | BPF_JGT | BPF_K:
			pc += a > f->k ? f->jt : f->jf;
			break;
		case BPF_JMP | BPF_JSET | BPF_K:
			pc += (a & f->k) ? f->jt : f->jf;
			break;
		case BPF_RET | BPF_K:
			if (steps)
				*steps = n;
			return f->k;
		default:
			cr_assert_fail("opcode 0x%x at %zu", f->code, pc - 1);
		}
	}
}

static struct sock_filter prog[BPF_MAXINSNS];
static size_t prog_len;

static void build_prog(void)
{
	cr_assert_eq(capsicum_capmode_filter_build(&test_ids, prog,
						   BPF_MAXINSNS, &prog_len),
		     0, "build: %s", strerror(errno));
}

static uint32_t eval_arch(uint32_t arch, int nr, const uint64_t args[6])
{
	struct seccomp_data d = { .nr = nr, .arch = arch };

	memcpy(d.args, args, sizeof(d.args));
	return run(prog, prog_len, &d, NULL);
}

static uint32_t eval(int nr, const uint64_t args[6])
{
	return eval_arch(AUDIT_ARCH_X86_64, nr, args);
}

/* V(SYS_openat, a0, a1, ...): the verdict; missing arguments are 0. */
#define V(nr, ...) eval((nr), (const uint64_t[6]){ __VA_ARGS__ })

static const char *ret_name(uint32_t r, char buf[16])
{
	if (r == R_ALLOW)
		return "ALLOW";
	if (r == R_ECAPMODE)
		return "ECAPMODE";
	if (r == R_ENOSYS)
		return "ENOSYS";
	snprintf(buf, 16, "0x%08x", r);
	return buf;
}

/* One verdict; what names the case, printf-style. */
static void __attribute__((format(printf, 3, 4)))
expect_ret(uint32_t got, uint32_t want, const char *what, ...)
{
	char msg[256], g[16], w[16];
	va_list ap;

	va_start(ap, what);
	vsnprintf(msg, sizeof(msg), what, ap);
	va_end(ap);
	cr_expect_eq(got, want, "%s: got %s, want %s", msg, ret_name(got, g),
		     ret_name(want, w));
}

/*
 * Noise in the high half, which the kernel drops for 32-bit arguments: the
 * filter refuses it. SEXT is the high half of a sign-extended int, which
 * it accepts (as it does a zero high half).
 */
#define HIGH 0xdeadbeef00000000ULL
#define SEXT 0xffffffff00000000ULL

static bool in_set(const struct capsicum_capmode_check *c, uint32_t v)
{
	size_t i;

	for (i = 0; i < c->nset; i++) {
		if (c->set[i] == v)
			return true;
	}
	return false;
}

/* Values a check accepts; returns how many (at most 8). */
static size_t good_values(const struct capsicum_capmode_check *c,
			  uint64_t out[8])
{
	size_t n = 0, i;
	uint32_t v;

	switch (c->op) {
	case CAPMODE_NE:
		out[n++] = 3;
		out[n++] = SEXT | 3;
		break;
	case CAPMODE_EQ:
		out[n++] = c->value;
		out[n++] = SEXT | c->value;
		break;
	case CAPMODE_POSITIVE:
		out[n++] = 1;
		out[n++] = 42;
		out[n++] = 0x7fffffff;
		break;
	case CAPMODE_NO_BITS:
		out[n++] = 0;
		out[n++] = 0x11 & ~(uint64_t)c->value; /* SIGCHLD */
		break;
	case CAPMODE_NULL:
		out[n++] = 0;
		break;
	case CAPMODE_ONE_OF:
		for (i = 0; i < c->nset && n < 8; i++)
			out[n++] = c->set[i];
		break;
	case CAPMODE_NONE_OF:
		/* Values outside the set, with bits the mask drops. */
		for (v = 0; n < 3; v++) {
			if (!in_set(c, v & c->value))
				out[n++] = v | (~c->value & 0x80800U);
		}
		break;
	case CAPMODE_UID_OR_NEG:
		out[n++] = 0xffffffff;
		out[n++] = SEXT | 0xffffffff; /* -1 sign-extended */
					      /* fallthrough */
	case CAPMODE_UID:
		out[n++] = test_ids.ruid;
		out[n++] = test_ids.euid;
		out[n++] = test_ids.suid;
		break;
	case CAPMODE_GID_OR_NEG:
		out[n++] = 0xffffffff;
		out[n++] = SEXT | 0xffffffff;
		/* fallthrough */
	case CAPMODE_GID:
		out[n++] = test_ids.rgid;
		out[n++] = test_ids.egid;
		out[n++] = test_ids.sgid;
		break;
	}
	return n;
}

/* Values a check rejects; returns how many (at most 40). */
static size_t bad_values(const struct capsicum_capmode_check *c,
			 uint64_t out[40])
{
	size_t n = 0, b;
	uint32_t v;

	switch (c->op) {
	case CAPMODE_NE:
		out[n++] = c->value;
		out[n++] = HIGH | c->value;
		break;
	case CAPMODE_EQ:
		out[n++] = (uint32_t)(c->value + 1);
		out[n++] = c->value ^ 0x80000000U;
		break;
	case CAPMODE_POSITIVE:
		out[n++] = 0;
		out[n++] = 0xffffffff; /* -1: every process */
		out[n++] = 0xfffffffe; /* -2: process group 2 */
		out[n++] = 0x80000000; /* INT_MIN */
		out[n++] = 1ULL << 32; /* 0 to the kernel */
		break;
	case CAPMODE_NO_BITS:
		for (b = 0; b < 32; b++) {
			if (c->value & (1U << b))
				out[n++] = (1U << b) | 0x11;
		}
		break;
	case CAPMODE_NULL:
		out[n++] = 1;
		out[n++] = 1ULL << 32; /* the high half counts for a pointer */
		out[n++] = 0x00007ffc12345678ULL;
		break;
	case CAPMODE_ONE_OF:
		for (v = 0; n < 3; v++) {
			if (!in_set(c, v))
				out[n++] = v;
		}
		out[n++] = 0x53564d41; /* PR_SET_VMA */
		break;
	case CAPMODE_NONE_OF:
		for (b = 0; b < c->nset; b++) {
			out[n++] = c->set[b];
			/* Bits outside the mask do not hide a value. */
			out[n++] = c->set[b] | (~c->value & 0x80800U);
		}
		break;
	case CAPMODE_UID:
	case CAPMODE_GID:
		out[n++] = 0xffffffff; /* setuid(-1) is no query */
				       /* fallthrough */
	case CAPMODE_UID_OR_NEG:
	case CAPMODE_GID_OR_NEG:
		out[n++] = 0; /* root, not held at entry */
		out[n++] = 4242;
		break;
	}
	/*
	 * A 32-bit argument the kernel would truncate to an accepted value
	 * is refused: every good value with noise in its high half.
	 */
	if (c->op != CAPMODE_NULL) {
		uint64_t good[8];
		size_t ng = good_values(c, good), g;

		for (g = 0; g < ng && n < 38; g++) {
			out[n++] = HIGH | (uint32_t)good[g];
			out[n++] = (1ULL << 32) | (uint32_t)good[g];
		}
	}
	return n;
}

/* Arguments that satisfy every check of r (the first good value each). */
static void good_args(const struct capsicum_capmode_rule *r, uint64_t a[6])
{
	uint64_t v[8];
	size_t i;

	memset(a, 0, 6 * sizeof(a[0]));
	for (i = 0; i < CAPMODE_MAX_CHECKS && r->check[i].op; i++) {
		cr_assert_gt(good_values(&r->check[i], v), 0);
		a[r->check[i].arg] = v[0];
	}
}

Test(bpf, program_is_well_formed)
{
	size_t i;

	build_prog();
	cr_expect_lt(prog_len, BPF_MAXINSNS);
	cr_expect_eq(prog[prog_len - 1].code, BPF_RET | BPF_K);
	for (i = 0; i < prog_len; i++) {
		const struct sock_filter *f = &prog[i];

		if (BPF_CLASS(f->code) != BPF_JMP)
			continue;
		if (BPF_OP(f->code) == BPF_JA)
			cr_expect_lt(i + 1 + f->k, prog_len, "JA at %zu", i);
		else
			cr_expect_lt(i + 1 + (f->jt > f->jf ? f->jt : f->jf),
				     prog_len, "jump at %zu", i);
	}
}

Test(bpf, every_row_verdict)
{
	const uint64_t zero[6] = { 0 };
	const uint64_t ones[6] = { ~0ULL, ~0ULL, ~0ULL, ~0ULL, ~0ULL, ~0ULL };
	size_t i, j, k, g, nb, ng;
	uint64_t a[6], bad[40], good[8];

	build_prog();
	for (i = 0; i < capsicum_capmode_table_len; i++) {
		const struct capsicum_capmode_rule *r =
			&capsicum_capmode_table[i];

		switch (r->verdict) {
		case CAPMODE_ALLOW:
			expect_ret(eval(r->nr, zero), R_ALLOW, "%s", r->name);
			expect_ret(eval(r->nr, ones), R_ALLOW, "%s", r->name);
			break;
		case CAPMODE_DENY:
			expect_ret(eval(r->nr, zero), R_ECAPMODE, "%s",
				   r->name);
			expect_ret(eval(r->nr, ones), R_ECAPMODE, "%s",
				   r->name);
			break;
		case CAPMODE_ENOSYS:
			expect_ret(eval(r->nr, zero), R_ENOSYS, "%s", r->name);
			break;
		case CAPMODE_ALLOW_IF:
			/* Every accepted value of each check, others good. */
			for (j = 0; j < CAPMODE_MAX_CHECKS && r->check[j].op;
			     j++) {
				ng = good_values(&r->check[j], good);
				for (g = 0; g < ng; g++) {
					good_args(r, a);
					a[r->check[j].arg] = good[g];
					expect_ret(eval(r->nr, a), R_ALLOW,
						   "%s arg%u=0x%llx", r->name,
						   r->check[j].arg,
						   (unsigned long long)good[g]);
				}
				/* One check failing is enough to deny. */
				nb = bad_values(&r->check[j], bad);
				cr_assert_gt(nb, 0, "%s", r->name);
				for (k = 0; k < nb; k++) {
					good_args(r, a);
					a[r->check[j].arg] = bad[k];
					expect_ret(eval(r->nr, a), R_ECAPMODE,
						   "%s arg%u=0x%llx", r->name,
						   r->check[j].arg,
						   (unsigned long long)bad[k]);
				}
			}
			break;
		}
	}
}

Test(bpf, unlisted_numbers_are_ecapmode)
{
	const uint64_t zero[6] = { 0 };
	int nr;

	build_prog();
	for (nr = 0; nr < 1024; nr++) {
		if (!rule_at(nr))
			expect_ret(eval(nr, zero), R_ECAPMODE, "nr %d", nr);
	}
	expect_ret(eval(__X32_SYSCALL_BIT - 1, zero), R_ECAPMODE, "top");
	expect_ret(eval(-1, zero), R_ECAPMODE, "nr -1");
}

Test(bpf, non_native_abis_are_ecapmode)
{
	const uint64_t fd3[6] = { 3 };

	build_prog();
	/* read(3) is allowed natively: only the ABI makes the difference. */
	expect_ret(eval(SYS_read, fd3), R_ALLOW, "x86-64 read");
	expect_ret(eval(__X32_SYSCALL_BIT | SYS_read, fd3), R_ECAPMODE,
		   "x32 read");
	expect_ret(eval(__X32_SYSCALL_BIT | 512, fd3), R_ECAPMODE,
		   "x32 rt_sigaction");
	expect_ret(eval_arch(AUDIT_ARCH_I386, 3, fd3), R_ECAPMODE, "i386 read");
	expect_ret(eval_arch(AUDIT_ARCH_I386, SYS_read, fd3), R_ECAPMODE,
		   "i386 nr 0");
	expect_ret(eval_arch(AUDIT_ARCH_I386, 20, fd3), R_ECAPMODE,
		   "i386 getpid");
	expect_ret(eval_arch(0, SYS_getpid, fd3), R_ECAPMODE, "arch 0");
}

/* The cases the design calls out, spelled out. */
Test(bpf, named_cases)
{
	const uint64_t cwd = (uint32_t)AT_FDCWD;

	build_prog();
	expect_ret(V(SYS_openat, cwd, 1, 0), R_ECAPMODE, "openat(AT_FDCWD)");
	expect_ret(V(SYS_openat, 0xffffffffffffff9cULL), R_ECAPMODE,
		   "openat(-100 sign-extended)");
	expect_ret(V(SYS_openat, 3, 1, 0), R_ALLOW, "openat(3)");
	expect_ret(V(SYS_openat2, cwd), R_ECAPMODE, "openat2(AT_FDCWD)");
	expect_ret(V(SYS_renameat, 3, 1, cwd, 1), R_ECAPMODE,
		   "renameat(3, AT_FDCWD)");
	expect_ret(V(SYS_renameat, cwd, 1, 3, 1), R_ECAPMODE,
		   "renameat(AT_FDCWD, 3)");
	expect_ret(V(SYS_renameat, 3, 1, 4, 1), R_ALLOW, "renameat(3, 4)");
	expect_ret(V(SYS_linkat, 3, 1, cwd, 1, 0), R_ECAPMODE, "linkat");
	expect_ret(V(SYS_symlinkat, 1, cwd, 1), R_ECAPMODE,
		   "symlinkat(, AT_FDCWD)");
	expect_ret(V(SYS_symlinkat, 1, 3, 1), R_ALLOW, "symlinkat(, 3)");
	expect_ret(V(SYS_utimensat, 3, 0, 0, 0), R_ALLOW,
		   "utimensat(3, NULL): futimens");
	expect_ret(V(SYS_utimensat, cwd, 0, 0, 0), R_ECAPMODE,
		   "utimensat(AT_FDCWD, NULL)");
	expect_ret(V(SYS_execveat, 3, 1, 0, 0, AT_EMPTY_PATH), R_ALLOW,
		   "fexecve");
	expect_ret(V(SYS_open, 1, 0), R_ECAPMODE, "open");
	expect_ret(V(SYS_fchdir, 3), R_ECAPMODE, "fchdir");

	expect_ret(V(SYS_kill, (uint64_t)-1, 0), R_ECAPMODE, "kill(-1)");
	expect_ret(V(SYS_kill, 0, 0), R_ECAPMODE, "kill(0)");
	expect_ret(V(SYS_kill, (uint32_t)-42, 9), R_ECAPMODE, "kill(-42)");
	expect_ret(V(SYS_kill, 42, 9), R_ALLOW, "kill(42)");
	expect_ret(V(SYS_tgkill, 42, 0, 9), R_ECAPMODE, "tgkill(42, 0)");
	expect_ret(V(SYS_tgkill, 42, 43, 9), R_ALLOW, "tgkill(42, 43)");

	expect_ret(V(SYS_setuid, 4242), R_ECAPMODE, "setuid(other)");
	expect_ret(V(SYS_setuid, 0), R_ECAPMODE, "setuid(0)");
	expect_ret(V(SYS_setuid, 1001), R_ALLOW, "setuid(euid)");
	expect_ret(V(SYS_setuid, 2000), R_ECAPMODE, "setuid(a gid)");
	expect_ret(V(SYS_setgid, 2002), R_ALLOW, "setgid(sgid)");
	expect_ret(V(SYS_setresuid, 0xffffffff, 1000, 0xffffffff), R_ALLOW,
		   "setresuid(-1, ruid, -1)");
	expect_ret(V(SYS_setresuid, 0xffffffff, 1000, 0), R_ECAPMODE,
		   "setresuid(-1, ruid, 0)");
	expect_ret(V(SYS_setgroups, 0, 0), R_ECAPMODE, "setgroups");

	expect_ret(V(SYS_sendto, 3, 1, 1, 0, 0, 0), R_ALLOW, "sendto(NULL)");
	expect_ret(V(SYS_sendto, 3, 1, 1, 0, 0x7ffc0000, 16), R_ECAPMODE,
		   "sendto(addr)");
	expect_ret(V(SYS_connect, 3, 1, 16), R_ECAPMODE, "connect");
	expect_ret(V(SYS_bind, 3, 1, 16), R_ECAPMODE, "bind");
	expect_ret(V(SYS_socket, AF_INET, SOCK_STREAM, 0), R_ALLOW, "socket");
	expect_ret(V(SYS_socket, AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0),
		   R_ALLOW, "socket(INET6, DGRAM|CLOEXEC)");
	expect_ret(V(SYS_socket, AF_NETLINK, SOCK_RAW, 0), R_ECAPMODE,
		   "socket(NETLINK)");
	expect_ret(V(SYS_socket, AF_NETLINK, SOCK_DGRAM, 0), R_ECAPMODE,
		   "socket(NETLINK, DGRAM)");
	expect_ret(V(SYS_socket, AF_PACKET, SOCK_DGRAM, 0), R_ECAPMODE,
		   "socket(PACKET)");
	expect_ret(V(SYS_socket, AF_INET, SOCK_RAW | SOCK_NONBLOCK, 1),
		   R_ECAPMODE, "socket(INET, RAW|NONBLOCK)");
	expect_ret(V(SYS_socket, AF_INET, SOCK_PACKET, 0), R_ECAPMODE,
		   "socket(INET, SOCK_PACKET)");
	expect_ret(V(SYS_socket, (1ULL << 32) | AF_NETLINK, SOCK_DGRAM, 0),
		   R_ECAPMODE, "socket(NETLINK with bit 32)");
	expect_ret(V(SYS_getsid, 0), R_ALLOW, "getsid(0)");
	expect_ret(V(SYS_getsid, 42), R_ALLOW, "getsid(pid): BPF scopes it");

	expect_ret(V(SYS_bpf, BPF_MAP_LOOKUP_ELEM, 1, 1), R_ECAPMODE,
		   "bpf(MAP_LOOKUP_ELEM)");
	expect_ret(V(SYS_bpf, BPF_MAP_CREATE, 1, 1), R_ECAPMODE,
		   "bpf(MAP_CREATE)");
	expect_ret(V(SYS_bpf, BPF_PROG_LOAD, 1, 1), R_ECAPMODE,
		   "bpf(PROG_LOAD)");
	expect_ret(V(SYS_bpf, BPF_OBJ_GET, 1, 1), R_ECAPMODE, "bpf(OBJ_GET)");

	expect_ret(V(SYS_clone, CLONE_NEWUSER | SIGCHLD), R_ECAPMODE,
		   "clone(NEWUSER)");
	expect_ret(V(SYS_clone, CLONE_NEWNET), R_ECAPMODE, "clone(NEWNET)");
	expect_ret(V(SYS_clone,
		     CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND |
			     CLONE_THREAD | CLONE_SYSVSEM | CLONE_SETTLS |
			     CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID),
		   R_ALLOW, "clone(thread)");
	expect_ret(V(SYS_clone, SIGCHLD), R_ALLOW, "clone(fork)");
	expect_ret(V(SYS_clone3, 1, 88), R_ENOSYS, "clone3");

	expect_ret(V(SYS_prctl, CAPSICUM_PRCTL_OPTION, 1), R_ALLOW,
		   "prctl(CAPSICUM)");
	expect_ret(V(SYS_prctl, PR_SET_NO_NEW_PRIVS, 1), R_ALLOW,
		   "prctl(NO_NEW_PRIVS)");
	expect_ret(V(SYS_prctl, PR_SET_DUMPABLE, 1), R_ECAPMODE,
		   "prctl(SET_DUMPABLE)");
	expect_ret(V(SYS_prctl, PR_SET_MM, 1), R_ECAPMODE, "prctl(SET_MM)");
	expect_ret(V(SYS_prctl, (1ULL << 32) | PR_GET_NAME, 1), R_ECAPMODE,
		   "prctl(GET_NAME with bit 32): not truncated and allowed");
	expect_ret(V(SYS_prctl, (1ULL << 32) | CAPSICUM_PRCTL_OPTION, 1),
		   R_ECAPMODE, "prctl(CAPSICUM with bit 32)");
	expect_ret(V(SYS_openat, (1ULL << 32) | 3, 1, 0), R_ECAPMODE,
		   "openat(3 with bit 32)");
	expect_ret(V(SYS_openat, 3, 1, (1ULL << 32) | O_RDONLY), R_ECAPMODE,
		   "openat(flags with bit 32)");
	expect_ret(V(SYS_personality, 0xffffffff), R_ALLOW,
		   "personality(query)");
	expect_ret(V(SYS_personality, 0x0040000 /* ADDR_NO_RANDOMIZE */),
		   R_ECAPMODE, "personality(set)");
	expect_ret(V(SYS_prlimit64, 0, RLIMIT_NOFILE), R_ALLOW, "prlimit64(0)");
	expect_ret(V(SYS_prlimit64, 1, RLIMIT_NOFILE), R_ECAPMODE,
		   "prlimit64(1)");
	expect_ret(V(SYS_fcntl, 3, F_GETFD, 0x7ffc0000), R_ALLOW,
		   "fcntl(F_GETFD, req)");
	expect_ret(V(SYS_ptrace, 0), R_ECAPMODE, "ptrace");
	expect_ret(V(SYS_io_uring_setup, 8, 0), R_ECAPMODE, "io_uring_setup");
}

/* The binary search stays shallow; a linear scan would not. */
Test(bpf, search_depth)
{
	struct seccomp_data d = { .arch = AUDIT_ARCH_X86_64 };
	size_t steps, worst = 0;
	int nr;

	build_prog();
	for (nr = 0; nr < 512; nr++) {
		const struct capsicum_capmode_rule *r = rule_at(nr);

		/* Plain rows only: checks add their own length. */
		if (r && r->verdict == CAPMODE_ALLOW_IF)
			continue;
		d.nr = nr;
		run(prog, prog_len, &d, &steps);
		if (steps > worst)
			worst = steps;
	}
	cr_log_info("capmode filter: %zu instructions, at most %zu executed "
		    "for a plain row",
		    prog_len, worst);
	cr_expect_leq(worst, 6 + 2 * 10 + 1);
}

/*
 * The kernel's seccomp_is_const_allow() (kernel/seccomp.c) at attach
 * time: the filter run knowing only nr and arch, where a load of
 * anything else means "depends on the call". A syscall found allowed
 * that way goes into the filter's allow cache and never runs the filter
 * again, so capability mode costs it only seccomp's entry path.
 */
static bool kernel_caches_allow(int nr)
{
	uint32_t a = 0;

	for (size_t pc = 0; pc < prog_len; pc++) {
		const struct sock_filter *f = &prog[pc];
		bool taken;

		switch (f->code) {
		case BPF_LD | BPF_W | BPF_ABS:
			if (f->k == offsetof(struct seccomp_data, nr))
				a = (uint32_t)nr;
			else if (f->k == offsetof(struct seccomp_data, arch))
				a = AUDIT_ARCH_X86_64;
			else
				return false;
			break;
		case BPF_RET | BPF_K:
			return f->k == SECCOMP_RET_ALLOW;
		case BPF_JMP | BPF_JA | BPF_K:
			pc += f->k;
			break;
		case BPF_JMP | BPF_JEQ | BPF_K:
		case BPF_JMP | BPF_JGE | BPF_K:
		case BPF_JMP | BPF_JGT | BPF_K:
		case BPF_JMP | BPF_JSET | BPF_K:
			switch (BPF_OP(f->code)) {
			case BPF_JEQ:
				taken = a == f->k;
				break;
			case BPF_JGE:
				taken = a >= f->k;
				break;
			case BPF_JGT:
				taken = a > f->k;
				break;
			default:
				taken = a & f->k;
			}
			pc += taken ? f->jt : f->jf;
			break;
		case BPF_ALU | BPF_AND | BPF_K:
			a &= f->k;
			break;
		default:
			return false;
		}
	}
	return false;
}

/* Exactly the plain ALLOW rows skip the filter in the kernel. */
Test(bpf, plain_allows_are_cached_by_the_kernel)
{
	size_t cached = 0;

	build_prog();
	for (size_t i = 0; i < capsicum_capmode_table_len; i++) {
		const struct capsicum_capmode_rule *r =
			&capsicum_capmode_table[i];
		bool want = r->verdict == CAPMODE_ALLOW;

		cr_expect_eq(kernel_caches_allow(r->nr), want,
			     "%s (%d): %s by the kernel's allow cache", r->name,
			     r->nr, want ? "missed" : "cached");
		cached += want;
	}
	cr_log_info("capmode filter: %zu syscalls in the kernel's allow cache",
		    cached);
}

Test(build, errors)
{
	struct sock_filter small[8];
	size_t len = 0, need;

	build_prog();
	need = prog_len;
	errno = 0;
	cr_expect_eq(capsicum_capmode_filter_build(&test_ids, small, 8, &len),
		     -1);
	cr_expect_eq(errno, E2BIG);
	cr_expect_eq(len, need, "E2BIG reports the size needed");
	cr_expect_eq(capsicum_capmode_filter_build(&test_ids, prog, need, &len),
		     0, "exactly the size needed");
	errno = 0;
	cr_expect_eq(
		capsicum_capmode_filter_build(&test_ids, prog, need - 1, &len),
		-1);
	cr_expect_eq(errno, E2BIG);
	errno = 0;
	cr_expect_eq(capsicum_capmode_filter_build(NULL, prog, need, &len), -1);
	cr_expect_eq(errno, EINVAL);
	errno = 0;
	cr_expect_eq(capsicum_capmode_filter_build(&test_ids, NULL, need, &len),
		     -1);
	cr_expect_eq(errno, EINVAL);
}

/* Ids come from the caller, not from the table. */
Test(build, ids_are_the_entry_ids)
{
	const struct capsicum_capmode_ids other = { 7, 7, 7, 8, 8, 8 };

	cr_assert_eq(capsicum_capmode_filter_build(&other, prog, BPF_MAXINSNS,
						   &prog_len),
		     0);
	expect_ret(V(SYS_setuid, 7), R_ALLOW, "setuid(7)");
	expect_ret(V(SYS_setuid, 1000), R_ECAPMODE, "setuid(1000)");
	expect_ret(V(SYS_setgid, 8), R_ALLOW, "setgid(8)");
	expect_ret(V(SYS_setgid, 7), R_ECAPMODE, "setgid(7)");
}

/*
 * Real installation.  Each test forks a child that enters capability mode,
 * so neither criterion nor the other tests run under the filter.  The child
 * reports its first failure through a pipe and exits 1.
 */
static int report_fd = -1;

static void __attribute__((noreturn, format(printf, 2, 3)))
child_fail(int line, const char *fmt, ...)
{
	char msg[512];
	int n, saved = errno;
	va_list ap;

	n = snprintf(msg, sizeof(msg), "line %d: ", line);
	va_start(ap, fmt);
	n += vsnprintf(msg + n, sizeof(msg) - (size_t)n, fmt, ap);
	va_end(ap);
	n += snprintf(msg + n, sizeof(msg) - (size_t)n, " (errno %d)", saved);
	if (write(report_fd, msg, (size_t)n) < 0)
		_exit(2);
	_exit(1);
}

#define CHECK(cond)                                                            \
	do {                                                                   \
		if (!(cond))                                                   \
			child_fail(__LINE__, "%s", #cond);                     \
	} while (0)

/* ret == -1 with errno == e. */
#define CHECK_ERR(call, e)                                                     \
	do {                                                                   \
		errno = 0;                                                     \
		long r_ = (long)(call);                                        \
		if (r_ != -1 || errno != (e))                                  \
			child_fail(__LINE__, "%s = %ld, want -1/%s", #call,    \
				   r_, #e);                                    \
	} while (0)

#define CHECK_OK(call)                                                         \
	do {                                                                   \
		errno = 0;                                                     \
		long r_ = (long)(call);                                        \
		if (r_ < 0)                                                    \
			child_fail(__LINE__, "%s = %ld", #call, r_);           \
	} while (0)

/* Runs body in a forked child and asserts it exited 0. */
static void in_child(void (*body)(void))
{
	char msg[513] = { 0 };
	int fds[2], status;
	ssize_t n;
	pid_t pid;

	cr_assert_eq(pipe(fds), 0);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		close(fds[0]);
		report_fd = fds[1];
		body();
		_exit(0);
	}
	close(fds[1]);
	n = read(fds[0], msg, sizeof(msg) - 1);
	close(fds[0]);
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status), "child died: status 0x%x", status);
	cr_assert_eq(WEXITSTATUS(status), 0, "child: %s",
		     n > 0 ? msg : "no message");
}

static void enter(void)
{
	if (capsicum_capmode_install())
		child_fail(__LINE__, "capsicum_capmode_install");
}

static void body_basics(void)
{
	pid_t pid = getpid();
	int dir = open("/etc", O_RDONLY | O_DIRECTORY);
	char c;
	int fd;

	CHECK(dir >= 0);
	enter();
	CHECK(getpid() == pid);
	CHECK_ERR(syscall(SYS_open, "/etc/passwd", O_RDONLY), ECAPMODE);
	CHECK_ERR(open("/etc/passwd", O_RDONLY), ECAPMODE);
	CHECK_ERR(openat(AT_FDCWD, "/etc/passwd", O_RDONLY), ECAPMODE);
	CHECK_ERR(openat(AT_FDCWD, "passwd", O_RDONLY), ECAPMODE);
	fd = openat(dir, "passwd", O_RDONLY);
	CHECK(fd >= 0);
	CHECK(read(fd, &c, 1) == 1);
	CHECK_OK(close(fd));
	CHECK_ERR(syscall(SYS_stat, "/etc/passwd", NULL), ECAPMODE);
	CHECK_ERR(mkdir("/tmp/capmode-never", 0700), ECAPMODE);
	CHECK_ERR(chdir("/"), ECAPMODE);
	CHECK_ERR(fchdir(dir), ECAPMODE);
	CHECK_ERR(syscall(SYS_getcwd, &c, 1), ECAPMODE);
	/* The control plane's calls pass through to the kernel. */
	CHECK_OK(fcntl(dir, F_GETFD));
	CHECK_ERR(prctl(CAPSICUM_PRCTL_OPTION, 0, 0, 0, 0), EINVAL);
	CHECK_ERR(prctl(PR_SET_DUMPABLE, 1, 0, 0, 0), ECAPMODE);
	CHECK_OK(prctl(PR_SET_NAME, "capmode", 0, 0, 0));
	/* An int option with bit 32 set: refused, not truncated and run. */
	CHECK_ERR(syscall(SYS_prctl, (1UL << 32) | PR_SET_NAME, "x", 0, 0, 0),
		  ECAPMODE);
	CHECK_OK(syscall(SYS_prctl, 0xffffffff00000000UL | PR_SET_NAME, "x", 0,
			 0, 0));
	/* The own session and group (the BPF side scopes other pids). */
	CHECK(getsid(0) == getsid(pid));
	CHECK(getpgid(0) == getpgid(pid));
}

static void body_signals(void)
{
	enter();
	CHECK_OK(kill(getpid(), 0));
	CHECK_ERR(kill(0, 0), ECAPMODE);
	CHECK_ERR(kill(-1, 0), ECAPMODE);
	CHECK_ERR(kill(-getpgrp(), 0), ECAPMODE);
	CHECK_OK(syscall(SYS_tgkill, getpid(), gettid(), 0));
}

static void body_sockets(void)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int s, sv[2];
	char c = 'x';

	strcpy(sun.sun_path, "/nonexistent/capmode.sock");
	enter();
	s = socket(AF_UNIX, SOCK_STREAM, 0);
	CHECK(s >= 0);
	CHECK_ERR(connect(s, (struct sockaddr *)&sun, sizeof(sun)), ECAPMODE);
	CHECK_ERR(bind(s, (struct sockaddr *)&sun, sizeof(sun)), ECAPMODE);
	CHECK_OK(close(s));
	CHECK_OK(socketpair(AF_UNIX, SOCK_DGRAM, 0, sv));
	/* Global state: netlink, packet and raw sockets. */
	CHECK_ERR(socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, 0), ECAPMODE);
	CHECK_ERR(socket(AF_NETLINK, SOCK_DGRAM, 0), ECAPMODE);
	CHECK_ERR(socket(AF_PACKET, SOCK_DGRAM, 0), ECAPMODE);
	CHECK_ERR(socket(AF_INET, SOCK_RAW, IPPROTO_ICMP), ECAPMODE);
	CHECK_ERR(socket(AF_INET6, SOCK_RAW | SOCK_NONBLOCK, 58), ECAPMODE);
	s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	CHECK(s >= 0);
	CHECK_OK(close(s));
	CHECK(sendto(sv[0], &c, 1, 0, NULL, 0) == 1);
	CHECK_ERR(sendto(sv[0], &c, 1, 0, (struct sockaddr *)&sun, sizeof(sun)),
		  ECAPMODE);
	CHECK(recv(sv[1], &c, 1, 0) == 1);
}

static void body_credentials(void)
{
	uid_t uid = getuid();
	gid_t gid = getgid();

	enter();
	CHECK_OK(setuid(uid));
	CHECK_OK(setgid(gid));
	CHECK_OK(setresuid((uid_t)-1, (uid_t)-1, (uid_t)-1));
	/* As root the kernel would allow these: only the filter refuses. */
	CHECK_ERR(setuid(uid + 4242), ECAPMODE);
	CHECK_ERR(setresgid((gid_t)-1, gid + 4242, (gid_t)-1), ECAPMODE);
	CHECK_ERR(setgroups(0, NULL), ECAPMODE);
}

static void body_namespaces(void)
{
	struct clone_args args = { .flags = CLONE_NEWUSER,
				   .exit_signal = SIGCHLD };

	enter();
	CHECK_ERR(syscall(SYS_clone3, &args, sizeof(args)), ENOSYS);
	CHECK_ERR(unshare(CLONE_NEWUSER), ECAPMODE);
	CHECK_ERR(syscall(SYS_clone, CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0),
		  ECAPMODE);
	CHECK_ERR(syscall(SYS_bpf, BPF_PROG_LOAD, NULL, 0), ECAPMODE);
	/* The control plane needs no bpf(2): no command is left. */
	CHECK_ERR(syscall(SYS_bpf, BPF_MAP_LOOKUP_ELEM, NULL, 0), ECAPMODE);
}

static void *thread_open(void *arg)
{
	int *err = arg;

	errno = 0;
	if (syscall(SYS_open, "/etc/passwd", O_RDONLY) == -1)
		*err = errno;
	return NULL;
}

static void body_pthread(void)
{
	pthread_t t;
	int err = 0, rc;

	enter();
	/* glibc tries clone3 first; ENOSYS sends it to clone. */
	rc = pthread_create(&t, NULL, thread_open, &err);
	if (rc)
		child_fail(__LINE__, "pthread_create: %d", rc);
	CHECK(pthread_join(t, NULL) == 0);
	CHECK(err == ECAPMODE);
}

static void body_fork(void)
{
	int status;
	pid_t pid;

	enter();
	pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		/* The grandchild inherits the filter. */
		if (syscall(SYS_open, "/etc/passwd", O_RDONLY) == -1 &&
		    errno == ECAPMODE)
			_exit(0);
		_exit(1);
	}
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void body_twice(void)
{
	enter();
	enter();
	CHECK_ERR(syscall(SYS_open, "/etc/passwd", O_RDONLY), ECAPMODE);
	CHECK(getppid() > 0);
}

/* A thread that already runs when the process enters capability mode. */
struct waiter {
	int go[2];
	int err;
};

static void *wait_then_open(void *arg)
{
	struct waiter *w = arg;
	char c;

	if (read(w->go[0], &c, 1) != 1)
		return NULL;
	errno = 0;
	if (openat(AT_FDCWD, "/etc/passwd", O_RDONLY) == -1)
		w->err = errno;
	return NULL;
}

static void body_tsync(void)
{
	struct waiter w = { .err = 0 };
	pthread_t t;

	CHECK(pipe(w.go) == 0);
	CHECK(pthread_create(&t, NULL, wait_then_open, &w) == 0);
	enter();
	CHECK(write(w.go[1], "g", 1) == 1);
	CHECK(pthread_join(t, NULL) == 0);
	CHECK(w.err == ECAPMODE);
}

/*
 * A thread with a filter of its own cannot be synchronised: install must
 * fail and leave every thread, the caller included, unfiltered.
 */
struct loner {
	int ready[2], done[2];
};

static void *own_filter_then_wait(void *arg)
{
	struct sock_filter allow = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	struct sock_fprog fprog = { .len = 1, .filter = &allow };
	struct loner *l = arg;
	char c = 'n';

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 &&
	    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &fprog) == 0)
		c = 'y';
	if (write(l->ready[1], &c, 1) != 1 || read(l->done[0], &c, 1) != 1)
		return NULL;
	return NULL;
}

static void body_tsync_failure(void)
{
	struct loner l;
	pthread_t t;
	char c = 0;
	int fd;

	CHECK(pipe(l.ready) == 0 && pipe(l.done) == 0);
	CHECK(pthread_create(&t, NULL, own_filter_then_wait, &l) == 0);
	CHECK(read(l.ready[0], &c, 1) == 1 && c == 'y');
	CHECK_ERR(capsicum_capmode_install(), EBUSY);
	fd = open("/etc/passwd", O_RDONLY);
	CHECK(fd >= 0);
	CHECK(write(l.done[1], "d", 1) == 1);
	CHECK(pthread_join(t, NULL) == 0);
}

static volatile sig_atomic_t got_usr1;

static void on_usr1(int sig)
{
	got_usr1 = sig;
}

/* What ordinary libc code does after cap_enter(). */
static void body_libc(void)
{
	int fds[2];
	struct stat st;
	char buf[8];
	FILE *f;

	CHECK(pipe(fds) == 0);
	CHECK(signal(SIGUSR1, on_usr1) != SIG_ERR);
	enter();
	/* stdio's first write fstat()s: newfstatat(fd, "", AT_EMPTY_PATH). */
	f = fdopen(fds[1], "w");
	CHECK(f != NULL);
	CHECK(fprintf(f, "%d", 42) == 2);
	CHECK(fclose(f) == 0);
	CHECK(read(fds[0], buf, sizeof(buf)) == 2 && !memcmp(buf, "42", 2));
	CHECK_OK(fstat(fds[0], &st));
	CHECK_ERR(stat("/etc/passwd", &st), ECAPMODE);
	/* raise() is tgkill(getpid(), gettid(), sig). */
	CHECK(raise(SIGUSR1) == 0 && got_usr1 == SIGUSR1);
	CHECK(malloc(1 << 20) != NULL);
	CHECK_OK(getrandom(buf, sizeof(buf), 0));
}

static long int80_getpid(void)
{
	long r;

	/* i386 getpid is 20; int 0x80 always uses the i386 table. */
	__asm__ volatile("int $0x80" : "=a"(r) : "a"(20L) : "memory");
	return r;
}

static void body_i386(void)
{
	enter();
	CHECK(int80_getpid() == -ECAPMODE);
	errno = 0;
	CHECK(syscall(__X32_SYSCALL_BIT | SYS_getpid) == -1 &&
	      errno == ECAPMODE);
}

static void body_int80_probe(void)
{
	CHECK(int80_getpid() == getpid());
}

Test(install, basics)
{
	in_child(body_basics);
}

Test(install, signals_only_to_a_single_process)
{
	in_child(body_signals);
}

Test(install, socket_yes_connect_bind_no)
{
	in_child(body_sockets);
}

Test(install, credentials_only_entry_ids)
{
	in_child(body_credentials);
}

Test(install, no_namespaces_no_bpf)
{
	in_child(body_namespaces);
}

Test(install, pthread_create_falls_back_from_clone3)
{
	in_child(body_pthread);
}

Test(install, fork_child_is_filtered)
{
	in_child(body_fork);
}

Test(install, second_install_succeeds)
{
	in_child(body_twice);
}

Test(install, tsync_covers_running_threads)
{
	in_child(body_tsync);
}

Test(install, tsync_failure_is_reported)
{
	in_child(body_tsync_failure);
}

Test(install, libc_basics)
{
	in_child(body_libc);
}

Test(install, non_native_abis)
{
	pid_t pid = fork();
	int status;

	/* Kernels without IA-32 emulation cannot test the i386 half. */
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		report_fd = open("/dev/null", O_WRONLY);
		body_int80_probe();
		_exit(0);
	}
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		cr_skip_test("no IA-32 emulation in this kernel");
	in_child(body_i386);
}
