/* SPDX-License-Identifier: MIT */
/*
 * pd-diff --report: the functions whose share of the samples changed
 * most, as perf diff ranks symbols. Per function (a frame name of the
 * folded stacks): self = the share of the counts whose stack ends in it
 * (it is the leaf), total = the share of the counts whose stack holds it,
 * counted once per stack however often it recurses; each in A and in B,
 * and B - A in percentage points. A stack's first frame is the command
 * (pd-fold's and stackcollapse-perf.pl's convention), not a function,
 * unless all_frames.
 */
#ifndef PD_TOOLS_DIFF_REPORT_H
#define PD_TOOLS_DIFF_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct diff_table;

enum diff_sort {
	DIFF_SORT_DELTA_SELF,	/* |B - A| of self, largest first (default) */
	DIFF_SORT_DELTA_TOTAL,	/* |B - A| of total */
	DIFF_SORT_SELF,		/* self in B, then in A, largest first */
	DIFF_SORT_TOTAL,	/* total in B, then in A */
	DIFF_SORT_NAME,		/* bytewise */
};

struct diff_report_opts {
	enum diff_sort sort;
	size_t limit;		/* rows at most; 0: all */
	double threshold;	/* hide rows whose self and total both moved
				 * by less than this many points */
	bool tsv;		/* --format=tsv */
	bool all_frames;	/* the first frame is a function, not the command */
	const char *name_a, *name_b;
};

/* 0, or -ENOMEM (write errors are the stream's). */
int diff_report(const struct diff_table *stacks, double total_a,
		double total_b, const struct diff_report_opts *o, FILE *out);

#endif /* PD_TOOLS_DIFF_REPORT_H */
