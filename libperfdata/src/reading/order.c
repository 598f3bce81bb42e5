// SPDX-License-Identifier: MIT
/*
 * Delivery in time order. perf record drains its per-CPU buffers one after
 * the other and writes FINISHED_ROUND after each pass; a record seen
 * before the round n FINISHED_ROUND cannot be older than anything still to
 * come once round n+1 has been read. So records are queued and, at each
 * FINISHED_ROUND, those not newer than the largest time of the previous
 * round are released, oldest first (ties in file order). Memory is bounded
 * by two rounds.
 *
 * This runs for every record of a profile, so it is built on what perf
 * writes: each buffer's records are already in time order, so the queue
 * is a set of runs, each a list of records in order, and a record that
 * is not older than the last one queued joins its run. Releasing merges
 * the runs through a small heap of their first records' (time, sequence),
 * a handful per round rather than one per record. Records are copied end
 * to end into large chunks, reused once all their records are delivered:
 * nothing is allocated per record.
 *
 * Except large samples of a file (DWARF stack copies: 64 KiB each, most
 * of a system-wide profile's bytes), which are left where they are: the
 * queue keeps their offset, the reader skips their bodies (stream.c), and
 * each is read once, when delivered, into one buffer. Copying them into
 * the queue cost more than the rest of reading (a copy through the input
 * buffer, a copy into the queue, and the kernel zeroing every chunk page
 * first touched), and kept two rounds of them (hundreds of MiB with
 * perf record -m) in memory.
 */
#include <errno.h>
#include <stdlib.h>

#include "reader-state.h"

#define CHUNK_SIZE	(512 * 1024)
#define NO_RUN		UINT32_MAX

struct chunk {
	struct chunk *next;	/* in the spare list */
	struct chunk *all;	/* every chunk, freed with the queue */
	size_t size, used;
	size_t live;		/* records stored here not yet delivered */
	uint8_t data[];
};

/* records in time order, linked through pd_queued.next */
struct run {
	struct pd_queued *head, *tail;
	uint32_t next_free;
};

/* a run in the heap: its first record's time and sequence, by value */
struct entry {
	uint64_t time;
	uint64_t seq;		/* ties keep file order */
	uint32_t run;
};

struct pd_order_queue {
	struct entry *heap;
	size_t nr, cap;
	struct run *runs;
	uint32_t nr_runs, free_run;
	uint32_t cur;		/* the run the last record joined */
	uint64_t seq;
	uint64_t max_time;	/* largest time pushed so far */
	uint64_t round_max;	/* max_time at the last FINISHED_ROUND */
	uint64_t limit;		/* release records with time <= limit */
	bool release_all;
	size_t queued;
	struct chunk *fill;	/* where the next record goes */
	struct chunk *spare;	/* emptied chunks, kept for reuse */
	struct chunk *chunks;	/* all of them */
	struct pd_queued *got;	/* a record left in the file, read back */
	size_t got_cap;
};

uint32_t pd__order_in_file_min = 4096;

static bool before(const struct entry *a, const struct entry *b)
{
	if (a->time != b->time)
		return a->time < b->time;
	return a->seq < b->seq;
}

static void sift_up(struct entry *heap, size_t i)
{
	struct entry e = heap[i];

	while (i) {
		size_t parent = (i - 1) / 2;

		if (!before(&e, &heap[parent]))
			break;
		heap[i] = heap[parent];
		i = parent;
	}
	heap[i] = e;
}

static void sift_down(struct entry *heap, size_t nr, size_t i)
{
	struct entry e = heap[i];

	for (;;) {
		size_t l = 2 * i + 1, m;

		if (l >= nr)
			break;
		m = l + 1 < nr && before(&heap[l + 1], &heap[l]) ? l + 1 : l;
		if (!before(&heap[m], &e))
			break;
		heap[i] = heap[m];
		i = m;
	}
	heap[i] = e;
}

static size_t rec_space(uint32_t size)
{
	/* 8 spare bytes after the record, as the reader's own buffer has */
	return (sizeof(struct pd_queued) + size + 8 + 7) & ~(size_t)7;
}

/* room for a record of size bytes, or NULL */
static struct pd_queued *room(struct pd_order_queue *o, uint32_t size)
{
	size_t need = rec_space(size);
	struct chunk *c = o->fill;
	struct pd_queued *q;

	if (!c || c->size - c->used < need) {
		if (c && !c->live && c->size >= need) {
			/* delivered already: start it over */
			c->used = 0;
		} else {
			if (c && !c->live) {
				c->next = o->spare;
				o->spare = c;
			}
			if (o->spare && o->spare->size >= need) {
				c = o->spare;
				o->spare = c->next;
			} else {
				size_t sz = need > CHUNK_SIZE ? need : CHUNK_SIZE;

				c = malloc(sizeof(*c) + sz);
				if (!c)
					return NULL;
				c->size = sz;
				c->all = o->chunks;
				o->chunks = c;
			}
			c->used = 0;
			c->live = 0;
			o->fill = c;
		}
	}
	q = (struct pd_queued *)(c->data + c->used);
	c->used += need;
	c->live++;
	q->chunk = c;
	return q;
}

static uint32_t new_run(struct pd_order_queue *o)
{
	uint32_t i;

	if (o->free_run != NO_RUN) {
		i = o->free_run;
		o->free_run = o->runs[i].next_free;
		return i;
	}
	if (!(o->nr_runs & (o->nr_runs - 1)) || !o->nr_runs) {
		size_t n = o->nr_runs ? 2 * (size_t)o->nr_runs : 16;
		struct run *v;

		if (n >= NO_RUN)
			return NO_RUN;
		v = realloc(o->runs, n * sizeof(*v));
		if (!v)
			return NO_RUN;
		o->runs = v;
	}
	return o->nr_runs++;
}

