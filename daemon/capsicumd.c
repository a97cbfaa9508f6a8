// SPDX-License-Identifier: GPL-2.0
/*
 * capsicumd: makes sure Capsicum is loaded and stays loaded, and reports.
 * Checks the kernel with a trial program, loads and pins the BPF side (or
 * re-uses the pinned state of this same build), then streams denials from
 * the ring buffer to the log until SIGTERM. Enforcement lives in the
 * pinned links: exiting, crashing or being killed changes nothing; only
 * --unload detaches. doc/man/capsicumd.8 documents options and exit codes.
 */
#define _GNU_SOURCE
#include "counters.h"
#include "denials.h"
#include "exit_codes.h"
#include "handover.h"
#include "instance.h"
#include "load.h"
#include "log.h"
#include "notify.h"
#include "pd_kills.h"
#include "pinned.h"
#include "probe.h"
#include "query_server.h"

#include <bpf/libbpf.h>
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

enum action { RUN, LOAD_ONLY, CHECK_ONLY, UNLOAD, UPGRADE };

struct options {
	enum action action;
	enum log_target log;
	const char *log_path;
	const char *audit_path;
	const char *pidfile;
	unsigned int rate;
	bool replace;
	bool background;
	struct capsicum_load_opts load; /* used when loading */
};

/* --background: the write end the parent waits on until we are ready. */
static int ready_fd = -1;
/* What a live upgrade needs of the running daemon (handover.h). */
static struct handover handover;

#define DEFAULT_AUDIT	"/run/capsicumd/audit.log"
#define DEFAULT_PIDFILE "/run/capsicumd.pid"
#define DEFAULT_RATE	20

static void usage(FILE *f)
{
	fprintf(f,
		"usage: capsicumd [OPTION]...\n"
		"Loads Capsicum's BPF programs (or re-uses them), pins them "
		"under\n" CAPSICUM_PIN_DIR " and logs denials until SIGTERM.\n"
		"\n"
		"  --load             load and pin, then exit\n"
		"  --check            only check that the kernel can run "
		"Capsicum\n"
		"  --unload           remove the pinned state: enforcement "
		"stops\n"
		"  --upgrade          take the pinned state of another build "
		"over with no\n"
		"                     window, through the running daemon "
		"(live upgrade)\n"
		"  --replace          if another build's state is pinned, "
		"unload it first:\n"
		"                     sandboxed processes lose their "
		"restrictions\n"
		"  --syslog           log to syslog instead of stderr\n"
		"  --log FILE         log to FILE (reopened on SIGHUP)\n"
		"  --audit-log FILE   every denial, one line each "
		"[" DEFAULT_AUDIT "];\n"
		"                     'none' for no audit log\n"
		"  --rate N           at most N denial lines per second [%d]\n"
		"  --pidfile FILE     [" DEFAULT_PIDFILE "]; 'none' for none\n"
		"  --background       detach once ready; the parent exits 0 "
		"then,\n"
		"                     or with the daemon's exit code if it "
		"fails\n"
		"Sizes and quota, used when loading (a re-used state keeps "
		"its own):\n"
		"  --max-fds N        descriptor entries, all processes "
		"[65536]\n"
		"  --max-floors N     file floors (and tracked files) [65536]\n"
		"  --max-ioctls N     ioctl allowlists [4096]\n"
		"  --uid-quota N      descriptor entries, floors and files one "
		"uid may hold\n"
		"                     [16384]; past it a limit fails with "
		"EDQUOT\n"
		"  --uid-ioctl-quota N  ioctl allowlists one uid may hold "
		"[1024]\n"
		"  --root-quota N     the same for uid 0 ['none': exempt]\n"
		"  --help\n"
		"\nExit: 0 ok, 1 error, 2 usage, 3 kernel cannot run "
		"Capsicum,\n"
		"4 another build's state is pinned, 5 permission denied,\n"
		"6 another capsicumd is running, 7 --upgrade found no "
		"running daemon.\n",
		DEFAULT_RATE);
}

