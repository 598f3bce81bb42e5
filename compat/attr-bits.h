/* SPDX-License-Identifier: MIT */
/*
 * The attr bits a target knows (compat/attr-bits.c).
 */
#ifndef PD_COMPAT_ATTR_BITS_H
#define PD_COMPAT_ATTR_BITS_H

#include <stdbool.h>

#include <perfdata/compat.h>
#include <perfdata/format.h>

/* What pd__attr_bits_fit() took out of attrs, ORed over them. */
struct pd_attr_bits {
	uint64_t flags;		/* flag bits at offset 40 */
	uint64_t read_format;
	uint64_t branch;	/* branch_sample_type filter bits */
	uint32_t aux_action;	/* bits of the u32 at offset 116 */
	uint16_t reserved_2;	/* the u16 at offset 110 */
};

/*
 * Clear in a every flag, read_format, branch filter and reserved bit t
 * does not know; what went is ORed into *rm. Returns true if a changed.
 * None of these bits changes a record's layout except read_format, which
 * lays out READ records: the caller rewrites those when it changed.
 */
bool pd__attr_bits_fit(const struct pd_perf_target *t, struct pd_attr *a,
		       struct pd_attr_bits *rm);

#endif
