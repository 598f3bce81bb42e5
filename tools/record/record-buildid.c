// SPDX-License-Identifier: MIT
/*
 * The DSOs that got samples, for the BUILD_ID feature (record-bidtable.c)
 * and the build-id cache, each as its process sees it. The maps of each
 * process are followed from the MMAP/MMAP2 and FORK records as they are
 * written, each file map's DSO found from the process's view
 * (record-dsos.c), and every sample address (its ip and its callchain)
 * marks the DSO it falls in.
 * Memory grows with the processes alive and the files they map, not with
 * the samples.
 *
 * The records themselves are completed where the output reads it: an
 * MMAP2 whose file's build id is known (the kernel's, 5.12+, or read from
 * the process's file) carries it (PERF_RECORD_MISC_MMAP_BUILD_ID), as
 * perf record --buildid-mmap writes them; a jitdump marker of a process
 * in a container names the dump's copy (record-jit.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"

#define REC_SIZE_MAX	65536

enum map_kind {
	MAP_FILE,	/* a file: its DSO */
	MAP_VDSO,
	MAP_JIT,	/* executable, without a file: a JIT's code */
	MAP_OTHER,	/* [stack], a jitdump marker, ... */
};

struct bid_map {
	uint64_t start, end;
	struct rec_dso *dso;	/* MAP_FILE's */
	enum map_kind kind;
};

struct bid_proc {
	int32_t pid;
	int32_t ppid;		/* from its FORK; 0: unknown */
	uint64_t exit_round;	/* round its EXIT came in; 0: alive */
	struct bid_map *maps;
	size_t nr, cap;
};

struct rec_buildids {
	struct rec_buildids_opts o;
	struct rec_dsos *dsos;
	struct rec_jit *jit;	/* NULL without a cache to copy into */
	bool kernel_hit, vdso_hit;
	struct bid_proc *procs;
	size_t nr_procs, cap_procs;
	size_t last_proc;
	uint64_t round;		/* FINISHED_ROUNDs so far, from 1 */
	uint8_t *scratch;	/* a rewritten record */
};

struct rec_buildids *rec_buildids__new(const struct rec_buildids_opts *o)
{
	struct rec_buildids *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	b->o = *o;
	b->round = 1;
	b->dsos = rec_dsos__new(o->cache, o->max_fds);
	b->scratch = malloc(REC_SIZE_MAX);
	if (o->cache)
		b->jit = rec_jit__new(o->cache);
	if (!b->dsos || !b->scratch || (o->cache && !b->jit)) {
		rec_buildids__free(b);
		return NULL;
	}
	return b;
}

void rec_buildids__free(struct rec_buildids *b)
{
	size_t i;

	if (!b)
		return;
	for (i = 0; i < b->nr_procs; i++)
		free(b->procs[i].maps);
	free(b->procs);
	rec_jit__free(b->jit);
	rec_dsos__free(b->dsos);
	free(b->scratch);
	free(b);
}

static struct bid_proc *find_proc(struct rec_buildids *b, int32_t pid,
				  bool create)
{
	size_t i;

	if (b->last_proc < b->nr_procs && b->procs[b->last_proc].pid == pid)
		return &b->procs[b->last_proc];
	for (i = 0; i < b->nr_procs; i++)
		if (b->procs[i].pid == pid) {
			b->last_proc = i;
			return &b->procs[i];
		}
	if (!create)
		return NULL;
	if (b->nr_procs == b->cap_procs) {
		size_t cap = b->cap_procs ? 2 * b->cap_procs : 16;
		struct bid_proc *v = realloc(b->procs, cap * sizeof(*v));

		if (!v)
			return NULL;
		b->procs = v;
		b->cap_procs = cap;
	}
	memset(&b->procs[b->nr_procs], 0, sizeof(b->procs[0]));
	b->procs[b->nr_procs].pid = pid;
	b->last_proc = b->nr_procs;
	return &b->procs[b->nr_procs++];
}

static void drop_map(struct rec_buildids *b, struct bid_map *m)
{
	if (m->kind == MAP_FILE)
		rec_dsos__put(b->dsos, m->dso);
}

/*
 * A new map replaces whatever it overlaps, as a new mmap() does. Its
 * DSO's count of maps was taken by whoever found the DSO.
 */
