// SPDX-License-Identifier: MIT
/*
 * The DSO of a mapped file (pd_symbolizer__mapped_dso()): which DSO key
 * a mapping gets once what is at its path on this machine was weighed
 * against what the recording says of the mapped file (symbols.h states
 * the rules), and the answer kept per mapped file, since every process
 * maps the same few files and each check costs a stat(), and sometimes
 * a mapping of the file and a read of /proc/self/maps. On top of
 * symbols/: the DSOs come from sym-core.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "archives/archive-internal.h"
#include "sym-internal.h"

/* perf's dso__build_id_equal(): a 20-byte recorded id may be a shorter
 * one padded with zeros */
static bool bid_equal(const uint8_t *rec, size_t rn, const uint8_t *file,
		      size_t fn)
{
	size_t i;

	if (fn > rn || memcmp(rec, file, fn))
		return false;
	for (i = fn; i < rn; i++)
		if (rec[i])
			return false;
	return fn == rn || rn == PD_BUILD_ID_MAX;
}

static uint64_t ent_hash(const struct pd_mapped_file *f)
{
	uint64_t h = 1469598103934665603ULL;
	const char *p;
	size_t i;

	for (p = f->path; *p; p++)
		h = (h ^ (uint8_t)*p) * 1099511628211ULL;
	for (i = 0; i < f->build_id_size; i++)
		h = (h ^ f->build_id[i]) * 1099511628211ULL;
	h = (h ^ f->ino ^ (uint64_t)f->maj << 40 ^ (uint64_t)f->min << 20) *
	    1099511628211ULL;
	return h ^ (f->map_build_id | f->has_inode << 1 | f->recorded_here << 2);
}

static bool ent_is(const struct sym_mapped_ent *e, uint64_t h,
		   const struct pd_mapped_file *f)
{
	return e->hash == h && e->build_id_size == f->build_id_size &&
	       !memcmp(e->build_id, f->build_id ? f->build_id : e->build_id,
		       f->build_id_size) &&
	       e->bid_from_map == f->map_build_id &&
	       e->has_ino == f->has_inode && e->here == f->recorded_here &&
	       (!f->has_inode || (e->maj == f->maj && e->min == f->min &&
				  e->ino == f->ino)) &&
	       !strcmp(e->dso->path, f->path);
}

static struct sym_mapped_ent *ent_find(struct pd_symbolizer *s, uint64_t h,
				       const struct pd_mapped_file *f)
{
	size_t i, mask = s->cap_mapped - 1;

	if (!s->cap_mapped)
		return NULL;
	for (i = h & mask; s->mapped[i].dso; i = (i + 1) & mask)
		if (ent_is(&s->mapped[i], h, f))
			return &s->mapped[i];
	return NULL;
}

/* Room for one more entry; -ENOMEM. */
static int ent_reserve(struct pd_symbolizer *s)
{
	struct sym_mapped_ent *v;
	size_t cap, i;

	if ((s->nr_mapped + 1) * 2 <= s->cap_mapped)
		return 0;
	cap = s->cap_mapped ? s->cap_mapped * 2 : 256;
	v = calloc(cap, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; i < s->cap_mapped; i++) {
		size_t j;

		if (!s->mapped[i].dso)
			continue;
		for (j = s->mapped[i].hash & (cap - 1); v[j].dso;
		     j = (j + 1) & (cap - 1))
			;
		v[j] = s->mapped[i];
	}
	free(s->mapped);
	s->mapped = v;
	s->cap_mapped = cap;
	return 0;
}

static void ent_add(struct pd_symbolizer *s, uint64_t h,
		    const struct pd_mapped_file *f, struct pd_dso *d)
{
	struct sym_mapped_ent *e;
	size_t i, mask;

	/* out of memory, the next lookup decides again: the same DSO */
	if (ent_reserve(s))
		return;
	mask = s->cap_mapped - 1;
	for (i = h & mask; s->mapped[i].dso; i = (i + 1) & mask)
		;
	e = &s->mapped[i];
	e->dso = d;
	e->hash = h;
	if (f->build_id_size)	/* build_id may be NULL then */
		memcpy(e->build_id, f->build_id, f->build_id_size);
	e->build_id_size = (uint8_t)f->build_id_size;
	e->bid_from_map = f->map_build_id;
	e->has_ino = f->has_inode;
	e->here = f->recorded_here;
	e->maj = f->maj;
	e->min = f->min;
	e->ino = f->ino;
	s->nr_mapped++;
}

/*
 * A build id from the table, on the recording machine: refused when the
 * file at the path is another file than the mapped one and has that very
 * id, which perf record then read from it, not from the mapped file.
 * An id that file does not have may still be the mapped file's (the file
 * changed since): it stands, and the file at the path fails it.
 */
