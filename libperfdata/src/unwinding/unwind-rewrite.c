// SPDX-License-Identifier: MIT
/*
 * Offline unwinding into callchains (pd_unwind_rewriter, unwind.h).
 *
 * A sample of an evsel with REGS_USER and STACK_USER becomes one with
 * PERF_SAMPLE_CALLCHAIN holding what a frame-pointer recording would
 * have: the kernel entries the sample had (up to any PERF_CONTEXT_USER),
 * then PERF_CONTEXT_USER and the unwound user frames, innermost first.
 * The entries are the addresses perf's own DWARF unwinding prints and
 * looks up: the sampled ip, then each caller's return address - 1 (the
 * call instruction; a signal trampoline's pc as it is). perf 6.1 looks
 * callchain entries up as they are (checked: an entry at a function's
 * first byte names that function), so raw return addresses would print
 * one more than perf's unwinding and, after a call to a noreturn
 * function at the end of a function, name the next function. A zero
 * return address (the end of a stack to libunwind, which perf prints
 * as ffffffffffffffff) is not a frame and is left out.
 *
 * With opts.stitch, the chains come to unwind-stitch.c in the samples'
 * order (whatever thread unwound them), with the other records, and a
 * chain cut where the stack copy ended leaves it completed if it can be,
 * from the thread's earlier chains, else from its later ones: a regular
 * file is read a second time ahead of the rewriter (unwind-window.c),
 * whose chains the rewriter then takes instead of unwinding.
 *
 * Samples with nothing to unwind keep the callchain they had. The
 * unwinding itself is unwind.c's (libunwind's rules, as perf 6.1 uses),
 * by units of unwind-unit.c, which unwind-jobs.c spreads over threads.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <perfdata/format.h>
#include <perfdata/symbols.h>
#include <perfdata/unwind.h>

#include "base/internal.h"
#include "unwind-jobs.h"
#include "unwind-stitch.h"
#include "unwind-unit.h"
#include "unwind-window.h"

#define DEFAULT_MAX_STACK	127
/* kernel entries (perf keeps at most 127 and the context markers) and
 * the user part */
#define PD_UW_MAX_CHAIN		(PD_UW_MAX_STACK + 256)

struct pd_unwind_rewriter {
	struct pd_unwind_rewrite_opts o;
	struct pd__uw_unit *main;
	uint64_t chain[PD_UW_MAX_CHAIN];
	struct pd_unwind_summary sum;
	struct pd_unwind_missing *missing;
	size_t nr_missing, cap_missing;
	struct pd__uw_jobs *jobs;
	/*
	 * stitching (opts.stitch): its memory, the samples after the one
	 * rewritten (NULL for a pipe), and the chain it works on
	 */
	struct pd__uw_stitch *stitch;
	struct pd__uw_window *window;
	uint64_t pcs[PD_UW_MAX_STACK], sps[PD_UW_MAX_STACK];
	bool act[PD_UW_MAX_STACK];
};


static const char *const stop_names[PD_UNWIND_STOP__NR] = {
	[PD_UNWIND_STOP_NONE] = "nothing to unwind",
	[PD_UNWIND_STOP_ROOT] = "outermost frame",
	[PD_UNWIND_STOP_MAX] = "--max-stack reached",
	[PD_UNWIND_STOP_NO_ELF] = "missing ELF",
	[PD_UNWIND_STOP_NO_FILE] = "anonymous or JIT code",
	[PD_UNWIND_STOP_NO_CFI] = "no CFI",
	[PD_UNWIND_STOP_NO_MAP] = "return address outside every map",
	[PD_UNWIND_STOP_STACK] = "stack copy too short",
	[PD_UNWIND_STOP_MEMORY] = "address outside the stack copy and every map",
	[PD_UNWIND_STOP_REGS] = "bad registers",
	[PD_UNWIND_STOP_ARCH] = "architecture or ABI not supported",
};

PD_EXPORT const char *pd_unwind_stop__str(int stop)
{
	if (stop < 0 || stop >= PD_UNWIND_STOP__NR)
		return "unknown";
	return stop_names[stop];
}

static bool rewrites(const struct pd_attr *a)
{
	uint64_t need = PD_SAMPLE_REGS_USER | PD_SAMPLE_STACK_USER;

	return (a->sample_type & need) == need;
}

