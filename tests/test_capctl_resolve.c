// SPDX-License-Identifier: GPL-2.0
/*
 * capctl's resolution of a descriptor's rights must be the BPF side's
 * held_rights(): an entry only while file and generation match, else the
 * floor of the file if its generation matches, else the file's low in a
 * table whose fork copy did not complete, else unrestricted.
 */
#include <string.h>

#include <criterion/criterion.h>

#include "admin/resolve.h"

/* One process's tables, small enough to write out by hand. */
struct fake {
	__u64 file, gen; /* cap_files: one file */
	__u64 low[2];
	bool has_entry, has_floor, has_list;
	struct capsicum_fd_key entry_key;
	struct capsicum_fd_rights entry, floor;
	struct capsicum_floor_key floor_key;
	struct capsicum_ioctls list;
};

static int f_file(void *ctx, __u64 file, struct capsicum_file *rec)
{
	struct fake *f = ctx;

	if (file != f->file)
		return -1;
	memset(rec, 0, sizeof(*rec));
	rec->gen = f->gen;
	rec->low[0] = f->low[0];
	rec->low[1] = f->low[1];
	return 0;
}

static int f_entry(void *ctx, const struct capsicum_fd_key *k,
		   struct capsicum_fd_rights *e)
{
	struct fake *f = ctx;

	if (!f->has_entry || k->table_id != f->entry_key.table_id ||
	    k->fd != f->entry_key.fd)
		return -1;
	*e = f->entry;
	return 0;
}

static int f_floor(void *ctx, const struct capsicum_floor_key *k,
		   struct capsicum_fd_rights *e)
{
	struct fake *f = ctx;

	if (!f->has_floor || k->table_id != f->floor_key.table_id ||
	    k->file != f->floor_key.file)
		return -1;
	*e = f->floor;
	return 0;
}

static int f_ioctls(void *ctx, const struct capsicum_fd_key *k,
		    struct capsicum_ioctls *l)
{
	struct fake *f = ctx;

	if (!f->has_list || k->fd != f->entry_key.fd)
		return -1;
	*l = f->list;
	return 0;
}

static struct capsicum_proc proc;
static struct fake fk;
static struct resolve_tables tables = { &fk, f_file, f_entry, f_floor,
					f_ioctls };
static struct resolved r;

static void setup(void)
{
	memset(&fk, 0, sizeof(fk));
	proc = (struct capsicum_proc){ .table_id = 7,
				       .flags = CAPSICUM_PROC_LIMITED };
	fk.file = 0xffff888001234500ULL;
	fk.gen = 9;
	fk.low[0] = CAP_READ | CAP_FSTAT;
	fk.low[1] = CAPRIGHT(1, 0);
	fk.has_entry = fk.has_floor = true;
	fk.entry_key = (struct capsicum_fd_key){ .table_id = 7, .fd = 3 };
	fk.entry = (struct capsicum_fd_rights){ .file = fk.file,
						.gen = 9,
						.rights = { CAP_READ,
							    CAPRIGHT(1, 0) },
						.nioctls = 0 };
	fk.floor_key =
		(struct capsicum_floor_key){ .table_id = 7, .file = fk.file };
	fk.floor = (struct capsicum_fd_rights){ .file = fk.file,
						.gen = 9,
						.rights = { CAP_FSTAT,
							    CAPRIGHT(1, 0) },
						.nioctls = 0 };
}

TestSuite(resolve, .init = setup);

Test(resolve, valid_entry)
{
	resolve_fd(&tables, &proc, 3, fk.file, &r);
	cr_expect_eq(r.source, RESOLVE_ENTRY);
	cr_expect_eq(r.rights[0], CAP_READ);
}