static enum sym_ident table_bid_ident(struct pd_symbolizer *s,
				      const struct pd_mapped_file *f)
{
	uint8_t bid[PD_BUILD_ID_MAX];
	char file[4096];
	int n;

	sym_join_symfs(s, file, sizeof(file), f->path);
	if (sym_file_ident(file, f->maj, f->min, f->ino) != 0)
		return SYM_IDENT_UNCHECKED;
	n = sym_elf__read_build_id(file, bid, sizeof(bid));
	if (n <= 0 || !bid_equal(f->build_id, f->build_id_size, bid,
				 n > PD_BUILD_ID_MAX ? PD_BUILD_ID_MAX : (size_t)n))
		return SYM_IDENT_UNCHECKED;
	return SYM_IDENT_HOST_BID;
}

/* No build id, on the recording machine: the file at the path, if it is
 * the mapped one. */
static enum sym_ident no_bid_ident(struct pd_symbolizer *s,
				   const struct pd_mapped_file *f)
{
	char file[4096];
	int r;

	sym_join_symfs(s, file, sizeof(file), f->path);
	r = sym_file_ident(file, f->maj, f->min, f->ino);
	return r > 0 ? SYM_IDENT_SAME : r == 0 ? SYM_IDENT_OTHER :
	       SYM_IDENT_MISSING;
}

/* The DSO key of f (which holds the identity checks' answers). */
static void mapped_key(struct pd_symbolizer *s, const struct pd_mapped_file *f,
		       struct sym_key *k)
{
	const uint8_t *bid = f->build_id;
	size_t n = f->build_id_size;
	bool check = f->recorded_here && f->has_inode && !f->map_build_id;

	memset(k, 0, sizeof(*k));
	k->path = f->path;
	/* a profile's archive names the file it stored for the path: the
	 * profile's own record of it, made where it was recorded */
	if (!n && s->archive) {
		pd__archive_path_bid(s->archive, f->path, &bid, &n);
		if (n > PD_BUILD_ID_MAX)
			n = PD_BUILD_ID_MAX;
		check = false;
	}
	if (n) {
		k->build_id = bid;
		k->build_id_size = n;
		if (check)
			k->ident = table_bid_ident(s, f);
		if (k->ident == SYM_IDENT_UNCHECKED)
			return;
		/* refused: the id says nothing of the mapped file */
		k->build_id = NULL;
		k->build_id_size = 0;
	} else if (check) {
		k->ident = no_bid_ident(s, f);
	}
	k->has_ino = f->has_inode;
	k->maj = f->maj;
	k->min = f->min;
	k->ino = f->ino;
}

/* The caller's f, as far as it goes, with what cannot matter cleared. */
static void mapped_file(struct pd_mapped_file *f,
			const struct pd_mapped_file *opts)
{
	memset(f, 0, sizeof(*f));
	memcpy(f, opts, opts->sz < sizeof(*f) ? opts->sz : sizeof(*f));
	f->sz = sizeof(*f);
	if (!f->build_id)
		f->build_id_size = 0;
	if (f->build_id_size > PD_BUILD_ID_MAX)
		f->build_id_size = PD_BUILD_ID_MAX;
	if (!f->build_id_size)
		f->map_build_id = false;
	/*
	 * MMAP2 carries a build id instead of the device and inode; no
	 * inode (0) is no file's; "[vdso]" is no path
	 */
	if (f->map_build_id || !f->ino || f->path[0] != '/')
		f->has_inode = false;
	if (!f->has_inode)
		f->maj = f->min = f->ino = 0;
	f->ino_generation = 0;
}

PD_EXPORT struct pd_dso *
pd_symbolizer__mapped_dso(struct pd_symbolizer *s,
			  const struct pd_mapped_file *opts)
{
	struct pd_mapped_file f;
	struct sym_mapped_ent *e;
	struct sym_key k;
	struct pd_dso *d;
	uint64_t h;

	if (!opts || !opts->path) {
		errno = EINVAL;
		return NULL;
	}
	mapped_file(&f, opts);
	h = ent_hash(&f);
	e = ent_find(s, h, &f);
	if (e)
		return e->dso;
	mapped_key(s, &f, &k);
	d = sym_dso_get(s, &k);
	if (d)
		ent_add(s, h, &f, d);
	return d;
}

PD_EXPORT int pd_symbolizer__mapped_check(struct pd_symbolizer *s,
					  const struct pd_mapped_file *opts,
					  const char **why)
{
	struct pd_mapped_file f;
	struct sym_key k;

	if (!opts || !opts->path)
		return -EINVAL;
	mapped_file(&f, opts);
	mapped_key(s, &f, &k);
	switch (k.ident) {
	case SYM_IDENT_MISSING:
		*why = "not found, and the recording names no build id for it";
		return -ENOENT;
	case SYM_IDENT_OTHER:
		*why = "the file at this path is not the one the profile mapped (another device or inode), and the recording names no build id for it";
		return -EXDEV;
	case SYM_IDENT_HOST_BID:
		*why = "the recorded build id is that of the file at this path, not of the file the profile mapped (another device or inode: perf record reads build ids in its own mount namespace)";
		return -EXDEV;
	default:
		*why = NULL;
		return 0;
	}
}
