/* SPDX-License-Identifier: MIT */
/*
 * --filter rule files. A file holds lines
 *
 *	SYM <regex>	the frame's function name (as folded, before
 *			_[k]/_[j]/_[i] annotations)
 *	EXEC <regex>	the frame's module as perf script prints it, a
 *			full path ("/usr/lib/x86_64-linux-gnu/libc.so.6")
 *			or a name in brackets ("[kernel.kallsyms]")
 *	ANY <regex>	either of the two
 *
 * with POSIX extended regexes, unanchored. Consecutive lines form a
 * group; a line "OR" starts the next group. A frame matches the filter
 * when it matches every line of at least one group. Blank lines and lines
 * starting with '#' are ignored.
 */
#ifndef PD_TOOLS_FOLD_FILTER_H
#define PD_TOOLS_FOLD_FILTER_H

#include <stdbool.h>

struct fold_filter;

/* Prints "FILE:LINE: why" and returns NULL (errno set) on a bad file. */
struct fold_filter *fold_filter__load(const char *path);
void fold_filter__free(struct fold_filter *ff);

bool fold_filter__match(const struct fold_filter *ff, const char *sym,
			const char *mod);

#endif /* PD_TOOLS_FOLD_FILTER_H */
