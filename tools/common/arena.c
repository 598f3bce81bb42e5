// SPDX-License-Identifier: MIT
/* See arena.h. */
#include <stdlib.h>
#include <string.h>

#include "arena.h"

#define ARENA_BLOCK	(1u << 20)

struct tool_arena_block {
	struct tool_arena_block *next;
	size_t used, size;
	_Alignas(16) char data[];
};

void *tool_arena__alloc(struct tool_arena *a, size_t size)
{
	struct tool_arena_block *b = a->blocks;
	void *p;

	size = (size + 15) & ~(size_t)15;
	if (!b || b->size - b->used < size) {
		size_t bsize = size > ARENA_BLOCK ? size : ARENA_BLOCK;

		b = malloc(sizeof(*b) + bsize);
		if (!b)
			return NULL;
		b->size = bsize;
		b->used = 0;
		b->next = a->blocks;
		a->blocks = b;
	}
	p = b->data + b->used;
	b->used += size;
	return p;
}

void *tool_arena__copy(struct tool_arena *a, const void *p, size_t len)
{
	void *q = tool_arena__alloc(a, len ? len : 1);

	if (q)
		memcpy(q, p, len);
	return q;
}

void tool_arena__free(struct tool_arena *a)
{
	struct tool_arena_block *b, *next;

	for (b = a->blocks; b; b = next) {
		next = b->next;
		free(b);
	}
	a->blocks = NULL;
}

uint64_t tool_hash_bytes(const void *data, size_t len)
{
	const uint64_t m = 0x9e3779b97f4a7c15ull;
	const char *p = data;
	uint64_t h = len * m, w;

	for (; len >= 8; p += 8, len -= 8) {
		memcpy(&w, p, 8);
		h = (h ^ w) * m;
		h ^= h >> 32;
	}
	if (len) {
		w = 0;
		memcpy(&w, p, len);
		h = (h ^ w) * m;
	}
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 32;
	return h ? h : 1;
}