static int parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "load", no_argument, NULL, 'L' },
		{ "check", no_argument, NULL, 'C' },
		{ "unload", no_argument, NULL, 'U' },
		{ "replace", no_argument, NULL, 'R' },
		{ "upgrade", no_argument, NULL, 'P' },
		{ "syslog", no_argument, NULL, 's' },
		{ "log", required_argument, NULL, 'l' },
		{ "audit-log", required_argument, NULL, 'a' },
		{ "rate", required_argument, NULL, 'r' },
		{ "pidfile", required_argument, NULL, 'p' },
		{ "background", no_argument, NULL, 'b' },
		{ "max-fds", required_argument, NULL, 'F' },
		{ "max-floors", required_argument, NULL, 'O' },
		{ "max-ioctls", required_argument, NULL, 'I' },
		{ "uid-quota", required_argument, NULL, 'q' },
		{ "uid-ioctl-quota", required_argument, NULL, 'Q' },
		{ "root-quota", required_argument, NULL, 'z' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	char *end;
	int c;

	const char *why;
	int64_t n = 0;
	int li = 0;

	*o = (struct options){ .audit_path = DEFAULT_AUDIT,
			       .pidfile = DEFAULT_PIDFILE,
			       .rate = DEFAULT_RATE };
	capsicum_load_opts_default(&o->load);
	while ((c = getopt_long(argc, argv, "", longopts, &li)) != -1) {
		if (c > 0 && strchr("FOIqQz", c)) {
			if (c == 'z' && !strcmp(optarg, "none")) {
				o->load.root_quota = -1;
				continue;
			}
			errno = 0;
			n = strtoll(optarg, &end, 10);
			if (errno || *end || end == optarg || n < 1 ||
			    n > UINT32_MAX) {
				fprintf(stderr,
					"capsicumd: bad number '%s' for "
					"--%s\n",
					optarg, longopts[li].name);
				return -1;
			}
		}
		switch (c) {
		case 'F':
			o->load.max_fds = (uint32_t)n;
			break;
		case 'O':
			o->load.max_floors = (uint32_t)n;
			break;
		case 'I':
			o->load.max_ioctls = (uint32_t)n;
			break;
		case 'q':
			o->load.uid_quota = n;
			break;
		case 'Q':
			o->load.uid_ioctl_quota = n;
			break;
		case 'z':
			o->load.root_quota = n;
			break;
		case 'L':
			o->action = LOAD_ONLY;
			break;
		case 'C':
			o->action = CHECK_ONLY;
			break;
		case 'U':
			o->action = UNLOAD;
			break;
		case 'R':
			o->replace = true;
			break;
		case 'P':
			o->action = UPGRADE;
			break;
		case 's':
			o->log = LOG_TO_SYSLOG;
			break;
		case 'l':
			o->log = LOG_TO_FILE;
			o->log_path = optarg;
			break;
		case 'a':
			o->audit_path = strcmp(optarg, "none") ? optarg : NULL;
			break;
		case 'r':
			errno = 0;
			o->rate = (unsigned int)strtoul(optarg, &end, 10);
			if (errno || *end || !o->rate) {
				fprintf(stderr, "capsicumd: bad --rate %s\n",
					optarg);
				return -1;
			}
			break;
		case 'p':
			o->pidfile = strcmp(optarg, "none") ? optarg : NULL;
			break;
		case 'b':
			o->background = true;
			break;
		case 'h':
			usage(stdout);
			exit(EXIT_OK);
		default:
			return -1;
		}
	}
	why = capsicum_load_opts_check(&o->load);
	if (why) {
		fprintf(stderr, "capsicumd: %s\n", why);
		return -1;
	}
	return optind == argc ? 0 : -1;
}

/* The refusal, or with --replace the unload, of a state we cannot use. */
static int refuse_or_unload(const struct options *o, const char *why)
{
	int err;

	if (!o->replace) {
		log_msg(LOG_ERR, "load",
			"%s; refusing to mix builds: stop, then run "
			"'capsicumd --unload' with the binary that "
			"loaded it, or 'capsicumd --replace' (running "
			"sandboxes lose their restrictions)",
			why);
		return EXIT_VERSION;
	}
	log_msg(LOG_WARNING, "load",
		"%s; replacing it (--replace): UNLOADING it first, so every "
		"sandboxed process loses its restrictions until this build "
		"is loaded, and its tables (limited descriptors, capability "
		"mode, counters) are dropped for good; 'capsicumd --upgrade' "
		"keeps them",
		why);
	err = pinned_unload();
	if (err) {
		log_msg(LOG_ERR, "load", "cannot remove the old state: %s%s",
			strerror(-err),
			err == -EPERM ? " (only the binary that loaded "
					"it may; reboot otherwise)"
				      : "");
		return err == -EPERM ? EXIT_DENIED : EXIT_ERROR;
	}
	return EXIT_OK;
}

/* Is the loader of v still running (its pid, running its binary)? */
static bool loader_alive(const struct capsicum_state_version *v)
{
	char exe[64];
	struct stat st;

	snprintf(exe, sizeof(exe), "/proc/%u/exe", v->loader_pid);
	/* A zombie has no exe: it pins nothing any more. */
	return !stat(exe, &st) && st.st_ino == v->exe_ino &&
	       (major(st.st_dev) << 20 | minor(st.st_dev)) == v->exe_dev;
}

