// SPDX-License-Identifier: MIT
/*
 * sym_vec__sort() (sym-table.c) against qsort() by (start, seq), the
 * order perf's symbol trees give: on tables in insertion order (as an
 * ELF symbol table is read), on a sorted table with a tail appended (the
 * PLT's symbols after the first sort), on a table in no order at all,
 * and on sorted ones, all with many equal starts and starts that differ
 * in every byte.
 */
#include <stdlib.h>
#include <string.h>

#include "symbols/sym-internal.h"
#include "tap.h"

#define N	5000

static int by_start_seq(const void *a, const void *b)
{
	const struct sym_new *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static uint64_t rand64(void)
{
	return (uint64_t)rand() << 40 ^ (uint64_t)rand() << 20 ^ (uint64_t)rand();
}

/* start of entry i: few distinct values (ties), or any */
static uint64_t start_of(int kind)
{
	switch (kind) {
	case 0:
		return 0x400000 + (uint64_t)(rand() % 50) * 16;
	case 1:
		return rand64();
	default:
		return 0xffffffff81000000ULL + (uint64_t)(rand() % 100000);
	}
}

/* sorts sv the two ways; true when they agree */
static bool agrees(struct sym_vec *sv)
{
	struct sym_new *want = malloc(sv->nr * sizeof(*want));
	bool ok;

	memcpy(want, sv->v, sv->nr * sizeof(*want));
	qsort(want, sv->nr, sizeof(*want), by_start_seq);
	sym_vec__sort(sv);
	ok = !memcmp(want, sv->v, sv->nr * sizeof(*want));
	free(want);
	return ok;
}

static void fill(struct sym_vec *sv, size_t n, int kind)
{
	size_t i;

	for (i = 0; i < n; i++)
		sym_vec__push(sv, start_of(kind), (uint64_t)(rand() % 64), 1, "x");
}

int main(void)
{
	int kind;

	srand(2);
	for (kind = 0; kind < 3; kind++) {
		struct sym_vec sv = { 0 };
		size_t i;
		bool ok;

		fill(&sv, N, kind);
		CHECK(agrees(&sv), "kind %d: insertion order", kind);
		fill(&sv, N / 10, kind);
		CHECK(agrees(&sv), "kind %d: a sorted table and a tail", kind);
		CHECK(agrees(&sv), "kind %d: sorted already", kind);
		/* no order: seqs shuffled */
		for (i = sv.nr; i > 1; i--) {
			size_t j = (size_t)rand() % i;
			struct sym_new t = sv.v[i - 1];

			sv.v[i - 1] = sv.v[j];
			sv.v[j] = t;
		}
		CHECK(agrees(&sv), "kind %d: no order", kind);
		ok = true;
		for (i = 1; i < sv.nr; i++)
			ok &= by_start_seq(&sv.v[i - 1], &sv.v[i]) < 0;
		CHECK(ok, "kind %d: strictly ordered by (start, seq)", kind);
		free(sv.v);
	}
	return tap_done();
}
