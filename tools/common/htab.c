// SPDX-License-Identifier: MIT
/* See htab.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "htab.h"

int htab__init(struct htab *t, size_t payload_size, size_t nr_slots,
	       unsigned int max_load)
{
	memset(t, 0, sizeof(*t));
	t->slots = calloc(nr_slots, sizeof(*t->slots));
	if (!t->slots)
		return -ENOMEM;
	t->nr_slots = nr_slots;
	t->max_load = max_load;
	t->max_nr = nr_slots * max_load / 100;
	t->payload_size = (payload_size + 7) & ~(size_t)7;
	return 0;
}

void htab__release(struct htab *t)
{
	tool_arena__free(&t->arena);
	free(t->slots);
	memset(t, 0, sizeof(*t));
}

struct htab *htab__new(size_t payload_size, size_t nr_slots,
		       unsigned int max_load)
{
	struct htab *t = malloc(sizeof(*t));

	if (t && htab__init(t, payload_size, nr_slots, max_load)) {
		free(t);
		t = NULL;
	}
	return t;
}

void htab__free(struct htab *t)
{
	if (t)
		htab__release(t);
	free(t);
}

/* The slot where a new key of this hash goes: the first empty one. */
static struct htab_slot *empty_slot(struct htab_slot *slots, size_t nr_slots,
				    uint64_t hash)
{
	size_t mask = nr_slots - 1, i;

	for (i = hash & mask; slots[i].entry; i = (i + 1) & mask)
		;
	return &slots[i];
}

static int grow(struct htab *t)
{
	size_t n = t->nr_slots * 2, i;
	struct htab_slot *slots = calloc(n, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (i = 0; i < t->nr_slots; i++)
		if (t->slots[i].entry)
			*empty_slot(slots, n, t->slots[i].hash) = t->slots[i];
	free(t->slots);
	t->slots = slots;
	t->nr_slots = n;
	t->max_nr = n * t->max_load / 100;
	return 0;
}

struct htab_entry *htab__insert(struct htab *t, size_t i, uint64_t hash,
				const void *key, size_t len)
{
	struct htab_slot *s = &t->slots[i];
	struct htab_entry *e;

	if (t->nr >= t->max_nr) {
		if (grow(t))
			return NULL;
		s = empty_slot(t->slots, t->nr_slots, hash);
	}
	e = tool_arena__alloc(&t->arena, sizeof(*e) + t->payload_size + len);
	if (!e)
		return NULL;
	memset(e->payload, 0, t->payload_size);
	e->key = memcpy(e->payload + t->payload_size, key, len);
	e->len = len;
	s->hash = hash;
	s->entry = e;
	t->nr++;
	return e;
}

struct htab_entry *htab__next(const struct htab *t, size_t *pos)
{
	struct htab_entry *e;

	while (*pos < t->nr_slots) {
		e = t->slots[(*pos)++].entry;
		if (e)
			return e;
	}
	return NULL;
}
