// SPDX-License-Identifier: MIT
/*
 * The build ids perf puts in the BUILD_ID feature: those of the DSOs that
 * got samples. The maps of each process are followed from the MMAP/MMAP2
 * and FORK records as they are written, and every sample address (its ip
 * and its callchain) marks the DSO it falls in. Memory grows with the
 * processes and maps recorded, not with the samples.
 */
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>

#include <perfdata/symbols.h>

#include "record.h"

#define KERNEL_DSO	0	/* dsos[0] is always the kernel */

struct bid_dso {
	char *name;
	bool hit;
};

struct bid_map {
	uint64_t start, end;
	uint32_t dso;
};

struct bid_proc {
	int32_t pid;
	uint64_t exit_round;	/* round its EXIT came in; 0: alive */
	struct bid_map *maps;
	size_t nr, cap;
};

struct rec_buildids {
	struct bid_dso *dsos;
	size_t nr_dsos, cap_dsos;
	struct bid_proc *procs;
	size_t nr_procs, cap_procs;
	size_t last_proc;
	uint64_t round;		/* FINISHED_ROUNDs so far, from 1 */
};

struct rec_buildids *rec_buildids__new(void)
{
	struct rec_buildids *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	b->dsos = calloc(16, sizeof(*b->dsos));
	if (!b->dsos) {
		free(b);
		return NULL;
	}
	b->cap_dsos = 16;
	b->dsos[0].name = strdup("[kernel.kallsyms]");
	if (!b->dsos[0].name) {
		free(b->dsos);
		free(b);
		return NULL;
	}
	b->nr_dsos = 1;
	b->round = 1;
	return b;
}

void rec_buildids__free(struct rec_buildids *b)
{
	size_t i;

	if (!b)
		return;
	for (i = 0; i < b->nr_dsos; i++)
		free(b->dsos[i].name);
	for (i = 0; i < b->nr_procs; i++)
		free(b->procs[i].maps);
	free(b->dsos);
	free(b->procs);
	free(b);
}

