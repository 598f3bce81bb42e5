/* SPDX-License-Identifier: MIT */
/*
 * The tools' hash table: byte-string keys (any bytes, with a length) ->
 * a fixed-size payload; pd-fold's stacks, pd-diff's stacks and functions
 * and the exporters' interned keys. An entry, its payload and a copy of
 * its key are allocated together in the table's arena, once, when the
 * key is first seen: memory grows with the number of distinct keys, a
 * lookup of a known key allocates nothing, and an entry never moves (a
 * pointer to it stays valid as the table grows).
 *
 * Open addressing with linear probing. Each slot keeps its key's full
 * hash, so a probe reads an entry, and compares key bytes, only when the
 * hashes are equal.
 */
#ifndef PD_TOOLS_COMMON_HTAB_H
#define PD_TOOLS_COMMON_HTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common/arena.h"

struct htab_entry {
	/*
	 * len bytes, not NUL-terminated, 8-byte aligned: a key made of
	 * integers (the exporters' ids) can be read in place.
	 */
	const void *key;
	size_t len;
	/* zeroed when the entry is added; aligned for any scalar type */
	_Alignas(16) unsigned char payload[];
};

struct htab_slot {
	uint64_t hash;			/* tool_hash_bytes(key) */
	struct htab_entry *entry;	/* NULL: an empty slot */
};

struct htab {
	struct htab_slot *slots;
	size_t nr_slots;	/* a power of two; 0 before htab__init() */
	size_t nr;		/* entries */
	size_t max_nr;		/* the most entries before the slots double */
	unsigned int max_load;	/* percent */
	size_t payload_size;	/* rounded up to keep the keys aligned */
	struct tool_arena arena;
};

/*
 * An empty table of nr_slots (a power of two) at first, whose slots
 * double before an entry would take it past max_load percent full (below
 * 100: a lower load makes shorter probe runs, a higher one fewer slots
 * for the cache to hold). 0 or -ENOMEM.
 */
int htab__init(struct htab *t, size_t payload_size, size_t nr_slots,
	       unsigned int max_load);
void htab__release(struct htab *t);

/* The same on the heap: NULL when out of memory; htab__free(NULL) is fine. */
struct htab *htab__new(size_t payload_size, size_t nr_slots,
		       unsigned int max_load);
void htab__free(struct htab *t);

/* htab__get()'s insertion of a new key, whose probe ended at slot i. */
struct htab_entry *htab__insert(struct htab *t, size_t i, uint64_t hash,
				const void *key, size_t len);

/*
 * The entry of key (len bytes), added if new; *added (when not NULL)
 * says whether it was. NULL when out of memory, the table unchanged.
 * Inline: pd-fold looks a stack up for every sample, and most lookups
 * find the stack there.
 */
static inline struct htab_entry *htab__get(struct htab *t, const void *key,
					   size_t len, bool *added)
{
	uint64_t hash = tool_hash_bytes(key, len);
	size_t mask = t->nr_slots - 1, i;
	struct htab_entry *e;

	for (i = hash & mask; (e = t->slots[i].entry); i = (i + 1) & mask) {
		if (t->slots[i].hash == hash && e->len == len &&
		    !memcmp(e->key, key, len)) {
			if (added)
				*added = false;
			return e;
		}
	}
	e = htab__insert(t, i, hash, key, len);
	if (added)
		*added = e != NULL;
	return e;
}

/*
 * Iteration in slot order, which depends on the keys' hashes and on the
 * order they were added in, but is the same on every run:
 *
 *	size_t pos = 0;
 *	while ((e = htab__next(t, &pos)))
 */
struct htab_entry *htab__next(const struct htab *t, size_t *pos);

static inline void *htab_entry__payload(struct htab_entry *e)
{
	return e->payload;
}

#endif /* PD_TOOLS_COMMON_HTAB_H */
