/* SPDX-License-Identifier: MIT */
/*
 * The folder's aggregation: folded stack string -> count. Memory grows
 * with the number of distinct stacks only: keys are copied once, into
 * large arena blocks, when a stack is first seen.
 */
#ifndef PD_TOOLS_FOLD_TABLE_H
#define PD_TOOLS_FOLD_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct fold_table;

struct fold_table *fold_table__new(void);
void fold_table__free(struct fold_table *t);

/* Adds count to key (len bytes, no NUL needed). 0 or -ENOMEM. */
int fold_table__add(struct fold_table *t, const char *key, size_t len,
		    uint64_t count);

/* "KEY COUNT\n" for every key, keys sorted bytewise. 0 or -errno. */
/*
 * fold_table__add(), returning where the stack's count is kept: it
 * stays there (entries never move) for later samples of the stack to
 * add to. NULL when out of memory.
 */
uint64_t *fold_table__add_ref(struct fold_table *t, const char *key,
			      size_t len, uint64_t count);

int fold_table__write(struct fold_table *t, FILE *out);

#endif /* PD_TOOLS_FOLD_TABLE_H */
