// SPDX-License-Identifier: MIT
/*
 * Open-addressing hash table (linear probing, full hashes kept so probes
 * rarely touch the keys) over an arena of key bytes. See fold-table.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "fold-table.h"

struct fold_entry {
	uint64_t hash;		/* 0: empty slot */
	uint64_t count;
	const char *key;
	size_t len;
};

struct fold_table {
	struct fold_entry *slots;
	size_t mask;		/* slots - 1, a power of two minus one */
	size_t used;
	struct tool_arena arena;
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
	if (!t)
		return;
	tool_arena__free(&t->arena);
	free(t->slots);
	free(t);
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
	uint64_t h = tool_hash_bytes(key, len);
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
	e->key = tool_arena__copy(&t->arena, key, len);
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