PD_EXPORT bool pd_unwind_rewriter__attr(const struct pd_unwind_rewriter *rw,
					const struct pd_attr *in,
					struct pd_attr *out)
{
	*out = *in;
	if (!rewrites(in))
		return false;
	out->sample_type |= PD_SAMPLE_CALLCHAIN;
	/* the callchain now holds the user part */
	out->flags &= ~(uint64_t)PD_ATTR_EXCLUDE_CALLCHAIN_USER;
	if (!rw->o.keep_stack) {
		out->sample_type &= ~(PD_SAMPLE_REGS_USER | PD_SAMPLE_STACK_USER);
		out->sample_regs_user = 0;
		out->sample_stack_user = 0;
	}
	return true;
}

static int add_missing(struct pd_unwind_rewriter *rw, const char *dso)
{
	struct pd_unwind_missing *m;
	size_t i;

	for (i = 0; i < rw->nr_missing; i++)
		if (rw->missing[i].dso == dso ||
		    !strcmp(rw->missing[i].dso, dso)) {
			rw->missing[i].samples++;
			return 0;
		}
	if (rw->nr_missing == rw->cap_missing) {
		size_t cap = rw->cap_missing ? 2 * rw->cap_missing : 8;

		m = realloc(rw->missing, cap * sizeof(*m));
		if (!m)
			return -ENOMEM;
		rw->missing = m;
		rw->cap_missing = cap;
	}
	m = &rw->missing[rw->nr_missing];
	m->dso = strdup(dso);
	if (!m->dso)
		return -ENOMEM;
	m->samples = 1;
	rw->nr_missing++;
	return 0;
}

static int count(struct pd_unwind_rewriter *rw, const struct pd_sample *smp,
		 const struct pd__uw_got *res, const struct pd__uw_got *us)
{
	struct pd_unwind_summary *sum = &rw->sum;

	if (!smp->user_regs.abi) {
		sum->no_regs++;
		return 0;
	}
	sum->samples++;
	if (us->stop == PD_UNWIND_STOP_ROOT && us->nr > 0)
		sum->full++;
	else if (us->nr > 1)
		sum->partial_why[us->stop]++, sum->partial++;
	else
		sum->none_why[us->stop]++, sum->none++;
	if (res->stop == PD_UNWIND_STOP_NO_ELF && res->dso)
		return add_missing(rw, res->dso);
	return 0;
}

/* The callchain of the rewritten sample: kernel entries, then user. */
static void build_chain(struct pd_unwind_rewriter *rw,
			const struct pd_sample *smp,
			const struct pd__uw_got *res, struct pd_sample *out)
{
	uint64_t nr = 0, i, k = 0;

	if (smp->sample_type & PD_SAMPLE_CALLCHAIN)
		nr = smp->callchain.nr;
	if (res->nr <= 0) {
		/* nothing unwound: the callchain as it was */
		out->callchain.nr = nr;
		out->callchain.ips = nr ? smp->callchain.ips : NULL;
		return;
	}
	for (i = 0; i < nr && k < PD_UW_MAX_CHAIN - PD_UW_MAX_STACK - 1; i++) {
		uint64_t ip;

		memcpy(&ip, &smp->callchain.ips[i], sizeof(ip));
		if (ip == PD_CONTEXT_USER)
			break;
		rw->chain[k++] = ip;
	}
	rw->chain[k++] = PD_CONTEXT_USER;
	for (i = 0; i < (uint64_t)res->nr; i++)
		rw->chain[k++] = res->ips[i];
	out->callchain.nr = k;
	out->callchain.ips = rw->chain;
}

/*
 * The chain of sample smp, stitched where it was cut (into rw->pcs) from
 * the thread's earlier chains, else its later ones, step after step,
 * then kept for the samples after it: 0 or -ENOMEM.
 */
static int stitch(struct pd_unwind_rewriter *rw, const struct pd_sample *smp,
		  const struct pd__uw_got *res, struct pd__uw_got *us)
{
	struct pd__uw_chain c = {
		.pcs = rw->pcs, .sps = rw->sps, .act = rw->act, .n = res->nr,
		.max = rw->o.max_stack, .stop = res->stop,
	};
	int32_t pid = (int32_t)smp->pid, tid = (int32_t)smp->tid;

	if (res->nr <= 0 || !smp->user_regs.abi)
		return 0;
	memcpy(rw->pcs, res->ips, (size_t)res->nr * sizeof(*rw->pcs));
	memcpy(rw->sps, res->sps, (size_t)res->nr * sizeof(*rw->sps));
	memcpy(rw->act, res->act, (size_t)res->nr * sizeof(*rw->act));
	if (pd__uw_window_stitch_all(rw->stitch, rw->window, pid, tid, &c)) {
		rw->sum.stitched++;
		us->nr = c.n;
		us->stop = c.stop;
		us->ips = rw->pcs;
	}
	return pd__uw_stitch_keep(rw->stitch, pid, tid, &c);
}

