// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "probe.h"

#include "probe.skel.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define LSM_FILE "/sys/kernel/security/lsm"

/* The active LSM list, or -1 with why set. */
static int read_lsm(char *lsm, size_t size, char *why, size_t len)
{
	FILE *f = fopen(LSM_FILE, "re");
	size_t n;

	if (!f) {
		snprintf(why, len,
			 "cannot read %s (%s): mount securityfs on "
			 "/sys/kernel/security",
			 LSM_FILE, strerror(errno));
		return -1;
	}
	n = fread(lsm, 1, size - 1, f);
	fclose(f);
	lsm[n] = '\0';
	lsm[strcspn(lsm, "\n")] = '\0';
	return 0;
}

static bool lsm_active(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; *p;) {
		size_t len = strcspn(p, ",");

		if (len == n && !strncmp(p, name, n))
			return true;
		p += len;
		if (*p)
			p++;
	}
	return false;
}

static int trial_attach(char *why, size_t len)
{
	struct probe_bpf *skel = probe_bpf__open();
	int err = -1;

	if (!skel) {
		snprintf(why, len, "cannot open the trial BPF object: %s",
			 strerror(errno));
		return -1;
	}
	skel->bss->probe_tgid = (__u32)getpid();
	if (probe_bpf__load(skel)) {
		snprintf(why, len,
			 "the kernel refuses BPF-LSM programs (%s): it needs "
			 "CONFIG_BPF_LSM=y, CONFIG_BPF_SYSCALL=y and BTF",
			 strerror(errno));
		goto out;
	}
	if (probe_bpf__attach(skel)) {
		snprintf(why, len,
			 "attaching a BPF-LSM program failed (%s): the kernel "
			 "needs BPF trampolines (CONFIG_BPF_JIT=y, x86-64 or "
			 "arm64) and bpf in the lsm= boot parameter",
			 strerror(errno));
		goto out;
	}
	/* getsid(0) skips the hook: only a named process is checked. */
	getsid(getpid());
	if (skel->bss->probe_hits != 1) {
		snprintf(why, len,
			 "a trial BPF-LSM program attached but did not run "
			 "(%llu hits): add bpf to the lsm= boot parameter",
			 (unsigned long long)skel->bss->probe_hits);
		goto out;
	}
	err = 0;
out:
	probe_bpf__destroy(skel);
	return err;
}

int probe_kernel(char *why, size_t len)
{
	char lsm[512];

	if (read_lsm(lsm, sizeof(lsm), why, len))
		return -1;
	if (!lsm_active(lsm, "bpf")) {
		snprintf(why, len,
			 "bpf is not an active LSM (%s is \"%s\"): add it to "
			 "the boot parameter, e.g. lsm=%s,bpf",
			 LSM_FILE, lsm, lsm);
		return -1;
	}
	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		snprintf(why, len,
			 "the kernel has no BTF (/sys/kernel/btf/vmlinux: %s): "
			 "it must be built with CONFIG_DEBUG_INFO_BTF=y",
			 strerror(errno));
		return -1;
	}
	return trial_attach(why, len);
}
