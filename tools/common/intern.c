// SPDX-License-Identifier: MIT
/* See intern.h: open addressing, the table kept at most half full. */
#include <stdlib.h>
#include <string.h>

#include "intern.h"

static int grow(struct intern *t)
{
	size_t n = t->nr_slots ? t->nr_slots * 2 : 256, i, j;
	uint32_t *slots = calloc(n, sizeof(*slots));
	uint64_t *hashes = calloc(n, sizeof(*hashes));

	if (!slots || !hashes) {
		free(slots);
		free(hashes);
		return -1;
	}
	for (i = 0; i < t->nr_slots; i++) {
		if (!t->slots[i])
			continue;
		for (j = t->hashes[i] & (n - 1); slots[j]; j = (j + 1) & (n - 1))
			;
		slots[j] = t->slots[i];
		hashes[j] = t->hashes[i];
	}
	free(t->slots);
	free(t->hashes);
	t->slots = slots;
	t->hashes = hashes;
	t->nr_slots = n;
	return 0;
}

int64_t intern__add(struct intern *t, const void *p, size_t len, int *added)
{
	uint64_t h = tool_hash_bytes(p, len);
	struct intern_key *k;
	size_t i;

	if (added)
		*added = 0;
	if ((t->nr + 1) * 2 > t->nr_slots && grow(t))
		return -1;
	for (i = h & (t->nr_slots - 1); t->slots[i]; i = (i + 1) & (t->nr_slots - 1)) {
		k = &t->keys[t->slots[i] - 1];
		if (t->hashes[i] == h && k->len == len && !memcmp(k->p, p, len))
			return t->slots[i] - 1;
	}
	if (t->nr == t->alloc) {
		size_t n = t->alloc ? t->alloc * 2 : 256;

		k = realloc(t->keys, n * sizeof(*k));
		if (!k)
			return -1;
		t->keys = k;
		t->alloc = n;
	}
	if (t->nr >= UINT32_MAX - 1)
		return -1;
	k = &t->keys[t->nr];
	k->p = tool_arena__copy(&t->arena, p, len);
	if (!k->p)
		return -1;
	k->len = len;
	t->slots[i] = (uint32_t)++t->nr;
	t->hashes[i] = h;
	if (added)
		*added = 1;
	return t->nr - 1;
}

int64_t intern__str(struct intern *t, const char *s)
{
	return intern__add(t, s, strlen(s), NULL);
}

void intern__free(struct intern *t)
{
	tool_arena__free(&t->arena);
	free(t->keys);
	free(t->slots);
	free(t->hashes);
	memset(t, 0, sizeof(*t));
}