static int add_map(struct rec_buildids *b, struct bid_proc *p, uint64_t start,
		   uint64_t len, enum map_kind kind, struct rec_dso *dso)
{
	uint64_t end = start + len;
	size_t i, j;

	for (i = j = 0; i < p->nr; i++)
		if (p->maps[i].end <= start || p->maps[i].start >= end)
			p->maps[j++] = p->maps[i];
		else
			drop_map(b, &p->maps[i]);
	p->nr = j;
	if (p->nr == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 16;
		struct bid_map *v = realloc(p->maps, cap * sizeof(*v));

		if (!v) {
			if (kind == MAP_FILE)
				rec_dsos__put(b->dsos, dso);
			return -ENOMEM;
		}
		p->maps = v;
		p->cap = cap;
	}
	p->maps[p->nr].start = start;
	p->maps[p->nr].end = end;
	p->maps[p->nr].kind = kind;
	p->maps[p->nr].dso = dso;
	p->nr++;
	return 0;
}

/* The maps perf makes /tmp/perf-PID.map of when executable (map.c). */
static bool no_file(const char *name)
{
	return !strncmp(name, "//anon", 6) || !strncmp(name, "/dev/zero", 9) ||
	       !strncmp(name, "/anon_hugepage", 14) ||
	       !strncmp(name, "[stack", 6) || !strncmp(name, "/SYSV", 5) ||
	       !strcmp(name, "[heap]");
}

/* The MMAP2's build id, in place of its device and inode. */
static void *with_build_id(struct rec_buildids *b, const uint8_t *rec,
			   const struct rec_file_id *fid)
{
	uint16_t misc, size;

	memcpy(&misc, rec + 4, 2);
	memcpy(&size, rec + 6, 2);
	memcpy(b->scratch, rec, size);
	misc |= PD_MISC_MMAP_BUILD_ID;
	memcpy(b->scratch + 4, &misc, 2);
	memset(b->scratch + 40, 0, 24);
	b->scratch[40] = fid->id_size;
	memcpy(b->scratch + 44, fid->id, fid->id_size);
	return b->scratch;
}

/* The MMAP2 (in scratch or not) with another name, its trailer kept. */
static void *renamed(struct rec_buildids *b, const uint8_t *rec,
		     const char *name, const struct pd_attr *attr)
{
	size_t trailer = attr ? rec_id_hdr_size(attr) : 0, n, old;
	uint16_t size, misc;
	uint8_t tail[64];

	memcpy(&misc, rec + 4, 2);
	memcpy(&size, rec + 6, 2);
	old = size;
	n = 72 + ((strlen(name) + 1 + 7) & ~(size_t)7) + trailer;
	if (trailer > sizeof(tail) || trailer > old - 72 ||
	    n >= REC_SIZE_MAX)
		return NULL;
	memcpy(tail, rec + old - trailer, trailer);
	if (rec != b->scratch)
		memcpy(b->scratch, rec, 72);
	n = 72 + rec_synth_name(b->scratch + 72, name);
	memcpy(b->scratch + n, tail, trailer);
	n += trailer;
	rec_synth_header(b->scratch, PD_RECORD_MMAP2, misc, n);
	return b->scratch;
}

