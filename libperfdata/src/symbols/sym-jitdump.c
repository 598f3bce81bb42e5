// SPDX-License-Identifier: MIT
/*
 * jitdump files, read as perf 6.1's `perf inject --jit` reads them
 * (tools/perf/util/jitdump.c, jitdump.h, genelf.h), turned into the maps
 * it injects. Facts reproduced:
 * - the header is 40 bytes: magic 0x4A695444 ("JiTD"; byte-swapped: the
 *   other byte order), version, total_size, elf_mach, pad, pid,
 *   timestamp, flags. perf refuses a version above 1, flags beyond bit 0
 *   and, without TIME_CONV, bit 0 (TSC timestamps; not converted here
 *   either). It reads records from offset 40 whatever total_size says,
 *   and fails on a total_size above 80 (its read of the rest asks for 0
 *   bytes, which fread counts as a failure);
 * - a record is a 16-byte prefix (id, total_size, timestamp) and its
 *   body; reading stops at a size below 16 or a record the file ends in;
 *   unknown ids are skipped;
 * - JIT_CODE_LOAD (pid, tid, vma, code_addr, code_size, code_index, the
 *   NUL-terminated name, then code_size bytes of code ending the record)
 *   becomes an MMAP2 of "DIR/jitted-PID-INDEX.so" (DIR: the dump's
 *   directory, PID %d, INDEX the full 64 bits) at code_addr, code_size
 *   long (ALIGN_8(code_size) + mapped_size after a JIT_CODE_UNWINDING_INFO
 *   with mapped_size, which the next load with an eh_frame_hdr_size
 *   uses up), pgoff GEN_ELF_TEXT_OFFSET, at the record's time. The file
 *   holds one function symbol, the name, at GEN_ELF_TEXT_OFFSET, size
 *   code_size: so a frame prints as NAME+0x(ip - code_addr). It is
 *   rewritten by each load of the index: perf script sees the last one;
 * - JIT_CODE_MOVE (pid, tid, vma, old and new address, code_size,
 *   code_index) maps the same file at the new address;
 * - GEN_ELF_TEXT_OFFSET is where perf 6.1's genelf puts .text: the ELF
 *   and one program header, rounded up to 16 (0x80 for 64-bit perf).
 * A record perf 6.1 would turn into garbage (a code size beyond its
 * record, a name without its NUL, a move shorter than its fields) is
 * skipped, as newer perfs do. Memory: names are read up to
 * JIT_NAME_MAX, and at most JIT_MAX_MAPS maps are kept.
 */
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "archives/archive-internal.h"
#include "sym-internal.h"

#define JIT_MAGIC		0x4A695444u
#define JIT_HEADER_SIZE		40
#define JIT_HEADER_MAX		80	/* see above */
#define JIT_PREFIX_SIZE		16
#define JIT_LOAD_SIZE		56	/* prefix + fixed fields */
#define JIT_MOVE_SIZE		64
#define JIT_UNWIND_SIZE		40
#define JIT_FLAG_ARCH_TS	1ull

enum { JIT_CODE_LOAD, JIT_CODE_MOVE, JIT_CODE_DEBUG_INFO, JIT_CODE_CLOSE,
       JIT_CODE_UNWINDING_INFO };

#define JIT_NAME_MAX		65536
#define JIT_MAX_MAPS		(1u << 20)

struct pd_jitdump {
	struct pd_jitdump *next;	/* symbolizer's list */
	char *path;
	bool valid;
	struct pd_jit_map *maps;
	size_t nr_maps, cap_maps;
	struct pd_arena arena;		/* names */
};

/* One load or move while the dump is read. */
struct jit_rec {
	struct pd_jit_map m;
	uint64_t index;
	uint64_t code_size;
	const char *sym;	/* loads: the code's name */
	size_t seq;
};

struct jit_reader {
	struct pd_jitdump *j;
	FILE *f;
	bool swap;
	uint64_t size, off;
	const char *dir;
	char *name_buf;
	struct jit_rec *recs;
	size_t nr, cap;
	int32_t usize;		/* perf's int unwinding_mapped_size */
	uint64_t eh_frame_hdr_size;
	const char *damage;	/* the first problem, for the one warning */
	uint64_t damage_off;
	bool capped;
};

/* genelf's GEN_ELF_TEXT_OFFSET for the perf reading the dump: 64-bit
 * perf writes ELFCLASS64 files */
static uint64_t text_offset(void)
{
	return sizeof(void *) == 8 ? 0x80 : 0x60;
}

static void damaged(struct jit_reader *r, const char *what)
{
	if (!r->damage) {
		r->damage = what;
		r->damage_off = r->off;
	}
}

