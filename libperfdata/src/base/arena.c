// SPDX-License-Identifier: MIT
#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"

#define CHUNK_MIN	(16 * 1024)

struct pd_arena_chunk {
	struct pd_arena_chunk *next;
	size_t used;
	size_t cap;
	alignas(max_align_t) unsigned char mem[];
};

static void *arena_take(struct pd_arena *a, size_t size)
{
	struct pd_arena_chunk *c = a->head;
	size_t align = alignof(max_align_t);
	size_t need = (size + align - 1) & ~(align - 1);
	void *p;

	if (need < size)
		return NULL;
	if (!c || c->cap - c->used < need) {
		size_t cap = need > CHUNK_MIN ? need : CHUNK_MIN;

		if (cap > SIZE_MAX - sizeof(*c))
			return NULL;
		c = malloc(sizeof(*c) + cap);
		if (!c)
			return NULL;
		c->used = 0;
		c->cap = cap;
		a->bytes += sizeof(*c) + cap;
		/* big one-off blocks go behind the current chunk */
		if (a->head && need > CHUNK_MIN) {
			c->next = a->head->next;
			a->head->next = c;
		} else {
			c->next = a->head;
			a->head = c;
		}
	}
	p = c->mem + c->used;
	c->used += need;
	return p;
}

void *pd_arena_alloc(struct pd_arena *a, size_t size)
{
	void *p = arena_take(a, size);

	if (p)
		memset(p, 0, size);
	return p;
}

void *pd_arena_alloc_uninit(struct pd_arena *a, size_t size)
{
	return arena_take(a, size);
}

void *pd_arena_array(struct pd_arena *a, size_t nr, size_t size)
{
	size_t total;

	if (__builtin_mul_overflow(nr, size, &total))
		return NULL;
	return pd_arena_alloc(a, total ? total : 1);
}

void *pd_arena_memdup(struct pd_arena *a, const void *p, size_t size)
{
	void *q = pd_arena_alloc(a, size ? size : 1);

	if (q && size)
		memcpy(q, p, size);
	return q;
}

char *pd_arena_strndup(struct pd_arena *a, const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *q = pd_arena_alloc(a, len + 1);

	if (q)
		memcpy(q, s, len);
	return q;
}

void pd_arena_free(struct pd_arena *a)
{
	struct pd_arena_chunk *c = a->head;

	while (c) {
		struct pd_arena_chunk *next = c->next;

		free(c);
		c = next;
	}
	a->head = NULL;
	a->bytes = 0;
}