static int dso_index(struct rec_buildids *b, const char *name, uint32_t *idx)
{
	size_t i;

	for (i = b->nr_dsos; i-- > 0;)
		if (!strcmp(b->dsos[i].name, name)) {
			*idx = i;
			return 0;
		}
	if (b->nr_dsos == b->cap_dsos) {
		struct bid_dso *v = realloc(b->dsos, 2 * b->cap_dsos * sizeof(*v));

		if (!v)
			return -ENOMEM;
		b->dsos = v;
		b->cap_dsos *= 2;
	}
	b->dsos[b->nr_dsos].name = strdup(name);
	if (!b->dsos[b->nr_dsos].name)
		return -ENOMEM;
	b->dsos[b->nr_dsos].hit = false;
	*idx = b->nr_dsos++;
	return 0;
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

/* A new map replaces whatever it overlaps, as a new mmap() does. */
static int add_map(struct bid_proc *p, uint64_t start, uint64_t len,
		   uint32_t dso)
{
	uint64_t end = start + len;
	size_t i, j;

	for (i = j = 0; i < p->nr; i++)
		if (p->maps[i].end <= start || p->maps[i].start >= end)
			p->maps[j++] = p->maps[i];
	p->nr = j;
	if (p->nr == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 16;
		struct bid_map *v = realloc(p->maps, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		p->maps = v;
		p->cap = cap;
	}
	p->maps[p->nr].start = start;
	p->maps[p->nr].end = end;
	p->maps[p->nr].dso = dso;
	p->nr++;
	return 0;
}

static int on_mmap(struct rec_buildids *b, const uint8_t *rec, bool mmap2)
{
	int32_t pid;
	uint64_t start, len;
	const char *name = (const char *)rec + (mmap2 ? 72 : 40);
	uint16_t misc, size;
	struct bid_proc *p;
	uint32_t dso;
	int err;

	memcpy(&misc, rec + 4, 2);
	memcpy(&size, rec + 6, 2);
	if (size <= (mmap2 ? 72 : 40) ||
	    !memchr(name, '\0', size - (mmap2 ? 72 : 40)))
		return 0;
	memcpy(&pid, rec + 8, 4);
	memcpy(&start, rec + 16, 8);
	memcpy(&len, rec + 24, 8);
	if ((misc & PD_MISC_CPUMODE_MASK) == PD_MISC_KERNEL)
		return 0;	/* the kernel map: any kernel address hits it */
	if (mmap2 && (misc & PD_MISC_MMAP_DATA))
		return 0;
	err = dso_index(b, name, &dso);
	if (err)
		return err;
	p = find_proc(b, pid, true);
	if (!p)
		return -ENOMEM;
	return add_map(p, start, len, dso);
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
	parent = find_proc(b, ppid, false);
	if (!parent)
		return 0;
	/* find_proc may move the array: look the parent up again */
	child = find_proc(b, pid, true);
	if (!child)
		return -ENOMEM;
	parent = find_proc(b, ppid, false);
	child = find_proc(b, pid, false);
	child->nr = 0;
	child->exit_round = 0;	/* a pid used again */
	for (i = 0; i < parent->nr; i++) {
		err = add_map(child, parent->maps[i].start,
			      parent->maps[i].end - parent->maps[i].start,
			      parent->maps[i].dso);
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
	size_t i;

	if (kernel) {
		b->dsos[KERNEL_DSO].hit = true;
		return;
	}
	if (!p)
		return;
	for (i = 0; i < p->nr; i++)
		if (addr >= p->maps[i].start && addr < p->maps[i].end) {
			b->dsos[p->maps[i].dso].hit = true;
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
			 const struct pd_attr *attr)
{
	uint32_t type;
	uint16_t misc;

	memcpy(&type, rec, 4);
	memcpy(&misc, (const uint8_t *)rec + 4, 2);
	switch (type) {
	case PD_RECORD_MMAP:
		return on_mmap(b, rec, false);
	case PD_RECORD_MMAP2:
		/* a build id in place of dev/inode: already in the record */
		if (misc & PD_MISC_MMAP_BUILD_ID)
			return 0;
		return on_mmap(b, rec, true);
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
 * processes alive, not all that ever ran (-a for hours).
 */
void rec_buildids__round(struct rec_buildids *b)
{
	size_t i;

	b->round++;
	for (i = 0; i < b->nr_procs;) {
		struct bid_proc *p = &b->procs[i];

		if (!p->exit_round || p->exit_round + 2 > b->round) {
			i++;
			continue;
		}
		free(p->maps);
		*p = b->procs[--b->nr_procs];
	}
	b->last_proc = 0;
}

/* ---- reading build ids ---- */

static int find_gnu_note(const uint8_t *p, size_t len, uint8_t id[20])
{
	size_t off = 0;

	while (off + 12 <= len) {
		uint32_t namesz, descsz, type;
		size_t name_at, desc_at, next;

		memcpy(&namesz, p + off, 4);
		memcpy(&descsz, p + off + 4, 4);
		memcpy(&type, p + off + 8, 4);
		name_at = off + 12;
		desc_at = name_at + ((namesz + 3) & ~3U);
		next = desc_at + ((descsz + 3) & ~3U);
		if (desc_at > len || next > len || next <= off)
			return -ENOENT;
		if (type == NT_GNU_BUILD_ID && namesz == 4 &&
		    !memcmp(p + name_at, "GNU", 4) && descsz > 0) {
			memset(id, 0, 20);
			memcpy(id, p + desc_at, descsz > 20 ? 20 : descsz);
			return 0;
		}
		off = next;
	}
	return -ENOENT;
}

/* The vdso every process gets is the one mapped into this one. */
static int vdso_build_id(uint8_t id[20])
{
	const Elf64_Ehdr *eh = (const void *)getauxval(AT_SYSINFO_EHDR);
	const Elf64_Phdr *ph;
	int i;

	if (!eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64)
		return -ENOENT;
	ph = (const void *)((const uint8_t *)eh + eh->e_phoff);
	for (i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_NOTE &&
		    !find_gnu_note((const uint8_t *)eh + ph[i].p_offset,
				   ph[i].p_filesz, id))
			return 0;
	return -ENOENT;
}

/* One entry: header, pid, 20 id bytes + 4, the name padded to 64. */
static size_t put_entry(uint8_t *p, const char *name, const uint8_t id[20],
			uint16_t misc)
{
	size_t nlen = strlen(name) + 1, padded = (nlen + 63) & ~(size_t)63;
	uint16_t size = 36 + padded;
	int32_t pid = -1;

	memset(p, 0, size);
	memcpy(p + 4, &misc, 2);
	memcpy(p + 6, &size, 2);
	memcpy(p + 8, &pid, 4);
	memcpy(p + 12, id, 20);
	memcpy(p + 36, name, nlen);
	return size;
}

int rec_buildids__feature(struct rec_buildids *b, void **data, size_t *size,
			  unsigned int *nr)
{
	uint8_t *out = NULL, id[20];
	size_t len = 0, cap = 0, i;

	*nr = 0;
	for (i = 0; i < b->nr_dsos; i++) {
		const char *name = b->dsos[i].name;
		uint16_t misc = PD_MISC_USER;
		int err;

		if (!b->dsos[i].hit || strlen(name) > 4000)
			continue;
		if (i == KERNEL_DSO) {
			memset(id, 0, sizeof(id));
			err = pd_running_kernel_build_id(id, sizeof(id)) > 0 ?
			      0 : -ENOENT;
			misc = PD_MISC_KERNEL;
		} else if (!strcmp(name, "[vdso]")) {
			err = vdso_build_id(id);
		} else if (name[0] != '/') {
			continue;	/* [stack], //anon, ... */
		} else {
			memset(id, 0, sizeof(id));
			err = pd_elf_build_id(name, id, sizeof(id)) > 0 ?
			      0 : -ENOENT;
		}
		if (err)
			continue;
		if (len + 36 + 4096 > cap) {
			size_t ncap = cap ? 2 * cap : 8192;
			uint8_t *v = realloc(out, ncap);

			if (!v) {
				free(out);
				return -ENOMEM;
			}
			out = v;
			cap = ncap;
		}
		len += put_entry(out + len, name, id, misc);
		(*nr)++;
	}
	*data = out;
	*size = len;
	return 0;
}