Test(resolve, entry_of_another_file_falls_to_the_floor)
{
	/* fd 3 was reused for this file after the entry was written. */
	fk.entry.file = 0xffff888009999900ULL;
	resolve_fd(&tables, &proc, 3, fk.file, &r);
	cr_expect_eq(r.source, RESOLVE_FLOOR);
	cr_expect_eq(r.rights[0], CAP_FSTAT);
	cr_expect_eq(r.nioctls, 0);
}

Test(resolve, stale_generation_falls_to_the_floor)
{
	/* Same address, a new struct file: the entry's generation is old. */
	fk.entry.gen = 8;
	resolve_fd(&tables, &proc, 3, fk.file, &r);
	cr_expect_eq(r.source, RESOLVE_FLOOR);
}

Test(resolve, fd_without_entry_gets_the_floor)
{
	resolve_fd(&tables, &proc, 4, fk.file, &r);
	cr_expect_eq(r.source, RESOLVE_FLOOR);
}

Test(resolve, stale_floor_means_unrestricted)
{
	fk.floor.gen = 8;
	resolve_fd(&tables, &proc, 4, fk.file, &r);
	cr_expect_eq(r.source, RESOLVE_UNRESTRICTED);
	cr_expect_eq(r.rights[0], CAP_ALL0);
	cr_expect_eq(r.rights[1], CAP_ALL1);
	cr_expect_eq(r.nioctls, -1);
}

Test(resolve, untracked_file_or_no_table_is_unrestricted)
{
	resolve_fd(&tables, &proc, 3, 0xffff888000000100ULL, &r);
	cr_expect_eq(r.source, RESOLVE_UNRESTRICTED);
	resolve_fd(&tables, NULL, 3, fk.file, &r);
	cr_expect_eq(r.source, RESOLVE_UNRESTRICTED);
	fk.gen = 0;
	resolve_fd(&tables, &proc, 3, fk.file, &r);
	cr_expect_eq(r.source, RESOLVE_UNRESTRICTED);
}

Test(resolve, ioctl_list_of_the_entry)
{
	fk.entry.nioctls = 2;
	fk.has_list = true;
	fk.list.cmds[0] = 0x5401;
	fk.list.cmds[1] = 0x541b;
	resolve_fd(&tables, &proc, 3, fk.file, &r);
	cr_expect_eq(r.nioctls, 2);
	cr_expect_eq(r.ioctls[1], 0x541b);
	/* A list that has gone allows nothing, as CAPSICUM_OP_GET says. */
	fk.has_list = false;
	resolve_fd(&tables, &proc, 3, fk.file, &r);
	cr_expect_eq(r.nioctls, 0);
}

Test(resolve, capability_mode_only_table_limits_nothing)
{
	/* Entries another process left: this table never limited a fd. */
	proc.flags = CAPSICUM_PROC_CAPMODE;
	resolve_fd(&tables, &proc, 3, fk.file, &r);
	cr_expect_eq(r.source, RESOLVE_UNRESTRICTED);
	proc.flags = CAPSICUM_PROC_CAPMODE | CAPSICUM_PROC_SHARED_FDS;
	resolve_fd(&tables, &proc, 3, fk.file, &r);
	cr_expect_eq(r.source, RESOLVE_ENTRY);
}

Test(resolve, incomplete_table_without_floor_gets_the_low)
{
	fk.has_floor = false;
	resolve_fd(&tables, &proc, 4, fk.file, &r);
	cr_expect_eq(r.source, RESOLVE_UNRESTRICTED, "a complete table");
	proc.flags |= CAPSICUM_PROC_INCOMPLETE;
	resolve_fd(&tables, &proc, 4, fk.file, &r);
	cr_expect_eq(r.source, RESOLVE_LOW);
	cr_expect_eq(r.rights[0], CAP_READ | CAP_FSTAT);
	cr_expect_eq(r.fcntls, 0);
	cr_expect_eq(r.nioctls, 0);
	/* A valid entry or floor still comes first. */
	resolve_fd(&tables, &proc, 3, fk.file, &r);
	cr_expect_eq(r.source, RESOLVE_ENTRY);
}
