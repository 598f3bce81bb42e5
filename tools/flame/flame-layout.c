// SPDX-License-Identifier: MIT
/*
 * Lines to frames, as flamegraph.pl lays them out. The lines are sorted
 * bytewise (whole lines, counts included; --flamechart keeps the input
 * order), then walked in that order with a running time: a line's frames
 * that equal the previous line's, from the root on, stay open, the rest
 * of the previous line's close at the current time and the line's
 * remaining frames open at it; then the time advances by the line's
 * count. So identical neighbouring frames merge into one, which in the
 * sorted order makes the usual flame graph and in input order a flame
 * chart. Frames narrower than --minwidth are dropped.
 *
 * Each line costs its number of frames; the sort (flame-sort.c) n log n
 * comparisons: no quadratic step for deep or many stacks.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "flame-impl.h"

struct open_frame {
	const char *name;
	size_t len;
	double stime;
	bool has_delta;
	bool waker;
	double delta;
};

struct span {
	const char *p;
	size_t len;
};

struct walk {
	struct open_frame *open;
	size_t nopen, open_cap;
	struct span *fields;
	size_t fields_cap;
	const char *prev;	/* the previous line's stack, trimmed */
	size_t prev_len;
};

static int grow(void **v, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 64;
	void *p;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	p = realloc(*v, n * size);
	if (!p)
		return -ENOMEM;
	*v = p;
	*cap = n;
	return 0;
}

/* How many bytes a[0..n) and b[0..n) share from the start. */
static size_t common_prefix(const char *a, const char *b, size_t n)
{
	size_t i = 0;
	uint64_t x, y;

	for (; i + 8 <= n; i += 8) {
		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		if (x != y)
			break;
	}
	while (i < n && a[i] == b[i])
		i++;
	return i;
}

/*
 * The root "" and the stack's frames; trailing empty frames dropped.
 * Sorted neighbours share most of their frames: those of the open ones
 * (the previous line's) that end, ';' included, within the bytes both
 * stacks start with are taken as they are, and only the rest is split.
 */
static int split_stack(struct walk *w, const struct flame_line *l, size_t *n)
{
	const char *s = l->key, *end = l->key + l->stack_len, *p;
	size_t k = 1, c;

	while (end > s && end[-1] == ';')
		end--;
	if (grow((void **)&w->fields, &w->fields_cap, 1, sizeof(*w->fields)))
		return -ENOMEM;
	w->fields[0].p = "";
	w->fields[0].len = 0;
	if (w->prev) {
		c = common_prefix(w->prev, s, w->prev_len < (size_t)(end - s) ?
				  w->prev_len : (size_t)(end - s));
		/* open[k]'s ';' sits at its name's end, in both stacks */
		while (k < w->nopen &&
		       (size_t)(w->open[k].name + w->open[k].len - w->prev) < c) {
			if (grow((void **)&w->fields, &w->fields_cap, k + 1,
				 sizeof(*w->fields)))
				return -ENOMEM;
			w->fields[k].p = s + (w->open[k].name - w->prev);
			w->fields[k].len = w->open[k].len;
			k++;
		}
		if (k > 1)
			s = w->fields[k - 1].p + w->fields[k - 1].len + 1;
	}
	while (s < end) {
		p = memchr(s, ';', end - s);
		if (!p)
			p = end;
		if (grow((void **)&w->fields, &w->fields_cap, k + 1,
			 sizeof(*w->fields)))
			return -ENOMEM;
		w->fields[k].p = s;
		w->fields[k].len = p - s;
		k++;
		s = p + 1;
		/* "a;" ends at the ';' stripped above, so s never passes end */
	}
	w->prev = l->key;
	w->prev_len = end - l->key;
	*n = k;
	return 0;
}

