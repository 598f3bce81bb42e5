/* SPDX-License-Identifier: MIT */
/*
 * Byte strings numbered in order of first appearance: the exporters'
 * string tables, frames, locations, mappings and distinct stacks. Each
 * key is copied once into an arena, so memory grows with the number of
 * distinct keys, never with the number of lookups.
 */
#ifndef PD_TOOLS_INTERN_H
#define PD_TOOLS_INTERN_H

#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"

struct intern_key {
	const void *p;
	size_t len;
};

struct intern {
	struct tool_arena arena;
	struct intern_key *keys;	/* by number */
	size_t nr, alloc;
	uint32_t *slots;		/* number + 1; 0: empty */
	uint64_t *hashes;
	size_t nr_slots;
};

/*
 * The number of the key (len bytes at p), added if new (*added set
 * when not NULL). -1 when out of memory.
 */
int64_t intern__add(struct intern *t, const void *p, size_t len, int *added);
/* The same for a NUL-terminated string (its NUL not part of the key). */
int64_t intern__str(struct intern *t, const char *s);
static inline const struct intern_key *intern__key(const struct intern *t,
						   size_t i)
{
	return &t->keys[i];
}
void intern__free(struct intern *t);

#endif /* PD_TOOLS_INTERN_H */
