// SPDX-License-Identifier: MIT
/*
 * Unwinding ahead: a helper thread with its own reader (the same file,
 * the same time order), symbolizer, session and unwinder sees the same
 * records in the same order, so it has the threads and maps of each
 * sample's moment and unwinds a sample as the unwinder that asks would.
 * It takes the samples of seven of every eight 64 KiB stretches of the
 * input (by their file offset: the one who asks can tell whose a sample
 * is without seeing all of them) and passes each result through a
 * bounded ring, in its order, which is the asker's. Its symbolizer finds
 * the DSOs' files but reads no symbols: unwinding needs none.
 *
 * The asker may skip samples (a filter, samples without a callchain):
 * results before the one it asks for are dropped. A result it cannot
 * find (a sample asked twice, a helper that stopped) is no error: the
 * asker unwinds that sample itself, and the output is the same whether
 * the helper runs or not.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "archives/archive-internal.h"
#include "reading/reader-state.h"
#include "session/session-internal.h"
#include "symbols/sym-internal.h"
#include "unwind-ahead.h"
#include "unwind-core.h"

#define RING		256	/* results ready at most */
#define STRETCH_SHIFT	16	/* stretches of 64 KiB */
/*
 * The helper's stretches: 7 of every 8 (all but the first). The asker also
 * reads, symbolizes and folds, so an even share would leave the helper
 * idle (pd-fold --no-inline on a mixed DWARF profile, with CFI rows
 * stepped in unwind-row.c, perf record's samples per thread: asker 54%,
 * helper 46% with 6 of 8 stretches; 51% and 49% with 7).
 */
#define HELPER_STRETCHES 0xfe

struct ahead_slot {
	uint64_t offset, inner_offset, time;
	int n, stop;
	const char *dso;
	bool warned_frame_reg;
	struct pd_unwind_ip *ips;	/* max entries */
	uint64_t *sps;			/* and their stack pointers */
	int nr_ops;			/* what it did with libunwind's */
	struct uw_rs_op *ops;		/* cache: max + 1 entries */
};

struct pd__uw_ahead {
	struct pd_reader *r;
	struct pd_symbolizer *sym;
	struct pd_session *s;
	struct pd_unwinder *u;
	int max;
	pthread_t thread;
	bool started;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct ahead_slot *ring;	/* RING slots */
	struct pd_unwind_ip *ips;	/* their frames */
	uint64_t *sps;			/* stack pointers */
	struct uw_rs_op *ops;		/* and notes */
	uint64_t head, tail;		/* produced, consumed */
	bool done;			/* no more results */
	bool stop;			/* the asker leaves */
	/* the asker's copy of the last result it took (asked twice: the
	 * samples of a PERF_SAMPLE_READ group share their record) */
	struct ahead_slot last;
	bool have_last;
};

static bool helpers(const struct pd_event *ev)
{
	uint64_t k = (ev->offset + ev->inner_offset) >> STRETCH_SHIFT;

	return (HELPER_STRETCHES >> (k & 7)) & 1;
}

static bool same_sample(const struct ahead_slot *s, const struct pd_event *ev)
{
	return s->offset == ev->offset && s->inner_offset == ev->inner_offset &&
	       s->time == ev->u.sample.time;
}

