// SPDX-License-Identifier: MIT
/*
 * Samples that carry counter values (PERF_SAMPLE_READ), delivered the
 * way perf's session does (util/session.c, perf_evlist__deliver_sample):
 * each value read becomes a sample of the event its id belongs to, with
 * the growth of that value since the id's last sample as its period.
 * Values that did not grow and ids of no event are not delivered. perf
 * script, perf report and stackcollapse therefore see group leaders'
 * samples once per member ("perf record -e '{a,b}:S'", simpleperf's
 * --add-counter).
 */
#include <errno.h>
#include <stdlib.h>

#include <perfdata/format.h>
#include <perfdata/session.h>

#include "base/internal.h"

struct last_value {
	uint64_t id;
	uint64_t value;
	bool used;
};

struct pd_read_periods {
	const struct pd_reader *r;
	struct last_value *v;	/* open addressing by id */
	size_t nr, cap;
};

PD_EXPORT struct pd_read_periods *pd_read_periods__new(const struct pd_reader *r)
{
	struct pd_read_periods *p = calloc(1, sizeof(*p));

	if (p)
		p->r = r;
	return p;
}

PD_EXPORT void pd_read_periods__free(struct pd_read_periods *p)
{
	if (!p)
		return;
	free(p->v);
	free(p);
}

static size_t slot_of(uint64_t id, size_t cap)
{
	return (id * 0x9E3779B97F4A7C15ULL >> 17) & (cap - 1);
}

static struct last_value *lookup(struct pd_read_periods *p, uint64_t id)
{
	size_t i;

	if (p->nr * 2 >= p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 64, j;
		struct last_value *v = calloc(cap, sizeof(*v));

		if (!v)
			return NULL;
		for (j = 0; j < p->cap; j++) {
			if (!p->v[j].used)
				continue;
			for (i = slot_of(p->v[j].id, cap); v[i].used;
			     i = (i + 1) & (cap - 1))
				;
			v[i] = p->v[j];
		}
		free(p->v);
		p->v = v;
		p->cap = cap;
	}
	for (i = slot_of(id, p->cap); p->v[i].used; i = (i + 1) & (p->cap - 1))
		if (p->v[i].id == id)
			return &p->v[i];
	p->v[i].used = true;
	p->v[i].id = id;
	p->nr++;
	return &p->v[i];
}

typedef int (*emit_fn)(void *ctx, const struct pd_read_delivery *d);

/*
 * Every delivery of one sample, in order, to emit; stops at emit's first
 * error. Shared by the array and the callback interfaces.
 */
static int walk(struct pd_read_periods *p, const struct pd_event *ev,
		emit_fn emit, void *ctx)
{
	const struct pd_sample *s = &ev->u.sample;
	struct pd_read_delivery d;
	uint64_t i;
	int err;

	if (ev->type != PD_RECORD_SAMPLE || !ev->evsel)
		return 0;
	if (!(s->sample_type & PD_SAMPLE_READ)) {
		d.evsel = ev->evsel;
		d.id = s->id;
		d.period = s->period;
		return emit(ctx, &d);
	}
	for (i = 0; i < s->read.nr; i++) {
		const struct pd_read_value *v = &s->read.values[i];
		const struct pd_evsel *e = pd_reader__evsel_by_id(p->r, v->id);
		struct last_value *last;
		uint64_t period;

		/* perf keeps the last value per known id only */
		if (!e)
			continue;
		last = lookup(p, v->id);
		if (!last)
			return -ENOMEM;
		period = v->value - last->value;
		last->value = v->value;
		if (!period)
			continue;
		d.evsel = e;
		d.id = v->id;
		d.period = period;
		err = emit(ctx, &d);
		if (err)
			return err;
	}
	return 0;
}

struct into_array {
	struct pd_read_delivery *out;
	int max, n;
};

static int store(void *ctx, const struct pd_read_delivery *d)
{
	struct into_array *a = ctx;

	/* beyond max the values are still consumed, their growth dropped */
	if (a->n < a->max)
		a->out[a->n++] = *d;
	return 0;
}

PD_EXPORT int pd_read_periods__deliver(struct pd_read_periods *p,
				       const struct pd_event *ev,
				       struct pd_read_delivery *out, int max)
{
	struct into_array a = { .out = out, .max = max };
	int err = walk(p, ev, store, &a);

	return err ? err : a.n;
}

struct as_samples {
	const struct pd_event *ev;
	pd_read_sample_fn fn;
	void *ctx;
};

static int call(void *ctx, const struct pd_read_delivery *d)
{
	struct as_samples *c = ctx;
	struct pd_event copy = *c->ev;

	copy.evsel = d->evsel;
	copy.u.sample.period = d->period;
	copy.u.sample.id = d->id;
	return c->fn(c->ctx, &copy);
}

PD_EXPORT int pd_read_periods__for_each(struct pd_read_periods *p,
					const struct pd_event *ev,
					pd_read_sample_fn fn, void *ctx)
{
	struct as_samples c = { .ev = ev, .fn = fn, .ctx = ctx };

	if (!(ev->u.sample.sample_type & PD_SAMPLE_READ))
		return fn(ctx, ev);
	return walk(p, ev, call, &c);
}
