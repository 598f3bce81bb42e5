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

#include "common/htab.h"

struct intern_key {
	const void *p;		/* 8-byte aligned (common/htab.h) */
	size_t len;
};

/* A zeroed struct intern is an empty table. */
struct intern {
	struct htab numbers;		/* key -> its uint32_t number */
	struct intern_key *keys;	/* by number */
	size_t nr, alloc;
};

/*
 * The number of the key (len bytes at p), added if new (*added set
 * when not NULL). -1 when out of memory, or past UINT32_MAX - 2: the
 * exporters store the numbers in 32 bits.
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
