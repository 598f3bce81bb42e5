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
	bool added;
	struct htab_entry *e = htab__get(stacks(t), key, len, &added);

	if (!e)
		return -ENOMEM;
	*(uint64_t *)htab_entry__payload(e) += count;
	return added;
}

size_t fold_table__nr(const struct fold_table *t)
{
	return ((const struct htab *)t)->nr;
}

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

/* Perl's `sort { $a cmp $b }` on byte strings: unsigned bytes, then length. */
int fold_key_cmp(const char *a, size_t alen, const char *b, size_t blen)
{
	int c = memcmp(a, b, alen < blen ? alen : blen);

	if (c)
		return c;
	return (alen > blen) - (alen < blen);
}

static int cmp_entries(const void *a, const void *b)
{
	const struct htab_entry *x = *(const struct htab_entry *const *)a;
	const struct htab_entry *y = *(const struct htab_entry *const *)b;

	return fold_key_cmp(x->key, x->len, y->key, y->len);
}

void fold_put_line(FILE *out, const char *key, size_t len, uint64_t v)
{
	char buf[24], *p = buf + sizeof(buf);

	fwrite(key, 1, len, out);
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
	for (i = 0; i < n; i++)
		fold_put_line(out, v[i]->key, v[i]->len,
			      *(uint64_t *)htab_entry__payload(v[i]));
	free(v);
	return ferror(out) ? -EIO : 0;
}
