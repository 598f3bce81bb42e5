/* SPDX-License-Identifier: MIT */
/*
 * perf_event_attr as text: the non-zero fields as ", name = value" pairs,
 * in the order and notation of perf's header and -v output.
 */
#ifndef PD_INFO_ATTR_H
#define PD_INFO_ATTR_H

#include <stdio.h>

#include <perfdata/format.h>

void pd_info_print_attr(FILE *out, const struct pd_attr *a);

#endif /* PD_INFO_ATTR_H */
