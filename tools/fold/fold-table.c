// SPDX-License-Identifier: MIT
/* The folder's stacks in a common/htab.h table. See fold-table.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/htab.h"
#include "fold-table.h"

/*
 * A fold table is a common/htab.h table from the folded stacks to their
 * uint64_t counts: struct fold_table, never defined, is the name fold.c
 * holds it by.
 */
static struct htab *stacks(struct fold_table *t)
{
	return (struct htab *)t;
}

struct fold_table *fold_table__new(void)
{
	/*
	 * Every sample looks its stack up: up to 3/4 full, the slots take
	 * about half the cache they would at 1/2, which counts for more
	 * with many distinct stacks than the longer probe runs do. (The
	 * output is sorted: the slots' order does not show.)
	 */
	return (struct fold_table *)htab__new(sizeof(uint64_t), 4096, 75);
}

void fold_table__free(struct fold_table *t)
{
	htab__free(stacks(t));
}

int fold_table__add(struct fold_table *t, const char *key, size_t len,
		    uint64_t count)
{
	struct htab_entry *e = htab__get(stacks(t), key, len, NULL);

	if (!e)
		return -ENOMEM;
	*(uint64_t *)htab_entry__payload(e) += count;
	return 0;
}

/* Perl's `sort { $a cmp $b }` on byte strings: unsigned bytes, then length. */
uint64_t *fold_table__add_ref(struct fold_table *t, const char *key,
			      size_t len, uint64_t count)
{
	struct htab_entry *e = htab__get(stacks(t), key, len, NULL);
	uint64_t *c;

	if (!e)
		return NULL;
	c = (uint64_t *)htab_entry__payload(e);
	*c += count;
	return c;
}

static int cmp_entries(const void *a, const void *b)
{
	const struct htab_entry *x = *(const struct htab_entry *const *)a;
	const struct htab_entry *y = *(const struct htab_entry *const *)b;
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
	struct htab_entry **v, *e;
	size_t i, n = 0, pos = 0;

	v = malloc((stacks(t)->nr ? stacks(t)->nr : 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	while ((e = htab__next(stacks(t), &pos)))
		v[n++] = e;
	qsort(v, n, sizeof(*v), cmp_entries);
	for (i = 0; i < n; i++) {
		fwrite(v[i]->key, 1, v[i]->len, out);
		put_u64(out, *(uint64_t *)htab_entry__payload(v[i]));
	}
	free(v);
	return ferror(out) ? -EIO : 0;
}
