/* SPDX-License-Identifier: MIT */
#ifndef PD_INFO_DUMP_H
#define PD_INFO_DUMP_H

#include <stdio.h>

#include <perfdata/reader.h>

/*
 * One line per record: offset, size, type and decoded fields, in the
 * spirit of perf report -D. Returns 0 or a negative error.
 */
int pd_info_print_dump(FILE *out, struct pd_reader *r);

#endif
