// SPDX-License-Identifier: MIT
/*
 * Delivery in time order. perf record drains its per-CPU buffers one after
 * the other and writes FINISHED_ROUND after each pass; a record seen
 * before the round n FINISHED_ROUND cannot be older than anything still to
 * come once round n+1 has been read. So records are kept in a min-heap by
 * time and, at each FINISHED_ROUND, those not newer than the largest time
 * of the previous round are released. Memory is bounded by two rounds.
 */
#include <errno.h>
#include <stdlib.h>

#include "reader-internal.h"

struct pd_order_queue {
	struct pd_queued **heap;
	size_t nr, cap;
	uint64_t seq;		/* ties keep file order */
	uint64_t max_time;	/* largest time pushed so far */
	uint64_t round_max;	/* max_time at the last FINISHED_ROUND */
	uint64_t limit;		/* release records with time <= limit */
	bool release_all;
};

static bool before(const struct pd_queued *a, const struct pd_queued *b)
{
	if (a->time != b->time)
		return a->time < b->time;
	return a->seq < b->seq;
}

static void sift_up(struct pd_order_queue *o, size_t i)
{
	while (i) {
		size_t parent = (i - 1) / 2;
		struct pd_queued *t;

		if (!before(o->heap[i], o->heap[parent]))
			break;
		t = o->heap[i];
		o->heap[i] = o->heap[parent];
		o->heap[parent] = t;
		i = parent;
	}
}

static void sift_down(struct pd_order_queue *o, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		struct pd_queued *t;

		if (l < o->nr && before(o->heap[l], o->heap[m]))
			m = l;
		if (l + 1 < o->nr && before(o->heap[l + 1], o->heap[m]))
			m = l + 1;
		if (m == i)
			return;
		t = o->heap[i];
		o->heap[i] = o->heap[m];
		o->heap[m] = t;
		i = m;
	}
}

int pd__order_push(struct pd_reader *r, const uint8_t *rec, uint32_t size,
		   uint64_t time, uint64_t offset, uint64_t inner_offset,
		   uint32_t flags)
{
	struct pd_order_queue *o = r->order;
	struct pd_queued *q;

	if (!o) {
		o = calloc(1, sizeof(*o));
		if (!o)
			return -ENOMEM;
		r->order = o;
	}
	if (o->nr == o->cap) {
		size_t cap = o->cap ? o->cap * 2 : 1024;
		struct pd_queued **h = realloc(o->heap, cap * sizeof(*h));

		if (!h)
			return -ENOMEM;
		o->heap = h;
		o->cap = cap;
	}
	q = malloc(sizeof(*q) + size);
	if (!q)
		return -ENOMEM;
	q->next = NULL;
	q->offset = offset;
	q->inner_offset = inner_offset;
	q->flags = flags;
	q->time = time;
	q->seq = o->seq++;
	q->size = size;
	memcpy(q->data, rec, size);
	o->heap[o->nr++] = q;
	sift_up(o, o->nr - 1);
	if (time > o->max_time)
		o->max_time = time;
	return 0;
}

void pd__order_round(struct pd_reader *r)
{
	struct pd_order_queue *o = r->order;

	if (!o)
		return;
	/* what was pushed up to the previous round is now safe */
	o->limit = o->round_max;
	o->round_max = o->max_time;
}

void pd__order_flush_all(struct pd_reader *r)
{
	if (r->order)
		r->order->release_all = true;
}

bool pd__order_pending(struct pd_reader *r)
{
	return r->order && r->order->nr && !r->order->release_all;
}

struct pd_queued *pd__order_pop(struct pd_reader *r)
{
	struct pd_order_queue *o = r->order;
	struct pd_queued *q;

	if (!o || !o->nr)
		return NULL;
	if (!o->release_all && o->heap[0]->time > o->limit)
		return NULL;
	q = o->heap[0];
	o->heap[0] = o->heap[--o->nr];
	sift_down(o, 0);
	return q;
}

void pd__order_free(struct pd_order_queue *o)
{
	size_t i;

	if (!o)
		return;
	for (i = 0; i < o->nr; i++)
		free(o->heap[i]);
	free(o->heap);
	free(o);
}
