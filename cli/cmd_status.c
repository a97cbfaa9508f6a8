// SPDX-License-Identifier: GPL-2.0
/* capctl status: is Capsicum loaded, healthy, and what has it done. */
#define _GNU_SOURCE
#include "commands.h"
#include "counters.h"
#include "json.h"
#include "state.h"

#include <bpf/bpf.h>
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

struct health {
	int progs, links, links_ok, maps, maps_ok;
	bool fget; /* the patched kernel's fget hook has a program */
};

/* Counts the pins; a link is healthy if it still holds a program. */
static void pin_health(struct health *h)
{
	LIBBPF_OPTS(bpf_obj_get_opts, ro, .file_flags = BPF_F_RDONLY);
	DIR *d = opendir(CAPSICUM_PIN_DIR);
	struct dirent *e;
	char path[512];

	memset(h, 0, sizeof(*h));
	if (!d)
		return;
	while ((e = readdir(d))) {
		struct bpf_link_info info = { 0 };
		__u32 len = sizeof(info);
		int fd;

		if (e->d_name[0] == '.')
			continue;
		if (!strncmp(e->d_name, "prog_", 5)) {
			h->progs++; /* the protection refuses us their fds */
			if (!strcmp(e->d_name, "prog_capsicum_file_fget"))
				h->fget = true;
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", CAPSICUM_PIN_DIR,
			 e->d_name);
		/* The kernel hands out links read-write only. */
		fd = strncmp(e->d_name, "link_", 5)
			     ? bpf_obj_get_opts(path, &ro)
			     : bpf_obj_get(path);
		if (!strncmp(e->d_name, "link_", 5)) {
			h->links++;
			if (fd >= 0 &&
			    !bpf_obj_get_info_by_fd(fd, &info, &len) &&
			    info.prog_id)
				h->links_ok++;
		} else {
			h->maps++;
			if (fd >= 0)
				h->maps_ok++;
		}
		if (fd >= 0)
			close(fd);
	}
	closedir(d);
}

int cmd_status(const struct capctl_args *a)
{
	struct capsicum_counters c = { 0 };
	struct utsname u;
	struct health h;
	struct state s;
	struct json j;
	char lsm[512];
	pid_t daemon = daemon_pid();
	int ret = state_open(&s);
	bool loaded = ret == 0 || ret == CAPCTL_EXIT_VERSION;
	bool counters = ret == 0 && !counters_read(&c);

	uname(&u);
	read_first_line("/sys/kernel/security/lsm", lsm, sizeof(lsm));
	pin_health(&h);
	if (!a->json) {
		printf("loaded:   %s\n", loaded ? "yes" : "no");
		if (loaded)
			printf("state:    %s build (object %016llx, ABI %u), "
			       "loaded by pid %u\n",
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
			       "refusals\n",
			       (long long)c.live_tables,
			       (unsigned long long)c.tables_created,
			       (long long)c.tracked_files,
			       (unsigned long long)c.denials,
			       (unsigned long long)c.denials_dropped,
			       (unsigned long long)c.protect_denied,
			       (unsigned long long)c.quota_refusals);
	} else {
		json_init(&j, stdout);
		json_begin_object(&j);
		json_kv_bool(&j, "loaded", loaded);
		json_kv_bool(&j, "same_build", loaded && s.same_build);
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
