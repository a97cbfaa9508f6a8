// SPDX-License-Identifier: GPL-2.0
/*
 * The microbenchmark, run as root in the VM under -icount (one boot per
 * kernel): every operation of ops.c under every configuration, one line
 * each on stdout,
 *   bench result CONFIG OP NS_MEDIAN NS_MIN NS_MAX
 *   bench na CONFIG OP REASON...
 * which bench/report.py turns into tables. Configurations that cannot be
 * undone run in children; the ones that change the kernel are ordered:
 * (a), (e), (f) with nothing loaded, then the floor (a') attached and
 * detached, then Capsicum loaded for good for (b), (c), (d).
 */
#define _GNU_SOURCE
#include "bench.h"
#include "load.h"

#include <bpf/libbpf.h>
#include <capsicum/abi.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Timed loops per measurement, after one untimed warm-up loop. */
#define REPS 31

enum config_kind { PLAIN, LIMITS, CAPMODE, LANDLOCK, SECCOMP, SECCOMP_ALLOW };

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

/* Median, min and max of REPS loops, in guest ns per operation. */
static int measure(const struct op *op, struct op_state *st, double out[3])
{
	long long t[REPS];
	int err;

	for (int r = -1; r < REPS; r++) {
		long long t0, t1;

		if (op->prepare && (err = op->prepare(st, op->iters)))
			return err;
		t0 = now_ns();
		for (int i = 0; i < op->iters; i++)
			if ((err = op->run(st)))
				return err;
		t1 = now_ns();
		if (op->finish && (err = op->finish(st)))
			return err;
		if (r >= 0)
			t[r] = t1 - t0;
	}
	qsort(t, REPS, sizeof(t[0]), cmp_ll);
	out[0] = (double)t[REPS / 2] / op->iters;
	out[1] = (double)t[0] / op->iters;
	out[2] = (double)t[REPS - 1] / op->iters;
	return 0;
}

