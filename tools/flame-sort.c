// SPDX-License-Identifier: MIT
/*
 * The lines in flamegraph.pl's order: whole lines sorted bytewise, counts
 * included. Folded files are mostly sorted already (pd-fold's,
 * stackcollapse's), which one pass tells. Otherwise the lines are grouped
 * by stack first (a hash table), the distinct stacks sorted, and the
 * lines of a stack sorted among themselves: the same order as sorting
 * the lines, as long as no stack holds a byte at or below the blank (then
 * a stack that is a prefix of another sorts first, as its line goes on
 * with the blank before its count and the other with a greater byte), at
 * the cost of sorting distinct stacks rather than lines: a time-ordered
 * input (pd-fold --chronological) repeats stacks many times. Inputs with
 * such bytes in a stack get the plain sort of the lines.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "flame-impl.h"

struct group {
	const char *stack;
	size_t len;
	uint64_t hash;
	size_t n;	/* lines, then where the next goes */
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

static bool blank_in_stacks(const struct flame *fl)
{
	const unsigned char *p, *end;
	size_t i;

	for (i = 0; i < fl->nlines; i++) {
		p = (const unsigned char *)fl->lines[i].key;
		end = p + fl->lines[i].stack_len;
		for (; p < end; p++)
			if (*p <= ' ')
				return true;
	}
	return false;
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

static int sort_grouped(struct flame *fl)
{
	size_t n = fl->nlines, mask = 1, ng = 0, i, j, pos, *slot = NULL;
	size_t *gid = NULL, *order = NULL;
	struct group *g = NULL;
	struct flame_line *out = NULL;
	int ret = -ENOMEM;

	while (mask < 2 * n)
		mask <<= 1;
	slot = calloc(mask, sizeof(*slot));	/* group index + 1; 0: empty */
	mask--;
	gid = malloc(n * sizeof(*gid));
	g = malloc(n * sizeof(*g));
	out = malloc(n * sizeof(*out));
	if (!slot || !gid || !g || !out)
		goto out;
	for (i = 0; i < n; i++) {
		const struct flame_line *l = &fl->lines[i];
		uint64_t h = tool_hash_bytes(l->key, l->stack_len);

		for (j = h & mask; slot[j]; j = (j + 1) & mask) {
			struct group *e = &g[slot[j] - 1];

			if (e->hash == h && e->len == l->stack_len &&
			    !memcmp(e->stack, l->key, e->len))
				break;
		}
		if (!slot[j]) {
			g[ng] = (struct group){ l->key, l->stack_len, h, 0 };
			slot[j] = ++ng;
		}
		gid[i] = slot[j] - 1;
		g[gid[i]].n++;
	}
	order = malloc(ng * sizeof(*order));
	if (!order)
		goto out;
	for (i = 0; i < ng; i++)
		order[i] = i;
	qsort_r(order, ng, sizeof(*order), cmp_groups, g);
	/* each group's first place in the output */
	for (i = 0, pos = 0; i < ng; i++) {
		size_t k = g[order[i]].n;

		g[order[i]].n = pos;
		pos += k;
	}
	for (i = 0; i < n; i++)
		out[g[gid[i]].n++] = fl->lines[i];
	/* the lines of one stack, by their counts' text */
	for (i = 0, pos = 0; i < ng; i++) {
		size_t end = g[order[i]].n;

		if (end - pos > 1)
			qsort(out + pos, end - pos, sizeof(*out), cmp_tails);
		pos = end;
	}
	free(fl->lines);
	fl->lines = out;
	fl->lines_cap = n;
	out = NULL;
	ret = 0;
out:
	free(slot);
	free(gid);
	free(g);
	free(order);
	free(out);
	return ret;
}

int flame_sort_lines(struct flame *fl)
{
	if (already_sorted(fl))
		return 0;
	if (blank_in_stacks(fl)) {
		qsort(fl->lines, fl->nlines, sizeof(*fl->lines), cmp_lines);
		return 0;
	}
	return sort_grouped(fl);
}