/*
 * A record of size bytes into the queue, its first kept bytes stored (0:
 * left in the file); *qp the queued record
 */
static int push(struct pd_reader *r, const uint8_t *rec, uint32_t size,
		uint32_t kept, uint64_t time, uint64_t offset,
		uint64_t inner_offset, uint32_t flags, struct pd_queued **qp)
{
	struct pd_order_queue *o = r->order;
	struct pd_queued *q;
	struct run *run;
	uint32_t i;

	if (!o) {
		o = calloc(1, sizeof(*o));
		if (!o)
			return -ENOMEM;
		o->free_run = NO_RUN;
		o->cur = NO_RUN;
		r->order = o;
	}
	if (o->nr == o->cap) {
		size_t cap = o->cap ? o->cap * 2 : 64;
		struct entry *h = realloc(o->heap, cap * sizeof(*h));

		if (!h)
			return -ENOMEM;
		o->heap = h;
		o->cap = cap;
	}
	q = room(o, kept);
	if (!q)
		return -ENOMEM;
	q->next = NULL;
	q->offset = offset;
	q->inner_offset = inner_offset;
	q->flags = flags;
	q->time = time;
	q->seq = o->seq++;
	q->size = size;
	q->in_file = kept != size;
	q->stack_at = q->stack_size = 0;
	*qp = q;
	if (kept) {
		memcpy(q->data, rec, kept);
		memset(q->data + kept, 0, 8);
	}
	o->queued++;
	if (time > o->max_time)
		o->max_time = time;
	if (o->cur != NO_RUN && o->runs[o->cur].tail->time <= time) {
		run = &o->runs[o->cur];
		run->tail->next = q;
		run->tail = q;
		return 0;
	}
	i = new_run(o);
	if (i == NO_RUN) {
		/* the record stays in its chunk, undelivered: an error */
		return -ENOMEM;
	}
	run = &o->runs[i];
	run->head = run->tail = q;
	o->cur = i;
	o->heap[o->nr] = (struct entry){ .time = time, .seq = q->seq, .run = i };
	sift_up(o->heap, o->nr++);
	return 0;
}

int pd__order_push(struct pd_reader *r, const uint8_t *rec, uint32_t size,
		   uint64_t time, uint64_t offset, uint64_t inner_offset,
		   uint32_t flags)
{
	struct pd_queued *q;

	return push(r, rec, size, size, time, offset, inner_offset, flags, &q);
}

int pd__order_push_in_file(struct pd_reader *r, uint32_t size, uint64_t time,
			   uint64_t offset, uint32_t stack_at,
			   uint32_t stack_size)
{
	struct pd_queued *q;
	int err = push(r, NULL, size, 0, time, offset, 0, 0, &q);

	if (err)
		return err;
	q->stack_at = stack_at;
	q->stack_size = stack_size;
	return 0;
}

/* q's bytes, left in the file, into o->got: NULL (and *err) on failure */
static const struct pd_queued *read_back(struct pd_reader *r,
					 const struct pd_queued *q, int *err)
{
	struct pd_order_queue *o = r->order;
	size_t need = sizeof(*q) + q->size + 8;

	if (need > o->got_cap) {
		struct pd_queued *g = malloc(need);

		if (!g) {
			*err = pd__set_error(r, -ENOMEM, q->offset,
					     "sample of %u bytes: out of memory",
					     q->size);
			return NULL;
		}
		free(o->got);
		o->got = g;
		o->got_cap = need;
	}
	*o->got = *q;
	o->got->in_file = false;
	*err = pd__sample_read_back(r, q->offset, q->size, q->stack_at,
				    q->stack_size, o->got->data, NULL, 0);
	return *err ? NULL : o->got;
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
	return r->order && r->order->queued && !r->order->release_all;
}

/*
 * The record stays readable until the next push or pop: only then may
 * its chunk, emptied, be written again. NULL with *err 0: none to
 * deliver yet.
 */
const struct pd_queued *pd__order_pop(struct pd_reader *r, int *err)
{
	struct pd_order_queue *o = r->order;
	struct pd_queued *q;
	struct chunk *c;
	struct run *run;
	uint32_t i;

	*err = 0;
	if (!o || !o->nr)
		return NULL;
	if (!o->release_all && o->heap[0].time > o->limit)
		return NULL;
	i = o->heap[0].run;
	run = &o->runs[i];
	q = run->head;
	run->head = q->next;
	if (run->head) {
		o->heap[0].time = run->head->time;
		o->heap[0].seq = run->head->seq;
	} else {
		run->next_free = o->free_run;
		o->free_run = i;
		if (o->cur == i)
			o->cur = NO_RUN;
		o->heap[0] = o->heap[--o->nr];
	}
	if (o->nr > 1)
		sift_down(o->heap, o->nr, 0);
	o->queued--;
	c = q->chunk;
	if (!--c->live && c != o->fill) {
		c->next = o->spare;
		o->spare = c;
	}
	/* (the chunk stays as it is until the next push) */
	return q->in_file ? read_back(r, q, err) : q;
}

void pd__order_free(struct pd_order_queue *o)
{
	struct chunk *c;

	if (!o)
		return;
	while ((c = o->chunks)) {
		o->chunks = c->all;
		free(c);
	}
	free(o->runs);
	free(o->heap);
	free(o->got);
	free(o);
}
