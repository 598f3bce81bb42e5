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

/*
 * The pcs whose register state perf's libunwind keeps in the cache of a
 * process's address space (perf's unwind__prepare_access() asks for
 * UNW_CACHE_GLOBAL): the last 128 pcs it stepped from with unwind
 * tables, in the order they came, the oldest making room for a new one
 * (libunwind 1.6's rs_new(): round robin, not least recently used). A pc
 * found there is stepped from without looking its tables up again.
 */
#define PD_RS_CACHE_SIZE	128	/* 1 << DWARF_DEFAULT_LOG_UNW_CACHE_SIZE */
#define PD_RS_HASH_SIZE		256

struct pd_rs_cache {
	uint64_t ip[PD_RS_CACHE_SIZE];	/* 0: a free slot */
	uint8_t next[PD_RS_CACHE_SIZE];	/* hash chains, UINT8_MAX ends */
	uint8_t hash[PD_RS_HASH_SIZE];
	uint8_t head;			/* the slot the next pc takes */
};

struct pd_maps {
	unsigned int refcnt;	/* threads of one process share their maps */
	unsigned int users;	/* of them the threads (not caches) */
	/*
	 * Changes with every change of any maps object (a process-wide
	 * counter): caches built from the maps (the unwinder's address
	 * spaces) know when they are stale.
	 */
	uint64_t gen;
	size_t nr, alloc;
	struct pd_map *v;
	/*
	 * What perf keeps per address space for its DWARF unwinding: whether
	 * it has an unwinder for the process at all (set by the session:
	 * unwind__prepare_access() registers one when a map of a file it
	 * opens as ELF comes, or the vdso, and never for a process with no
	 * such map), and its libunwind cache (NULL: empty), new for a new
	 * process and emptied when it execs (unwind__flush_access()).
	 */
	bool perf_unwinds;
	struct pd_rs_cache *rs_cache;
};

struct pd_maps *pd__maps_new(void);
/* Every map dropped, and libunwind's cache: a process gone. */
void pd__maps_clear(struct pd_maps *m);
struct pd_maps *pd__maps_get(struct pd_maps *m);
void pd__maps_put(struct pd_maps *m);
/*
 * A copy for a forked process: its maps, and not libunwind's cache (perf
 * makes a new address space; perf_unwinds is the session's to set).
 * NULL on ENOMEM.
 */
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

/*
 * Whether perf 6.1 gives maps a and b one DSO: the same path and, when
 * both records named their file, the same file (dso_id__cmp(): device,
 * inode and, when both have one, inode generation). An MMAP2 with a
 * build id carries that in the fields of the device and inode, so two
 * such maps are one DSO when their build ids are the same. A map of an
 * MMAP record, or of an MMAP2 with inode 0, names no file and matches
 * any (perf would give it the first of them it finds).
 */
bool pd__map_same_dso(const struct pd_map *a, const struct pd_map *b);

static inline unsigned int pd__rs_hash(uint64_t ip)
{
	return (unsigned int)((ip * 0x9e3779b97f4a7c15ULL) >> 56) &
	       (PD_RS_HASH_SIZE - 1);
}

/* libunwind's cache of m's process (struct pd_rs_cache): whether it has ip */
static inline bool pd__maps_rs_cached(const struct pd_maps *m, uint64_t ip)
{
	const struct pd_rs_cache *c = m->rs_cache;
	unsigned int i;

	if (!c || !ip)
		return false;
	for (i = c->hash[pd__rs_hash(ip)]; i != UINT8_MAX; i = c->next[i])
		if (c->ip[i] == ip)
			return true;
	return false;
}

/* ip into the cache, which must not have it: 0 or -ENOMEM */
int pd__maps_rs_add(struct pd_maps *m, uint64_t ip);
/* The cache emptied, as perf's unwind__flush_access() empties it. */
void pd__maps_rs_flush(struct pd_maps *m);

static inline uint64_t pd__map_ip(const struct pd_map *map, uint64_t ip)
{
	return map->identity ? ip : ip - map->start + map->pgoff;
}

#endif /* PD_SESSION_MAPS_H */
