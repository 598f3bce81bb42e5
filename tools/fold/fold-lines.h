/* SPDX-License-Identifier: MIT */
/*
 * Folded text read back ("STACK COUNT" lines, the count after the last
 * blank), for pd-fold --merge and --symbolize, with stackcollapse's and
 * pd-fold's own rules: blank lines skipped, CR LF taken, anything else
 * an error naming the file and line.
 */
#ifndef PD_TOOLS_FOLD_LINES_H
#define PD_TOOLS_FOLD_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * A folded line "STACK COUNT" (without its newline; len is updated to
 * the stack's length): false when it is not one.
 */
bool fold_parse_line(const char *line, size_t *len, uint64_t *count);

/*
 * Reads folded lines from in, skipping blank ones; fn gets each stack.
 * name (for messages) is the file's. Returns 0, fn's first non-zero
 * result (a positive one stops the reading without error), or -EINVAL with "NAME:LINE: ..." printed for a line that is no folded
 * stack (or -EIO for a read error).
 */
typedef int (*fold_line_fn)(void *ctx, const char *key, size_t len,
			    uint64_t count);
int fold_read_lines(FILE *in, const char *name, fold_line_fn fn, void *ctx);

#endif /* PD_TOOLS_FOLD_LINES_H */