static bool read_at(struct jit_reader *r, uint64_t off, void *buf, size_t n)
{
	return fseeko(r->f, (off_t)off, SEEK_SET) == 0 &&
	       fread(buf, 1, n, r->f) == n;
}

static uint32_t get32(const struct jit_reader *r, const uint8_t *p)
{
	return pd_get32(p, r->swap);
}

static uint64_t get64(const struct jit_reader *r, const uint8_t *p)
{
	return pd_get64(p, r->swap);
}

static struct jit_rec *new_rec(struct jit_reader *r)
{
	if (r->nr >= JIT_MAX_MAPS) {
		r->capped = true;
		return NULL;
	}
	if (r->nr == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 64;
		struct jit_rec *v = realloc(r->recs, cap * sizeof(*v));

		if (!v)
			return NULL;
		r->recs = v;
		r->cap = cap;
	}
	memset(&r->recs[r->nr], 0, sizeof(r->recs[0]));
	r->recs[r->nr].seq = r->nr;
	return &r->recs[r->nr++];
}

/* Returns -ENOMEM or 0 (a bad record is skipped as damage). */
static int read_load(struct jit_reader *r, const uint8_t *pre, uint32_t tsz)
{
	uint8_t b[JIT_LOAD_SIZE - JIT_PREFIX_SIZE];
	uint64_t code_size, room;
	struct jit_rec *rec;
	size_t n, len;

	if (tsz < JIT_LOAD_SIZE) {
		damaged(r, "code load record shorter than its fields");
		return 0;
	}
	if (!read_at(r, r->off + JIT_PREFIX_SIZE, b, sizeof(b))) {
		damaged(r, "unreadable code load record");
		return 0;
	}
	code_size = get64(r, b + 24);
	room = tsz - JIT_LOAD_SIZE;
	/* perf's csize is an int: larger code never makes a file */
	if (code_size > room || code_size > INT32_MAX) {
		damaged(r, "code size beyond its record");
		return 0;
	}
	n = room - code_size;
	if (n > JIT_NAME_MAX)
		n = JIT_NAME_MAX;
	if (!read_at(r, r->off + JIT_LOAD_SIZE, r->name_buf, n)) {
		damaged(r, "unreadable code load record");
		return 0;
	}
	len = strnlen(r->name_buf, n);
	if (len == n) {
		damaged(r, "code name without its NUL");
		return 0;
	}
	rec = new_rec(r);
	if (!rec)
		return r->capped ? 0 : -ENOMEM;
	rec->sym = pd_arena_strndup(&r->j->arena, r->name_buf, len);
	if (!rec->sym)
		return -ENOMEM;
	rec->m.time = get64(r, pre + 8);
	rec->m.pid = (int32_t)get32(r, b);
	rec->m.tid = (int32_t)get32(r, b + 4);
	rec->m.start = get64(r, b + 16);
	rec->code_size = code_size;
	rec->index = get64(r, b + 32);
	rec->m.len = r->usize ? PD_ALIGN(code_size, 8) + (int64_t)r->usize :
		     code_size;
	if (r->eh_frame_hdr_size) {
		r->usize = 0;
		r->eh_frame_hdr_size = 0;
	}
	return 0;
}

static int read_move(struct jit_reader *r, const uint8_t *pre, uint32_t tsz)
{
	uint8_t b[JIT_MOVE_SIZE - JIT_PREFIX_SIZE];
	struct jit_rec *rec;
	uint64_t size;

	if (tsz < JIT_MOVE_SIZE || !read_at(r, r->off + JIT_PREFIX_SIZE, b,
					    sizeof(b))) {
		damaged(r, "code move record shorter than its fields");
		return 0;
	}
	rec = new_rec(r);
	if (!rec)
		return r->capped ? 0 : -ENOMEM;
	size = get64(r, b + 32);
	rec->m.time = get64(r, pre + 8);
	rec->m.pid = (int32_t)get32(r, b);
	rec->m.tid = (int32_t)get32(r, b + 4);
	rec->m.start = get64(r, b + 24);
	rec->index = get64(r, b + 40);
	rec->m.len = r->usize ? PD_ALIGN(size, 8) + (int64_t)r->usize : size;
	return 0;
}

static void read_unwinding(struct jit_reader *r, uint32_t tsz)
{
	uint8_t b[JIT_UNWIND_SIZE - JIT_PREFIX_SIZE];

	if (tsz < JIT_UNWIND_SIZE || !read_at(r, r->off + JIT_PREFIX_SIZE, b,
					      sizeof(b))) {
		damaged(r, "unwinding record shorter than its fields");
		return;
	}
	r->eh_frame_hdr_size = get64(r, b + 8);
	r->usize = (int32_t)get64(r, b + 16);
}

