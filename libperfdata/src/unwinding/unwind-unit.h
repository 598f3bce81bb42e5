/* SPDX-License-Identifier: MIT */
/*
 * One unit of the offline unwinding (unwind-unit.c): an unwinder with its
 * own symbolizer and session, and a sample's user stack as it gives it.
 */
#ifndef PD_UNWIND_UNIT_H
#define PD_UNWIND_UNIT_H

#include <stdbool.h>
#include <stdint.h>

#include <perfdata/reader.h>
#include <perfdata/session.h>
#include <perfdata/unwind.h>

#include "unwind-state.h"

#define PD_UW_MAX_STACK		1024	/* --max-stack at most */

/* One unwinder with its own symbolizer and session. */
struct pd__uw_unit {
	struct pd_symbolizer *sym;
	struct pd_session *s;
	struct pd_unwinder *u;
	struct pd_unwind_ip ips[PD_UW_MAX_STACK];
};

/* The user stack of one sample. */
struct pd__uw_result {
	uint64_t offset, time;	/* the sample's, to check the order */
	int n;			/* pd_unwinder__user_stack()'s return */
	int nr;			/* entries in ips */
	int stop;		/* enum pd_unwind_stop */
	const char *dso;	/* interned by the unit's session */
	uint64_t ips[PD_UW_MAX_STACK];
	/* each entry's frame's stack pointer (0: not known), for stitching */
	uint64_t sps[PD_UW_MAX_STACK];
	bool act[PD_UW_MAX_STACK];	/* ... and whether it is exact */
	/* a helper's: what it did with libunwind's cache (-1: not known) */
	int nr_ops;
	struct uw_rs_op ops[PD_UW_MAX_STACK + 1];
};

struct pd__uw_unit *pd__uw_unit_new(struct pd_reader *r,
				    const struct pd_unwind_rewrite_opts *o);
void pd__uw_unit_free(struct pd__uw_unit *w);
int pd__uw_unit_event(struct pd__uw_unit *w, const struct pd_event *ev);
int pd__uw_unit_unwind(struct pd__uw_unit *w, const struct pd_event *ev,
		       struct pd__uw_result *res);

#endif /* PD_UNWIND_UNIT_H */
