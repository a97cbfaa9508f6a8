// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "state.h"

#include "capctl_exit.h"
#include "fdtable_iter.skel.h"
#include "load.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int open_ro(const char *path)
{
	LIBBPF_OPTS(bpf_obj_get_opts, ro, .file_flags = BPF_F_RDONLY);

	return bpf_obj_get_opts(path, &ro);
}

static int lookup(int fd, const void *key, void *value)
{
	return bpf_map_lookup_elem(fd, key, value) ? -1 : 0;
}

static int state_open_how(struct state *s, bool quiet_denied)
{
	__u32 zero = 0;
	int vfd;

	memset(s, 0, sizeof(*s));
	s->procs = s->fds = s->floors = s->files = s->ioctls = -1;
	vfd = open_ro(CAPSICUM_PIN_VERSION);
	if (vfd < 0) {
		int err = errno;

		if (err == ENOENT && !access(CAPSICUM_PIN_LOADING, F_OK)) {
			/* Its links may enforce: "not loaded" would lie. */
			s->unfinished = true;
			vfd = open_ro(CAPSICUM_PIN_LOADING);
			if (vfd >= 0 && !lookup(vfd, &zero, &s->version))
				s->same_build = s->version.object_hash ==
						capsicum_object_hash();
			if (vfd >= 0)
				close(vfd);
			fprintf(stderr,
				"capctl: %s is an unfinished load (%s, no "
				"%s); start capsicumd to complete or refuse "
				"it\n",
				CAPSICUM_PIN_DIR, CAPSICUM_PIN_LOADING,
				CAPSICUM_PIN_VERSION);
			return CAPCTL_EXIT_VERSION;
		}
		errno = err;
		if (errno == ENOENT) {
			fprintf(stderr,
				"capctl: Capsicum is not loaded (no %s; "
				"start capsicumd)\n",
				CAPSICUM_PIN_VERSION);
			return CAPCTL_EXIT_UNLOADED;
		}
		if (quiet_denied && (errno == EPERM || errno == EACCES))
			return STATE_VIA_DAEMON;
		fprintf(stderr, "capctl: %s: %s%s\n", CAPSICUM_PIN_VERSION,
			strerror(errno),
			errno == EPERM || errno == EACCES ? " (run as root)"
							  : "");
		return errno == EPERM || errno == EACCES ? CAPCTL_EXIT_DENIED
							 : CAPCTL_EXIT_ERROR;
	}
	if (lookup(vfd, &zero, &s->version) ||
	    s->version.magic != CAPSICUM_STATE_MAGIC) {
		close(vfd);
		fprintf(stderr, "capctl: %s holds no valid stamp\n",
			CAPSICUM_PIN_VERSION);
		return CAPCTL_EXIT_VERSION;
	}
	close(vfd);
	s->same_build = s->version.abi_version == CAPSICUM_ABI_VERSION &&
			s->version.object_hash == capsicum_object_hash();
	if (!s->same_build) {
		fprintf(stderr,
			"capctl: the pinned state comes from another build "
			"(ABI %u, object %016llx; this capctl: ABI %u, object "
			"%016llx): its tables are not interpreted; use the "
			"capctl of that build\n",
			s->version.abi_version,
			(unsigned long long)s->version.object_hash,
			CAPSICUM_ABI_VERSION,
			(unsigned long long)capsicum_object_hash());
		return CAPCTL_EXIT_VERSION;
	}
	s->procs = open_ro(CAPSICUM_PIN_PROCS);
	s->fds = open_ro(CAPSICUM_PIN_FDS);
	s->floors = open_ro(CAPSICUM_PIN_FLOORS);
	s->files = open_ro(CAPSICUM_PIN_FILES);
	s->ioctls = open_ro(CAPSICUM_PIN_IOCTLS);
	if (s->procs < 0 || s->fds < 0 || s->floors < 0 || s->files < 0 ||
	    s->ioctls < 0) {
		fprintf(stderr, "capctl: cannot open the pinned tables: %s\n",
			strerror(errno));
		state_close(s);
		return CAPCTL_EXIT_ERROR;
	}
	return 0;
}

int state_open(struct state *s)
{
	return state_open_how(s, false);
}

int state_open_or_daemon(struct state *s)
{
	return state_open_how(s, true);
}

void state_close(struct state *s)
{
	int *fds[] = { &s->procs, &s->fds, &s->floors, &s->files, &s->ioctls };

	for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++) {
		if (*fds[i] >= 0)
			close(*fds[i]);
		*fds[i] = -1;
	}
}

static int t_file(void *ctx, __u64 file, struct capsicum_file *f)
{
	return lookup(((struct state *)ctx)->files, &file, f);
}

static int t_fd_entry(void *ctx, const struct capsicum_fd_key *k,
		      struct capsicum_fd_rights *e)
{
	return lookup(((struct state *)ctx)->fds, k, e);
}

static int t_floor(void *ctx, const struct capsicum_floor_key *k,
		   struct capsicum_fd_rights *e)
{
	return lookup(((struct state *)ctx)->floors, k, e);
}

static int t_ioctls(void *ctx, const struct capsicum_fd_key *k,
		    struct capsicum_ioctls *l)
{
	return lookup(((struct state *)ctx)->ioctls, k, l);
}

void state_tables(struct state *s, struct resolve_tables *t)
{
	t->ctx = s;
	t->file = t_file;
	t->fd_entry = t_fd_entry;
	t->floor = t_floor;
	t->ioctls = t_ioctls;
}

int state_proc(const struct state *s, pid_t pid, struct capsicum_proc *p)
{
	/* Task storage is keyed by a pidfd; pid names the group leader. */
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0), err = 0;

	if (pidfd < 0)
		return -errno;
	if (bpf_map_lookup_elem(s->procs, &pidfd, p))
		err = -errno;
	close(pidfd);
	return err;
}

static int by_fd(const void *a, const void *b)
{
	const struct capsicum_fd_record *x = a, *y = b;

	return (x->fd > y->fd) - (x->fd < y->fd);
}

int fdtable_dump(pid_t pid, struct capsicum_fd_record **out)
{
	struct fdtable_iter_bpf *skel = fdtable_iter_bpf__open();
	struct capsicum_fd_record *recs = NULL;
	size_t n = 0, cap = 0;
	int iter = -1, err = 0;
	ssize_t got;

	*out = NULL;
	if (!skel)
		return -errno;
	skel->rodata->target_tgid = pid;
	if (fdtable_iter_bpf__load(skel) || fdtable_iter_bpf__attach(skel)) {
		err = -errno;
		goto out;
	}
	iter = bpf_iter_create(bpf_link__fd(skel->links.dump_fds));
	if (iter < 0) {
		err = -errno;
		goto out;
	}
	for (;;) {
		if (n == cap) {
			void *more;

			cap = cap ? cap * 2 : 64;
			more = realloc(recs, cap * sizeof(*recs));
			if (!more) {
				err = -ENOMEM;
				goto out;
			}
			recs = more;
		}
		/* seq_file hands out whole records. */
		got = read(iter, recs + n, (cap - n) * sizeof(*recs));
		if (got < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			err = -errno;
			goto out;
		}
		if (!got)
			break;
		n += (size_t)got / sizeof(*recs);
	}
	qsort(recs, n, sizeof(*recs), by_fd);
	*out = recs;
	recs = NULL;
out:
	free(recs);
	if (iter >= 0)
		close(iter);
	fdtable_iter_bpf__destroy(skel);
	return err ? err : (int)n;
}

void pin_health(struct query_health *h)
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