static void *ahead_main(void *arg)
{
	struct pd__uw_ahead *a = arg;
	const struct pd_event *ev;
	bool stop;

	while (pd_reader__next(a->r, &ev) > 0) {
		const struct uw_rs_op *ops;
		struct ahead_slot *slot;
		struct pd_thread *t;

		if (ev->type != PD_RECORD_SAMPLE) {
			if (pd_session__event(a->s, ev) < 0)
				break;
			continue;
		}
		/* what pd_unwinder__sample_frames() unwinds */
		if (!helpers(ev) || !pd_unwinder__wants(ev) ||
		    !(ev->u.sample.sample_type & PD_SAMPLE_CALLCHAIN))
			continue;
		t = pd_session__sample_thread(a->s, &ev->u.sample);
		if (!t)
			break;
		pthread_mutex_lock(&a->lock);
		while (a->head - a->tail >= RING && !a->stop)
			pthread_cond_wait(&a->cond, &a->lock);
		stop = a->stop;
		pthread_mutex_unlock(&a->lock);
		if (stop)
			break;
		/* only this thread writes the slot at head */
		slot = &a->ring[a->head % RING];
		slot->n = pd__unwinder_user_stack(a->u, t, ev, slot->ips, a->max);
		slot->stop = pd_unwinder__stop(a->u, &slot->dso);
		if (slot->n > 0)
			memcpy(slot->sps, pd__unwinder_sps(a->u),
			       (size_t)slot->n * sizeof(*slot->sps));
		slot->nr_ops = pd__unwinder_rs_ops(a->u, &ops);
		if (slot->nr_ops > 0)
			memcpy(slot->ops, ops, (size_t)slot->nr_ops * sizeof(*ops));
		slot->warned_frame_reg = pd__unwinder_warned_frame_reg(a->u);
		slot->offset = ev->offset;
		slot->inner_offset = ev->inner_offset;
		slot->time = ev->u.sample.time;
		pthread_mutex_lock(&a->lock);
		a->head++;
		pthread_cond_broadcast(&a->cond);
		pthread_mutex_unlock(&a->lock);
	}
	pthread_mutex_lock(&a->lock);
	a->done = true;
	pthread_cond_broadcast(&a->cond);
	pthread_mutex_unlock(&a->lock);
	return NULL;
}

/* The asker's reader and unwinder say it all: the helper keeps quiet. */
static void quiet(enum pd_log_level level, const char *msg, void *ctx)
{
}

static bool wanted(const struct pd_reader *r, const struct pd_symbolizer *sym,
		   const struct pd_unwind_opts *o)
{
	struct stat st;

	/* only when asked for: see pd_unwind_opts.jobs */
	if (o->jobs <= 1 || !o->path || !strcmp(o->path, "-") || !r ||
	    r->opts.order != PD_ORDER_TIME)
		return false;
	/* an archive's files are found through what its reader unpacked */
	if (pd__reader_archive(r) || sym->archive)
		return false;
	return !stat(o->path, &st) && S_ISREG(st.st_mode);
}

void pd__uw_ahead_stop(struct pd__uw_ahead *a)
{
	if (!a)
		return;
	if (a->started) {
		pthread_mutex_lock(&a->lock);
		a->stop = true;
		pthread_cond_broadcast(&a->cond);
		pthread_mutex_unlock(&a->lock);
		pthread_join(a->thread, NULL);
		pthread_mutex_destroy(&a->lock);
		pthread_cond_destroy(&a->cond);
	}
	pd__unwinder_free(a->u);
	pd_session__free(a->s);
	pd_symbolizer__free(a->sym);
	pd_reader__close(a->r);
	free(a->ring);
	free(a->ips);
	free(a->sps);
	free(a->ops);
	free(a->last.ips);
	free(a->last.sps);
	free(a->last.ops);
	free(a);
}

