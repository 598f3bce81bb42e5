// SPDX-License-Identifier: MIT
/* pd-diff's tables in common/htab.h tables. See diff-table.h. */
#include <errno.h>
#include <stdlib.h>

#include "common/htab.h"
#include "diff-table.h"

/*
 * A diff table is a common/htab.h table whose payloads are the struct
 * diff_entry: struct diff_table, never defined, is the name pd-diff's
 * modules hold it by.
 */
static struct htab *keys(struct diff_table *t)
{
	return (struct htab *)t;
}

static const struct htab *keys_const(const struct diff_table *t)
{
	return (const struct htab *)t;
}

struct diff_table *diff_table__new(void)
{
	/*
	 * diff_table__entries() is in slot order, the order diff-report.c
	 * adds a function's doubles up in: the slots' number at first and
	 * their load decide the report's last digits, so they stay 1024
	 * and half full.
	 */
	return (struct diff_table *)htab__new(sizeof(struct diff_entry), 1024,
					      50);
}

void diff_table__free(struct diff_table *t)
{
	htab__free(keys(t));
}

struct diff_entry *diff_table__get(struct diff_table *t, const char *key,
				   size_t len)
{
	struct htab_entry *e;
	struct diff_entry *d;
	bool added;

	e = htab__get(keys(t), key, len, &added);
	if (!e) {
		errno = ENOMEM;
		return NULL;
	}
	d = htab_entry__payload(e);
	/* the callers read the key from the entry they are handed */
	if (added) {
		d->key = e->key;
		d->len = e->len;
	}
	return d;
}

size_t diff_table__count(const struct diff_table *t)
{
	return keys_const(t)->nr;
}

struct diff_entry **diff_table__entries(const struct diff_table *t)
{
	size_t n = 0, pos = 0, nr = diff_table__count(t);
	struct diff_entry **v;
	struct htab_entry *e;

	if (!nr)
		return NULL;
	v = malloc(nr * sizeof(*v));
	if (!v)
		return NULL;
	while ((e = htab__next(keys_const(t), &pos)))
		v[n++] = htab_entry__payload(e);
	return v;
}
