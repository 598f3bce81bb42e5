// SPDX-License-Identifier: MIT
/*
 * A process's address space as libdwfl sees it (struct uw_space): the
 * mapped files reported to its Dwfl, lazily, as unwinding reaches them,
 * and whether what was reported still holds after later mmaps; and the
 * words of mapped files that a step reads outside the stack copy
 * (perf's access_dso_mem()). The lookups of the module at an address,
 * which every frame makes, are inline in unwind-space.h.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unwind-elf.h"
#include "unwind-space.h"

/*
 * The space emptied, for another process: its caches of rows and of
 * signal trampolines keep their memory, their entries dropped (a new
 * space allocated and zeroed them for each process, a large share of the
 * unwinding of thousands of short ones); pd__uw_space_free() frees them.
 */
void pd__uw_space_clear(struct uw_space *sp)
{
	struct pd_row_cache rows = sp->rows;
	struct uw_sig *sigs = sp->sigs;
	uint32_t epoch = sp->sigs_epoch;

	if (sp->dwfl)
		dwfl_end(sp->dwfl);
	pd__maps_put(sp->maps);
	free(sp->mods);
	memset(sp, 0, sizeof(*sp));
	pd__row_cache_clear(&rows);
	sp->rows = rows;
	sp->sigs = sigs;
	/* the answers kept are another epoch's */
	sp->sigs_epoch = epoch + 1;
}

