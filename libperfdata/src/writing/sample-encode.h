/* SPDX-License-Identifier: MIT */
#ifndef PD_SAMPLE_ENCODE_H
#define PD_SAMPLE_ENCODE_H

#include <perfdata/event.h>

#include "reading/reader-state.h"

/*
 * Encode s as a SAMPLE record laid out for a (sample_type, read_format,
 * branch_sample_type) into buf, host byte order. A WEIGHT_STRUCT value
 * written where a only has WEIGHT keeps its latency half (var1_dw).
 * Returns 0 and the record size, or -PD_ERR_TOO_BIG.
 */
int pd__encode_sample(const struct pd_sample *s, const struct pd_attr *a,
		      uint16_t misc, void *buf, size_t cap, size_t *size);

/*
 * Encode rd as the body of a READ record (header, pid, tid, the values
 * laid out for read_format rf) into buf, without its sample_id trailer;
 * the header's size covers what was written. Returns 0 and the size, or
 * -PD_ERR_TOO_BIG.
 */
int pd__encode_read_record(const struct pd_read_event *rd, uint64_t rf,
			   uint16_t misc, void *buf, size_t cap, size_t *size);

/* The sample_id trailer of sample_type st; returns its size (<= 48). */
size_t pd__encode_trailer(const struct pd_sample_id *sid, uint64_t st,
			  void *buf);

#endif
