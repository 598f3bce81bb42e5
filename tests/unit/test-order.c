// SPDX-License-Identifier: MIT
/*
 * The time-order queue (order.c) against a plain stable sort: records
 * pushed in runs as perf writes them (each CPU's buffer in order, the
 * buffers one after the other, FINISHED_ROUND between passes), in random
 * order, and of sizes that span several chunks, come out as the sort of
 * what a round releases says, bytes intact, ties in push order.
 */
#include <stdlib.h>
#include <string.h>

#include "reading/reader-state.h"
#include "tap.h"

#define N	20000

struct rec {
	uint64_t time, seq;
	uint32_t size;
};

static uint8_t buf[PD_MAX_RECORD];

static int cmp_rec(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void fill(uint8_t *p, uint32_t size, uint64_t seq)
{
	uint32_t i;

	for (i = 0; i < size; i++)
		p[i] = (uint8_t)(seq * 31 + i);
}

static bool intact(const struct pd_queued *q, const struct rec *want)
{
	uint32_t i;

	if (q->size != want->size || q->time != want->time ||
	    q->offset != want->seq)
		return false;
	for (i = 0; i < q->size; i++)
		if (q->data[i] != (uint8_t)(want->seq * 31 + i))
			return false;
	return true;
}

/*
 * Pushes n records made by next_time(), a FINISHED_ROUND every round_len
 * of them, popping what each round releases; checks each popped record
 * against the stable sort of the expected release. Returns the number of
 * records delivered in order and intact.
 */
static size_t run(uint64_t (*next_time)(size_t i), size_t n, size_t round_len,
		  bool big)
{
	struct pd_reader r;
	struct rec *pending = calloc(n, sizeof(*pending));
	size_t nr_pending = 0, good = 0, i, out = 0;
	uint64_t max_time = 0, round_max = 0, limit = 0;
	const struct pd_queued *q;
	int err;

	memset(&r, 0, sizeof(r));
	for (i = 0; i <= n; i++) {
		bool round = i == n || (i && i % round_len == 0);

		if (round) {
			size_t k, rel = 0;

			if (i == n) {
				pd__order_round(&r);
				pd__order_flush_all(&r);
				limit = UINT64_MAX;
			} else {
				pd__order_round(&r);
				limit = round_max;
				round_max = max_time;
			}
			qsort(pending, nr_pending, sizeof(*pending), cmp_rec);
			while (rel < nr_pending && pending[rel].time <= limit)
				rel++;
			for (k = 0; k < rel; k++) {
				q = pd__order_pop(&r, &err);
				if (q && intact(q, &pending[k]))
					good++;
				out++;
			}
			if (pd__order_pop(&r, &err) || err)
				good = 0;	/* released too much */
			memmove(pending, pending + rel,
				(nr_pending - rel) * sizeof(*pending));
			nr_pending -= rel;
		}
		if (i == n)
			break;
		pending[nr_pending].time = next_time(i);
		pending[nr_pending].seq = i;
		pending[nr_pending].size = big && i % 97 == 0 ?
			PD_MAX_RECORD - 8 : 8 + 8 * (uint32_t)(i % 40);
		fill(buf, pending[nr_pending].size, i);
		if (pd__order_push(&r, buf, pending[nr_pending].size,
				   pending[nr_pending].time, i, 0, 0))
			break;
		if (pending[nr_pending].time > max_time)
			max_time = pending[nr_pending].time;
		nr_pending++;
	}
	pd__order_free(r.order);
	free(pending);
	return out == n ? good : 0;
}

/* two CPUs' buffers of 100 records drained in turn, as perf record does */
static uint64_t per_cpu(size_t i)
{
	size_t pass = i / 200, cpu = i % 200 / 100, k = i % 100;

	return pass * 1000 + k * 10 + cpu * 3;
}

static uint64_t random_time(size_t i)
{
	(void)i;
	return (uint64_t)(rand() % 5000);
}

static uint64_t equal_times(size_t i)
{
	return i / 1000;
}

int main(void)
{
	srand(1);
	CHECK(run(per_cpu, N, 200, false) == N,
	      "per-CPU runs: time order, ties in file order, bytes intact");
	CHECK(run(per_cpu, N, 200, true) == N,
	      "the same with records of the largest size among them");
	CHECK(run(random_time, N, 1000, false) == N,
	      "random times: what each round releases, in order");
	CHECK(run(equal_times, N, 300, false) == N,
	      "runs of equal times keep file order");
	return tap_done();
}