/* The header: 0, or the reason perf inject refuses the dump. */
static const char *read_header(struct jit_reader *r)
{
	uint8_t h[JIT_HEADER_SIZE];
	uint32_t magic;
	uint64_t flags;

	if (!read_at(r, 0, h, sizeof(h)))
		return "shorter than a jitdump header";
	memcpy(&magic, h, 4);
	if (magic != JIT_MAGIC) {
		if (magic != pd_bswap32(JIT_MAGIC))
			return "not a jitdump (bad magic)";
		r->swap = true;
	}
	flags = get64(r, h + 32);
	if (get32(r, h + 4) > 1)
		return "jitdump version above 1";
	if (flags & ~JIT_FLAG_ARCH_TS)
		return "unknown jitdump flags";
	if (flags & JIT_FLAG_ARCH_TS)
		return "TSC timestamps (JITDUMP_FLAGS_ARCH_TIMESTAMP) are not supported";
	if (get32(r, h + 8) > JIT_HEADER_MAX)
		return "header size above 80, which perf inject cannot read";
	return NULL;
}

static int read_records(struct jit_reader *r)
{
	uint8_t pre[JIT_PREFIX_SIZE];
	int err = 0;

	for (r->off = JIT_HEADER_SIZE; r->off < r->size && !err && !r->capped;) {
		uint32_t id, tsz;

		if (r->size - r->off < JIT_PREFIX_SIZE ||
		    !read_at(r, r->off, pre, sizeof(pre))) {
			damaged(r, "truncated record");
			break;
		}
		id = get32(r, pre);
		tsz = get32(r, pre + 4);
		if (tsz < JIT_PREFIX_SIZE) {
			damaged(r, "record size below 16");
			break;
		}
		if (tsz > r->size - r->off) {
			damaged(r, "truncated record");
			break;
		}
		if (id == JIT_CODE_LOAD)
			err = read_load(r, pre, tsz);
		else if (id == JIT_CODE_MOVE)
			err = read_move(r, pre, tsz);
		else if (id == JIT_CODE_UNWINDING_INFO)
			read_unwinding(r, tsz);
		r->off += tsz;
	}
	return err;
}

