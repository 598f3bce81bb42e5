// SPDX-License-Identifier: MIT
/*
 * Where each sample of the offline unwinding is unwound. Serial for now:
 * the main unit unwinds every sample.
 */
#include <errno.h>

#include "unwind-rewrite.h"

int pd__uw_jobs_start(struct pd_unwind_rewriter *rw)
{
	rw->nr_helpers = 0;
	return 0;
}

void pd__uw_jobs_stop(struct pd_unwind_rewriter *rw)
{
}

int pd__uw_jobs_event(struct pd_unwind_rewriter *rw, const struct pd_event *ev)
{
	return pd__uw_unit_event(rw->main, ev);
}

int pd__uw_jobs_sample(struct pd_unwind_rewriter *rw, const struct pd_event *ev,
		       const struct pd__uw_result **res)
{
	int err;

	rw->seq++;
	err = pd__uw_unit_unwind(rw->main, ev, &rw->res);
	*res = &rw->res;
	return err;
}