static int on_mmap(struct rec_buildids *b, const uint8_t *rec, bool mmap2,
		   const struct pd_attr *attr, const void **out)
{
	size_t name_at = mmap2 ? 72 : 40;
	const char *name = (const char *)rec + name_at, *copy;
	struct rec_file_id fid = { 0 };
	struct rec_map_at at;
	enum map_kind kind = MAP_OTHER;
	struct rec_dso *dso = NULL;
	uint64_t start, len;
	uint16_t misc, size;
	struct bid_proc *p;
	int32_t pid, tid;

	memcpy(&misc, rec + 4, 2);
	memcpy(&size, rec + 6, 2);
	if (size <= name_at || !memchr(name, '\0', size - name_at))
		return 0;
	memcpy(&pid, rec + 8, 4);
	memcpy(&tid, rec + 12, 4);
	memcpy(&start, rec + 16, 8);
	memcpy(&len, rec + 24, 8);
	if ((misc & PD_MISC_CPUMODE_MASK) == PD_MISC_KERNEL)
		return 0;	/* the kernel map: any kernel address hits it */
	if (mmap2 && (misc & PD_MISC_MMAP_DATA))
		return 0;
	at.pid = pid;
	at.start = start;
	at.end = start + len;
	p = find_proc(b, pid, false);
	at.ppid = p ? p->ppid : 0;
	if (mmap2 && (misc & PD_MISC_MMAP_BUILD_ID)) {
		fid.id_size = rec[40] > REC_BUILD_ID_MAX ? REC_BUILD_ID_MAX :
			      rec[40];
		memcpy(fid.id, rec + 44, fid.id_size);
	} else if (mmap2) {
		memcpy(&fid.maj, rec + 40, 4);
		memcpy(&fid.min, rec + 44, 4);
		memcpy(&fid.ino, rec + 48, 8);
		fid.has_dev = fid.ino != 0;
	}
	if (!strcmp(name, "[vdso]")) {
		kind = MAP_VDSO;
	} else if (no_file(name)) {
		kind = MAP_JIT;
		if (b->jit)
			rec_jit__anon_map(b->jit, pid);
	} else if (name[0] == '/') {
		copy = b->jit && mmap2 ?
		       rec_jit__marker(b->jit, &at, tid, name, &fid) : NULL;
		if (copy) {
			*out = renamed(b, rec, copy, attr);
			if (!*out)
				*out = rec;
		} else {
			dso = rec_dsos__map(b->dsos, &at, name, &fid);
			if (!dso)
				return -ENOMEM;
			kind = MAP_FILE;
		}
	}
	/* its build id where the record has none (or the kernel's
	 * attempt, size 0) and the output reads them */
	if (dso && mmap2 && b->o.mmap2_ids && dso->fid.id_size &&
	    !fid.id_size)
		*out = with_build_id(b, rec, &dso->fid);
	p = find_proc(b, pid, true);
	if (!p) {
		if (dso)
			rec_dsos__put(b->dsos, dso);
		return -ENOMEM;
	}
	return add_map(b, p, start, len, kind, dso);
}

static int on_fork(struct rec_buildids *b, const uint8_t *rec)
{
	int32_t pid, ppid;
	struct bid_proc *parent, *child;
	size_t i;
	int err;

	memcpy(&pid, rec + 8, 4);
	memcpy(&ppid, rec + 12, 4);
	if (pid == ppid)
		return 0;	/* a new thread shares its process's maps */
	/* a child whose parent has no maps here still has its parent's
	 * root to look into (record-mapfile.c) */
	child = find_proc(b, pid, true);
	if (!child)
		return -ENOMEM;
	for (i = 0; i < child->nr; i++)
		drop_map(b, &child->maps[i]);	/* a pid used again */
	child->nr = 0;
	child->exit_round = 0;
	child->ppid = ppid;
	/* find_proc may move the array: the child is looked up again */
	parent = find_proc(b, ppid, false);
	if (!parent)
		return 0;
	child = find_proc(b, pid, false);
	for (i = 0; i < parent->nr; i++) {
		struct bid_map *m = &parent->maps[i];

		if (m->kind == MAP_FILE)
			rec_dsos__get(m->dso);
		err = add_map(b, child, m->start, m->end - m->start, m->kind,
			      m->dso);
		if (err)
			return err;
		parent = find_proc(b, ppid, false);
		child = find_proc(b, pid, false);
	}
	return 0;
}

static void hit(struct rec_buildids *b, struct bid_proc *p, bool kernel,
		uint64_t addr)
{
	struct bid_map *m;
	size_t i;

	if (kernel) {
		b->kernel_hit = true;
		return;
	}
	if (!p)
		return;
	for (i = 0; i < p->nr; i++) {
		m = &p->maps[i];
		if (addr < m->start || addr >= m->end)
			continue;
		if (m->kind == MAP_FILE) {
			struct rec_map_at at = {
				.pid = p->pid, .ppid = p->ppid,
				.start = m->start, .end = m->end,
			};

			rec_dsos__hit(b->dsos, m->dso, &at);
		}
		else if (m->kind == MAP_VDSO)
			b->vdso_hit = true;
		else if (m->kind == MAP_JIT && b->jit)
			rec_jit__anon_hit(b->jit, p->pid);
		return;
	}
}