/*
 * Our build's stamp is pinned as loading: its loader died between its
 * first pin and its last. If every pin is there, the state is whole and
 * only its name is missing: complete it, so a restart recovers without
 * a window. Else some hooks were never pinned: leave what enforces as it
 * is and say what to do; only --replace unloads it.
 */
static int finish_unfinished(const struct options *o,
			     const struct capsicum_state_version *v)
{
	char missing[256], why[512];
	int n;

	if (loader_alive(v)) {
		log_msg(LOG_ERR, "load",
			"a load by pid %u is still pinning under %s; "
			"start again once it has finished",
			v->loader_pid, CAPSICUM_PIN_DIR);
		return EXIT_ERROR;
	}
	n = capsicum_load_finish(CAPSICUM_PIN_DIR, missing, sizeof(missing));
	if (!n) {
		log_msg(LOG_WARNING, "load",
			"completed the unfinished load of pid %u under %s "
			"(it died before its last pin): every program, link "
			"and map of this build was pinned; re-using it",
			v->loader_pid, CAPSICUM_PIN_DIR);
		return EXIT_OK;
	}
	if (n < 0) {
		log_msg(LOG_ERR, "load",
			"cannot complete the unfinished load of pid %u: %s%s",
			v->loader_pid, strerror(-n),
			n == -EPERM ? " (only the binary that loaded it may; "
				      "it stays as it is)"
				    : "");
		return n == -EPERM ? EXIT_DENIED : EXIT_ERROR;
	}
	snprintf(why, sizeof(why),
		 "the unfinished load of pid %u under %s lacks %d of its "
		 "pins (%s first): some hooks may not be attached, and what "
		 "is stays enforcing",
		 v->loader_pid, CAPSICUM_PIN_DIR, n, missing);
	return refuse_or_unload(o, why);
}

/* Makes the pinned state this build's: load, re-use, or refuse. */
static int ensure_state(const struct options *o)
{
	struct capsicum_state_version v;
	char why[512];
	int err;

	switch (pinned_check(&v, why, sizeof(why))) {
	case PINNED_SAME:
		log_msg(LOG_INFO, "load",
			"re-using the pinned state under %s (loaded by pid %u)",
			CAPSICUM_PIN_DIR, v.loader_pid);
		return EXIT_OK;
	case PINNED_UNFINISHED:
		err = finish_unfinished(o, &v);
		/* Unloaded by --replace: load afresh. */
		if (err != EXIT_OK || !access(CAPSICUM_PIN_VERSION, F_OK))
			return err;
		break;
	case PINNED_OTHER:
	case PINNED_UNKNOWN:
		err = refuse_or_unload(o, why);
		if (err != EXIT_OK)
			return err;
		break;
	case PINNED_NONE:
		break;
	}
	err = capsicum_load(CAPSICUM_PIN_DIR, &o->load);
	if (err < 0) {
		log_msg(LOG_ERR, "load", "loading failed: %s", strerror(-err));
		return EXIT_ERROR;
	}
	log_msg(LOG_INFO, "load", "loaded and pinned under %s",
		CAPSICUM_PIN_DIR);
	return EXIT_OK;
}

static void log_counters(const struct denials *d, const struct pd_kills *k)
{
	struct capsicum_counters c = { 0 };

	counters_read(&c);
	log_msg(LOG_INFO, "stats",
		"denials received %llu, logged %llu, suppressed %llu; BPF "
		"side: reported %llu, dropped %llu, protection refusals %llu",
		(unsigned long long)d->received, (unsigned long long)d->logged,
		(unsigned long long)d->suppressed,
		(unsigned long long)c.denials,
		(unsigned long long)c.denials_dropped,
		(unsigned long long)c.protect_denied);
	log_msg(LOG_INFO, "stats",
		"process descriptor kills received %llu, killed %llu, gone "
		"%llu, failed %llu; BPF side: requested %llu, dropped %llu",
		(unsigned long long)k->received, (unsigned long long)k->killed,
		(unsigned long long)k->gone, (unsigned long long)k->failed,
		(unsigned long long)c.pd_kill_requests,
		(unsigned long long)c.pd_kill_dropped);
}

static int write_pidfile(const char *path)
{
	FILE *f;

	if (!path)
		return 0;
	f = fopen(path, "we");
	if (!f)
		return -errno;
	fprintf(f, "%d\n", getpid());
	return fclose(f) ? -errno : 0;
}

