// SPDX-License-Identifier: MIT
/* See export-walk.h; the loop of fold-data.c without the folding. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <perfdata/format.h>
#include <perfdata/symbols.h>
#include <perfdata/unwind.h>

#include "common/cli.h"
#include "export-walk.h"
#include "common/sample-select.h"

/* as fold-data.c: perf script's --max-stack, inline frames on top */
#define MAX_STACK	127
#define MAX_FRAMES	(MAX_STACK * 16)

struct walk {
	struct pd_reader *r;
	struct pd_symbolizer *sym;
	struct pd_session *session;
	struct pd_unwinder *unwinder;
	struct pd_read_periods *reads;
	struct sample_filter *filter;	/* the selections */
	const struct export_walk_ops *ops;
	void *ctx;
	struct pd_frame frames[MAX_FRAMES];
};

static int one(void *ctx, const struct pd_event *ev)
{
	struct walk *w = ctx;
	const struct pd_sample *s = &ev->u.sample;
	struct export_sample xs = { .ev = ev, .frames = w->frames };
	int n;

	xs.thread = pd_session__sample_thread(w->session, s);
	if (!xs.thread)
		return -ENOMEM;
	if (!sample_filter__keep(w->filter, ev, xs.thread))
		return 0;
	n = pd_unwinder__sample_frames(w->unwinder, xs.thread, ev, w->frames,
				       MAX_FRAMES);
	if (n == -ENODATA) {
		/* perf prints the sample alone: its ip */
		pd_session__resolve(w->session, xs.thread,
				    ev->misc & PD_MISC_CPUMODE_MASK,
				    s->ip, &w->frames[0]);
		n = 1;
	}
	if (n < 0)
		return n;
	xs.nr_frames = n;
	return w->ops->sample(w->ctx, w->r, &xs);
}

/* a sample with counter values: once per value that grew, as perf does */
static int sample(struct walk *w, const struct pd_event *ev)
{
	return pd_read_periods__for_each(w->reads, ev, one, w);
}

/* A record that is not a sample: the session's, and the stitcher's. */
static int other_event(struct walk *w, const struct pd_event *ev)
{
	pd_unwinder__event(w->unwinder, ev);
	return pd_session__event(w->session, ev);
}

int export_walk(const struct export_opts *o, const struct export_walk_ops *ops,
		void *ctx)
{
	struct pd_reader_opts ropts = {
		.sz = sizeof(ropts),
		.order = PD_ORDER_TIME,
		.stack_used_only = true,
	};
	struct pd_symbolizer_opts sopts = {
		.sz = sizeof(sopts),
		.symfs = o->data.symfs,
		.roots = o->data.roots,
		.kallsyms = o->data.kallsyms,
		.vmlinux = o->data.vmlinux,
		.no_debuginfod = o->data.no_debuginfod,
	};
	struct pd_session_opts xopts = { .sz = sizeof(xopts) };
	struct pd_unwind_opts uopts = {
		.sz = sizeof(uopts),
		.max_stack = MAX_STACK,
		.no_inline = o->data.no_inline,
		.stitch = o->data.stitch,
		/* read again for stitching from later samples */
		.path = o->input,
	};
	const struct pd_event *ev = NULL;
	struct walk *w;
	int ret = PD_EXIT_DATA, err;

	w = calloc(1, sizeof(*w));
	if (!w) {
		pd_err("%s: %s", o->input, strerror(ENOMEM));
		return PD_EXIT_DATA;
	}
	w->ops = ops;
	w->ctx = ctx;
	w->r = pd_cli_open(o->input, &ropts);
	if (!w->r)
		goto out;
	w->sym = pd_symbolizer__new(&sopts);
	xopts.symbolizer = w->sym;
	if (w->sym)
		w->session = pd_session__new(w->r, &xopts);
	if (w->session)
		w->unwinder = pd_unwinder__new(w->session, w->r, &uopts);
	w->reads = pd_read_periods__new(w->r);
	w->filter = sample_filter__new(&o->select, w->r);
	if (!w->sym || !w->session || !w->unwinder || !w->reads ||
	    !w->filter) {
		pd_err("%s: %s", o->input, strerror(ENOMEM));
		goto out;
	}
	while ((err = pd_reader__next(w->r, &ev)) > 0) {
		if (ev->type == PD_RECORD_SAMPLE)
			err = sample(w, ev);
		else
			err = other_event(w, ev);
		if (err < 0) {
			pd_err("%s: offset %#" PRIx64 ": %s", o->input, ev->offset,
			       pd_strerror(err));
			goto out;
		}
	}
	if (err < 0) {
		pd_err("%s", pd_reader__errmsg(w->r));
		goto out;
	}
	ret = ops->done ? ops->done(ctx, w->r) : PD_EXIT_OK;
out:
	sample_filter__free(w->filter);
	pd_read_periods__free(w->reads);
	pd_unwinder__free(w->unwinder);
	pd_session__free(w->session);
	pd_symbolizer__free(w->sym);
	pd_reader__close(w->r);
	free(w);
	return ret;
}
