/* SPDX-License-Identifier: MIT */
/*
 * Folded stacks added up with bounded memory (pd-fold --merge,
 * --symbolize): an external merge sort. Stacks added one by one are
 * summed in a table until it holds about `mem` bytes, then written out
 * sorted to a temporary file (a run) and forgotten; files known to be
 * sorted already are runs as they are. The output is a k-way merge of
 * the runs, equal stacks added up, in pd-fold's order (fold_key_cmp()):
 * the same lines, byte for byte, as one table of every stack would
 * print. At most FOLD_SORT_FANIN runs are read at once; more are merged
 * in a tree, a level of temporary runs at a time.
 *
 * Temporary runs go to $TMPDIR (else /tmp), unlinked as soon as they
 * are made: nothing is left behind, however the program ends.
 */
#ifndef PD_TOOLS_FOLD_SORT_H
#define PD_TOOLS_FOLD_SORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* runs read at once: file descriptors and a line buffer each */
#define FOLD_SORT_FANIN		128
/* the table's default size before it is written out (-S) */
#define FOLD_SORT_MEM		(16u << 20)

struct fold_sort;

/* NULL when out of memory. */
struct fold_sort *fold_sort__new(size_t mem);
void fold_sort__free(struct fold_sort *s);

/* One stack (key: len bytes) and its count. 0 or -errno (printed). */
int fold_sort__add(struct fold_sort *s, const char *key, size_t len,
		   uint64_t count);

/*
 * A folded file whose stacks are in order (fold_key_cmp(), equal ones
 * next to each other), read in place when merged. 0 or -ENOMEM.
 */
int fold_sort__add_sorted(struct fold_sort *s, const char *path);

/*
 * Every stack, once, with its summed count, in order, into out.
 * 0, or -errno with the error printed (a sorted file that is not, or no
 * longer, readable or sorted: its name and line).
 */
int fold_sort__write(struct fold_sort *s, FILE *out);

#endif /* PD_TOOLS_FOLD_SORT_H */