/* Streams denials until SIGTERM or SIGINT. */
static int serve(const struct options *o)
{
	struct query_server q;
	struct pd_kills k;
	struct denials d;
	sigset_t mask;
	int sfd, err;

	if (o->audit_path) {
		char dir[256];
		char *slash;

		snprintf(dir, sizeof(dir), "%s", o->audit_path);
		slash = strrchr(dir, '/');
		if (slash && slash != dir) {
			*slash = '\0';
			mkdir(dir, 0750);
		}
	}
	err = denials_open(&d, o->audit_path, o->rate);
	if (err) {
		log_msg(LOG_ERR, "denial",
			"cannot open the denial stream: %s%s", strerror(-err),
			err == -EPERM ? " (the state was loaded by another "
					"binary; only it may consume denials)"
				      : "");
		denials_close(&d);
		return err == -EPERM ? EXIT_DENIED : EXIT_ERROR;
	}
	/* Not fatal: a doomed child still dies at its next hook. */
	err = pd_kills_open(&k);
	if (err) {
		log_msg(LOG_WARNING, "procdesc",
			"no kill requests (%s): a pdfork child whose last "
			"descriptor closes dies only at its next checked "
			"operation",
			strerror(-err));
		pd_kills_close(&k);
	}
	/* Not fatal: root's capctl reads the pins without it. */
	err = query_open(&q, CAPSICUMD_QUERY_SOCK, o->audit_path);
	if (err)
		log_msg(LOG_WARNING, "query",
			"no query socket %s: %s; users' capctl cannot ask",
			CAPSICUMD_QUERY_SOCK, strerror(-err));
	d.tap = query_denial;
	d.tap_ctx = &q;
	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGHUP);
	sigaddset(&mask, HANDOVER_SIGNAL);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	sfd = signalfd(-1, &mask, SFD_CLOEXEC);
	if (sfd < 0 || write_pidfile(o->pidfile)) {
		log_msg(LOG_ERR, "daemon", "setup failed: %s", strerror(errno));
		query_close(&q);
		pd_kills_close(&k);
		denials_close(&d);
		return EXIT_ERROR;
	}
	notify_send("READY=1\nSTATUS=streaming denials");
	if (ready_fd >= 0) {
		char ok = 0;

		if (write(ready_fd, &ok, 1) != 1)
			log_msg(LOG_WARNING, "daemon", "parent went away");
		close(ready_fd);
		ready_fd = -1;
	}
	log_msg(LOG_INFO, "daemon", "ready (pid %d, rate limit %u/s)", getpid(),
		o->rate);
	handover_ready(0);
	for (;;) {
		/* A negative fd (no kill requests) is ignored by poll. */
		struct pollfd p[3 + QUERY_POLLFDS] = {
			{ .fd = denials_fd(&d), .events = POLLIN },
			{ .fd = sfd, .events = POLLIN },
			{ .fd = pd_kills_fd(&k), .events = POLLIN }
		};
		struct signalfd_siginfo si;
		int nq = query_pollfds(&q, p + 3);

		/*
		 * The timeout closes rate-limit windows when all is quiet,
		 * and query clients past their deadline.
		 */
		if (poll(p, 3 + (nfds_t)nq, 1000) < 0) {
			if (errno != EINTR)
				break;
			nq = 0;
		}
		/* Kills first: a flood of denials must not delay them. */
		pd_kills_drain(&k);
		denials_drain(&d);
		query_serve(&q, p + 3, nq);
		if (!(p[1].revents & POLLIN) ||
		    read(sfd, &si, sizeof(si)) != sizeof(si))
			continue;
		if (si.ssi_signo == HANDOVER_SIGNAL) {
			handover_serve(&handover, &si);
			continue;
		}
		if (si.ssi_signo == SIGHUP) {
			log_reopen();
			denials_reopen(&d);
			log_msg(LOG_INFO, "daemon", "logs reopened");
			continue;
		}
		break;
	}
	notify_send("STOPPING=1");
	pd_kills_drain(&k);
	denials_drain(&d);
	log_counters(&d, &k);
	log_msg(LOG_INFO, "daemon",
		"exiting; Capsicum stays loaded (capsicumd --unload removes "
		"it)");
	query_close(&q);
	pd_kills_close(&k);
	denials_close(&d);
	if (o->pidfile)
		unlink(o->pidfile);
	close(sfd);
	return EXIT_OK;
}

static void load_log(int priority, const char *msg)
{
	log_msg(priority, "load", "%s", msg);
}

