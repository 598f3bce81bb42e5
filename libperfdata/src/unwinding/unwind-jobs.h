/* SPDX-License-Identifier: MIT */
/*
 * Where each sample of the offline unwinding is unwound (unwind-jobs.c):
 * by the rewriter's own unit, or by helper threads started here (none for
 * small or unseekable inputs), whose results come back in the order of
 * the samples. The rewriter (unwind-rewrite.c) only passes records on.
 */
#ifndef PD_UNWIND_JOBS_H
#define PD_UNWIND_JOBS_H

#include <perfdata/reader.h>
#include <perfdata/unwind.h>

#include "unwind-unit.h"

struct pd__uw_jobs;

/* Whether ev is a sample the rewriting unwinds (REGS_USER, STACK_USER). */
bool pd__uw_rewritable(const struct pd_event *ev);

/*
 * The jobs of the rewriting of r's input with opts o, main being the
 * caller's unit (borrowed; the caller frees it after pd__uw_jobs_stop());
 * helpers are started as o asks. NULL without memory.
 */
struct pd__uw_jobs *pd__uw_jobs_start(const struct pd_reader *r,
				      const struct pd_unwind_rewrite_opts *o,
				      struct pd__uw_unit *main);
void pd__uw_jobs_stop(struct pd__uw_jobs *j);
/* helper threads running, besides the caller's */
unsigned int pd__uw_jobs_helpers(const struct pd__uw_jobs *j);
/* a record that is not a sample */
int pd__uw_jobs_event(struct pd__uw_jobs *j, const struct pd_event *ev);
/* the user stack of sample ev into *res (valid until the next call) */
int pd__uw_jobs_sample(struct pd__uw_jobs *j, const struct pd_event *ev,
		       const struct pd__uw_result **res);

#endif /* PD_UNWIND_JOBS_H */
