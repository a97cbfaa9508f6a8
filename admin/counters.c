// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "counters.h"

#include "capsicum.skel.h"

#include <bpf/bpf.h>
#include <capsicum/pins.h>
#include <errno.h>
#include <unistd.h>

int counters_read(struct capsicum_counters *c)
{
	LIBBPF_OPTS(bpf_obj_get_opts, ro, .file_flags = BPF_F_RDONLY);
	/* Room to spare: the map's value is the section, padding included. */
	union {
		struct capsicum_bpf__bss bss;
		char raw[4096];
	} v;
	__u32 zero = 0;
	int fd = bpf_obj_get_opts(CAPSICUM_PIN_BSS, &ro), err = 0;

	if (fd < 0)
		return -errno;
	if (bpf_map_lookup_elem(fd, &zero, &v))
		err = -errno;
	close(fd);
	if (err)
		return err;
	c->denials = v.bss.denial_count;
	c->denials_dropped = v.bss.denials_dropped;
	c->protect_denied = v.bss.protect_denied;
	c->live_tables = v.bss.live_tables;
	c->tracked_files = v.bss.tracked_files;
	c->tables_created = v.bss.next_table_id;
	c->quota_refusals = v.bss.quota_refusals;
	c->pd_kill_requests = v.bss.pd_kill_requests;
	c->pd_kill_dropped = v.bss.pd_kill_dropped;
	return 0;
}