static void print_na_all(const char *config, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void print_na_all(const char *config, const char *fmt, ...)
{
	char why[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	for (int i = 0; i < bench_nops; i++)
		printf("bench na %s %s %s\n", config, bench_ops[i].name, why);
}

static int apply(enum config_kind kind, struct op_state *states,
		 const char **what)
{
	switch (kind) {
	case LIMITS:
		*what = "cap_rights_limit";
		return config_limit(states, bench_nops);
	case CAPMODE:
		*what = "cap_enter";
		return config_capmode();
	case LANDLOCK:
		*what = "landlock";
		return config_landlock();
	case SECCOMP:
		*what = "seccomp";
		return config_seccomp();
	case SECCOMP_ALLOW:
		*what = "seccomp";
		return config_seccomp_allow();
	default:
		return 0;
	}
}

/* The timed process of one configuration; its exit status says if all ran. */
static int config_child(const char *config, enum config_kind kind)
{
	struct op_state states[bench_nops];
	const char *what = "";
	int err, failed = 0;

	for (int i = 0; i < bench_nops; i++) {
		op_state_init(&states[i]);
		err = op_setup(&bench_ops[i], &states[i]);
		if (err) {
			fprintf(stderr, "bench: %s: setup of %s: %s\n", config,
				bench_ops[i].name, strerror(-err));
			return 1;
		}
	}
	err = apply(kind, states, &what);
	if (err) {
		print_na_all(config, "(%s: %s)", what, strerror(-err));
		/* Only a missing capability mode is expected (for now). */
		return kind == CAPMODE ? 0 : 1;
	}
	for (int i = 0; i < bench_nops; i++) {
		const struct op *op = &bench_ops[i];
		double ns[3];

		if (kind == CAPMODE && op->needs_global) {
			printf("bench na %s %s (global namespace)\n", config,
			       op->name);
			continue;
		}
		err = measure(op, &states[i], ns);
		if (err) {
			fprintf(stderr, "bench: %s: %s failed: %s\n", config,
				op->name, strerror(-err));
			printf("bench na %s %s (error: %s)\n", config, op->name,
			       strerror(-err));
			failed = 1;
			continue;
		}
		printf("bench result %s %s %.1f %.1f %.1f\n", config, op->name,
		       ns[0], ns[1], ns[2]);
	}
	for (int i = 0; i < bench_nops; i++)
		op_state_close(&states[i]);
	return failed;
}

static int run_config(const char *config, enum config_kind kind)
{
	int status;
	pid_t pid;

	fprintf(stderr, "bench: configuration %s\n", config);
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		status = config_child(config, kind);
		fflush(NULL);
		_exit(status);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		fprintf(stderr, "bench: configuration %s failed\n", config);
		return -1;
	}
	return 0;
}

/* Runs fn in a child; its result, or -1 if the child died. */
static int in_child(int (*fn)(void))
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		status = fn();
		fflush(NULL);
		_exit(status ? 1 : 0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static int load_and_check(void)
{
	int err = capsicum_load(CAPSICUM_PIN_DIR, NULL);

	if (err) {
		fprintf(stderr, "bench: capsicum_load: %d\n", err);
		return err;
	}
	return floor_check_pinned(CAPSICUM_PIN_DIR);
}

/*
 * A child runs hold() (attaches the floor, or becomes the bystander) and
 * keeps what it made while `config` runs here, until the pipe closes.
 * Returns hold()'s result, negative errno if it failed (then `config` is
 * not run); *failed says if the configuration or the child failed.
 */
static int run_while_held(int (*hold)(void), void (*release)(void),
			  const char *config, enum config_kind kind,
			  bool *failed)
{
	int ready[2], go[2], n = -EPIPE, status;
	pid_t pid;

	if (pipe(ready) || pipe(go))
		return -errno;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		char c;

		close(ready[0]);
		close(go[1]);
		n = hold();
		if (write(ready[1], &n, sizeof(n)) != sizeof(n) || n < 0)
			_exit(1);
		/* Blocks until the parent closes its end. */
		if (read(go[0], &c, 1) < 0)
			_exit(1);
		if (release)
			release();
		_exit(0);
	}
	close(ready[1]);
	close(go[0]);
	if (read(ready[0], &n, sizeof(n)) != sizeof(n))
		n = -EPIPE;
	close(ready[0]);
	if (n >= 0)
		*failed = run_config(config, kind) != 0;
	close(go[1]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		*failed = true;
	return n;
}

/*
 * The bystander of (b+): a process holding a limited descriptor, in
 * capability mode. With it alive, no shortcut that depends on no process
 * anywhere having Capsicum state applies, as on a system where sandboxes
 * run.
 */
static int become_bystander(void)
{
	int fd = open("/dev/null", O_WRONLY);
	cap_rights_t r;

	if (fd < 0 || cap_rights_limit(fd, cap_rights_init(&r, CAP_WRITE)) ||
	    cap_enter())
		return errno ? -errno : -EIO;
	return 0;
}

static int libbpf_print(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	if (level == LIBBPF_DEBUG)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

int main(void)
{
	struct utsname u;
	bool floor_failed = false, by_failed = false;
	int err, failed = 0, n;

	setvbuf(stdout, NULL, _IOLBF, 0);
	libbpf_set_print(libbpf_print);
	uname(&u);
	printf("bench kernel %s\n", u.release);
	err = bench_make_tree();
	if (err) {
		fprintf(stderr, "bench: building %s: %s\n", BENCH_DIR,
			strerror(-err));
		return 1;
	}
	failed |= run_config("a", PLAIN);
	failed |= run_config("e", LANDLOCK);
	failed |= run_config("f", SECCOMP);
	failed |= run_config("f0", SECCOMP_ALLOW);

	/*
	 * Loading happens in children: libbpf's heap (vmlinux BTF is
	 * megabytes) would otherwise stay in this process, and every later
	 * configuration's fork and exec would copy the larger address space.
	 */
	/* (a'): the floor's links are held by the child; closed, they detach.
	 */
	n = run_while_held(floor_attach, floor_detach, "a'", PLAIN,
			   &floor_failed);
	if (n < 0)
		print_na_all("a'", "(floor: %s)", strerror(-n));
	else
		printf("bench floor %d\n", n);
	failed |= n < 0 || floor_failed;

	/* (a') is only the floor of (b) if the hook sets are the same. */
	if (in_child(load_and_check)) {
		fprintf(stderr, "bench: loading Capsicum failed\n");
		return 1;
	}
	failed |= run_config("b", PLAIN);
	n = run_while_held(become_bystander, NULL, "b+", PLAIN, &by_failed);
	if (n < 0)
		print_na_all("b+", "(bystander: %s)", strerror(-n));
	failed |= n < 0 || by_failed;
	failed |= run_config("c", LIMITS);
	failed |= run_config("d", CAPMODE);
	printf("bench done %s\n", failed ? "with errors" : "ok");
	return failed ? 1 : 0;
}
