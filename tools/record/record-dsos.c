// SPDX-License-Identifier: MIT
/*
 * The files the processes map, one DSO each: a path and what identifies
 * the file there (its build id, or its device and inode), so that two
 * files at one path (the host's libc and a container's) are two DSOs.
 * Each is seen from its process (record-mapfile.c): its build id read
 * from the file the process maps, and, while the build-id cache has no
 * copy of it, the file held open, so that it can be copied at the end
 * even when its process, or its container, is gone by then.
 *
 * What is held is bounded: a DSO is forgotten once no live process maps
 * it and it got no sample; at most max_fds files are open, and past that
 * the files that got samples are copied into the cache at once, then the
 * others closed (one of them that gets a sample later is opened again
 * through the process that sampled it, if it still lives).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "common/cli.h"
#include "record.h"

struct rec_dsos {
	struct rec_dso **buckets;
	size_t nr_buckets;	/* a power of two */
	size_t nr;
	struct rec_bidcache *cache;
	unsigned int max_fds, nr_fds;
	bool warned;
};

struct rec_dsos *rec_dsos__new(struct rec_bidcache *cache,
			       unsigned int max_fds)
{
	struct rec_dsos *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->nr_buckets = 256;
	d->buckets = calloc(d->nr_buckets, sizeof(*d->buckets));
	if (!d->buckets) {
		free(d);
		return NULL;
	}
	d->cache = cache;
	d->max_fds = max_fds;
	return d;
}

static void dso_free(struct rec_dsos *d, struct rec_dso *f)
{
	if (f->fd >= 0) {
		close(f->fd);
		d->nr_fds--;
	}
	free(f->name);
	free(f);
}

void rec_dsos__free(struct rec_dsos *d)
{
	size_t i;

	if (!d)
		return;
	for (i = 0; i < d->nr_buckets; i++)
		while (d->buckets[i]) {
			struct rec_dso *f = d->buckets[i];

			d->buckets[i] = f->next;
			dso_free(d, f);
		}
	free(d->buckets);
	free(d);
}

static size_t hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;	/* FNV-1a */

	while (*s)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ULL;
	return (size_t)h;
}

static struct rec_dso **bucket(struct rec_dsos *d, const char *name)
{
	return &d->buckets[hash(name) & (d->nr_buckets - 1)];
}

static void grow(struct rec_dsos *d)
{
	size_t n = 2 * d->nr_buckets, i;
	struct rec_dso **v = calloc(n, sizeof(*v));

	if (!v)
		return;		/* longer chains, still right */
	for (i = 0; i < d->nr_buckets; i++)
		while (d->buckets[i]) {
			struct rec_dso *f = d->buckets[i];
			size_t k = hash(f->name) & (n - 1);

			d->buckets[i] = f->next;
			f->next = v[k];
			v[k] = f;
		}
	free(d->buckets);
	d->buckets = v;
	d->nr_buckets = n;
}

/* Whether f is the file fid says (fid saying nothing: f says nothing). */
static bool same(const struct rec_dso *f, const struct rec_file_id *fid)
{
	if (fid->id_size && f->fid.id_size)
		return fid->id_size == f->fid.id_size &&
		       !memcmp(fid->id, f->fid.id, fid->id_size);
	if (fid->has_dev && f->fid.has_dev)
		return fid->maj == f->fid.maj && fid->min == f->fid.min &&
		       fid->ino == f->fid.ino;
	return !fid->id_size && !fid->has_dev && !f->fid.id_size &&
	       !f->fid.has_dev;
}

static struct rec_dso *find(struct rec_dsos *d, const char *name,
			    const struct rec_file_id *fid)
{
	struct rec_dso *f;

	for (f = *bucket(d, name); f; f = f->next)
		if (!strcmp(f->name, name) && same(f, fid))
			return f;
	return NULL;
}

