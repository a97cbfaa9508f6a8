// SPDX-License-Identifier: GPL-2.0
#include "resolve.h"

#include <string.h>

static void all_rights(struct resolved *r)
{
	r->source = RESOLVE_UNRESTRICTED;
	r->rights[0] = CAP_ALL0;
	r->rights[1] = CAP_ALL1;
	r->fcntls = CAP_FCNTL_ALL;
	r->nioctls = -1;
}

static void from_entry(struct resolved *r, const struct capsicum_fd_rights *e,
		       enum resolve_source source)
{
	r->source = source;
	r->rights[0] = e->rights[0];
	r->rights[1] = e->rights[1];
	r->fcntls = e->fcntls;
	r->nioctls = e->nioctls;
}

void resolve_fd(const struct resolve_tables *t,
		const struct capsicum_proc *proc, int fd, __u64 file,
		struct resolved *out)
{
	struct capsicum_fd_key k = { .fd = fd };
	struct capsicum_floor_key fk = { .file = file };
	struct capsicum_fd_rights e;
	struct capsicum_file f;
	__u64 gen;

	memset(out, 0, sizeof(*out));
	all_rights(out);
	if (!proc ||
	    !(proc->flags & (CAPSICUM_PROC_LIMITED | CAPSICUM_PROC_SHARED_FDS)))
		return; /* no table, or one for capability mode only */
	if (t->file(t->ctx, file, &f) || !f.gen)
		return; /* no limit ever touched this file */
	gen = f.gen;
	k.table_id = proc->table_id;
	fk.table_id = proc->table_id;
	if (!t->fd_entry(t->ctx, &k, &e) && e.file == file && e.gen == gen) {
		from_entry(out, &e, RESOLVE_ENTRY);
		/* As CAPSICUM_OP_GET: a list that is gone allows nothing. */
		if (out->nioctls > 0) {
			struct capsicum_ioctls l;

			if (t->ioctls(t->ctx, &k, &l))
				out->nioctls = 0;
			else
				memcpy(out->ioctls, l.cmds, sizeof(l.cmds));
		}
		return;
	}
	if (!t->floor(t->ctx, &fk, &e) && e.gen == gen) {
		from_entry(out, &e, RESOLVE_FLOOR);
	} else if (proc->flags & CAPSICUM_PROC_INCOMPLETE) {
		out->source = RESOLVE_LOW;
		out->rights[0] = f.low[0];
		out->rights[1] = f.low[1];
		out->fcntls = 0;
		out->nioctls = 0;
	}
}
