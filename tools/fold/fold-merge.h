/* SPDX-License-Identifier: MIT */
/*
 * pd-fold --merge's inputs into a fold_sort (fold-sort.h): a regular
 * file already in pd-fold's order, as pd-fold writes them, is checked
 * once and merged in place; any other input (unsorted, standard input,
 * a pipe) is added line by line, to be sorted with bounded memory.
 */
#ifndef PD_TOOLS_FOLD_MERGE_H
#define PD_TOOLS_FOLD_MERGE_H

struct fold_sort;

/* path: a file or "-". 0 or -errno (printed, with file and line). */
int fold_merge__input(struct fold_sort *sort, const char *path);

#endif /* PD_TOOLS_FOLD_MERGE_H */
