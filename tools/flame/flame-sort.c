// SPDX-License-Identifier: MIT
/*
 * The lines in flamegraph.pl's order: whole lines sorted bytewise, counts
 * included. Folded files are mostly sorted already (pd-fold's,
 * stackcollapse's), which one pass tells. Otherwise the lines are grouped
 * by stack first (a hash table), the distinct stacks sorted, and the
 * lines of a stack sorted among themselves, at the cost of sorting
 * distinct stacks rather than lines: a time-ordered input (pd-fold
 * --chronological) repeats stacks many times.
 *
 * That is the order of the lines unless a stack is another one followed
 * by a byte at or below the blank ("f" and "f x", as C++ names have
 * blanks): a line's count starts with such a byte too, so which of the
 * two lines sorts first then depends on the counts. The tables tell
 * whether the input has such a pair; if it does, the lines get the plain
 * sort.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "flame-impl.h"

struct group {
	const char *stack;
	size_t len;
	uint64_t hash;
	size_t n;	/* lines, then where the next goes */
	size_t first;	/* its first line */
	double count;	/* its lines' counts, summed in input order */
};

static int cmp_lines(const void *a, const void *b)
{
	const struct flame_line *x = a, *y = b;
	size_t n = x->key_len < y->key_len ? x->key_len : y->key_len;
	int c = memcmp(x->key, y->key, n);

	if (c)
		return c;
	return (x->key_len > y->key_len) - (x->key_len < y->key_len);
}

/* Two lines of one stack: their counts' text decides. */
static int cmp_tails(const void *a, const void *b)
{
	const struct flame_line *x = a, *y = b;
	size_t xl = x->key_len - x->stack_len, yl = y->key_len - y->stack_len;
	int c = memcmp(x->key + x->stack_len, y->key + y->stack_len,
		       xl < yl ? xl : yl);

	if (c)
		return c;
	return (xl > yl) - (xl < yl);
}

static bool already_sorted(const struct flame *fl)
{
	size_t i;

	for (i = 1; i < fl->nlines; i++)
		if (cmp_lines(&fl->lines[i - 1], &fl->lines[i]) > 0)
			return false;
	return true;
}

/* qsort_r's context: the groups */
static int cmp_groups(const void *a, const void *b, void *arg)
{
	const struct group *g = arg;
	const struct group *x = &g[*(const size_t *)a], *y = &g[*(const size_t *)b];
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->stack, y->stack, n);

	if (c)
		return c;
	return (x->len > y->len) - (x->len < y->len);
}

/* The stacks seen, each once: an open-addressing table that grows. */
struct groups {
	struct group *g;
	size_t n, cap;
	size_t *slot;		/* group index + 1; 0: empty */
	size_t mask;
	size_t bytes;		/* of the distinct stacks */
};

static int groups__grow(struct groups *t)
{
	size_t cap = t->cap ? 2 * t->cap : 1024, mask = 2 * cap - 1, i, j;
	struct group *g = realloc(t->g, cap * sizeof(*g));
	size_t *slot;

	if (!g)
		return -ENOMEM;
	t->g = g;
	slot = calloc(mask + 1, sizeof(*slot));
	if (!slot)
		return -ENOMEM;
	for (i = 0; i < t->n; i++) {
		for (j = g[i].hash & mask; slot[j]; j = (j + 1) & mask)
			;
		slot[j] = i + 1;
	}
	free(t->slot);
	t->slot = slot;
	t->mask = mask;
	t->cap = cap;
	return 0;
}

/* The group index of line l's stack, added if new; -ENOMEM. */
static ssize_t groups__add(struct groups *t, const struct flame_line *l)
{
	uint64_t h = tool_hash_bytes(l->key, l->stack_len);
	size_t j;

	if (t->n == t->cap && groups__grow(t))
		return -ENOMEM;
	for (j = h & t->mask; t->slot[j]; j = (j + 1) & t->mask) {
		struct group *e = &t->g[t->slot[j] - 1];

		if (e->hash == h && e->len == l->stack_len &&
		    !memcmp(e->stack, l->key, e->len))
			return t->slot[j] - 1;
	}
	t->g[t->n] = (struct group){ l->key, l->stack_len, h, 0, 0, 0 };
	t->slot[j] = ++t->n;
	t->bytes += l->stack_len;
	return t->n - 1;
}

static void groups__free(struct groups *t)
{
	free(t->g);
	free(t->slot);
}

