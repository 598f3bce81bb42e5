// SPDX-License-Identifier: MIT
/*
 * fold()'s tables: byte strings to a count or a pointer (the distinct
 * stacks, a frame's entries, --inline's chains), chained, doubling at
 * one entry per bucket. And the growing buffer they are built in.
 */
#include <stdlib.h>
#include <string.h>

#include "fold.h"

int fbuf_add(struct fbuf *b, const char *s, size_t n)
{
	if (b->cap - b->len <= n) {
		size_t cap = b->cap ? b->cap : 256;
		char *p;

		while (cap - b->len <= n)
			cap *= 2;
		p = realloc(b->p, cap);
		if (!p)
			return -1;
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
	return 0;
}

/* FNV-1a, 64 bits */
static uint64_t hash_of(const void *key, size_t len)
{
	const unsigned char *p = key;
	uint64_t h = 0xcbf29ce484222325ULL;

	while (len--)
		h = (h ^ *p++) * 0x100000001b3ULL;
	return h;
}

static int grow(struct fhash *h)
{
	size_t nb = h->nb ? 2 * h->nb : 1024, i;
	struct fhash_ent **b = calloc(nb, sizeof(*b));

	if (!b)
		return -1;
	for (i = 0; i < h->nb; i++) {
		struct fhash_ent *e = h->b[i], *next;

		for (; e; e = next) {
			next = e->next;
			e->next = b[e->hash & (nb - 1)];
			b[e->hash & (nb - 1)] = e;
		}
	}
	free(h->b);
	h->b = b;
	h->nb = nb;
	return 0;
}

static struct fhash_ent *lookup(const struct fhash *h, const void *key,
				size_t len, uint64_t hash)
{
	struct fhash_ent *e;

	if (!h->nb)
		return NULL;
	for (e = h->b[hash & (h->nb - 1)]; e; e = e->next)
		if (e->hash == hash && e->len == len && !memcmp(e->key, key, len))
			return e;
	return NULL;
}

struct fhash_ent *fhash_find(const struct fhash *h, const void *key, size_t len)
{
	return lookup(h, key, len, hash_of(key, len));
}

struct fhash_ent *fhash_get(struct fhash *h, const void *key, size_t len,
			    bool *added)
{
	uint64_t hash = hash_of(key, len);
	struct fhash_ent *e = lookup(h, key, len, hash);

	*added = false;
	if (e)
		return e;
	if (h->nr >= h->nb && grow(h))
		return NULL;
	e = malloc(sizeof(*e) + len + 1);
	if (!e)
		return NULL;
	e->hash = hash;
	e->len = len;
	e->val = 0;
	e->ptr = NULL;
	memcpy(e->key, key, len);
	e->key[len] = '\0';
	e->next = h->b[hash & (h->nb - 1)];
	h->b[hash & (h->nb - 1)] = e;
	h->nr++;
	*added = true;
	return e;
}

struct fhash_ent *fhash_next(const struct fhash *h, size_t *bucket,
			     struct fhash_ent *it)
{
	if (it && it->next)
		return it->next;
	for (*bucket = it ? *bucket + 1 : 0; *bucket < h->nb; (*bucket)++)
		if (h->b[*bucket])
			return h->b[*bucket];
	return NULL;
}

void fhash_free(struct fhash *h, void (*free_ptr)(void *))
{
	size_t i;

	for (i = 0; i < h->nb; i++) {
		struct fhash_ent *e = h->b[i], *next;

		for (; e; e = next) {
			next = e->next;
			if (free_ptr)
				free_ptr(e->ptr);
			free(e);
		}
	}
	free(h->b);
	memset(h, 0, sizeof(*h));
}
