// SPDX-License-Identifier: MIT
/*
 * One unit of the offline unwinding: an unwinder with its own symbolizer
 * and session, fed every record that is not a sample, and the user stack
 * it unwinds for a sample, as a callchain's entries. The rewriter
 * (unwind-rewrite.c) unwinds with one, each helper thread (unwind-jobs.c)
 * with one of its own; below both, so that either can use it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <perfdata/format.h>
#include <perfdata/session.h>
#include <perfdata/symbols.h>
#include <perfdata/unwind.h>

#include "unwind-core.h"
#include "unwind-unit.h"

void pd__uw_unit_free(struct pd__uw_unit *w)
{
	if (!w)
		return;
	pd__unwinder_free(w->u);
	pd_session__free(w->s);
	pd_symbolizer__free(w->sym);
	free(w);
}

struct pd__uw_unit *pd__uw_unit_new(struct pd_reader *r,
				    const struct pd_unwind_rewrite_opts *o)
{
	struct pd_symbolizer_opts so = {
		.sz = sizeof(so),
		.symfs = o->symfs,
		.log = o->log,
		.log_ctx = o->log_ctx,
		.no_debuginfod = o->no_debuginfod,
		.roots = o->roots,
	};
	struct pd_session_opts xo = {
		.sz = sizeof(xo),
		.log = o->log,
		.log_ctx = o->log_ctx,
	};
	struct pd_unwind_opts uo = {
		.sz = sizeof(uo),
		.max_stack = o->max_stack,
		.no_inline = true,
		.log = o->log,
		.log_ctx = o->log_ctx,
	};
	struct pd__uw_unit *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->sym = pd_symbolizer__new(&so);
	xo.symbolizer = w->sym;
	if (w->sym)
		w->s = pd_session__new(r, &xo);
	if (w->s)
		w->u = pd__unwinder_new(w->s, r, &uo);
	if (!w->u) {
		pd__uw_unit_free(w);
		errno = ENOMEM;
		return NULL;
	}
	return w;
}

int pd__uw_unit_unwind(struct pd__uw_unit *w, const struct pd_event *ev,
		       struct pd__uw_result *res)
{
	const struct pd_sample *smp = &ev->u.sample;
	struct pd_thread *t;
	const struct uw_rs_op *ops;
	const uint64_t *sps;
	const char *dso = NULL;
	int n, i, k = 0;

	res->nr = 0;
	res->stop = PD_UNWIND_STOP_NONE;
	res->n = 0;
	res->dso = NULL;
	t = pd_session__thread(w->s, (int32_t)smp->pid, (int32_t)smp->tid);
	if (!t)
		return -ENOMEM;
	/* (the unwinder of unwind-core.c: a unit has no helper of its own,
	 * and stitches nothing, so unwind.c can stitch from units) */
	n = pd__unwinder_user_stack(w->u, t, ev, w->ips, PD_UW_MAX_STACK);
	res->stop = pd_unwinder__stop(w->u, &dso);
	res->dso = dso;
	res->n = n;
	sps = pd__unwinder_sps(w->u);
	res->nr_ops = pd__unwinder_rs_ops(w->u, &ops);
	if (res->nr_ops > 0)
		memcpy(res->ops, ops, (size_t)res->nr_ops * sizeof(*ops));
	for (i = 0; i < n; i++) {
		uint64_t ip = w->ips[i].activation ? w->ips[i].pc
						   : w->ips[i].pc - 1;

		/* get_entries(): a zero entry is not printed */
		if (!ip)
			continue;
		/*
		 * What perf prints at or above PERF_CONTEXT_MAX, above all
		 * the ffffffffffffffff [unknown] of the zero return address
		 * libunwind ends some chains with, a callchain cannot carry:
		 * perf takes such an entry for a context marker, and drops
		 * the whole chain at an unknown one. 0 stands for it, which
		 * every perf prints as [unknown] too: the stacks stay
		 * perf's, frame for frame (perf report, folded stacks), only
		 * that frame's address is printed as 0.
		 */
		res->sps[k] = sps[i];
		res->act[k] = w->ips[i].activation;
		res->ips[k++] = ip >= PD_CONTEXT_MAX ? 0 : ip;
	}
	res->nr = k;
	return 0;
}

/* Records that are not samples: every unit's session sees them. */
int pd__uw_unit_event(struct pd__uw_unit *w, const struct pd_event *ev)
{
	return pd_session__event(w->s, ev);
}
