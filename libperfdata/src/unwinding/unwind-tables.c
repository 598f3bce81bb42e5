// SPDX-License-Identifier: MIT
/*
 * What unwinding asks of a frame's pc before stepping from it: its CFI
 * row as libdw finds it (kept per space and per file, unwind-row.c),
 * whether perf's libunwind would find its file's unwind tables at all,
 * and whether its code is a signal trampoline (kept per space). Each
 * question is asked of every frame, so each answer is cached.
 */
#include <stdlib.h>
#include <string.h>

#include "unwind-dwfl.h"
#include "unwind-elf.h"
#include "unwind-space.h"
#include "unwind-tables.h"

/* libunwind's unw_is_signal_frame(): the code at pc is sigreturn */
bool pd__uw_is_sigreturn(struct uw_ctx *c, uint64_t pc)
{
	const struct pd_unwind_arch *a = c->a;
	uint8_t code[16];
	size_t i;

	if (!a->sigreturn_len || a->sigreturn_len > sizeof(code))
		return false;
	for (i = 0; i < a->sigreturn_len; i += 8) {
		Dwarf_Word w;

		if (!pd__uw_memory_read(NULL, pc + i, &w, c->sp))
			return false;
		memcpy(code + i, &w, sizeof(w));
	}
	return !memcmp(code, a->sigreturn, a->sigreturn_len);
}

/*
 * Whether reads of [addr, addr + len) go to the mapped files whatever
 * the sample's stack copy: below the stack pointer, or above what the
 * copy and its slack (perf_access_mem()) can reach.
 */
static bool reads_files_only(const struct uw_ctx *c, uint64_t addr,
			     uint64_t len)
{
	uint64_t top = c->stack_lo + STACK_SLACK;

	if (addr + len < addr)
		return false;
	if (addr + len <= c->stack_lo)
		return true;
	return top > c->stack_lo && c->stack_hi <= top && addr >= top;
}

/*
 * pd__uw_is_sigreturn() for a frame, from the space's cache when the answer
 * cannot depend on the sample: its reads, their failure included
 * (c->read_failed), are the same while maps and reported files are.
 */
bool pd__uw_frame_is_sigreturn(struct uw_ctx *c, uint64_t pc)
{
	struct uw_space *sp = c->sp;
	struct uw_sig *e;
	bool failed = c->read_failed, ret;

	if (!reads_files_only(c, pc, 16))
		return pd__uw_is_sigreturn(c, pc);
	if (!sp->sigs) {
		sp->sigs = calloc(UW_SIGS, sizeof(*sp->sigs));
		if (!sp->sigs)
			return pd__uw_is_sigreturn(c, pc);
		sp->sigs_gen = sp->maps->gen;
	}
	if (sp->sigs_gen != sp->maps->gen) {
		sp->sigs_epoch++;
		sp->sigs_gen = sp->maps->gen;
	}
	e = &sp->sigs[((pc * 0x9e3779b97f4a7c15ULL) >> 32) % UW_SIGS];
	if (e->state && e->pc == pc && e->epoch == sp->sigs_epoch) {
		if (e->state == UW_SIG_FAILED)
			c->read_failed = true;
		return e->state == UW_SIG_YES;
	}
	c->read_failed = false;
	ret = pd__uw_is_sigreturn(c, pc);
	/* the answer as the files now reported give it */
	e->pc = pc;
	e->epoch = sp->sigs_epoch;
	e->state = c->read_failed ? UW_SIG_FAILED : ret ? UW_SIG_YES : UW_SIG_NO;
	c->read_failed = c->read_failed || failed;
	return ret;
}

/*
 * Whether [addr, addr + size) reads as the file's bytes from file offset
 * off on: through maps of the same DSO as map (perf's access_dso_mem()
 * reads the DSO of the map holding an address) at their own offsets.
 */
static bool reads_file(struct pd_maps *maps, const struct pd_map *map,
		       uint64_t addr, uint64_t size, uint64_t off)
{
	uint64_t end = addr + size;

	while (addr < end) {
		const struct pd_map *mp = pd__maps_find(maps, addr);

		if (!mp || !pd__map_same_dso(mp, map) ||
		    mp->start - mp->pgoff != addr - off)
			return false;
		off += mp->end - addr;
		addr = mp->end;
	}
	return true;
}

/*
 * Where perf thinks the file of module m is, looking up a pc in map
 * (read_unwind_spec_eh_frame(), perf 6.1.91 and later): the start less
 * the offset of the lowest map of the same DSO in the process, less
 * elf_base_address(). perf keeps the maps of a process's previous image
 * across exec, so a file the old image mapped lower (libc, ld.so after a
 * fork and exec) gets a wrong base; one whose first maps were lost, or a
 * container's copy of a host file mapped before exec (another DSO:
 * another inode) does not. Worked out once per map and maps' gen.
 */
