/* SPDX-License-Identifier: MIT */
/*
 * The shape of perf's symbol rb-tree, rebuilt to answer lookups where
 * symbols overlap as perf does.
 *
 * perf keeps a DSO's symbols in a red-black tree keyed by start address
 * and returns the first symbol on the search path that covers the
 * address. Where two symbols cover one address (a zero-size symbol such
 * as _init stretched by symbols__fixup_end() over the .plt, whose
 * NAME@plt symbols are inserted afterwards), which one answers depends
 * on the tree's shape: on insertion order, on the erasures of
 * symbols__fixup_duplicate(), and on the red-black balancing. The tree
 * here replays those operations with the classic red-black insertion and
 * deletion (the algorithm of the kernel's lib/rbtree.c, so the shapes
 * are the same) over node numbers, the symbols' insertion sequence.
 */
#ifndef PD_SYM_RBTREE_H
#define PD_SYM_RBTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sym_rbtree {
	int32_t *left, *right, *parent;	/* -1: none */
	uint64_t *key;			/* the node's start address */
	uint8_t *red;
	size_t alloc;
	int32_t root;
	bool failed;			/* out of memory: the shape is unknown */
};

void sym_rbtree__init(struct sym_rbtree *t);
void sym_rbtree__release(struct sym_rbtree *t);

/* Insert node (an unused number) with key, equal keys to the right. */
void sym_rbtree__insert(struct sym_rbtree *t, uint32_t node, uint64_t key);
/* Remove node (inserted before). */
void sym_rbtree__erase(struct sym_rbtree *t, uint32_t node);

#endif /* PD_SYM_RBTREE_H */