static int rec_by_key(const void *a, const void *b)
{
	const struct jit_rec *x = *(const struct jit_rec * const *)a;
	const struct jit_rec *y = *(const struct jit_rec * const *)b;

	if (x->m.pid != y->m.pid)
		return x->m.pid < y->m.pid ? -1 : 1;
	if (x->index != y->index)
		return x->index < y->index ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int map_by_time(const void *a, const void *b)
{
	const struct jit_rec *x = a, *y = b;

	if (x->m.time != y->m.time)
		return x->m.time < y->m.time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The file of (pid, index), with the symbol of its last load. */
static struct pd_dso *file_dso(struct jit_reader *r, struct pd_symbolizer *s,
			       const struct jit_rec *rec,
			       const struct jit_rec *last_load)
{
	struct pd_dso *d;
	struct sym_vec sv = { 0 };
	char *dem = NULL;
	const char *name;
	int err;

	d = sym_dso__new(s, PD_DSO_JIT, rec->m.name);
	if (!d || !last_load)
		return d;
	name = last_load->sym;
	if (!s->opts.no_demangle)
		dem = sym_demangle(name);
	if (dem) {
		name = pd_arena_strndup(&r->j->arena, dem, strlen(dem));
		free(dem);
		if (!name)
			return NULL;
	}
	if (sym_vec__push(&sv, text_offset(), last_load->code_size, STB_LOCAL,
			  name))
		return NULL;
	/* perf's symbols__fixup_end(), as for any ELF file's table */
	sym_vec__fixup_end(&sv, false);
	err = sym_dso__set_symbols(d, &sv);
	free(sv.v);
	if (err)
		return NULL;
	d->loaded = true;
	return d;
}

/* Names, DSOs (one per file), then time order. */
static int build_maps(struct jit_reader *r, struct pd_symbolizer *s)
{
	struct jit_rec **by_key;
	struct pd_jitdump *j = r->j;
	size_t i, k;
	char buf[4200];

	if (!r->nr)
		return 0;
	for (i = 0; i < r->nr; i++) {
		struct jit_rec *rec = &r->recs[i];
		int n = snprintf(buf, sizeof(buf), "%s/jitted-%d-%" PRIu64 ".so",
				 r->dir, rec->m.pid, rec->index);

		rec->m.name = pd_arena_strndup(&j->arena, buf,
					       n < 0 ? 0 : strlen(buf));
		rec->m.pgoff = text_offset();
		if (!rec->m.name)
			return -ENOMEM;
	}
	by_key = malloc(r->nr * sizeof(*by_key));
	if (!by_key)
		return -ENOMEM;
	for (i = 0; i < r->nr; i++)
		by_key[i] = &r->recs[i];
	qsort(by_key, r->nr, sizeof(*by_key), rec_by_key);
	for (i = 0; i < r->nr; i = k) {
		const struct jit_rec *last_load = NULL;
		struct pd_dso *d;
		size_t m;

		for (k = i; k < r->nr && by_key[k]->m.pid == by_key[i]->m.pid &&
			    by_key[k]->index == by_key[i]->index; k++)
			if (by_key[k]->sym)
				last_load = by_key[k];
		d = file_dso(r, s, by_key[i], last_load);
		if (!d) {
			free(by_key);
			return -ENOMEM;
		}
		for (m = i; m < k; m++)
			by_key[m]->m.dso = d;
	}
	free(by_key);
	qsort(r->recs, r->nr, sizeof(*r->recs), map_by_time);
	j->maps = calloc(r->nr, sizeof(*j->maps));
	if (!j->maps)
		return -ENOMEM;
	for (i = 0; i < r->nr; i++)
		j->maps[i] = r->recs[i].m;
	j->nr_maps = r->nr;
	return 0;
}

static int load(struct pd_symbolizer *s, struct pd_jitdump *j,
		const char *file)
{
	struct jit_reader r = { .j = j };
	const char *refused;
	char *dir = strdup(j->path);
	struct stat st;
	int err = 0;

	if (!dir)
		return -ENOMEM;
	r.dir = dirname(dir);
	r.f = fopen(file, "rb");
	if (!r.f) {
		pd__warn(&s->log,
			 "%s: %s: JIT frames stay as perf script names them without perf inject --jit (the perf map, or [unknown])",
			 file, strerror(errno));
		goto out;
	}
	if (fstat(fileno(r.f), &st) == 0)
		r.size = (uint64_t)st.st_size;
	refused = read_header(&r);
	if (refused) {
		pd__warn(&s->log,
			 "%s: %s: not used, as perf inject --jit would refuse it",
			 file, refused);
		goto out;
	}
	j->valid = true;
	r.name_buf = malloc(JIT_NAME_MAX);
	if (!r.name_buf) {
		err = -ENOMEM;
		goto out;
	}
	err = read_records(&r);
	if (!err)
		err = build_maps(&r, s);
	if (!err && r.capped)
		pd__warn(&s->log,
			 "%s: more than %u code loads and moves: the rest is left out",
			 file, JIT_MAX_MAPS);
	else if (!err && r.damage)
		pd__warn(&s->log,
			 "%s: offset %#" PRIx64 ": %s: %zu code loads and moves used",
			 file, r.damage_off, r.damage, r.nr);
out:
	if (r.f)
		fclose(r.f);
	free(r.name_buf);
	free(r.recs);
	free(dir);
	return err;
}

PD_EXPORT struct pd_jitdump *pd_symbolizer__jitdump(struct pd_symbolizer *s,
						    const char *path)
{
	struct pd_jitdump *j;
	char file[4096];

	for (j = s->jitdumps; j; j = j->next)
		if (!strcmp(j->path, path))
			return j;
	j = calloc(1, sizeof(*j));
	if (!j || !(j->path = strdup(path))) {
		free(j);
		errno = ENOMEM;
		return NULL;
	}
	j->next = s->jitdumps;
	s->jitdumps = j;
	/* from an archive: its copy, never a local file */
	if (s->archive && !pd__archive_jitdump(s->archive, path)) {
		pd__warn(&s->log,
			 "%s: not in the archive: JIT frames stay as perf script names them without perf inject --jit (the perf map, or [unknown])",
			 path);
		return j;
	}
	if (s->archive)
		snprintf(file, sizeof(file), "%s",
			 pd__archive_jitdump(s->archive, path));
	else
		sym_join_symfs(s, file, sizeof(file), path);
	if (load(s, j, file)) {
		errno = ENOMEM;
		return NULL;
	}
	return j;
}

PD_EXPORT bool pd_jitdump__valid(const struct pd_jitdump *j)
{
	return j && j->valid;
}

PD_EXPORT size_t pd_jitdump__nr_maps(const struct pd_jitdump *j)
{
	return j ? j->nr_maps : 0;
}

PD_EXPORT const struct pd_jit_map *pd_jitdump__map(const struct pd_jitdump *j,
						   size_t i)
{
	return j && i < j->nr_maps ? &j->maps[i] : NULL;
}

void sym_jitdump__free(struct pd_jitdump *j)
{
	struct pd_jitdump *next;

	for (; j; j = next) {
		next = j->next;
		free(j->maps);
		free(j->path);
		pd_arena_free(&j->arena);
		free(j);
	}
}
