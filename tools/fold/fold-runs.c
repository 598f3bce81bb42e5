// SPDX-License-Identifier: MIT
/* See fold-runs.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "fold-runs.h"

struct fold_run {
	const char *key;
	size_t len;
	uint64_t count;
};

struct fold_runs {
	struct fold_run *v;
	size_t n, cap;
	struct tool_arena arena;
};

struct fold_runs *fold_runs__new(void)
{
	return calloc(1, sizeof(struct fold_runs));
}

void fold_runs__free(struct fold_runs *r)
{
	if (!r)
		return;
	tool_arena__free(&r->arena);
	free(r->v);
	free(r);
}

int fold_runs__add(struct fold_runs *r, const char *key, size_t len,
		   uint64_t count)
{
	struct fold_run *last = r->n ? &r->v[r->n - 1] : NULL;

	if (last && last->len == len && !memcmp(last->key, key, len)) {
		last->count += count;
		return 0;
	}
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 1024;
		struct fold_run *v = realloc(r->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		r->v = v;
		r->cap = cap;
	}
	last = &r->v[r->n];
	last->key = tool_arena__copy(&r->arena, key, len);
	if (!last->key)
		return -ENOMEM;
	last->len = len;
	last->count = count;
	r->n++;
	return 0;
}

int fold_runs__write(struct fold_runs *r, FILE *out)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		fwrite(r->v[i].key, 1, r->v[i].len, out);
		fprintf(out, " %" PRIu64 "\n", r->v[i].count);
	}
	return ferror(out) ? -EIO : 0;
}
