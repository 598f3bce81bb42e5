/* SPDX-License-Identifier: MIT */
/*
 * pd-info's header view: the file header and every feature, in the
 * layout of 'perf report --header-only' (-I with PD_INFO_HEADER_FULL).
 */
#ifndef PD_INFO_HEADER_H
#define PD_INFO_HEADER_H

#include <stdio.h>

#include <perfdata/reader.h>

/* every feature in full, like perf's -I */
#define PD_INFO_HEADER_FULL	1

/* path: the input as given ("-" for stdin), for its modification time */
int pd_info_print_header(FILE *out, struct pd_reader *r, const char *path,
			 unsigned int flags);

#endif /* PD_INFO_HEADER_H */