static void on_sample(struct rec_buildids *b, const uint8_t *rec,
		      const struct pd_attr *attr)
{
	uint64_t st = attr->sample_type, ip = 0, nr, v;
	uint16_t misc, size;
	const uint8_t *p = rec + 8, *end;
	int32_t pid = -1;
	struct bid_proc *proc;
	bool kernel;
	uint64_t i;

	memcpy(&misc, rec + 4, 2);
	memcpy(&size, rec + 6, 2);
	end = rec + size;
	if (st & PD_SAMPLE_READ)
		return;		/* never set by pd-record */
#define SKIP(bit) do { if (st & (bit)) p += 8; } while (0)
	SKIP(PD_SAMPLE_IDENTIFIER);
	if (st & PD_SAMPLE_IP) {
		if (p + 8 > end)
			return;
		memcpy(&ip, p, 8);
		p += 8;
	}
	if (st & PD_SAMPLE_TID) {
		if (p + 8 > end)
			return;
		memcpy(&pid, p, 4);
		p += 8;
	}
	SKIP(PD_SAMPLE_TIME);
	SKIP(PD_SAMPLE_ADDR);
	SKIP(PD_SAMPLE_ID);
	SKIP(PD_SAMPLE_STREAM_ID);
	SKIP(PD_SAMPLE_CPU);
	SKIP(PD_SAMPLE_PERIOD);
#undef SKIP
	proc = find_proc(b, pid, false);
	kernel = (misc & PD_MISC_CPUMODE_MASK) == PD_MISC_KERNEL;
	if (st & PD_SAMPLE_IP)
		hit(b, proc, kernel, ip);
	if (!(st & PD_SAMPLE_CALLCHAIN) || p + 8 > end)
		return;
	memcpy(&nr, p, 8);
	p += 8;
	if (nr > (uint64_t)(end - p) / 8)
		return;
	for (i = 0; i < nr; i++, p += 8) {
		memcpy(&v, p, 8);
		if (v >= PD_CONTEXT_MAX) {
			kernel = v == PD_CONTEXT_KERNEL;
			continue;
		}
		hit(b, proc, kernel, v);
	}
}

int rec_buildids__record(struct rec_buildids *b, const void *rec,
			 const struct pd_attr *attr, const void **out)
{
	uint32_t type;

	*out = rec;
	if (!b)
		return 0;	/* -B */
	memcpy(&type, rec, 4);
	switch (type) {
	case PD_RECORD_MMAP:
		return on_mmap(b, rec, false, attr, out);
	case PD_RECORD_MMAP2:
		return on_mmap(b, rec, true, attr, out);
	case PD_RECORD_FORK:
		return on_fork(b, rec);
	case PD_RECORD_EXIT: {
		int32_t pid, tid;
		struct bid_proc *p;

		memcpy(&pid, (const uint8_t *)rec + 8, 4);
		memcpy(&tid, (const uint8_t *)rec + 16, 4);
		p = pid == tid ? find_proc(b, pid, false) : NULL;
		if (p)
			p->exit_round = b->round;
		return 0;
	}
	case PD_RECORD_SAMPLE:
		if (attr)
			on_sample(b, rec, attr);
		return 0;
	default:
		return 0;
	}
}

/*
 * The maps of a process that exited are dropped one round later: its
 * last samples may sit in another CPU's buffer, read in the same pass as
 * the EXIT or the next one, never later. Memory thus follows the
 * processes alive, not all that ever ran (-a for hours); a container's
 * JIT symbols are copied then, complete.
 */
void rec_buildids__round(struct rec_buildids *b)
{
	size_t i, k;

	if (!b)
		return;
	b->round++;
	if (b->jit)
		rec_jit__round(b->jit);
	for (i = 0; i < b->nr_procs;) {
		struct bid_proc *p = &b->procs[i];

		if (!p->exit_round || p->exit_round + 2 > b->round) {
			i++;
			continue;
		}
		for (k = 0; k < p->nr; k++)
			drop_map(b, &p->maps[k]);
		if (b->jit)
			rec_jit__gone(b->jit, p->pid);
		free(p->maps);
		*p = b->procs[--b->nr_procs];
	}
	b->last_proc = 0;
}

void rec_buildids__finish(struct rec_buildids *b)
{
	rec_dsos__finish(b->dsos);
	if (b->jit)
		rec_jit__finish(b->jit);
	if (b->o.cache)
		rec_bidtable__cache_kernel(b->o.cache, b->kernel_hit,
					   b->vdso_hit);
}

int rec_buildids__feature(struct rec_buildids *b, void **data, size_t *size,
			  unsigned int *nr)
{
	return rec_bidtable(b->dsos, b->kernel_hit, b->vdso_hit, data, size,
			    nr);
}
