/* SPDX-License-Identifier: MIT */
/*
 * The parts of the offline unwinding (unwind-rewrite.c) and of its
 * threads (unwind-jobs.c).
 */
#ifndef PD_UNWIND_REWRITE_H
#define PD_UNWIND_REWRITE_H

#include <stdint.h>

#include <perfdata/reader.h>
#include <perfdata/session.h>
#include <perfdata/unwind.h>

#include "unwind-unit.h"

/* kernel entries (perf keeps at most 127 and the context markers) and
 * the user part */
#define PD_UW_MAX_CHAIN		(PD_UW_MAX_STACK + 256)

struct pd__uw_jobs;

struct pd_unwind_rewriter {
	struct pd_unwind_rewrite_opts o;
	struct pd_reader *r;
	struct pd__uw_unit *main;
	struct pd__uw_result res;	/* the main thread's */
	uint64_t chain[PD_UW_MAX_CHAIN];
	struct pd_unwind_summary sum;
	struct pd_unwind_missing *missing;
	size_t nr_missing, cap_missing;
	struct pd__uw_jobs *jobs;
	unsigned int nr_helpers;
	uint64_t seq;			/* rewritten samples so far */
};

/*
 * unwind-jobs.c: helpers started (none for small or unseekable inputs),
 * records passed on, and the result of each sample, from whichever
 * thread unwound it.
 */
int pd__uw_jobs_start(struct pd_unwind_rewriter *rw);
void pd__uw_jobs_stop(struct pd_unwind_rewriter *rw);
int pd__uw_jobs_event(struct pd_unwind_rewriter *rw, const struct pd_event *ev);
int pd__uw_jobs_sample(struct pd_unwind_rewriter *rw, const struct pd_event *ev,
		       const struct pd__uw_result **res);

#endif
