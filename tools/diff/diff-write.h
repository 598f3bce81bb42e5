/* SPDX-License-Identifier: MIT */
/*
 * pd-diff's default output: "STACK COUNT_A COUNT_B" per stack seen in
 * either input (0 where it was not), the input of flamegraph.pl for a
 * differential flame graph; difffolded.pl's lines. The script prints in
 * Perl's hash order, which changes from run to run; these are sorted
 * bytewise, as `difffolded.pl A B | LC_ALL=C sort` prints them.
 */
#ifndef PD_TOOLS_DIFF_WRITE_H
#define PD_TOOLS_DIFF_WRITE_H

#include <stdbool.h>
#include <stdio.h>

#include "diff-num.h"

struct diff_table;

/*
 * normalize (-n): A's counts scaled to B's total, truncated, as the
 * script does. -EDOM when that needs a division by A's total of 0 (the
 * script dies), -ENOMEM; else 0 (write errors are the stream's).
 */
int diff_write_folded(const struct diff_table *t, struct pnum total_a,
		      struct pnum total_b, bool normalize, FILE *out);

#endif /* PD_TOOLS_DIFF_WRITE_H */
