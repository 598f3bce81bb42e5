// SPDX-License-Identifier: MIT
/*
 * The replay of perf's symbol tree (sym-rbtree.c): after any sequence of
 * insertions and erasures it is a valid red-black tree whose in-order
 * walk is sorted by key, equal keys in insertion order; and its shapes
 * are those of the classic algorithm, checked on sequences small enough
 * to work out by hand.
 */
#include <stdlib.h>
#include <string.h>

#include "symbols/sym-rbtree.h"
#include "tap.h"

#define N	3000

struct walk {
	uint32_t order[N];
	size_t n;
	bool bad;		/* a parent link or color rule broken */
	int black_height;	/* -1 until the first leaf */
};

/* In-order walk; returns the black height below n, checking the rules. */
static int walk(const struct sym_rbtree *t, int32_t n, int32_t parent,
		int blacks, struct walk *w)
{
	if (n < 0) {
		if (w->black_height < 0)
			w->black_height = blacks;
		else if (w->black_height != blacks)
			w->bad = true;
		return 0;
	}
	if (t->parent[n] != parent)
		w->bad = true;
	if (t->red[n] && parent >= 0 && t->red[parent])
		w->bad = true;
	walk(t, t->left[n], n, blacks + !t->red[n], w);
	if (w->n < N)
		w->order[w->n++] = (uint32_t)n;
	walk(t, t->right[n], n, blacks + !t->red[n], w);
	return 0;
}

static bool valid(const struct sym_rbtree *t, size_t expect_nodes,
		  struct walk *w)
{
	size_t i;

	memset(w, 0, sizeof(*w));
	w->black_height = -1;
	if (t->root >= 0 && t->red[t->root])
		return false;
	walk(t, t->root, -1, 0, w);
	if (w->bad || w->n != expect_nodes)
		return false;
	for (i = 1; i < w->n; i++) {
		uint32_t a = w->order[i - 1], b = w->order[i];

		/* node numbers are the insertion order */
		if (t->key[a] > t->key[b] || (t->key[a] == t->key[b] && a > b))
			return false;
	}
	return true;
}

static void test_sequential(void)
{
	struct sym_rbtree t;
	uint32_t i;

	/* keys 1..7 in order: 2 at the root, 4 its right child, 6 below */
	sym_rbtree__init(&t);
	for (i = 0; i < 7; i++)
		sym_rbtree__insert(&t, i, i + 1);
	CHECK(t.root == 1 && t.left[1] == 0 && t.right[1] == 3 &&
	      t.left[3] == 2 && t.right[3] == 5 && t.left[5] == 4 &&
	      t.right[5] == 6, "1..7 inserted in order: the textbook shape");
	CHECK(!t.red[1] && t.red[3] && !t.red[5] && t.red[4] && t.red[6],
	      "1..7: the textbook colors");
	/* erasing the root: its successor (3) takes its place and color */
	sym_rbtree__erase(&t, 1);
	CHECK(t.root == 2 && t.left[2] == 0 && !t.red[2],
	      "erasing a node with two children splices in its successor");
	sym_rbtree__release(&t);
}

static void test_random(void)
{
	static bool present[N];
	struct sym_rbtree t;
	struct walk *w = malloc(sizeof(*w));
	size_t nodes = 0, i;
	bool ok = true;

	srand(42);
	sym_rbtree__init(&t);
	memset(present, 0, sizeof(present));
	for (i = 0; i < N && w; i++) {
		/* few distinct keys: many equal starts, as aliases give */
		sym_rbtree__insert(&t, (uint32_t)i, (uint64_t)(rand() % 500));
		present[i] = true;
		nodes++;
		if (i % 3 == 2) {
			size_t victim = (size_t)rand() % (i + 1);

			if (present[victim]) {
				sym_rbtree__erase(&t, (uint32_t)victim);
				present[victim] = false;
				nodes--;
			}
		}
		if (i % 97 == 0 && !valid(&t, nodes, w))
			ok = false;
	}
	CHECK(w && ok && valid(&t, nodes, w) && !t.failed,
	      "%d insertions and about %d erasures: red-black, sorted, ties in insertion order",
	      N, N / 3);
	free(w);
	sym_rbtree__release(&t);
}

int main(void)
{
	test_sequential();
	test_random();
	return tap_done();
}
