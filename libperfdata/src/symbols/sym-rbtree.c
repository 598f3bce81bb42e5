// SPDX-License-Identifier: MIT
/*
 * Red-black insertion and deletion over node numbers (see sym-rbtree.h):
 * insertion fixes up by recoloring while the uncle is red, else with one
 * or two rotations; deletion splices out the node, or its in-order
 * successor when it has two children, and fixes up from the spliced
 * position's parent. Written from the textbook algorithm.
 */
#include <stdlib.h>
#include <string.h>

#include "sym-rbtree.h"

#define NONE	(-1)

void sym_rbtree__init(struct sym_rbtree *t)
{
	memset(t, 0, sizeof(*t));
	t->root = NONE;
}

void sym_rbtree__release(struct sym_rbtree *t)
{
	free(t->left);
	free(t->right);
	free(t->parent);
	free(t->key);
	free(t->red);
	sym_rbtree__init(t);
}

static bool reserve(struct sym_rbtree *t, size_t n)
{
	size_t alloc = t->alloc ? t->alloc : 256;
	int32_t *l, *r, *p;
	uint64_t *k;
	uint8_t *c;

	if (n < t->alloc)
		return true;
	while (alloc <= n)
		alloc *= 2;
	l = realloc(t->left, alloc * sizeof(*l));
	if (l)
		t->left = l;
	r = realloc(t->right, alloc * sizeof(*r));
	if (r)
		t->right = r;
	p = realloc(t->parent, alloc * sizeof(*p));
	if (p)
		t->parent = p;
	k = realloc(t->key, alloc * sizeof(*k));
	if (k)
		t->key = k;
	c = realloc(t->red, alloc);
	if (c)
		t->red = c;
	if (!l || !r || !p || !k || !c)
		return false;
	t->alloc = alloc;
	return true;
}

static bool is_red(const struct sym_rbtree *t, int32_t n)
{
	return n != NONE && t->red[n];
}

/* Put child where node was under node's parent. */
static void replace_child(struct sym_rbtree *t, int32_t node, int32_t child)
{
	int32_t p = t->parent[node];

	if (p == NONE)
		t->root = child;
	else if (t->left[p] == node)
		t->left[p] = child;
	else
		t->right[p] = child;
	if (child != NONE)
		t->parent[child] = p;
}

static void rotate_left(struct sym_rbtree *t, int32_t x)
{
	int32_t y = t->right[x];

	t->right[x] = t->left[y];
	if (t->left[y] != NONE)
		t->parent[t->left[y]] = x;
	replace_child(t, x, y);
	t->left[y] = x;
	t->parent[x] = y;
}

static void rotate_right(struct sym_rbtree *t, int32_t x)
{
	int32_t y = t->left[x];

	t->left[x] = t->right[y];
	if (t->right[y] != NONE)
		t->parent[t->right[y]] = x;
	replace_child(t, x, y);
	t->right[y] = x;
	t->parent[x] = y;
}

void sym_rbtree__insert(struct sym_rbtree *t, uint32_t node, uint64_t key)
{
	int32_t z = (int32_t)node, y = NONE, x = t->root;

	if (t->failed || !reserve(t, node)) {
		t->failed = true;
		return;
	}
	while (x != NONE) {
		y = x;
		x = key < t->key[x] ? t->left[x] : t->right[x];
	}
	t->key[z] = key;
	t->left[z] = t->right[z] = NONE;
	t->parent[z] = y;
	t->red[z] = 1;
	if (y == NONE)
		t->root = z;
	else if (key < t->key[y])
		t->left[y] = z;
	else
		t->right[y] = z;

	while (is_red(t, t->parent[z])) {
		int32_t p = t->parent[z], g = t->parent[p], u;

		if (p == t->left[g]) {
			u = t->right[g];
			if (is_red(t, u)) {
				t->red[p] = t->red[u] = 0;
				t->red[g] = 1;
				z = g;
				continue;
			}
			if (z == t->right[p]) {
				rotate_left(t, p);
				z = p;
				p = t->parent[z];
			}
			t->red[p] = 0;
			t->red[g] = 1;
			rotate_right(t, g);
		} else {
			u = t->left[g];
			if (is_red(t, u)) {
				t->red[p] = t->red[u] = 0;
				t->red[g] = 1;
				z = g;
				continue;
			}
			if (z == t->left[p]) {
				rotate_right(t, p);
				z = p;
				p = t->parent[z];
			}
			t->red[p] = 0;
			t->red[g] = 1;
			rotate_left(t, g);
		}
	}
	t->red[t->root] = 0;
}

/* x (possibly none) under parent p lost one black: restore the counts. */
static void erase_fixup(struct sym_rbtree *t, int32_t x, int32_t p)
{
	while (x != t->root && !is_red(t, x)) {
		int32_t w;

		if (x == t->left[p]) {
			w = t->right[p];
			if (is_red(t, w)) {
				t->red[w] = 0;
				t->red[p] = 1;
				rotate_left(t, p);
				w = t->right[p];
			}
			if (!is_red(t, t->left[w]) && !is_red(t, t->right[w])) {
				t->red[w] = 1;
				x = p;
				p = t->parent[x];
				continue;
			}
			if (!is_red(t, t->right[w])) {
				t->red[t->left[w]] = 0;
				t->red[w] = 1;
				rotate_right(t, w);
				w = t->right[p];
			}
			t->red[w] = t->red[p];
			t->red[p] = 0;
			t->red[t->right[w]] = 0;
			rotate_left(t, p);
		} else {
			w = t->left[p];
			if (is_red(t, w)) {
				t->red[w] = 0;
				t->red[p] = 1;
				rotate_right(t, p);
				w = t->left[p];
			}
			if (!is_red(t, t->left[w]) && !is_red(t, t->right[w])) {
				t->red[w] = 1;
				x = p;
				p = t->parent[x];
				continue;
			}
			if (!is_red(t, t->left[w])) {
				t->red[t->right[w]] = 0;
				t->red[w] = 1;
				rotate_left(t, w);
				w = t->left[p];
			}
			t->red[w] = t->red[p];
			t->red[p] = 0;
			t->red[t->left[w]] = 0;
			rotate_right(t, p);
		}
		x = t->root;
	}
	if (x != NONE)
		t->red[x] = 0;
}

void sym_rbtree__erase(struct sym_rbtree *t, uint32_t node)
{
	int32_t z = (int32_t)node, x, p, y;
	bool removed_red;

	if (t->failed)
		return;
	if (t->left[z] == NONE || t->right[z] == NONE) {
		x = t->left[z] == NONE ? t->right[z] : t->left[z];
		p = t->parent[z];
		removed_red = t->red[z];
		replace_child(t, z, x);
	} else {
		/* the successor takes z's place and color */
		for (y = t->right[z]; t->left[y] != NONE; y = t->left[y])
			;
		removed_red = t->red[y];
		x = t->right[y];
		if (t->parent[y] == z) {
			p = y;
		} else {
			p = t->parent[y];
			replace_child(t, y, x);
			t->right[y] = t->right[z];
			t->parent[t->right[y]] = y;
		}
		replace_child(t, z, y);
		t->left[y] = t->left[z];
		t->parent[t->left[y]] = y;
		t->red[y] = t->red[z];
	}
	if (!removed_red)
		erase_fixup(t, x, p);
}
