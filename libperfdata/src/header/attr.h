/* SPDX-License-Identifier: MIT */
/*
 * perf_event_attr as stored in a file, to the host-order struct pd_attr.
 */
#ifndef PD_ATTR_H
#define PD_ATTR_H

#include <stdbool.h>
#include <stddef.h>

#include <perfdata/format.h>

/*
 * Decode size bytes of an on-disk attr at src into dst. Fields past size
 * are zero (the kernel's rule for smaller attrs); bytes past
 * sizeof(struct pd_attr) are ignored here (callers keep them raw).
 * swap: src is from the other byte order, including the flag bitfield,
 * whose bit order follows the writer's byte order.
 */
void pd__attr_from_disk(struct pd_attr *dst, const void *src, size_t size,
			bool swap);

/*
 * The inverse: size bytes of on-disk attr from src (host order), in the
 * other byte order when swap. Bytes past sizeof(struct pd_attr) are zero.
 */
void pd__attr_to_disk(void *dst, const struct pd_attr *src, size_t size,
		      bool swap);

#endif /* PD_ATTR_H */
