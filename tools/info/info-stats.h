/* SPDX-License-Identifier: MIT */
#ifndef PD_INFO_STATS_H
#define PD_INFO_STATS_H

#include <stdio.h>

#include <perfdata/reader.h>

/*
 * Reads every record and prints perf report --stats' "Aggregated stats:"
 * block and the per-event sample counts. Returns 0 or a negative error.
 */
int pd_info_print_stats(FILE *out, struct pd_reader *r);

#endif
