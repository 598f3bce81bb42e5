/* SPDX-License-Identifier: MIT */
/*
 * unwind-space.c: a process's address space and the files reported to
 * it, and the module at an address, asked for every frame and many reads
 * (inline).
 */
#ifndef PD_UNWIND_SPACE_H
#define PD_UNWIND_SPACE_H

#include "unwind-state.h"

void pd__uw_space_clear(struct uw_space *sp);
/* the file handed to libdwfl for the module being reported, or NULL */
Elf *pd__uw_handed_elf(void);
void pd__uw_space_free(struct uw_space *sp);
bool pd__uw_space_current(struct pd_unwinder *u, struct uw_space *sp);
struct uw_mod *pd__uw_report_module(struct uw_ctx *c, struct pd_map *map,
				    uint64_t addr);
struct uw_stray *pd__uw_stray_at(struct uw_ctx *c, uint64_t addr,
				 struct pd_map **mapp);
int pd__uw_file_read(struct uw_ctx *c, uint64_t addr, uint64_t *val);

/*
 * The module at an address, asked for every frame and many reads: kept
 * inline, as they were in one file with their callers.
 */
static inline struct uw_mod *mod_of(struct uw_space *sp, Dwfl_Module *mod)
{
	void **userdata;

	if (!dwfl_module_info(mod, &userdata, NULL, NULL, NULL, NULL, NULL,
			      NULL))
		return NULL;
	/* an index + 1 into sp->mods: the array moves as it grows */
	return *userdata ? &sp->mods[(uintptr_t)*userdata - 1] : NULL;
}

/* The map holding addr, or NULL. */
static inline struct pd_map *space_map(struct uw_space *sp, uint64_t addr)
{
	struct pd_map *map = sp->hot_map;

	if (map && sp->hot_gen == sp->maps->gen && addr >= map->start &&
	    addr < map->end)
		return map;
	map = pd__maps_find(sp->maps, addr);
	if (map) {
		sp->hot_map = map;
		sp->hot_gen = sp->maps->gen;
		sp->hot_mod = -1;
	}
	return map;
}

/*
 * map_module()'s answer again, for addr in the hot map: the module it
 * found there last, when no module was reported since and none overlaps
 * another (then the Dwfl finds that one for every address in its range).
 */
static inline struct uw_mod *hot_module(struct uw_space *sp,
					struct pd_map *map, uint64_t addr)
{
	struct uw_mod *m;

	if (map != sp->hot_map || sp->hot_gen != sp->maps->gen ||
	    sp->hot_mod < 0 || sp->hot_nr_mods != sp->nr_mods ||
	    sp->mods_overlap)
		return NULL;
	m = &sp->mods[sp->hot_mod];
	return addr >= m->low && addr < m->high ? m : NULL;
}

/*
 * The reported file holding addr (in map), reported now if needed; NULL
 * when the map has no file, or the file no usable ELF image.
 */
static inline struct uw_mod *map_module(struct uw_ctx *c,
					struct pd_map *map, uint64_t addr)
{
	struct uw_mod *m = hot_module(c->sp, map, addr);

	if (m)
		return m;
	m = pd__uw_report_module(c, map, addr);
	if (m && map == c->sp->hot_map && c->sp->hot_gen == c->sp->maps->gen) {
		c->sp->hot_mod = m - c->sp->mods;
		c->sp->hot_nr_mods = c->sp->nr_mods;
	}
	return m;
}

/* As map_module(), for the map holding addr; NULL too without one. */
static inline struct uw_mod *space_module(struct uw_ctx *c, uint64_t addr)
{
	struct pd_map *map = space_map(c->sp, addr);

	return map ? map_module(c, map, addr) : NULL;
}

#endif /* PD_UNWIND_SPACE_H */
