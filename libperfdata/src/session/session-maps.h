/* SPDX-License-Identifier: MIT */
/*
 * Address-space maps of one process (or of the kernel): sorted,
 * non-overlapping ranges, each naming a file. A new map replaces what it
 * overlaps, keeping the parts of older maps on either side, as the
 * kernel's mmap does.
 */
#ifndef PD_SESSION_MAPS_H
#define PD_SESSION_MAPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pd_dso;

struct pd_map {
	uint64_t start, end;	/* [start, end) */
	uint64_t pgoff;
	const char *name;	/* interned: the DSO name perf prints */
	const char *path;	/* interned: the file to load, or NULL */
	const char *module_file;	/* interned: a kernel module's file as
					 * recorded, or NULL */
	const uint8_t *build_id;	/* interned, or NULL */
	uint8_t build_id_size;
	bool map_build_id;	/* build_id is the MMAP2 record's own */
	/* an MMAP2's file as the kernel saw it (has_inode) */
	bool has_inode;
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	bool identity;		/* map_ip is the address itself (anon, JIT,
				 * kernel) */
	bool perf_map;		/* symbols from /tmp/perf-PID.map */
	int32_t pid;		/* owner, for perf_map */
	struct pd_dso *dso;	/* resolved on first use */
	bool dso_looked_up;
};

struct pd_maps {
	unsigned int refcnt;	/* threads of one process share their maps */
	/*
	 * Changes with every change of any maps object (a process-wide
	 * counter): caches built from the maps (the unwinder's address
	 * spaces) know when they are stale.
	 */
	uint64_t gen;
	size_t nr, alloc;
	struct pd_map *v;
};

struct pd_maps *pd__maps_new(void);
struct pd_maps *pd__maps_get(struct pd_maps *m);
void pd__maps_put(struct pd_maps *m);
/* A copy for a forked process. NULL on ENOMEM. */
struct pd_maps *pd__maps_clone(const struct pd_maps *m);
/* 0 or -ENOMEM. */
int pd__maps_insert(struct pd_maps *m, const struct pd_map *map);
struct pd_map *pd__maps_find(struct pd_maps *m, uint64_t addr);
/* Drops the map holding addr, if any. */
void pd__maps_remove(struct pd_maps *m, uint64_t addr);
/*
 * Moves the maps named name to [lo, hi): one map like the first of them
 * (nothing when there is none), wider or narrower, in the parts of
 * [lo, hi) no other map holds. 0 or -ENOMEM.
 */
int pd__maps_set_range(struct pd_maps *m, const char *name, uint64_t lo,
		       uint64_t hi);

static inline uint64_t pd__map_ip(const struct pd_map *map, uint64_t ip)
{
	return map->identity ? ip : ip - map->start + map->pgoff;
}

#endif /* PD_SESSION_MAPS_H */
