// SPDX-License-Identifier: MIT
/*
 * Open addressing with linear probing over entry pointers; entries and
 * key bytes live in the arena (common/arena.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "diff-table.h"

struct diff_table {
	struct diff_entry **slots;
	size_t nr_slots;	/* a power of two */
	size_t count;
	struct tool_arena arena;
};

struct diff_table *diff_table__new(void)
{
	struct diff_table *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->nr_slots = 1024;
	t->slots = calloc(t->nr_slots, sizeof(*t->slots));
	if (!t->slots) {
		free(t);
		return NULL;
	}
	return t;
}

void diff_table__free(struct diff_table *t)
{
	if (!t)
		return;
	tool_arena__free(&t->arena);
	free(t->slots);
	free(t);
}

static int grow(struct diff_table *t)
{
	size_t n = t->nr_slots * 2, i, j;
	struct diff_entry **slots = calloc(n, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (i = 0; i < t->nr_slots; i++) {
		struct diff_entry *e = t->slots[i];

		if (!e)
			continue;
		for (j = e->hash & (n - 1); slots[j]; j = (j + 1) & (n - 1))
			;
		slots[j] = e;
	}
	free(t->slots);
	t->slots = slots;
	t->nr_slots = n;
	return 0;
}

struct diff_entry *diff_table__get(struct diff_table *t, const char *key,
				   size_t len)
{
	uint64_t h = tool_hash_bytes(key, len);
	struct diff_entry *e;
	char *k;
	size_t i;

	for (i = h & (t->nr_slots - 1); (e = t->slots[i]);
	     i = (i + 1) & (t->nr_slots - 1)) {
		if (e->hash == h && e->len == len && !memcmp(e->key, key, len))
			return e;
	}
	/* at most half full, so that probes stay short */
	if ((t->count + 1) * 2 > t->nr_slots) {
		if (grow(t) < 0) {
			errno = ENOMEM;
			return NULL;
		}
		for (i = h & (t->nr_slots - 1); t->slots[i];
		     i = (i + 1) & (t->nr_slots - 1))
			;
	}
	e = tool_arena__alloc(&t->arena, sizeof(*e));
	k = len ? tool_arena__alloc(&t->arena, len) : (char *)"";
	if (!e || !k) {
		errno = ENOMEM;
		return NULL;
	}
	memset(e, 0, sizeof(*e));
	memcpy(k, key, len);
	e->key = k;
	e->len = len;
	e->hash = h;
	t->slots[i] = e;
	t->count++;
	return e;
}

size_t diff_table__count(const struct diff_table *t)
{
	return t->count;
}

struct diff_entry **diff_table__entries(const struct diff_table *t)
{
	struct diff_entry **v;
	size_t i, n = 0;

	if (!t->count)
		return NULL;
	v = malloc(t->count * sizeof(*v));
	if (!v)
		return NULL;
	for (i = 0; i < t->nr_slots; i++)
		if (t->slots[i])
			v[n++] = t->slots[i];
	return v;
}
