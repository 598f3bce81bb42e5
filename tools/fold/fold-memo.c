// SPDX-License-Identifier: MIT
/*
 * Open addressing with linear probing; entries and names live in the
 * arena. See fold-memo.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "fold-memo.h"

struct slot {
	uint64_t hash;		/* 0: empty */
	struct fold_memo_key key;
	struct fold_memo_entry e;
};

struct fold_memo {
	struct slot *slots;
	size_t mask;
	size_t used;
	struct tool_arena arena;
};

struct fold_memo *fold_memo__new(void)
{
	struct fold_memo *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->mask = 1024 - 1;
	m->slots = calloc(m->mask + 1, sizeof(*m->slots));
	if (!m->slots) {
		free(m);
		return NULL;
	}
	return m;
}

void fold_memo__free(struct fold_memo *m)
{
	if (!m)
		return;
	tool_arena__free(&m->arena);
	free(m->slots);
	free(m);
}

static uint64_t key_hash(const struct fold_memo_key *k)
{
	uint64_t h = (uintptr_t)k->a * 0x9e3779b97f4a7c15ull;

	h = (h ^ (h >> 29) ^ (uintptr_t)k->b) * 0xbf58476d1ce4e5b9ull;
	h = (h ^ (h >> 32) ^ (uintptr_t)k->c) * 0x94d049bb133111ebull;
	h = (h ^ (h >> 29) ^ k->flags) * 0x9e3779b97f4a7c15ull;
	h ^= h >> 32;
	return h ? h : 1;
}

static bool key_eq(const struct fold_memo_key *x, const struct fold_memo_key *y)
{
	return x->a == y->a && x->b == y->b && x->c == y->c &&
	       x->flags == y->flags;
}

const struct fold_memo_entry *fold_memo__find(const struct fold_memo *m,
					      const struct fold_memo_key *k)
{
	uint64_t h = key_hash(k);
	size_t i;

	for (i = h & m->mask; m->slots[i].hash; i = (i + 1) & m->mask)
		if (m->slots[i].hash == h && key_eq(&m->slots[i].key, k))
			return &m->slots[i].e;
	return NULL;
}

static int grow(struct fold_memo *m)
{
	size_t n = (m->mask + 1) * 2, i, j;
	struct slot *slots = calloc(n, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (i = 0; i <= m->mask; i++) {
		if (!m->slots[i].hash)
			continue;
		for (j = m->slots[i].hash & (n - 1); slots[j].hash; j = (j + 1) & (n - 1))
			;
		slots[j] = m->slots[i];
	}
	free(m->slots);
	m->slots = slots;
	m->mask = n - 1;
	return 0;
}

int fold_memo__store(struct fold_memo *m, const struct fold_memo_key *k,
		     const char *text, const struct fold_span *spans,
		     size_t nr)
{
	uint64_t h = key_hash(k);
	struct fold_memo_entry e = { .nr = nr };
	size_t i;

	if (nr) {
		e.names = tool_arena__alloc(&m->arena, nr * sizeof(*e.names));
		e.lens = tool_arena__alloc(&m->arena, nr * sizeof(*e.lens));
		if (!e.names || !e.lens)
			return -ENOMEM;
	}
	for (i = 0; i < nr; i++) {
		e.names[i] = tool_arena__copy(&m->arena, text + spans[i].off,
					      spans[i].len);
		if (!e.names[i])
			return -ENOMEM;
		e.lens[i] = spans[i].len;
	}
	for (i = h & m->mask; m->slots[i].hash; i = (i + 1) & m->mask)
		if (m->slots[i].hash == h && key_eq(&m->slots[i].key, k))
			return 0;	/* stored already */
	m->slots[i].hash = h;
	m->slots[i].key = *k;
	m->slots[i].e = e;
	if (++m->used * 4 > (m->mask + 1) * 3)
		return grow(m);
	return 0;
}
