/* SPDX-License-Identifier: MIT */
/*
 * pd-fold --chronological: folded stacks in the order the samples came
 * (the session's time order), consecutive samples with the same stack
 * merged into one line, for a time-ordered flame chart
 * (pd-flame --flamechart). Memory grows with the number of runs of equal
 * stacks; each run's key is copied once.
 */
#ifndef PD_TOOLS_FOLD_RUNS_H
#define PD_TOOLS_FOLD_RUNS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct fold_runs;

struct fold_runs *fold_runs__new(void);
void fold_runs__free(struct fold_runs *r);

/* Adds count to the last run when key equals its key, else starts a run. */
int fold_runs__add(struct fold_runs *r, const char *key, size_t len,
		   uint64_t count);

/* "KEY COUNT\n" per run, in order. 0 or -errno. */
int fold_runs__write(struct fold_runs *r, FILE *out);

#endif /* PD_TOOLS_FOLD_RUNS_H */