/* The user stack of sample ev: the window's, else unwound here. */
static int user_stack(struct pd_unwind_rewriter *rw, const struct pd_event *ev,
		      struct pd__uw_got *got)
{
	const struct pd__uw_result *res;
	int err;

	if (rw->window && pd__uw_window_sample(rw->window, ev, got))
		return 0;
	err = pd__uw_jobs_sample(rw->jobs, ev, &res);
	if (err)
		return err;
	got->nr = res->nr;
	got->stop = res->stop;
	got->dso = res->dso;
	got->ips = res->ips;
	got->sps = res->sps;
	got->act = res->act;
	return 0;
}

PD_EXPORT int pd_unwind_rewriter__event(struct pd_unwind_rewriter *rw,
					const struct pd_event *ev,
					struct pd_sample *out)
{
	struct pd__uw_got res, us;
	int err;

	if (ev->type != PD_RECORD_SAMPLE) {
		if (rw->stitch)
			pd__uw_stitch_event(rw->stitch, ev);
		return pd__uw_jobs_event(rw->jobs, ev);
	}
	if (!ev->evsel || !rewrites(&ev->evsel->attr) ||
	    !pd_unwinder__wants(ev))
		return 0;
	err = user_stack(rw, ev, &res);
	if (err)
		return err;
	us = res;
	if (rw->stitch) {
		err = stitch(rw, &ev->u.sample, &res, &us);
		if (err)
			return err;
	}
	err = count(rw, &ev->u.sample, &res, &us);
	if (err)
		return err;
	*out = ev->u.sample;
	build_chain(rw, &ev->u.sample, &us, out);
	out->sample_type |= PD_SAMPLE_CALLCHAIN;
	if (!rw->o.keep_stack) {
		out->sample_type &= ~(PD_SAMPLE_REGS_USER | PD_SAMPLE_STACK_USER);
		memset(&out->user_regs, 0, sizeof(out->user_regs));
		memset(&out->user_stack, 0, sizeof(out->user_stack));
	}
	return 1;
}

PD_EXPORT struct pd_unwind_rewriter *
pd_unwind_rewriter__new(struct pd_reader *r,
			const struct pd_unwind_rewrite_opts *opts)
{
	struct pd_unwind_rewriter *rw;

	if (!r) {
		errno = EINVAL;
		return NULL;
	}
	rw = calloc(1, sizeof(*rw));
	if (!rw)
		return NULL;
	if (opts)
		memcpy(&rw->o, opts, opts->sz < sizeof(rw->o) ? opts->sz : sizeof(rw->o));
	rw->o.sz = sizeof(rw->o);
	if (rw->o.max_stack <= 0 || rw->o.max_stack > PD_UW_MAX_STACK)
		rw->o.max_stack = DEFAULT_MAX_STACK;
	rw->main = pd__uw_unit_new(r, &rw->o);
	if (!rw->main) {
		free(rw);
		errno = ENOMEM;
		return NULL;
	}
	if (rw->o.stitch) {
		struct pd_unwind_rewrite_opts one = rw->o;

		rw->stitch = pd__uw_stitch_new(0);
		rw->window = pd__uw_window_start(r, &rw->o);
		/* the window unwinds, with the helpers: ours only follows */
		if (rw->window)
			one.jobs = 1;
		rw->jobs = pd__uw_jobs_start(r, &one, rw->main);
	} else {
		rw->jobs = pd__uw_jobs_start(r, &rw->o, rw->main);
	}
	if (!rw->jobs || (rw->o.stitch && !rw->stitch)) {
		pd_unwind_rewriter__free(rw);
		errno = ENOMEM;
		return NULL;
	}
	return rw;
}

PD_EXPORT const struct pd_unwind_summary *
pd_unwind_rewriter__summary(struct pd_unwind_rewriter *rw)
{
	rw->sum.nr_missing = rw->nr_missing;
	rw->sum.missing = rw->missing;
	rw->sum.threads = 1 + pd__uw_jobs_helpers(rw->jobs) +
			  (rw->window ? pd__uw_window_helpers(rw->window) : 0);
	return &rw->sum;
}

PD_EXPORT void pd_unwind_rewriter__free(struct pd_unwind_rewriter *rw)
{
	size_t i;

	if (!rw)
		return;
	pd__uw_jobs_stop(rw->jobs);
	pd__uw_window_stop(rw->window);
	pd__uw_stitch_free(rw->stitch);
	pd__uw_unit_free(rw->main);
	for (i = 0; i < rw->nr_missing; i++)
		free((char *)rw->missing[i].dso);
	free(rw->missing);
	free(rw);
}
