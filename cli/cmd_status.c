// SPDX-License-Identifier: GPL-2.0
/* capctl status: is Capsicum loaded, healthy, and what has it done. */
#define _GNU_SOURCE
#include "ask.h"
#include "commands.h"
#include "counters.h"
#include "json.h"
#include "state.h"
#include "sysfiles.h"

#include <bpf/bpf.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

/*
 * A user's: capsicumd reads the stamp and the pins' health. The state's
 * return value as state_open()'s, or minus a capctl exit code.
 */
static int status_asked(struct state *s, struct query_health *h)
{
	struct query_answer_head head;
	struct query_status st;
	size_t len;
	void *rec;
	int ret = ask_daemon(QUERY_STATUS, 0, &head, &rec, &len);

	if (ret)
		return -ret;
	if (head.count != 1 || len != sizeof(st)) {
		fprintf(stderr, "capctl: capsicumd's answer is malformed\n");
		free(rec);
		return -CAPCTL_EXIT_ERROR;
	}
	memcpy(&st, rec, sizeof(st));
	free(rec);
	memset(s, 0, sizeof(*s));
	s->procs = s->fds = s->floors = s->files = s->ioctls = -1;
	s->version = st.version;
	s->same_build = st.same_build;
	*h = st.health;
	if (!st.loaded)
		return CAPCTL_EXIT_UNLOADED;
	return st.same_build ? 0 : CAPCTL_EXIT_VERSION;
}

int cmd_status(const struct capctl_args *a)
{
	struct capsicum_counters c = { 0 };
	struct utsname u;
	struct query_health h;
	struct state s;
	struct json j;
	char lsm[512];
	pid_t daemon = daemon_pid();
	int ret = state_open_or_daemon(&s);
	bool loaded, counters;

	if (ret == STATE_VIA_DAEMON) {
		ret = status_asked(&s, &h);
		if (ret < 0)
			return -ret;
		counters = false; /* everyone's activity: root's to see */
	} else {
		pin_health(&h);
		counters = ret == 0 && !counters_read(&c);
	}
	loaded = ret == 0 || ret == CAPCTL_EXIT_VERSION;
	uname(&u);
	read_first_line("/sys/kernel/security/lsm", lsm, sizeof(lsm));
	if (!a->json) {
		printf("loaded:   %s\n", loaded ? "yes" : "no");
		if (loaded)
			printf("state:    %s%s build (object %016llx, ABI %u), "
			       "loaded by pid %u\n",
			       s.unfinished ? "UNFINISHED load (no version "
					      "pin) of "
					    : "",
			       s.same_build ? "this" : "ANOTHER",
			       (unsigned long long)s.version.object_hash,
			       s.version.abi_version, s.version.loader_pid);
		printf("mode:     %s\n",
		       h.fget ? "patched (BPF-LSM and the kernel's fget hook)"
			      : "stock (BPF-LSM; no kernel patch)");
		printf("kernel:   %s %s\n", u.sysname, u.release);
		printf("lsm:      %s\n", lsm);
		if (daemon)
			printf("daemon:   capsicumd running, pid %d\n", daemon);
		else
			printf("daemon:   capsicumd not running (enforcement "
			       "continues; denials are not logged)\n");
		printf("programs: %d pinned\n", h.progs);
		printf("links:    %d pinned, %d attached\n", h.links,
		       h.links_ok);
		printf("maps:     %d pinned, %d readable\n", h.maps, h.maps_ok);
		if (counters)
			printf("counters: %lld tables live (%llu created), "
			       "%lld "
			       "files tracked, %llu denials (%llu dropped), "
			       "%llu protection refusals, %llu quota "
			       "refusals, %llu process descriptor kills "
			       "requested (%llu dropped)\n",
			       (long long)c.live_tables,
			       (unsigned long long)c.tables_created,
			       (long long)c.tracked_files,
			       (unsigned long long)c.denials,
			       (unsigned long long)c.denials_dropped,
			       (unsigned long long)c.protect_denied,
			       (unsigned long long)c.quota_refusals,
			       (unsigned long long)c.pd_kill_requests,
			       (unsigned long long)c.pd_kill_dropped);
	} else {
		json_init(&j, stdout);
		json_begin_object(&j);
		json_kv_bool(&j, "loaded", loaded);
		json_kv_bool(&j, "same_build", loaded && s.same_build);
		json_kv_bool(&j, "unfinished", s.unfinished);
		if (loaded) {
			json_kv_hex(&j, "object_hash", s.version.object_hash);
			json_kv_uint(&j, "abi_version", s.version.abi_version);
			json_kv_uint(&j, "loader_pid", s.version.loader_pid);
		}
		json_kv_string(&j, "mode", h.fget ? "patched" : "stock");
		json_kv_string(&j, "kernel", u.release);
		json_kv_string(&j, "lsm", lsm);
		json_kv_int(&j, "daemon_pid", daemon);
		json_kv_int(&j, "programs", h.progs);
		json_kv_int(&j, "links", h.links);
		json_kv_int(&j, "links_attached", h.links_ok);
		json_kv_int(&j, "maps", h.maps);
		json_kv_int(&j, "maps_readable", h.maps_ok);
		if (counters) {
			json_key(&j, "counters");
			json_begin_object(&j);
			json_kv_int(&j, "live_tables", c.live_tables);
			json_kv_uint(&j, "tables_created", c.tables_created);
			json_kv_int(&j, "tracked_files", c.tracked_files);
			json_kv_uint(&j, "denials", c.denials);
			json_kv_uint(&j, "denials_dropped", c.denials_dropped);
			json_kv_uint(&j, "protection_refusals",
				     c.protect_denied);
			json_kv_uint(&j, "quota_refusals", c.quota_refusals);
			json_kv_uint(&j, "pd_kill_requests",
				     c.pd_kill_requests);
			json_kv_uint(&j, "pd_kill_dropped", c.pd_kill_dropped);
			json_end_object(&j);
		}
		json_end_object(&j);
	}
	state_close(&s);
	if (!loaded)
		return CAPCTL_EXIT_UNLOADED;
	if (h.links_ok != h.links || h.maps_ok != h.maps)
		return CAPCTL_EXIT_ERROR;
	return ret;
}
