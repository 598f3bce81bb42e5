/* SPDX-License-Identifier: MIT */
/*
 * pd-fold --symbolize: folded stacks whose user frames are raw
 * (fold-raw.h, pd-fold --raw) named once, here, by the library's own
 * lookup of a mapped file (pd_symbolizer__dso(): the build-id cache, an
 * archive, --symfs, --root, the file at its path, debuginfod; a file is
 * used only with the recorded build id), each frame then folded by the
 * folder's rules as pd-fold folds it from perf.data; raw kernel frames
 * (pd-fold --raw-kernel) are named from the symbols of their kernel
 * (fold-kernel.h). Frames that are not raw are kept as they are. Lines
 * that become equal are added up by the fold_sort the folder's sink
 * names.
 */
#ifndef PD_TOOLS_FOLD_SYMBOLIZE_H
#define PD_TOOLS_FOLD_SYMBOLIZE_H

#include <stdio.h>

struct folder;
struct fold_data_opts;
struct fold_symbolize;

/*
 * f: a folder whose sink takes the named stacks (fold.h), with weight
 * FOLD_WEIGHT_PERIOD. archive: a profile archive whose files name
 * frames too, or NULL. NULL (printed) on failure.
 */
struct fold_symbolize *fold_symbolize__new(struct folder *f,
					   const struct fold_data_opts *o,
					   const char *archive);
void fold_symbolize__free(struct fold_symbolize *s);

/* Every line of in (name: for messages). 0 or -errno (printed). */
int fold_symbolize__file(struct fold_symbolize *s, FILE *in,
			 const char *name);

#endif /* PD_TOOLS_FOLD_SYMBOLIZE_H */