static void perf_view(struct uw_space *sp, struct uw_mod *m,
		      const struct pd_map *map)
{
	struct pd_maps *maps = sp->maps;
	const struct pd_map *low = map;
	size_t i;

	if (m->perf_map == map && m->perf_gen == maps->gen)
		return;
	/* the maps are sorted: the first of the DSO is the lowest */
	for (i = 0; i < maps->nr; i++) {
		if (maps->v[i].path == map->path &&
		    pd__map_same_dso(&maps->v[i], map)) {
			low = &maps->v[i];
			break;
		}
	}
	m->perf_base = low->start - low->pgoff - m->elf_base;
	m->perf_right = m->perf_base == m->bias &&
			reads_file(maps, map, m->bias + m->eh.addr, m->eh.size,
				   m->eh.off) &&
			reads_file(maps, map, m->bias + m->eh.ehf_addr,
				   m->eh.ehf_size, m->eh.ehf_off);
	m->perf_map = map;
	m->perf_gen = maps->gen;
}

/*
 * Bytes as libunwind reads them from another address space (dwarf_i.h,
 * remote): each from the aligned word that holds it, through perf's
 * access_mem(); a word outside the stack copy and every map fails.
 */
struct lu_mem {
	struct uw_ctx *c;
	const struct pd_map *map;	/* the frame's, of the file whose
					 * tables are read */
	const uint8_t *raw;	/* ... the file's bytes */
	size_t raw_size;
	const struct pd_map *last;	/* the map of the last word read */
	uint64_t word_addr;
	uint64_t word;
	int ret;
	bool have;
	bool stack;		/* a word came from the sample's stack copy */
};

/*
 * perf's access_mem() of a word: outside the stack copy, a map of the
 * same DSO as the frame's reads the module's own file (no other module
 * reported for a stale map of it); others as any read.
 */
static int lu_word(struct lu_mem *mem, uint64_t a, uint64_t *val)
{
	struct uw_ctx *c = mem->c;
	const struct pd_map *mp;
	uint64_t off;

	if (a >= c->stack_lo && a < c->stack_hi) {
		mem->stack = true;
		return perf_access_mem(c, a, val);
	}
	mp = mem->last;
	if (!mp || a < mp->start || a >= mp->end) {
		mp = a + 8 > a ? pd__maps_find(c->sp->maps, a) : NULL;
		if (!mp || !mem->raw || !pd__map_same_dso(mp, mem->map))
			return perf_access_mem(c, a, val);
		mem->last = mp;
	}
	if (a + 8 > mp->end)
		return perf_access_mem(c, a, val);
	off = a - mp->start + mp->pgoff;
	*val = 0;
	if (off > mem->raw_size || mem->raw_size - off < 8)
		return 1;	/* past the file: 0, as access_dso_mem() */
	memcpy(val, mem->raw + off, sizeof(*val));
	return 0;
}

static int lu_u8(struct lu_mem *mem, uint64_t *addr, uint8_t *val)
{
	uint64_t a = *addr & ~7ULL;
	unsigned int shift = (unsigned int)(*addr & 7) * 8;

	(*addr)++;
	if (!mem->have || mem->word_addr != a) {
		mem->ret = lu_word(mem, a, &mem->word);
		mem->word_addr = a;
		mem->have = true;
	}
	*val = (uint8_t)(mem->word >> shift);
	return mem->ret < 0 ? -1 : 0;
}

/* n bytes, little-endian (x86_64 and aarch64), as dwarf_readu16/32/64() */
static int lu_read(struct lu_mem *mem, uint64_t *addr, unsigned int n,
		   uint64_t *val)
{
	unsigned int i, k = (unsigned int)(*addr & 7);
	uint8_t b;

	/* (within one word: its bytes at once) */
	if (k + n <= 8 && n < 8) {
		if (lu_u8(mem, addr, &b) < 0)
			return -1;
		*val = (mem->word >> (8 * k)) & ((1ULL << (8 * n)) - 1);
		*addr += n - 1;
		return 0;
	}
	*val = 0;
	for (i = 0; i < n; i++) {
		if (lu_u8(mem, addr, &b) < 0)
			return -1;
		*val |= (uint64_t)b << (8 * i);
	}
	return 0;
}

