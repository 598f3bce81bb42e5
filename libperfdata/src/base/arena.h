/* SPDX-License-Identifier: MIT */
/*
 * A grow-only allocator for data that lives as long as its owner (decoded
 * header features): many small objects, freed all at once, so parsers
 * need no per-object cleanup on their error paths.
 */
#ifndef PD_ARENA_H
#define PD_ARENA_H

#include <stddef.h>

struct pd_arena_chunk;

struct pd_arena {
	struct pd_arena_chunk *head;
	size_t bytes;		/* malloc'd for its chunks: what it holds */
};

/* Zeroed memory aligned for any type; NULL when out of memory. */
void *pd_arena_alloc(struct pd_arena *a, size_t size);
/* The same, not zeroed: for a buffer about to be filled (megabytes read
 * from a file, where zeroing costs as much as the reading). */
void *pd_arena_alloc_uninit(struct pd_arena *a, size_t size);
/* Zeroed array of nr elements; NULL on overflow or out of memory. */
void *pd_arena_array(struct pd_arena *a, size_t nr, size_t size);
void *pd_arena_memdup(struct pd_arena *a, const void *p, size_t size);
/* Copy of at most n bytes of s, cut at its first NUL, terminated. */
char *pd_arena_strndup(struct pd_arena *a, const char *s, size_t n);
void pd_arena_free(struct pd_arena *a);

#endif /* PD_ARENA_H */
