// SPDX-License-Identifier: MIT
/*
 * The attr bits a target knows, from its table entry (attr_flags,
 * branch_filter, aux_action, read_format): what perf 5.10 and later
 * check an attr against (header.c, perf_attr_check(), called for each
 * EVENT_DESC entry) before warning "Reserved bits are set unexpectedly",
 * "Unknown read format" or "Unknown branch sample type" and dropping the
 * event names. Older perfs do not check, but clearing bits they cannot
 * know does not change what they read.
 */
#include "attr-bits.h"

/*
 * read_format bits below PERF_FORMAT_MAX: TOTAL_TIME_ENABLED, _RUNNING,
 * ID and GROUP are in every uapi (2.6.31 on), LOST from 6.0. A target's
 * read_format field says what its sample parser decodes (none for 3.10,
 * which refuses sample READ): only LOST is unknown to an older uapi.
 */
static uint64_t known_read_format(const struct pd_perf_target *t)
{
	return PD_FORMAT_TOTAL_TIME_ENABLED | PD_FORMAT_TOTAL_TIME_RUNNING |
	       PD_FORMAT_ID | PD_FORMAT_GROUP | (t->read_format & PD_FORMAT_LOST);
}

bool pd__attr_bits_fit(const struct pd_perf_target *t, struct pd_attr *a,
		       struct pd_attr_bits *rm)
{
	/* a target made without them (0) states nothing: kept */
	uint64_t flags = t->attr_flags ? a->flags & ~t->attr_flags : 0;
	uint64_t rf = a->read_format & ~known_read_format(t);
	uint64_t br = t->branch_filter ?
		      a->branch_sample_type & ~t->branch_filter : 0;
	uint32_t aux = a->aux_action & ~t->aux_action;
	uint16_t res2 = a->reserved_2;

	/*
	 * Bits that lay out samples are the sample-type shim's, which
	 * rewrites the samples: left alone here.
	 */
	if (a->sample_type & PD_SAMPLE_READ)
		rf = 0;
	br &= ~(PD_BRANCH_HW_INDEX | PD_BRANCH_COUNTERS);

	a->flags &= ~flags;
	a->read_format &= ~rf;
	a->branch_sample_type &= ~br;
	a->aux_action &= ~aux;
	a->reserved_2 = 0;
	rm->flags |= flags;
	rm->read_format |= rf;
	rm->branch |= br;
	rm->aux_action |= aux;
	rm->reserved_2 |= res2;
	return flags || rf || br || aux || res2;
}