/*
 * libunwind's lookup of the frame at 'at' in the search table perf
 * points it to (dwarf_search_unwind_table(), remote_lookup() and the
 * start of dwarf_extract_proc_info_from_fde() and parse_cie(), libunwind
 * 1.6), the table read at perf's base: the binary search by the entries'
 * 32-bit starts relative to the table's segment base, the entry found,
 * then the FDE it points to and that FDE's CIE, up to the CIE's
 * version. Any read outside the stack copy and every map fails the step
 * (UW_LOOKUP_FAIL), and so do a CIE id or version libunwind refuses; an
 * empty table, an FDE of length 0 or a CIE where an FDE should be mean
 * no entry. The rest of the CIE and of the FDE is not read here: at the
 * file's own place libdw's FDE for 'at' is the answer, elsewhere the
 * entry found describes code elsewhere (-UNW_ENOINFO).
 */
static enum uw_lookup_res lookup_read(struct uw_ctx *c, struct uw_mod *m,
				      const struct pd_map *map, uint64_t at,
				      bool *volatile_read)
{
	struct lu_mem mem = { .c = c, .map = map, .raw = m->raw,
			      .raw_size = m->raw_size };
	const uint8_t *raw;
	size_t raw_size;
	uint64_t segbase = m->perf_base + m->eh.addr;
	uint64_t table = segbase + m->eh.table_off;
	uint64_t n = m->eh.fde_count & (UINT64_MAX >> 3);
	int32_t rel = (int32_t)(at - segbase);
	uint64_t lo = 0, hi = n, mid, addr, v, len, cie;
	int64_t cie_off;
	enum uw_lookup_res res = UW_LOOKUP_FAIL;

	/* (the file's bytes mapped once, not each report's mapping) */
	if (m->dso && pd__uw_file_bytes(c->u, m->dso, &raw, &raw_size)) {
		mem.raw = raw;
		mem.raw_size = raw_size;
	}
	while (lo < hi) {
		mid = (lo + hi) / 2;
		addr = table + mid * 8;
		if (lu_read(&mem, &addr, 4, &v) < 0)
			goto out;
		if (rel < (int32_t)v)
			hi = mid;
		else
			lo = mid + 1;
	}
	res = UW_LOOKUP_NONE;
	if (!hi)
		goto out;
	res = UW_LOOKUP_FAIL;
	/* the entry's start and FDE offset, and the next entry's start */
	addr = table + (hi - 1) * 8;
	if (lu_read(&mem, &addr, 4, &len) < 0 ||
	    lu_read(&mem, &addr, 4, &v) < 0 ||
	    (hi < n && lu_read(&mem, &addr, 4, &len) < 0))
		goto out;
	/* the FDE: its length, then its CIE pointer, relative to itself */
	addr = segbase + (uint64_t)(int64_t)(int32_t)v;
	if (lu_read(&mem, &addr, 4, &len) < 0)
		goto out;
	res = UW_LOOKUP_NONE;
	if (!len)
		goto out;
	res = UW_LOOKUP_FAIL;
	if (len == 0xffffffff) {
		if (lu_read(&mem, &addr, 8, &len) < 0)
			goto out;
		cie = addr;
		if (lu_read(&mem, &addr, 8, &v) < 0)
			goto out;
		cie_off = (int64_t)v;
	} else {
		cie = addr;
		if (lu_read(&mem, &addr, 4, &v) < 0)
			goto out;
		cie_off = (int32_t)v;
	}
	res = UW_LOOKUP_NONE;
	if (!cie_off)
		goto out;
	res = UW_LOOKUP_FAIL;
	/* the CIE: length, id 0 (.eh_frame's), version 1, 3 or 4 */
	addr = cie - (uint64_t)cie_off;
	if (lu_read(&mem, &addr, 4, &len) < 0)
		goto out;
	if (len == 0xffffffff) {
		if (lu_read(&mem, &addr, 8, &len) < 0 ||
		    lu_read(&mem, &addr, 8, &v) < 0)
			goto out;
	} else if (lu_read(&mem, &addr, 4, &v) < 0) {
		goto out;
	}
	if (v || lu_read(&mem, &addr, 1, &v) < 0 ||
	    (v != 1 && v != 3 && v != 4))
		goto out;
	res = m->perf_base == m->bias && has_fde(c->u, c->sp, at) ?
	      UW_LOOKUP_FOUND : UW_LOOKUP_NONE;
out:
	*volatile_read = mem.stack;
	return res;
}

/*
 * What perf's libunwind finds for the frame at 'at' in module m (its
 * find_proc_info() and dwarf_search_unwind_table()): the file's entry
 * for it, no entry (-UNW_ENOINFO: libunwind then guesses the caller
 * from the frame pointer), or a failure that ends the chain (a read of
 * the tables outside the stack copy and every map). Where perf reads
 * the tables at the file's own place, in maps of it, libdw's FDE lookup
 * answers; elsewhere (a wrong base, the file's maps lost or another
 * file mapped over them) the lookup is read as libunwind reads it, and
 * its answer kept by pc and maps.
 */