/*
 * The lines in the sorted groups' order. Without differential lines, the
 * lines of a stack are drawn as one (the widths add up alike), so one
 * line per stack is kept, its count the sum in input order. A
 * differential line's delta colours only a leaf it opens, so there the
 * lines of a stack stay, in their counts' order, as in a sort of lines.
 */
static int emit_grouped(struct flame *fl, struct groups *t, const size_t *gid,
			const size_t *order, bool deltas)
{
	size_t n = deltas ? fl->nlines : t->n, i, pos;
	struct flame_line *out = malloc((n ? n : 1) * sizeof(*out));

	if (!out)
		return -ENOMEM;
	if (!deltas) {
		for (i = 0; i < t->n; i++) {
			const struct group *e = &t->g[order[i]];

			out[i] = fl->lines[e->first];
			out[i].count = e->count;
		}
		goto done;
	}
	for (i = 0, pos = 0; i < t->n; i++) {
		size_t k = t->g[order[i]].n;

		t->g[order[i]].n = pos;	/* each group's first place */
		pos += k;
	}
	for (i = 0; i < fl->nlines; i++)
		out[t->g[gid[i]].n++] = fl->lines[i];
	for (i = 0, pos = 0; i < t->n; i++) {
		size_t end = t->g[order[i]].n;

		if (end - pos > 1)
			qsort(out + pos, end - pos, sizeof(*out), cmp_tails);
		pos = end;
	}
done:
	free(fl->lines);
	fl->lines = out;
	fl->nlines = fl->lines_cap = n;
	return 0;
}

/* Whether stack s[0..len) is one of t's. */
static bool groups__has(const struct groups *t, const char *s, size_t len)
{
	uint64_t h = tool_hash_bytes(s, len);
	size_t j;

	for (j = h & t->mask; t->slot[j]; j = (j + 1) & t->mask) {
		const struct group *e = &t->g[t->slot[j] - 1];

		if (e->hash == h && e->len == len && !memcmp(e->stack, s, len))
			return true;
	}
	return false;
}

/*
 * Whether no stack is another one followed by a byte at or below the
 * blank. Each such byte costs a look-up hashing the stack up to it, so a
 * hostile input (one long stack of blanks) would cost its length squared:
 * past a budget of a few times the stacks' bytes the answer is "no", and
 * the lines get the plain sort.
 */
static bool groups_sort_as_lines(const struct groups *t)
{
	size_t budget = 8 * t->bytes + 4096, i, p;

	for (i = 0; i < t->n; i++) {
		const unsigned char *s = (const unsigned char *)t->g[i].stack;

		for (p = 0; p < t->g[i].len; p++) {
			if (s[p] > ' ')
				continue;
			if (budget < p)
				return false;
			budget -= p;
			if (groups__has(t, t->g[i].stack, p))
				return false;
		}
	}
	return true;
}

/* 0, -ENOMEM, or 1 when the lines need the plain sort */
static int sort_grouped(struct flame *fl)
{
	struct groups t = { 0 };
	size_t *gid = NULL, *order = NULL, i;
	bool deltas = false;
	ssize_t k;
	int ret = -ENOMEM;

	for (i = 0; i < fl->nlines && !deltas; i++)
		deltas = fl->lines[i].has_delta;
	if (deltas) {
		gid = malloc(fl->nlines * sizeof(*gid));
		if (!gid)
			goto out;
	}
	for (i = 0; i < fl->nlines; i++) {
		k = groups__add(&t, &fl->lines[i]);
		if (k < 0)
			goto out;
		if (!t.g[k].n++)
			t.g[k].first = i;
		t.g[k].count += fl->lines[i].count;
		if (gid)
			gid[i] = k;
	}
	if (!groups_sort_as_lines(&t)) {
		ret = 1;
		goto out;
	}
	order = malloc((t.n ? t.n : 1) * sizeof(*order));
	if (!order)
		goto out;
	for (i = 0; i < t.n; i++)
		order[i] = i;
	qsort_r(order, t.n, sizeof(*order), cmp_groups, t.g);
	ret = emit_grouped(fl, &t, gid, order, deltas);
out:
	groups__free(&t);
	free(gid);
	free(order);
	return ret;
}

int flame_sort_lines(struct flame *fl)
{
	int r;

	if (already_sorted(fl))
		return 0;
	r = sort_grouped(fl);
	if (r <= 0)
		return r;
	qsort(fl->lines, fl->nlines, sizeof(*fl->lines), cmp_lines);
	return 0;
}
