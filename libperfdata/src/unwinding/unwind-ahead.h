/* SPDX-License-Identifier: MIT */
/*
 * Unwinding ahead (unwind-ahead.c): a helper thread that reads the input
 * again and unwinds the user stacks of every other stretch of it, which
 * the unwinder then takes instead of unwinding those samples itself.
 */
#ifndef PD_UNWIND_AHEAD_H
#define PD_UNWIND_AHEAD_H

#include <stdbool.h>

#include <perfdata/unwind.h>

#include "unwind-state.h"

struct pd__uw_ahead;

/* The helper's answer for one sample: what pd_unwinder__user_stack()
 * gave there, and whether it said the frame registers warning. */
struct pd__uw_ahead_res {
	int n;
	int stop;			/* enum pd_unwind_stop */
	const char *dso;		/* interned by the helper's session */
	bool warned_frame_reg;
	const struct pd_unwind_ip *ips;	/* n entries */
	const uint64_t *sps;		/* their stack pointers */
	/* what it did with libunwind's cache (-1: not known) */
	int nr_ops;
	const struct uw_rs_op *ops;
};

/*
 * A helper for the unwinder of session s reading r's input, when opts ask
 * for one (jobs 2 or more) and the input can be read again (a regular
 * file at opts->path, no archive); else NULL. The helper starts reading
 * at once.
 */
struct pd__uw_ahead *pd__uw_ahead_start(struct pd_session *s,
					const struct pd_reader *r,
					const struct pd_unwind_opts *opts);
void pd__uw_ahead_stop(struct pd__uw_ahead *a);

/*
 * The helper's result for ev unwound with max frames at most into *res
 * (valid until the next call); false when ev is not one it unwound, or it
 * has no result for it (the caller unwinds ev itself then).
 */
bool pd__uw_ahead_take(struct pd__uw_ahead *a, const struct pd_event *ev,
		       int max, struct pd__uw_ahead_res *res);

#endif /* PD_UNWIND_AHEAD_H */
