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

/*
 * Adds count to key (len bytes, no NUL needed). 1 when the key is new,
 * 0 when it was there, -ENOMEM.
 */
int fold_table__add(struct fold_table *t, const char *key, size_t len,
		    uint64_t count);

/* The number of keys. */
size_t fold_table__nr(const struct fold_table *t);

/*
 * The order of folded stacks: Perl's `sort { $a cmp $b }` on byte
 * strings (unsigned bytes, then length), stackcollapse-perf.pl's.
 */
int fold_key_cmp(const char *a, size_t alen, const char *b, size_t blen);

/* "KEY COUNT\n" into out (counts in decimal). */
void fold_put_line(FILE *out, const char *key, size_t len, uint64_t count);

/*
 * fold_table__add(), returning where the stack's count is kept: it
 * stays there (entries never move) for later samples of the stack to
 * add to. NULL when out of memory.
 */
uint64_t *fold_table__add_ref(struct fold_table *t, const char *key,
			      size_t len, uint64_t count);

/* "KEY COUNT\n" for every key, keys sorted bytewise. 0 or -errno. */
int fold_table__write(struct fold_table *t, FILE *out);

#endif /* PD_TOOLS_FOLD_TABLE_H */