struct pd__uw_ahead *pd__uw_ahead_start(struct pd_session *s,
					const struct pd_reader *r,
					const struct pd_unwind_opts *opts)
{
	const struct pd_symbolizer *ms = pd__session_symbolizer(s);
	struct pd_reader_opts ro;
	struct pd_symbolizer_opts so = {
		.sz = sizeof(so),
		.log = quiet,
	};
	struct pd_session_opts xo = {
		.sz = sizeof(xo),
		.log = quiet,
	};
	struct pd_unwind_opts uo = *opts;
	struct pd__uw_ahead *a;
	size_t i;

	if (!wanted(r, ms, opts))
		return NULL;
	a = calloc(1, sizeof(*a));
	if (!a)
		return NULL;
	a->max = opts->max_stack;
	/* the asker's settings, as its symbolizer resolved them */
	so.symfs = ms->symfs;
	so.buildid_dir = ms->buildid_dir;
	so.kallsyms = ms->kallsyms;
	so.vmlinux = ms->vmlinux;
	so.no_demangle = ms->opts.no_demangle;
	so.no_debuginfod = ms->opts.no_debuginfod;
	so.roots = ms->opts.roots;
	ro = r->opts;
	ro.log = quiet;
	ro.log_ctx = NULL;
	uo.jobs = 1;
	uo.path = NULL;
	uo.stitch = false;	/* the asker stitches, in order */
	uo.log = quiet;
	uo.log_ctx = NULL;
	a->r = pd_reader__open(opts->path, &ro);
	if (!a->r || pd_reader__read_header(a->r) < 0)
		goto fail;
	a->sym = pd_symbolizer__new(&so);
	xo.symbolizer = a->sym;
	if (a->sym) {
		/* unwinding needs a DSO's files, not its symbols */
		a->sym->files_only = true;
		/* what its debuginfod queries meet, the asker says */
		pd__sym_debuginfod_quiet(a->sym);
		a->s = pd_session__new(a->r, &xo);
	}
	if (a->s)
		a->u = pd__unwinder_new(a->s, a->r, &uo);
	a->ring = calloc(RING, sizeof(*a->ring));
	a->ips = calloc((size_t)RING * a->max, sizeof(*a->ips));
	a->sps = calloc((size_t)RING * a->max, sizeof(*a->sps));
	a->ops = calloc((size_t)RING * (a->max + 1), sizeof(*a->ops));
	a->last.ips = calloc(a->max, sizeof(*a->last.ips));
	a->last.sps = calloc(a->max, sizeof(*a->last.sps));
	a->last.ops = calloc(a->max + 1, sizeof(*a->last.ops));
	if (!a->u || !a->ring || !a->ips || !a->sps || !a->ops ||
	    !a->last.ips || !a->last.sps || !a->last.ops ||
	    pd__unwinder_trace_rs(a->u))
		goto fail;
	for (i = 0; i < RING; i++) {
		a->ring[i].ips = a->ips + i * a->max;
		a->ring[i].sps = a->sps + i * a->max;
		a->ring[i].ops = a->ops + i * (a->max + 1);
	}
	pthread_mutex_init(&a->lock, NULL);
	pthread_cond_init(&a->cond, NULL);
	if (pthread_create(&a->thread, NULL, ahead_main, a)) {
		pthread_mutex_destroy(&a->lock);
		pthread_cond_destroy(&a->cond);
		goto fail;
	}
	a->started = true;
	return a;
fail:
	pd__uw_ahead_stop(a);
	return NULL;
}

static void give(const struct ahead_slot *s, struct pd__uw_ahead_res *res)
{
	res->n = s->n;
	res->stop = s->stop;
	res->dso = s->dso;
	res->warned_frame_reg = s->warned_frame_reg;
	res->ips = s->ips;
	res->sps = s->sps;
	res->nr_ops = s->nr_ops;
	res->ops = s->ops;
}

bool pd__uw_ahead_take(struct pd__uw_ahead *a, const struct pd_event *ev,
		       int max, struct pd__uw_ahead_res *res)
{
	struct ahead_slot *s;
	bool found = false;

	if (!a || max != a->max || !helpers(ev))
		return false;
	if (a->have_last && same_sample(&a->last, ev)) {
		give(&a->last, res);
		return true;
	}
	pthread_mutex_lock(&a->lock);
	for (;;) {
		while (a->head == a->tail && !a->done)
			pthread_cond_wait(&a->cond, &a->lock);
		if (a->head == a->tail)
			break;
		s = &a->ring[a->tail % RING];
		/* a sample after ev: the helper has none for ev */
		if (s->time > ev->u.sample.time)
			break;
		found = same_sample(s, ev);
		if (found) {
			struct pd_unwind_ip *keep = a->last.ips;
			uint64_t *keep_sps = a->last.sps;
			struct uw_rs_op *keep_ops = a->last.ops;

			a->last = *s;
			a->last.ips = keep;
			a->last.sps = keep_sps;
			a->last.ops = keep_ops;
			if (s->n > 0) {
				memcpy(keep, s->ips, (size_t)s->n * sizeof(*keep));
				memcpy(keep_sps, s->sps,
				       (size_t)s->n * sizeof(*keep_sps));
			}
			if (s->nr_ops > 0)
				memcpy(keep_ops, s->ops,
				       (size_t)s->nr_ops * sizeof(*keep_ops));
		}
		/* taken, or a sample the asker skipped: the slot is free */
		a->tail++;
		pthread_cond_broadcast(&a->cond);
		if (found)
			break;
	}
	pthread_mutex_unlock(&a->lock);
	a->have_last = found;
	if (found)
		give(&a->last, res);
	return found;
}