/*
 * CAPSICUMD_TEST_STOP_BEFORE_VERSION: stop where a SIGKILL leaves an
 * unfinished load, so a test kills us exactly there (it waits for the
 * stop with waitpid(WUNTRACED), no sleep). Root alone runs capsicumd, and
 * could stop it at that point with a debugger just as well.
 */
static void stop_before_version(void)
{
	log_msg(LOG_WARNING, "load",
		"test hook: stopping before the version pin");
	raise(SIGSTOP);
}

/*
 * Forks; the parent returns only in the child. The parent exits 0 when the
 * child reports readiness, or with the child's exit code if it dies first:
 * an init script learns the outcome without polling.
 */
static void background(void)
{
	int p[2], status;
	pid_t pid;
	char ok;

	if (pipe2(p, O_CLOEXEC) || (pid = fork()) < 0) {
		perror("capsicumd: --background");
		exit(EXIT_ERROR);
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR | O_CLOEXEC);

		close(p[0]);
		ready_fd = p[1];
		setsid();
		/* Hold no caller's pipe open: stderr stays for the log. */
		if (null >= 0) {
			dup2(null, STDIN_FILENO);
			dup2(null, STDOUT_FILENO);
			close(null);
		}
		return;
	}
	close(p[1]);
	if (read(p[0], &ok, 1) == 1)
		exit(EXIT_OK);
	if (waitpid(pid, &status, 0) == pid && WIFEXITED(status))
		exit(WEXITSTATUS(status));
	exit(EXIT_ERROR);
}

/*
 * Held until we exit, before anything touches the pins: a second
 * capsicumd started meanwhile (by hand, or by an init system racing the
 * unit) exits at once instead of loading beside us.
 */
static int lock_instance(void)
{
	pid_t holder;
	int err = instance_lock(CAPSICUMD_LOCK, &holder);

	if (!err)
		return EXIT_OK;
	if (err == -EWOULDBLOCK) {
		log_msg(LOG_ERR, "daemon",
			"another capsicumd is running (pid %d holds %s); "
			"only one may load or serve the pinned state",
			(int)holder, CAPSICUMD_LOCK);
		return EXIT_RUNNING;
	}
	log_msg(LOG_ERR, "daemon", "cannot lock %s: %s", CAPSICUMD_LOCK,
		strerror(-err));
	return EXIT_ERROR;
}

int main(int argc, char **argv)
{
	struct options o;
	char why[512];
	int ret;

	if (parse_options(argc, argv, &o)) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (log_open(o.log, o.log_path)) {
		fprintf(stderr, "capsicumd: cannot open %s: %s\n", o.log_path,
			strerror(errno));
		return EXIT_ERROR;
	}
	libbpf_set_print(log_libbpf);
	capsicum_load_set_log(load_log);
	if (getenv("CAPSICUMD_TEST_STOP_BEFORE_VERSION"))
		capsicum_load_set_before_version(stop_before_version);
	if (handover_init(&handover, argc, argv))
		log_msg(LOG_WARNING, "upgrade",
			"cannot record this binary: no live upgrade from it");
	if (o.background && o.action == RUN)
		background();
	if (geteuid()) {
		log_msg(LOG_ERR, "daemon", "must run as root");
		return EXIT_DENIED;
	}
	/* Takes the lock itself: the running daemon holds it. */
	if (o.action == UPGRADE)
		return handover_upgrade();
	if (o.action != CHECK_ONLY) {
		ret = lock_instance();
		if (ret != EXIT_OK)
			return ret;
	}
	if (o.action == UNLOAD) {
		ret = pinned_unload();
		if (ret) {
			log_msg(LOG_ERR, "unload", "%s%s", strerror(-ret),
				ret == -EPERM ? ": only the binary that loaded "
						"Capsicum may unload it"
					      : "");
			return ret == -EPERM ? EXIT_DENIED : EXIT_ERROR;
		}
		log_msg(LOG_INFO, "unload", "removed %s: enforcement stopped",
			CAPSICUM_PIN_DIR);
		return EXIT_OK;
	}
	if (probe_kernel(why, sizeof(why))) {
		log_msg(LOG_ERR, "probe", "%s", why);
		return EXIT_KERNEL;
	}
	if (o.action == CHECK_ONLY) {
		log_msg(LOG_INFO, "probe", "the kernel can run Capsicum");
		return EXIT_OK;
	}
	ret = ensure_state(&o);
	if (ret != EXIT_OK)
		handover_ready(ECANCELED);
	if (ret != EXIT_OK || o.action == LOAD_ONLY)
		return ret;
	ret = serve(&o);
	handover_ready(ECANCELED); /* if it failed before it was ready */
	return ret;
}
