// SPDX-License-Identifier: MIT
/* pd-diff --report (diff-report.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "diff-report.h"
#include "diff-table.h"

struct row {
	const struct diff_entry *e;
	double self[2], total[2];
	double dself, dtotal;
};

static enum diff_sort sort_key;

/* no libm in the tools' link */
static double abs_d(double x)
{
	return x < 0 ? -x : x;
}

static int cmp_name(const struct row *a, const struct row *b)
{
	size_t n = a->e->len < b->e->len ? a->e->len : b->e->len;
	int c = memcmp(a->e->key, b->e->key, n);

	if (c)
		return c;
	return a->e->len < b->e->len ? -1 : a->e->len > b->e->len;
}

/* larger first */
static int cmp_desc(double a, double b)
{
	return a > b ? -1 : a < b;
}

static int cmp_row(const void *a_, const void *b_)
{
	const struct row *a = a_, *b = b_;
	int c = 0;

	switch (sort_key) {
	case DIFF_SORT_DELTA_SELF:
		c = cmp_desc(abs_d(a->dself), abs_d(b->dself));
		if (!c)
			c = cmp_desc(abs_d(a->dtotal), abs_d(b->dtotal));
		break;
	case DIFF_SORT_DELTA_TOTAL:
		c = cmp_desc(abs_d(a->dtotal), abs_d(b->dtotal));
		if (!c)
			c = cmp_desc(abs_d(a->dself), abs_d(b->dself));
		break;
	case DIFF_SORT_SELF:
		c = cmp_desc(a->self[1], b->self[1]);
		if (!c)
			c = cmp_desc(a->self[0], b->self[0]);
		break;
	case DIFF_SORT_TOTAL:
		c = cmp_desc(a->total[1], b->total[1]);
		if (!c)
			c = cmp_desc(a->total[0], b->total[0]);
		break;
	case DIFF_SORT_NAME:
		break;
	}
	return c ? c : cmp_name(a, b);
}

/*
 * Every function of every stack, with its self and total counts; a
 * stack's frames are split at ';' as flamegraph.pl splits them. The
 * first is the command unless all_frames: a stack of the command alone
 * (a sample without frames) counts in the totals only.
 */
static int add_stacks(struct diff_table *funcs, const struct diff_table *stacks,
		      bool all_frames)
{
	struct diff_entry **v = diff_table__entries(stacks);
	size_t i, n = diff_table__count(stacks);

	if (!v)
		return n ? -ENOMEM : 0;
	for (i = 0; i < n; i++) {
		const char *p = v[i]->key, *end = p + v[i]->len, *semi;
		double c[2] = {
			pnum_double(v[i]->count[0]), pnum_double(v[i]->count[1]),
		};
		struct diff_entry *f, *leaf = NULL;
		int s;

		if (!all_frames) {
			semi = memchr(p, ';', end - p);
			p = semi ? semi + 1 : end;
		}
		for (; p < end; p = semi + 1) {
			semi = memchr(p, ';', end - p);
			if (!semi)
				semi = end;
			if (semi == p)
				continue;	/* an empty frame names nothing */
			f = diff_table__get(funcs, p, semi - p);
			if (!f) {
				free(v);
				return -ENOMEM;
			}
			/* recursion: once per stack */
			if (f->stamp != i + 1) {
				f->stamp = i + 1;
				for (s = 0; s < 2; s++)
					f->total[s] += c[s];
			}
			leaf = f;
		}
		/* the leaf is the last frame, empty or not */
		if (leaf && end[-1] != ';')
			for (s = 0; s < 2; s++)
				leaf->self[s] += c[s];
	}
	free(v);
	return 0;
}

static double pct(double x, double total)
{
	return total > 0 ? 100.0 * x / total : 0;
}

static void print_header(const struct diff_report_opts *o, double total_a,
			 double total_b, size_t shown, size_t n, FILE *out)
{
	static const char *const sorts[] = {
		[DIFF_SORT_DELTA_SELF] = "|delta self|",
		[DIFF_SORT_DELTA_TOTAL] = "|delta total|",
		[DIFF_SORT_SELF] = "self in B",
		[DIFF_SORT_TOTAL] = "total in B",
		[DIFF_SORT_NAME] = "name",
	};

	if (o->tsv) {
		fputs("function\tself_a\tself_b\tdelta_self\ttotal_a\ttotal_b\tdelta_total\n",
		      out);
		return;
	}
	fprintf(out, "# A: %s (total count %.15g)\n", o->name_a, total_a);
	fprintf(out, "# B: %s (total count %.15g)\n", o->name_b, total_b);
	fprintf(out, "# %zu of %zu functions, by %s; delta = B - A in percentage points\n",
		shown, n, sorts[o->sort]);
	fprintf(out, "#\n# %9s %9s %8s  %9s %9s %8s  %s\n", "Self A", "Self B",
		"Delta", "Total A", "Total B", "Delta", "Function");
	fprintf(out, "# %9s %9s %8s  %9s %9s %8s  %s\n#\n", "........",
		"........", ".......", "........", "........", ".......",
		"........");
}

static void print_row(const struct row *r, bool tsv, FILE *out)
{
	if (tsv) {
		fwrite(r->e->key, 1, r->e->len, out);
		fprintf(out, "\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\n",
			r->self[0], r->self[1], r->dself, r->total[0],
			r->total[1], r->dtotal);
		return;
	}
	fprintf(out, "  %8.2f%% %8.2f%% %+8.2f  %8.2f%% %8.2f%% %+8.2f  ",
		r->self[0], r->self[1], r->dself, r->total[0], r->total[1],
		r->dtotal);
	fwrite(r->e->key, 1, r->e->len, out);
	fputc('\n', out);
}

int diff_report(const struct diff_table *stacks, double total_a,
		double total_b, const struct diff_report_opts *o, FILE *out)
{
	struct diff_table *funcs = diff_table__new();
	struct diff_entry **v = NULL;
	struct row *rows = NULL;
	size_t i, n = 0, kept = 0, shown;
	int ret = -ENOMEM;

	if (!funcs || add_stacks(funcs, stacks, o->all_frames) < 0)
		goto out;
	n = diff_table__count(funcs);
	v = diff_table__entries(funcs);
	rows = calloc(n ? n : 1, sizeof(*rows));
	if ((n && !v) || !rows)
		goto out;
	for (i = 0; i < n; i++) {
		struct row *r = &rows[kept];

		r->e = v[i];
		r->self[0] = pct(v[i]->self[0], total_a);
		r->self[1] = pct(v[i]->self[1], total_b);
		r->total[0] = pct(v[i]->total[0], total_a);
		r->total[1] = pct(v[i]->total[1], total_b);
		r->dself = r->self[1] - r->self[0];
		r->dtotal = r->total[1] - r->total[0];
		if (abs_d(r->dself) < o->threshold && abs_d(r->dtotal) < o->threshold)
			continue;
		kept++;
	}
	sort_key = o->sort;
	qsort(rows, kept, sizeof(*rows), cmp_row);
	shown = o->limit && o->limit < kept ? o->limit : kept;
	print_header(o, total_a, total_b, shown, n, out);
	for (i = 0; i < shown; i++)
		print_row(&rows[i], o->tsv, out);
	ret = 0;
out:
	free(rows);
	free(v);
	diff_table__free(funcs);
	return ret;
}
