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

#define PD_UW_MAX_STACK		1024	/* --max-stack at most */
/* kernel entries (perf keeps at most 127 and the context markers) and
 * the user part */
#define PD_UW_MAX_CHAIN		(PD_UW_MAX_STACK + 256)

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
};

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

struct pd__uw_unit *pd__uw_unit_new(struct pd_reader *r,
				    const struct pd_unwind_rewrite_opts *o);
void pd__uw_unit_free(struct pd__uw_unit *w);
int pd__uw_unit_event(struct pd__uw_unit *w, const struct pd_event *ev);
int pd__uw_unit_unwind(struct pd__uw_unit *w, const struct pd_event *ev,
		       struct pd__uw_result *res);

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
