/* SPDX-License-Identifier: MIT */
/*
 * pd-diff's tables: a key (a folded stack, or a function name for the
 * report) -> its counts in the two inputs. Keys are byte strings with a
 * length (a folded line may hold any byte but '\n'), copied once into
 * arena blocks; memory grows with the number of distinct keys.
 */
#ifndef PD_TOOLS_DIFF_TABLE_H
#define PD_TOOLS_DIFF_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "diff-num.h"

struct diff_entry {
	const char *key;	/* not NUL-terminated */
	size_t len;
	struct pnum count[2];	/* stacks: as difffolded.pl sums them */
	double self[2], total[2];	/* report: per function */
	size_t stamp;		/* report: the last stack that counted it */
};

struct diff_table;

struct diff_table *diff_table__new(void);
void diff_table__free(struct diff_table *t);

/* The entry of key, created zeroed if new; NULL (errno ENOMEM) on failure. */
struct diff_entry *diff_table__get(struct diff_table *t, const char *key,
				   size_t len);

size_t diff_table__count(const struct diff_table *t);

/*
 * Every entry, in the table's slot order (common/htab.h), into a new
 * array of diff_table__count() pointers that the caller frees; NULL on
 * failure (or when empty).
 */
struct diff_entry **diff_table__entries(const struct diff_table *t);

#endif /* PD_TOOLS_DIFF_TABLE_H */
