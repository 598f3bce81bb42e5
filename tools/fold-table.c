// SPDX-License-Identifier: MIT
/*
 * Open-addressing hash table (linear probing, full hashes kept so probes
 * rarely touch the keys) over an arena of key bytes. See fold-table.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fold-table.h"

#define ARENA_BLOCK	(1u << 20)

struct fold_entry {
	uint64_t hash;		/* 0: empty slot */
	uint64_t count;
	const char *key;
	size_t len;
};

struct arena_block {
	struct arena_block *next;
	size_t used, size;
	char data[];
};

struct fold_table {
	struct fold_entry *slots;
	size_t mask;		/* slots - 1, a power of two minus one */
	size_t used;
	struct arena_block *blocks;
};

struct fold_table *fold_table__new(void)
{
	struct fold_table *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->mask = 4096 - 1;
	t->slots = calloc(t->mask + 1, sizeof(*t->slots));
	if (!t->slots) {
		free(t);
		return NULL;
	}
	return t;
}

void fold_table__free(struct fold_table *t)
{
	struct arena_block *b, *next;

	if (!t)
		return;
	for (b = t->blocks; b; b = next) {
		next = b->next;
		free(b);
	}
	free(t->slots);
	free(t);
}

/*
 * Eight bytes per step: stacks are long (hundreds of bytes) and hashed
 * once per sample, so a byte-at-a-time hash would show in profiles.
 */
static uint64_t hash_bytes(const char *p, size_t len)
{
	const uint64_t m = 0x9e3779b97f4a7c15ull;
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

static char *arena_copy(struct fold_table *t, const char *key, size_t len)
{
	struct arena_block *b = t->blocks;
	char *p;

	if (!b || b->size - b->used < len) {
		size_t size = len > ARENA_BLOCK ? len : ARENA_BLOCK;

		b = malloc(sizeof(*b) + size);
		if (!b)
			return NULL;
		b->size = size;
		b->used = 0;
		b->next = t->blocks;
		t->blocks = b;
	}
	p = b->data + b->used;
	b->used += len;
	memcpy(p, key, len);
	return p;
}

static int grow(struct fold_table *t)
{
	size_t n = (t->mask + 1) * 2, i, j;
	struct fold_entry *slots = calloc(n, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (i = 0; i <= t->mask; i++) {
		if (!t->slots[i].hash)
			continue;
		for (j = t->slots[i].hash & (n - 1); slots[j].hash; j = (j + 1) & (n - 1))
			;
		slots[j] = t->slots[i];
	}
	free(t->slots);
	t->slots = slots;
	t->mask = n - 1;
	return 0;
}

int fold_table__add(struct fold_table *t, const char *key, size_t len,
		    uint64_t count)
{
	uint64_t h = hash_bytes(key, len);
	struct fold_entry *e;
	size_t i;

	for (i = h & t->mask;; i = (i + 1) & t->mask) {
		e = &t->slots[i];
		if (!e->hash)
			break;
		if (e->hash == h && e->len == len && !memcmp(e->key, key, len)) {
			e->count += count;
			return 0;
		}
	}
	e->key = arena_copy(t, key, len);
	if (!e->key)
		return -ENOMEM;
	e->hash = h;
	e->len = len;
	e->count = count;
	/* keep the load under 3/4 so probe runs stay short */
	if (++t->used * 4 > (t->mask + 1) * 3)
		return grow(t);
	return 0;
}

/* Perl's `sort { $a cmp $b }` on byte strings: unsigned bytes, then length. */
static int cmp_entries(const void *a, const void *b)
{
	const struct fold_entry *x = *(const struct fold_entry *const *)a;
	const struct fold_entry *y = *(const struct fold_entry *const *)b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->key, y->key, n);

	if (c)
		return c;
	return (x->len > y->len) - (x->len < y->len);
}

static void put_u64(FILE *out, uint64_t v)
{
	char buf[24], *p = buf + sizeof(buf);

	*--p = '\n';
	do {
		*--p = '0' + v % 10;
		v /= 10;
	} while (v);
	*--p = ' ';
	fwrite(p, 1, buf + sizeof(buf) - p, out);
}

int fold_table__write(struct fold_table *t, FILE *out)
{
	struct fold_entry **v;
	size_t i, n = 0;

	v = malloc((t->used ? t->used : 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; i <= t->mask; i++)
		if (t->slots[i].hash)
			v[n++] = &t->slots[i];
	qsort(v, n, sizeof(*v), cmp_entries);
	for (i = 0; i < n; i++) {
		fwrite(v[i]->key, 1, v[i]->len, out);
		put_u64(out, v[i]->count);
	}
	free(v);
	return ferror(out) ? -EIO : 0;
}