/* What the open file tells of itself: its device, inode and build id. */
static void learn(struct rec_file_id *fid, int fd)
{
	struct stat st;
	uint8_t id[REC_BUILD_ID_MAX];
	int n;

	if (!fid->has_dev && !fstat(fd, &st)) {
		fid->has_dev = true;
		fid->maj = major(st.st_dev);
		fid->min = minor(st.st_dev);
		fid->ino = st.st_ino;
	}
	if (!fid->id_size) {
		n = rec_fd_build_id(fd, id);
		if (n > 0) {
			fid->id_size = n;
			memcpy(fid->id, id, n);
		}
	}
}

static bool in_cache(struct rec_dsos *d, const struct rec_dso *f)
{
	return !d->cache ||
	       (f->fid.id_size &&
		rec_bidcache__has(d->cache, f->fid.id, f->fid.id_size,
				  REC_CACHE_ELF));
}

/* f's fd closed, its file first copied into the cache if it got samples. */
static void cache_one(struct rec_dsos *d, struct rec_dso *f)
{
	int err;

	if (f->fd < 0)
		return;
	if (d->cache && f->hit && f->fid.id_size && !f->cached) {
		err = rec_bidcache__add(d->cache, f->fid.id, f->fid.id_size,
					f->name, REC_CACHE_ELF, f->fd, NULL, 0);
		if (err && err != -EINVAL && !d->warned && !pd_quiet)
			pd_warn("build-id cache %s: %s: %s",
				rec_bidcache__dir(d->cache), f->name,
				strerror(-err));
		if (err)
			d->warned = true;
		f->cached = !err;
	}
	close(f->fd);
	f->fd = -1;
	d->nr_fds--;
}

/*
 * Room for one more fd: the files with samples go to the cache now, then
 * the others are closed, down to three quarters of the budget so that
 * this runs once per many files.
 */
static void make_room(struct rec_dsos *d)
{
	unsigned int want = d->max_fds * 3 / 4;
	size_t i;
	int pass;
	struct rec_dso *f;

	for (pass = 0; pass < 2 && d->nr_fds > want; pass++)
		for (i = 0; i < d->nr_buckets && d->nr_fds > want; i++)
			for (f = d->buckets[i]; f && d->nr_fds > want; f = f->next)
				if (f->fd >= 0 && (pass || f->hit))
					cache_one(d, f);
}

/* Keep fd as f's while the cache needs it; else close it. */
static void hold(struct rec_dsos *d, struct rec_dso *f, int fd)
{
	f->cached = in_cache(d, f);
	if (f->fd >= 0 || f->cached || !f->fid.id_size) {
		close(fd);
		return;
	}
	if (d->nr_fds >= d->max_fds)
		make_room(d);
	if (d->nr_fds >= d->max_fds) {
		close(fd);	/* no budget at all */
		return;
	}
	f->fd = fd;
	d->nr_fds++;
}

/* What fid says of a file that f does not know yet. */
static void merge(struct rec_file_id *to, const struct rec_file_id *from)
{
	if (!to->has_dev && from->has_dev) {
		to->has_dev = true;
		to->maj = from->maj;
		to->min = from->min;
		to->ino = from->ino;
	}
	if (!to->id_size && from->id_size) {
		to->id_size = from->id_size;
		memcpy(to->id, from->id, from->id_size);
	}
}

static struct rec_dso *add(struct rec_dsos *d, const char *name,
			   const struct rec_file_id *fid)
{
	struct rec_dso *f, **b;

	if (d->nr >= d->nr_buckets)
		grow(d);
	f = calloc(1, sizeof(*f));
	if (!f || !(f->name = strdup(name))) {
		free(f);
		return NULL;
	}
	f->fid = *fid;
	f->fd = -1;
	b = bucket(d, name);
	f->next = *b;
	*b = f;
	d->nr++;
	return f;
}

