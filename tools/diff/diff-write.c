// SPDX-License-Identifier: MIT
/* The differential folded lines, formatted then sorted (diff-write.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "diff-table.h"
#include "diff-write.h"

struct line {
	const char *p;
	size_t off, len;	/* off: into the buffer while it grows */
};

/* as LC_ALL=C sort: bytes, a prefix first */
static int cmp_line(const void *a_, const void *b_)
{
	const struct line *a = a_, *b = b_;
	size_t n = a->len < b->len ? a->len : b->len;
	int c = memcmp(a->p, b->p, n);

	if (c)
		return c;
	return a->len < b->len ? -1 : a->len > b->len;
}

int diff_write_folded(const struct diff_table *t, struct pnum total_a,
		      struct pnum total_b, bool normalize, FILE *out)
{
	size_t i, n = diff_table__count(t);
	struct diff_entry **e;
	struct line *lines;
	char *buf = NULL;
	size_t buf_len = 0;
	FILE *mem;
	int ret = -ENOMEM;

	if (!n)
		return 0;
	/* the script scales only when the totals differ */
	normalize = normalize && !pnum_eq(total_a, total_b);
	if (normalize && pnum_is_zero(total_a))
		return -EDOM;
	e = diff_table__entries(t);
	lines = calloc(n, sizeof(*lines));
	mem = open_memstream(&buf, &buf_len);
	if (!e || !lines || !mem)
		goto out;
	for (i = 0; i < n; i++) {
		struct pnum a = e[i]->count[0], b = e[i]->count[1];
		char na[64], nb[64];

		if (normalize)
			a = pnum_scale(a, total_b, total_a);
		pnum_format(a, na, sizeof(na));
		pnum_format(b, nb, sizeof(nb));
		lines[i].off = (size_t)ftell(mem);
		fwrite(e[i]->key, 1, e[i]->len, mem);
		fprintf(mem, " %s %s", na, nb);
		lines[i].len = (size_t)ftell(mem) - lines[i].off;
	}
	if (fflush(mem))
		goto out;
	for (i = 0; i < n; i++)
		lines[i].p = buf + lines[i].off;
	qsort(lines, n, sizeof(*lines), cmp_line);
	for (i = 0; i < n; i++) {
		fwrite(lines[i].p, 1, lines[i].len, out);
		fputc('\n', out);
	}
	ret = 0;
out:
	if (mem)
		fclose(mem);
	free(buf);
	free(lines);
	free(e);
	return ret;
}