static int close_frame(struct flame *fl, const struct open_frame *o,
		       size_t depth, double etime)
{
	struct flame_frame *f;

	/* too narrow to draw: dropped as it closes, so memory stays small */
	if (etime - o->stime < fl->min_time)
		return 0;
	if (depth > fl->depthmax)
		fl->depthmax = depth;
	if (grow((void **)&fl->frames, &fl->frames_cap, fl->nframes + 1,
		 sizeof(*fl->frames)))
		return -ENOMEM;
	f = &fl->frames[fl->nframes++];
	f->name = o->name;
	f->len = o->len;
	f->depth = depth;
	f->stime = o->stime;
	f->etime = etime;
	f->has_delta = o->has_delta;
	f->waker = o->waker;
	f->delta = o->delta;
	return 0;
}

/* Closes open frames down to depth keep (exclusive) at time t. */
static int close_to(struct flame *fl, struct walk *w, size_t keep, double t)
{
	while (w->nopen > keep) {
		w->nopen--;
		if (close_frame(fl, &w->open[w->nopen], w->nopen, t))
			return -ENOMEM;
	}
	return 0;
}

static int walk_line(struct flame *fl, struct walk *w, const struct flame_line *l)
{
	size_t n, same = 0, i;
	struct open_frame *o;
	bool waker = false;

	if (split_stack(w, l, &n))
		return -ENOMEM;
	while (same < w->nopen && same < n &&
	       w->open[same].len == w->fields[same].len &&
	       !memcmp(w->open[same].name, w->fields[same].p, w->fields[same].len))
		same++;
	if (close_to(fl, w, same, fl->time))
		return -ENOMEM;
	/* the frames kept open point into this line, split_stack's next "prev" */
	for (i = 1; i < same; i++)
		w->open[i].name = w->fields[i].p;
	if (grow((void **)&w->open, &w->open_cap, n, sizeof(*w->open)))
		return -ENOMEM;
	for (i = 1; i < same; i++)
		waker |= w->open[i].len == 2 && !memcmp(w->open[i].name, "--", 2);
	for (i = same; i < n; i++) {
		o = &w->open[i];
		o->name = w->fields[i].p;
		o->len = w->fields[i].len;
		o->waker = waker;
		waker |= o->len == 2 && !memcmp(o->name, "--", 2);
		o->stime = fl->time;
		/* a differential line's delta colours its leaf frame only */
		o->has_delta = l->has_delta;
		o->delta = i == n - 1 ? l->delta : 0;
	}
	w->nopen = n;
	fl->time += l->count;
	if (l->has_delta && fabs(l->delta) > fl->maxdelta)
		fl->maxdelta = fabs(l->delta);
	return 0;
}

/*
 * The total, the scale and the narrowest frame drawn, before the walk:
 * summed in the walk's order, the total is the walk's to the last bit.
 */
static int scale(struct flame *fl)
{
	double t = 0;
	size_t i;

	for (i = 0; i < fl->nlines; i++)
		t += fl->lines[i].count;
	if (!isfinite(t))
		return -EDOM;
	if (t <= 0)
		return -ENODATA;
	fl->timemax = t;
	if (fl->o.total > t) {
		fl->timemax = fl->o.total;
	} else if (fl->o.total > 0 && fl->o.total / t > 0.02) {
		pd_warn("--total %g is less than the total of the counts, %g: ignored",
			fl->o.total, t);
	}
	if (fl->o.minwidth_pct)
		fl->min_time = fl->timemax * fl->o.minwidth / 100;
	else
		fl->min_time = fl->o.minwidth / ((fl->o.width - 20.0) / fl->timemax);
	return 0;
}

int flame_layout(struct flame *fl)
{
	struct walk w = { 0 };
	size_t i;
	int ret = 0;

	fl->nframes = 0;
	fl->time = 0;
	fl->maxdelta = 1;
	fl->depthmax = 0;
	if (!fl->o.flamechart) {
		ret = flame_sort_lines(fl);
		if (ret)
			return ret;
	}
	ret = scale(fl);
	if (ret)
		return ret;
	for (i = 0; i < fl->nlines && !ret; i++)
		ret = walk_line(fl, &w, &fl->lines[i]);
	if (!ret)
		ret = close_to(fl, &w, 0, fl->time);
	free(w.open);
	free(w.fields);
	return ret;
}