struct rec_dso *rec_dsos__map(struct rec_dsos *d,
			      const struct rec_map_at *at, const char *name,
			      const struct rec_file_id *fid)
{
	struct rec_file_id known = *fid;
	struct rec_dso *f = find(d, name, fid);
	int fd;

	/* a DSO that says nothing of its file may be any: not this one */
	if (f && !f->fid.id_size && !f->fid.has_dev &&
	    (fid->has_dev || fid->id_size))
		f = NULL;
	if (f) {
		merge(&f->fid, fid);
		if (f->fid.id_size && !f->cached && f->fd < 0)
			f->cached = in_cache(d, f);
		if (f->fid.id_size && (f->cached || f->fd >= 0))
			goto out;
		/* its build id or its file still wanted */
		fd = rec_map_open(at, name, &f->fid);
		if (fd >= 0) {
			learn(&f->fid, fd);
			hold(d, f, fd);
		}
		goto out;
	}
	fd = -1;
	/* a build id the cache holds: nothing to open */
	if (!fid->id_size || !d->cache ||
	    !rec_bidcache__has(d->cache, fid->id, fid->id_size, REC_CACHE_ELF)) {
		fd = rec_map_open(at, name, fid);
		if (fd >= 0) {
			learn(&known, fd);
			/* a file known by the other half of its identity */
			f = find(d, name, &known);
			if (f && !f->fid.id_size && !f->fid.has_dev)
				f = NULL;
		}
	}
	if (f)
		merge(&f->fid, &known);
	else
		f = add(d, name, &known);
	if (!f) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	if (fd >= 0)
		hold(d, f, fd);
	else
		f->cached = f->fid.id_size && in_cache(d, f);
out:
	f->nr_maps++;
	return f;
}

void rec_dsos__get(struct rec_dso *f)
{
	f->nr_maps++;
}

void rec_dsos__put(struct rec_dsos *d, struct rec_dso *f)
{
	struct rec_dso **p;

	if (--f->nr_maps || f->hit)
		return;
	for (p = bucket(d, f->name); *p; p = &(*p)->next)
		if (*p == f) {
			*p = f->next;
			d->nr--;
			dso_free(d, f);
			return;
		}
}

void rec_dsos__hit(struct rec_dsos *d, struct rec_dso *f,
		   const struct rec_map_at *at)
{
	int fd;

	if (f->hit)
		return;
	f->hit = true;
	/* dropped for room or never opened: through the process sampled */
	if (f->fd >= 0 || (f->fid.id_size && (f->cached || in_cache(d, f))))
		return;
	fd = rec_map_open(at, f->name, &f->fid);
	if (fd < 0)
		return;
	if (!rec_file_id__matches(&f->fid, fd) &&
	    (f->fid.has_dev || f->fid.id_size)) {
		close(fd);	/* the map changed hands meanwhile */
		return;
	}
	learn(&f->fid, fd);
	hold(d, f, fd);
}

void rec_dsos__finish(struct rec_dsos *d)
{
	struct rec_map_at nowhere = { 0 };
	struct rec_dso *f;
	size_t pos = 0;
	int fd;

	for (f = rec_dsos__next_hit(d, &pos, NULL); f;
	     f = rec_dsos__next_hit(d, &pos, f)) {
		/* its process gone before it could be read: the file here,
		 * if it is the one recorded */
		if (!f->fid.id_size && f->fid.has_dev && f->name[0] == '/') {
			fd = rec_map_open(&nowhere, f->name, &f->fid);
			if (fd >= 0) {
				learn(&f->fid, fd);
				hold(d, f, fd);
			}
		}
		cache_one(d, f);
	}
}

struct rec_dso *rec_dsos__next_hit(struct rec_dsos *d, size_t *pos,
				   struct rec_dso *prev)
{
	struct rec_dso *f = prev ? prev->next : NULL;

	for (;;) {
		for (; f; f = f->next)
			if (f->hit)
				return f;
		if (*pos >= d->nr_buckets)
			return NULL;
		f = d->buckets[(*pos)++];
	}
}