void pd__uw_space_free(struct uw_space *sp)
{
	pd__uw_space_clear(sp);
	pd__row_cache_free(&sp->rows);
	free(sp->sigs);
	sp->sigs = NULL;
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/*
 * The file pd__uw_report_module() hands to libdwfl for the module it
 * reports, taken by the Dwfl's find_elf callback (unwind-dwfl.c) when it
 * is asked for the module's ELF, at once
 */
static __thread Elf *handing;

Elf *pd__uw_handed_elf(void)
{
	Elf *elf = handing;

	handing = NULL;
	return elf;
}

/*
 * Reports dso's file at load bias bias, by the reference to the file the
 * unwinder opened once (pd__uw_shared_elf()), where it has one; else as
 * before, by a descriptor libdwfl maps the file from again.
 */
static Dwfl_Module *report(struct uw_space *sp, struct pd_unwinder *u,
			   struct pd_map *map, struct pd_dso *dso,
			   uint64_t bias)
{
	Dwfl_Module *mod;
	Dwarf_Addr got;
	uint64_t lo, hi;
	int fd;

	dwfl_report_begin_add(sp->dwfl);
	handing = pd__uw_shared_elf(u, dso, &lo, &hi);
	if (handing) {
		mod = dwfl_report_module(sp->dwfl, map->name, bias + lo,
					 bias + hi);
		dwfl_report_end(sp->dwfl, NULL, NULL);
		/* (libdwfl asks for the file now, while it is handed) */
		/* (libdwfl's bias is the range's start less the first
		 * PT_LOAD's page: bias, as dwfl_report_elf() sets it) */
		if (mod && (!dwfl_module_getelf(mod, &got) || got != bias))
			mod = NULL;
		handing = NULL;
		return mod;
	}
	fd = open(dso->runtime, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		dwfl_report_end(sp->dwfl, NULL, NULL);
		return NULL;
	}
	/* libdwfl takes fd */
	mod = dwfl_report_elf(sp->dwfl, map->name, dso->runtime, fd, bias, true);
	dwfl_report_end(sp->dwfl, NULL, NULL);
	if (!mod)
		close(fd);
	return mod;
}

struct uw_mod *pd__uw_report_module(struct uw_ctx *c, struct pd_map *map,
				    uint64_t addr)
{
	struct uw_space *sp = c->sp;
	struct pd_unwinder *u = c->u;
	struct uw_mod *m;
	Dwfl_Module *mod;
	struct pd_dso *dso;
	uint64_t bias;
	Dwarf_Addr low, high;
	Elf *elf;
	size_t i;

	if (map->identity || !map->path)
		return NULL;
	dso = pd__session_map_dso(u->s, map);
	if (!dso || dso->kind != PD_DSO_ELF || !dso->runtime)
		return NULL;
	mod = dwfl_addrmodule(sp->dwfl, addr);
	if (mod) {
		m = mod_of(sp, mod);
		return m && m->dso == dso ? m : NULL;
	}
	if (sp->nr_mods == sp->cap_mods) {
		size_t cap = sp->cap_mods ? sp->cap_mods * 2 : 16;
		struct uw_mod *v = realloc(sp->mods, cap * sizeof(*v));

		if (!v)
			return NULL;
		sp->mods = v;
		sp->cap_mods = cap;
	}
	if (!pd__uw_dso_bias(u, c->a, dso, map, &bias))
		return NULL;
	mod = report(sp, u, map, dso, bias);
	if (!mod)
		return NULL;
	m = &sp->mods[sp->nr_mods];
	memset(m, 0, sizeof(*m));
	m->dso = dso;
	m->bias = bias;
	m->path = map->path;
	dwfl_module_info(mod, NULL, &low, &high, NULL, NULL, NULL, NULL);
	m->low = low;
	m->high = high;
	elf = dwfl_module_getelf(mod, &low);
	m->dw_bias = low;
	if (elf) {
		size_t size = 0;

		/*
		 * The file's bytes as the unwinder maps them once, not
		 * through the Dwfl's mapping, new in each process: reads
		 * of code (a signal trampoline's test at every frame)
		 * faulted its pages in again for every process
		 */
		if (!pd__uw_file_bytes(u, dso, &m->raw, &size))
			m->raw = (const uint8_t *)elf_rawfile(elf, &size);
		m->raw_size = m->raw ? size : 0;
		pd__uw_file_tables(u, dso, elf, m);
	}
	{
		void **userdata;

		dwfl_module_info(mod, &userdata, NULL, NULL, NULL, NULL, NULL,
				 NULL);
		*userdata = (void *)(uintptr_t)(sp->nr_mods + 1);
	}
	for (i = 0; i < sp->nr_mods; i++)
		if (max_u64(m->low, sp->mods[i].low) <
		    min_u64(m->high, sp->mods[i].high))
			sp->mods_overlap = true;
	sp->nr_mods++;
	pd__row_cache_clear(&sp->rows);
	sp->sigs_epoch++;
	if (addr < m->low || addr >= m->high || dwfl_addrmodule(sp->dwfl, addr) != mod)
		return NULL;
	return m;
}

/*
 * Whether what the space reported still describes maps: perf records no
 * munmap, so maps change by new mmaps only, and a module is stale once a
 * map of another file (or of the same file elsewhere) overlaps it.
 */
bool pd__uw_space_current(struct pd_unwinder *u, struct uw_space *sp)
{
	struct pd_maps *maps = sp->maps;
	size_t i, j;

	if (sp->gen == maps->gen)
		return true;
	for (i = 0; i < sp->nr_mods; i++) {
		const struct uw_mod *m = &sp->mods[i];

		for (j = 0; j < maps->nr; j++) {
			struct pd_map *map = &maps->v[j];
			struct pd_dso *dso;

			if (map->end <= m->low || map->start >= m->high)
				continue;
			/*
			 * No file: space_module() answers NULL for its
			 * addresses before asking the Dwfl, and frames there
			 * are never stepped by libdw, so the module stays
			 * good (a library's .bss map overlaps its module, and
			 * the maps' gen moves with every mmap anywhere).
			 */
			if (map->identity || !map->path)
				continue;
			dso = pd__session_map_dso(u->s, map);
			if (dso != m->dso)
				return false;
		}
	}
	sp->gen = maps->gen;
	return true;
}

/*
 * The file mapped at addr when libdwfl has another module there (the
 * gap case of struct uw_stray), with the map; else NULL.
 */
struct uw_stray *pd__uw_stray_at(struct uw_ctx *c, uint64_t addr,
				 struct pd_map **mapp)
{
	struct pd_map *map = pd__maps_find(c->sp->maps, addr);
	Dwfl_Module *mod;
	struct uw_mod *m;
	struct pd_dso *dso;

	if (!map || map->identity || !map->path)
		return NULL;
	dso = pd__session_map_dso(c->u->s, map);
	if (!dso || dso->kind != PD_DSO_ELF || !dso->runtime)
		return NULL;
	mod = dwfl_addrmodule(c->sp->dwfl, addr);
	m = mod ? mod_of(c->sp, mod) : NULL;
	if (!m || m->dso == dso)
		return NULL;
	*mapp = map;
	return pd__uw_stray_file(c->u, dso);
}

/*
 * perf's access_dso_mem(): a word of the file mapped at addr; 0, or -1
 * for an address with no map. One whose map has no readable file behind
 * it (the [stack] and [heap] maps perf records with --call-graph dwarf,
 * anonymous memory, offsets past the file's end) reads as 0 and returns
 * 1: access_dso_mem() returns 1, access_mem() passes it on and libunwind
 * takes anything not negative for success.
 */
int pd__uw_file_read(struct uw_ctx *c, uint64_t addr, uint64_t *val)
{
	struct pd_map *map = space_map(c->sp, addr);
	struct uw_mod *m;
	uint64_t off;

	const uint8_t *raw = NULL;
	size_t size = 0;

	if (!map)
		return -1;
	m = map_module(c, map, addr);
	off = addr - map->start + map->pgoff;
	if (m) {
		raw = m->raw;
		size = m->raw_size;
	} else {
		struct uw_stray *st = pd__uw_stray_at(c, addr, &map);

		raw = st ? st->raw : NULL;
		size = st ? st->raw_size : 0;
	}
	if (!raw || off > size || size - off < sizeof(*val)) {
		*val = 0;
		return 1;
	}
	memcpy(val, raw + off, sizeof(*val));
	return 0;
}
