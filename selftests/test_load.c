// SPDX-License-Identifier: GPL-2.0
/*
 * The load path as capsicumd runs it: a load that fails half-way leaves
 * nothing pinned and nothing enforcing, and says why in capsicumd's own
 * log. Needs Capsicum unloaded, so it unloads it first (root, in the boot
 * without capsicumd) and loads it again when done.
 */
#define _GNU_SOURCE
#include "fixture.h"
#include "selftest.h"

#include "load.h"
#include "pinned.h"

#include <capsicum/abi.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* Not CAPSICUM_PIN_DIR: capsicumd refuses a pin directory it cannot read. */
#define PIN_DIR "/sys/fs/bpf/capsicum-pinfail"
#define LOG	"/tmp/capsicumd-load.log"

/* What capsicum_load said, through the hook capsicumd logs it with. */
static char said[8192];

static void collect(int priority, const char *msg)
{
	size_t n = strlen(said);

	(void)priority;
	snprintf(said + n, sizeof(said) - n, "%s\n", msg);
}

/* The names under dir other than . and ..; "" if none, NULL if no dir. */
static const char *listing(const char *dir, char *buf, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	if (!d)
		return NULL;
	buf[0] = '\0';
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' && n < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%s",
					      n ? " " : "", e->d_name);
	closedir(d);
	return buf;
}

/*
 * Loads under PIN_DIR with the pin path `obstacle` taken (someone else's
 * directory): the load fails with `why` in its log, whatever it pinned
 * before goes again, the obstacle stays, nothing is pinned under
 * CAPSICUM_PIN_DIR and nothing is left attached.
 */
static void load_fails_at(const char *obstacle, const char *why)
{
	char names[4096], path[256];
	const char *left;

	if (!fixture_unload())
		return;
	snprintf(path, sizeof(path), "%s/%s", PIN_DIR, obstacle);
	said[0] = '\0';
	if (!ASSERT_OK(mkdir(PIN_DIR, 0755), "mkdir pin dir") ||
	    !ASSERT_OK(mkdir(path, 0755), "mkdir obstacle"))
		goto out;
	capsicum_load_set_log(collect);
	ASSERT_EQ(capsicum_load(PIN_DIR, NULL), -EEXIST, "load fails");
	capsicum_load_set_log(NULL);
	left = listing(PIN_DIR, names, sizeof(names));
	ASSERT_TRUE(left && !strcmp(left, obstacle),
		    "only the obstacle is left in the pin directory");
	if (left && strcmp(left, obstacle))
		fprintf(stderr, "    left pinned: %s\n", left);
	ASSERT_TRUE(access(CAPSICUM_PIN_DIR, F_OK) && errno == ENOENT,
		    "nothing pinned under " CAPSICUM_PIN_DIR);
	ASSERT_TRUE(fixture_wait_detached(), "nothing attached after it");
	ASSERT_TRUE(strstr(said, why), "the load log says which pin failed");
out:
	capsicum_load_set_log(NULL);
	rmdir(path);
	rmdir(PIN_DIR);
	pinned_unload();
	fixture_loaded();
}

/* A link pinned after a dozen programs and their links. */
SELFTEST(load_failed_pin_leaves_nothing_attached)
{
	load_fails_at("link_capsicum_file_mprotect",
		      "pinning capsicum_file_mprotect under " PIN_DIR
		      " failed: File exists");
}

/*
 * The counters' map, pinned last but the stamp (a taken stamp would read
 * as a loaded instance): every program and link and the other maps are
 * pinned by then, the maps under PIN_DIR too, and all of it goes again.
 */
SELFTEST(load_failed_map_pin_leaves_nothing_pinned)
{
	load_fails_at("bss", "pinning " PIN_DIR "/bss failed: File exists");
}

/*
 * A load that fails inside the loader (a table too large for the kernel)
 * is explained in capsicumd's log, not on a stderr that --syslog and
 * --log never see.
 */
SELFTEST(capsicumd_logs_why_a_load_failed)
{
	char *argv[] = { "capsicumd",	"--load",     "--log",	   LOG,
			 "--max-fds",	"4294967295", "--pidfile", "none",
			 "--audit-log", "none",	      NULL };

	if (!fixture_unload())
		return;
	unlink(LOG);
	ASSERT_EQ(fixture_run(argv), 1, "capsicumd --load fails");
	ASSERT_TRUE(fixture_file_has(LOG,
				     "capsicumd: load: loading the programs "
				     "failed: "),
		    "the log has the loader's own message");
	ASSERT_TRUE(fixture_file_has(LOG, "capsicumd: libbpf: "),
		    "and libbpf's reasons");
	ASSERT_TRUE(fixture_wait_detached(), "nothing attached after it");
	unlink(LOG);
	fixture_loaded();
}
