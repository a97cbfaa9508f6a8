// SPDX-License-Identifier: GPL-2.0
/*
 * What the fuzzer watches outside the descriptors: the BPF side's counters
 * (its pinned bss, as capsicumd and capctl read them) and the kernel log.
 */
#define _GNU_SOURCE
#include "fuzz.h"
#include "selftest.h"

#include "capsicum.skel.h"

#include <bpf/bpf.h>
#include <capsicum/pins.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int fuzz_counters_open(void)
{
	LIBBPF_OPTS(bpf_obj_get_opts, ro, .file_flags = BPF_F_RDONLY);

	return bpf_obj_get_opts(CAPSICUM_PIN_BSS, &ro);
}

int fuzz_counters_read(int fd, struct fuzz_counters *c)
{
	union {
		struct capsicum_bpf__bss bss;
		char raw[4096];
	} v;
	__u32 zero = 0;

	if (bpf_map_lookup_elem(fd, &zero, &v))
		return -errno;
	c->denials = v.bss.denial_count;
	c->dropped = v.bss.denials_dropped;
	c->protect_denied = v.bss.protect_denied;
	c->tables_created = v.bss.next_table_id;
	c->quota = v.bss.quota_refusals;
	c->live_tables = v.bss.live_tables;
	c->tracked_files = v.bss.tracked_files;
	c->pd_doomed = v.bss.pd_doomed;
	c->pd_files_live = v.bss.pd_files_live;
	c->pd_kill_requests = v.bss.pd_kill_requests;
	c->pd_kill_dropped = v.bss.pd_kill_dropped;
	return 0;
}

#define CHECK(cond, ...)                                                       \
	do {                                                                   \
		if (!(cond)) {                                                 \
			selftest_fail(__FILE__, __LINE__, __VA_ARGS__);        \
			bad++;                                                 \
		}                                                              \
	} while (0)

int fuzz_counters_check(const struct fuzz_counters *b,
			const struct fuzz_counters *a, unsigned int denied,
			bool exact)
{
	int bad = 0;

	CHECK(a->live_tables >= 0 && a->tracked_files >= 0 &&
		      a->pd_doomed >= 0 && a->pd_files_live >= 0,
	      "a counter below zero: live_tables %lld tracked_files %lld "
	      "pd_doomed %lld pd_files_live %lld",
	      (long long)a->live_tables, (long long)a->tracked_files,
	      (long long)a->pd_doomed, (long long)a->pd_files_live);
	CHECK((uint64_t)a->live_tables <= a->tables_created,
	      "%lld live tables, only %llu ever made",
	      (long long)a->live_tables, (unsigned long long)a->tables_created);
	CHECK(a->dropped <= a->denials, "%llu denials dropped of %llu",
	      (unsigned long long)a->dropped, (unsigned long long)a->denials);
	CHECK(a->denials >= b->denials + denied && a->dropped >= b->dropped &&
		      a->tables_created >= b->tables_created &&
		      a->protect_denied >= b->protect_denied,
	      "a counter went back or missed a denial: denials %llu -> %llu "
	      "(%u seen), dropped %llu -> %llu, tables %llu -> %llu",
	      (unsigned long long)b->denials, (unsigned long long)a->denials,
	      denied, (unsigned long long)b->dropped,
	      (unsigned long long)a->dropped,
	      (unsigned long long)b->tables_created,
	      (unsigned long long)a->tables_created);
	CHECK(!exact || a->denials == b->denials + denied,
	      "%llu denials counted, %u seen",
	      (unsigned long long)(a->denials - b->denials), denied);
	CHECK(a->quota == b->quota, "quota refusals %llu -> %llu",
	      (unsigned long long)b->quota, (unsigned long long)a->quota);
	return bad;
}

int fuzz_kmsg_open(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

static bool warning_line(const char *msg)
{
	static const char *const bad[] = {
		"WARNING:",	      "BUG:",	    "BUG ",	"Oops",
		"general protection", "Call Trace", "UBSAN",	"refcount_t",
		"RCU detected",	      "verifier",   "bpf_prog",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (strstr(msg, bad[i]))
			return true;
	return false;
}

int fuzz_kmsg_scan(int fd)
{
	char rec[8192];
	int bad = 0;
	ssize_t n;

	if (fd < 0)
		return 0;
	/* One record per read; EPIPE: records were overwritten, go on. */
	for (;;) {
		const char *msg;

		errno = 0;
		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;
		if (n <= 0)
			break;
		rec[n] = '\0';
		msg = strchr(rec, ';');
		msg = msg ? msg + 1 : rec;
		if (warning_line(msg)) {
			selftest_fail(__FILE__, __LINE__, "kernel log: %s",
				      msg);
			bad++;
		}
	}
	return bad;
}
