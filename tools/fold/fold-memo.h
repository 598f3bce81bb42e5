/* SPDX-License-Identifier: MIT */
/*
 * The folder's frame memo: what a frame folded to (zero or more stack
 * entries, leaf first), under a key its caller chose. perf.data input
 * knows when two frames print alike (the same symbol and module objects
 * of the session), so it formats and parses a frame's text once and
 * replays the result for every later frame of the same key: the text
 * route stays the single definition of the folding, at a fraction of its
 * cost.
 */
#ifndef PD_TOOLS_FOLD_MEMO_H
#define PD_TOOLS_FOLD_MEMO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* bytes [off, off + len) of a text buffer */
struct fold_span {
	size_t off, len;
};

struct fold_memo_key {
	const void *a, *b, *c;	/* pointers stable for the whole run */
	unsigned int flags;	/* folder state the result depends on */
};

struct fold_memo_entry {
	const char **names;	/* leaf first */
	uint32_t *lens;
	uint32_t nr;
};

struct fold_memo;

struct fold_memo *fold_memo__new(void);
void fold_memo__free(struct fold_memo *m);

/* The entry of k, NULL when none was stored. */
const struct fold_memo_entry *fold_memo__find(const struct fold_memo *m,
					      const struct fold_memo_key *k);

/*
 * Store under k the nr names spans[i] of text (copied). 0 or -ENOMEM.
 */
int fold_memo__store(struct fold_memo *m, const struct fold_memo_key *k,
		     const char *text, const struct fold_span *spans,
		     size_t nr);

#endif /* PD_TOOLS_FOLD_MEMO_H */
