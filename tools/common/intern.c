// SPDX-License-Identifier: MIT
/* See intern.h: a common/htab.h table from each key to its number. */
#include <stdlib.h>
#include <string.h>

#include "intern.h"

static int grow_keys(struct intern *t)
{
	size_t n = t->alloc ? t->alloc * 2 : 256;
	struct intern_key *k = realloc(t->keys, n * sizeof(*k));

	if (!k)
		return -1;
	t->keys = k;
	t->alloc = n;
	return 0;
}

int64_t intern__add(struct intern *t, const void *p, size_t len, int *added)
{
	struct htab_entry *e;
	uint32_t *number;
	bool is_new;

	if (added)
		*added = 0;
	/* the exporters embed their tables zeroed: set up on first use */
	if (!t->numbers.nr_slots &&
	    htab__init(&t->numbers, sizeof(*number), 256, 50))
		return -1;
	/*
	 * Room for a new key's number before the look-up, which adds the
	 * key: a key is never in the table without its number.
	 */
	if (t->nr == t->alloc && grow_keys(t))
		return -1;
	if (t->nr >= UINT32_MAX - 1)
		return -1;
	e = htab__get(&t->numbers, p, len, &is_new);
	if (!e)
		return -1;
	number = htab_entry__payload(e);
	if (is_new) {
		*number = (uint32_t)t->nr;
		t->keys[t->nr].p = e->key;
		t->keys[t->nr].len = e->len;
		t->nr++;
		if (added)
			*added = 1;
	}
	return *number;
}

int64_t intern__str(struct intern *t, const char *s)
{
	return intern__add(t, s, strlen(s), NULL);
}

void intern__free(struct intern *t)
{
	htab__release(&t->numbers);
	free(t->keys);
	memset(t, 0, sizeof(*t));
}