enum uw_lookup_res pd__uw_perf_lookup(struct uw_ctx *c, struct uw_mod *m,
				      uint64_t at)
{
	struct uw_space *sp = c->sp;
	struct pd_map *map = space_map(sp, at);
	struct uw_lookup *e;
	enum uw_lookup_res res;
	bool read_failed, read_beyond, vol = false;

	/* .debug_frame only (read with its own tables), or no map */
	if (!m->eh.present || !map)
		return has_fde(c->u, sp, at) ? UW_LOOKUP_FOUND : UW_LOOKUP_NONE;
	if (m->eh.bad)
		return UW_LOOKUP_FAIL;
	perf_view(sp, m, map);
	if (m->perf_right)
		return has_fde(c->u, sp, at) ? UW_LOOKUP_FOUND : UW_LOOKUP_NONE;
	if (!c->u->lookups)
		c->u->lookups = calloc(UW_LOOKUPS, sizeof(*c->u->lookups));
	e = c->u->lookups ?
	    &c->u->lookups[((at ^ sp->maps->gen) * 0x9e3779b97f4a7c15ULL >> 32) %
			   UW_LOOKUPS] : NULL;
	if (e && e->res && e->at == at && e->gen == sp->maps->gen)
		return (enum uw_lookup_res)(e->res - 1);
	/* the lookup's reads are not the step's */
	read_failed = c->read_failed;
	read_beyond = c->read_beyond;
	res = lookup_read(c, m, map, at, &vol);
	c->read_failed = read_failed;
	c->read_beyond = read_beyond;
	/* (not one read from the sample's stack copy) */
	if (e && !vol) {
		e->at = at;
		e->gen = sp->maps->gen;
		e->res = (uint8_t)(res + 1);
	}
	return res;
}

/* The call frame information for addr (libunwind's lookup), or NULL */
Dwarf_Frame *pd__uw_cfi_frame(struct uw_space *sp, uint64_t addr)
{
	Dwfl_Module *mod = dwfl_addrmodule(sp->dwfl, addr);
	Dwarf_Frame *frame;
	Dwarf_CFI *cfi;
	Dwarf_Addr bias;

	if (!mod)
		return NULL;
	cfi = dwfl_module_eh_cfi(mod, &bias);
	if (cfi && !dwarf_cfi_addrframe(cfi, addr - bias, &frame))
		return frame;
	cfi = dwfl_module_dwarf_cfi(mod, &bias);
	if (cfi && !dwarf_cfi_addrframe(cfi, addr - bias, &frame))
		return frame;
	return NULL;
}

/*
 * The CFI row at addr as libdw finds it (the module it has there), from
 * the space's cache, the file's, or libdw (then kept in both); in *tmp
 * when there is no memory for them.
 */
const struct pd_row *pd__uw_space_row(struct pd_unwinder *u,
				      struct uw_space *sp, uint64_t addr,
				      struct pd_row *tmp)
{
	const struct pd_unwind_arch *a = sp->arch->a;
	struct pd_row *row = pd__row_slot(&sp->rows, UW_ROWS, NULL, addr);
	struct pd_row *fr = NULL;
	Dwfl_Module *mod;
	Dwarf_Frame *frame;
	struct uw_mod *m;
	uint64_t rel = 0;

	if (row && row->state != PD_ROW_EMPTY && row->addr == addr)
		return row;
	if (!row)
		row = tmp;
	mod = dwfl_addrmodule(sp->dwfl, addr);
	m = mod ? mod_of(sp, mod) : NULL;
	if (m && m->dso) {
		rel = addr - m->dw_bias;
		fr = pd__row_slot(&u->file_rows, UW_FILE_ROWS, m->dso, rel);
		if (fr && fr->state != PD_ROW_EMPTY && fr->file == m->dso &&
		    fr->addr == rel) {
			*row = *fr;
			goto out;
		}
	}
	frame = pd__uw_cfi_frame(sp, addr);
	pd__row_parse(frame, a->cfi_rows ? a->nr_dwarf : 0, a->dwarf_ra, row);
	free(frame);
	if (fr) {
		*fr = *row;
		fr->file = m->dso;
		fr->addr = rel;
		fr->gen = u->file_rows.gen;
	}
out:
	row->file = NULL;
	row->addr = addr;
	row->gen = sp->rows.gen;
	return row;
}
