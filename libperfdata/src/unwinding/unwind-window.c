// SPDX-License-Identifier: MIT
/*
 * Stitching from the samples after the one being rewritten.
 *
 * A chain cut at the stack copy's end that no earlier chain of its
 * thread completes (the first deep samples of a new stack) is often
 * completed by a later one, taken on the way back out of the same calls.
 * The rewriter writes each sample as it comes, so the later chains come
 * from a second reading of the same file: its own reader, session and
 * unwinding (unwind-jobs.c, with helpers when asked), AHEAD samples ahead
 * of the rewriter, whose chains it keeps in a ring with the records
 * between them that end what a chain says (EXIT, FORK, exec, maps). The
 * rewriter takes every sample's chain from the ring rather than
 * unwinding it twice: the second reading sees the same records in the
 * same order, so its chains are the rewriter's own. Memory is bounded by
 * the ring (AHEAD samples, CAP entries).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <perfdata/format.h>

#include "reading/reader-state.h"
#include "symbols/sym-internal.h"
#include "unwind-jobs.h"
#include "unwind-unit.h"
#include "unwind-window.h"

#define AHEAD		512	/* samples read ahead of the rewriter */
#define CAP		4096	/* entries: samples and records between */
#define MAX_MAPS	16	/* maps looked through for one stitch */
#define MAX_STEPS	16	/* stitching steps for one chain at most */

enum entry_kind {
	E_SAMPLE = 1,
	E_GONE_TID,		/* the thread tid ended, or began anew */
	E_EXEC,			/* process pid exec'd */
	E_MAP,			/* a map of process pid at [lo, hi) */
};

struct entry {
	uint8_t kind;
	int32_t pid, tid;
	uint64_t offset, inner_offset, time;	/* E_SAMPLE */
	uint64_t lo, hi;			/* E_MAP */
	int nr, stop;
	const char *dso;
	uint64_t *ips;		/* nr entries, then their nr stack pointers */
	bool *act;		/* in the same block, after them */
};

struct pd__uw_window {
	struct pd_reader *r;
	struct pd__uw_unit *unit;
	struct pd__uw_jobs *jobs;
	struct entry *ring;	/* CAP entries */
	uint64_t head, tail;	/* the next free, the oldest */
	unsigned int samples;	/* in the ring */
	bool eof;		/* no more records, or a failure */
	bool failed;		/* out of step: the rewriter unwinds */
};

/* The rewriter's reader and unwinder say it all: this one keeps quiet. */
static void quiet(enum pd_log_level level, const char *msg, void *ctx)
{
}

void pd__uw_window_stop(struct pd__uw_window *w)
{
	uint64_t i;

	if (!w)
		return;
	for (i = w->tail; i < w->head; i++)
		free(w->ring[i % CAP].ips);
	free(w->ring);
	pd__uw_jobs_stop(w->jobs);
	pd__uw_unit_free(w->unit);
	pd_reader__close(w->r);
	free(w);
}

struct pd__uw_window *pd__uw_window_start(const struct pd_reader *r,
					  const struct pd_unwind_rewrite_opts *o)
{
	struct pd_reader_opts ro = {
		.sz = sizeof(ro),
		.order = PD_ORDER_TIME,
		.log = quiet,
		.stack_used_only = true,	/* it only unwinds */
	};
	struct pd_unwind_rewrite_opts uo = *o;
	struct pd__uw_window *w;
	struct stat st;

	if (!o->path || r->opts.order != PD_ORDER_TIME ||
	    stat(o->path, &st) || !S_ISREG(st.st_mode))
		return NULL;
	w = calloc(1, sizeof(*w));
	if (!w)
		return NULL;
	uo.log = quiet;
	uo.log_ctx = NULL;
	w->r = pd_reader__open(o->path, &ro);
	if (!w->r || pd_reader__read_header(w->r) < 0)
		goto fail;
	w->unit = pd__uw_unit_new(w->r, &uo);
	if (!w->unit)
		goto fail;
	/* what its debuginfod queries meet, the rewriter says */
	pd__sym_debuginfod_quiet(w->unit->sym);
	w->jobs = pd__uw_jobs_start(w->r, &uo, w->unit);
	w->ring = calloc(CAP, sizeof(*w->ring));
	if (!w->jobs || !w->ring)
		goto fail;
	return w;
fail:
	pd__uw_window_stop(w);
	return NULL;
}

unsigned int pd__uw_window_helpers(const struct pd__uw_window *w)
{
	return pd__uw_jobs_helpers(w->jobs);
}

static struct entry *push(struct pd__uw_window *w, uint8_t kind)
{
	struct entry *e = &w->ring[w->head++ % CAP];

	memset(e, 0, sizeof(*e));
	e->kind = kind;
	return e;
}

/* A record that is not a sample: into the ring if it ends chains. */
static int other(struct pd__uw_window *w, const struct pd_event *ev)
{
	struct entry *e = NULL;

	switch (ev->type) {
	case PD_RECORD_COMM:
		if (ev->misc & PD_MISC_COMM_EXEC) {
			e = push(w, E_EXEC);
			e->pid = (int32_t)ev->u.comm.pid;
		}
		break;
	case PD_RECORD_EXIT:
	case PD_RECORD_FORK:
		e = push(w, E_GONE_TID);
		e->tid = (int32_t)ev->u.fork.tid;
		break;
	case PD_RECORD_MMAP:
	case PD_RECORD_MMAP2:
		e = push(w, E_MAP);
		e->pid = (int32_t)ev->u.mmap.pid;
		e->lo = ev->u.mmap.start;
		e->hi = ev->u.mmap.start + ev->u.mmap.len;
		if (e->hi < e->lo)
			e->hi = UINT64_MAX;
		break;
	default:
		break;
	}
	return pd__uw_jobs_event(w->jobs, ev);
}

static int sample(struct pd__uw_window *w, const struct pd_event *ev)
{
	const struct pd__uw_result *res;
	struct entry *e;
	int err = pd__uw_jobs_sample(w->jobs, ev, &res);

	if (err)
		return err;
	e = push(w, E_SAMPLE);
	e->pid = (int32_t)ev->u.sample.pid;
	e->tid = (int32_t)ev->u.sample.tid;
	e->offset = ev->offset;
	e->inner_offset = ev->inner_offset;
	e->time = ev->u.sample.time;
	e->nr = res->nr;
	e->stop = res->stop;
	e->dso = res->dso;
	if (res->nr > 0) {
		size_t n = (size_t)res->nr;

		e->ips = malloc(2 * n * sizeof(*e->ips) + n * sizeof(*e->act));
		if (!e->ips) {
			e->nr = 0;
			return -ENOMEM;
		}
		e->act = (bool *)(e->ips + 2 * n);
		memcpy(e->ips, res->ips, n * sizeof(*e->ips));
		memcpy(e->ips + n, res->sps, n * sizeof(*e->ips));
		memcpy(e->act, res->act, n * sizeof(*e->act));
	}
	w->samples++;
	return 0;
}

/* Reads on until AHEAD samples are in the ring (or it is full, or EOF). */
static void fill(struct pd__uw_window *w)
{
	const struct pd_event *ev;

	while (!w->eof && w->samples <= AHEAD && w->head - w->tail < CAP) {
		int err;

		if (pd_reader__next(w->r, &ev) <= 0) {
			w->eof = true;
			break;
		}
		if (ev->type != PD_RECORD_SAMPLE)
			err = other(w, ev);
		else if (pd__uw_rewritable(ev))
			err = sample(w, ev);
		else
			err = 0;
		if (err < 0)
			w->eof = true;
	}
}

static void drop_oldest(struct pd__uw_window *w)
{
	struct entry *e = &w->ring[w->tail++ % CAP];

	if (e->kind == E_SAMPLE)
		w->samples--;
	free(e->ips);
	e->ips = NULL;
}

bool pd__uw_window_sample(struct pd__uw_window *w, const struct pd_event *ev,
			  struct pd__uw_got *got)
{
	struct entry *e;

	if (w->failed)
		return false;
	for (;;) {
		if (w->tail == w->head) {
			fill(w);
			if (w->tail == w->head)
				goto fail;
			continue;
		}
		e = &w->ring[w->tail % CAP];
		if (e->kind == E_SAMPLE && e->offset == ev->offset &&
		    e->inner_offset == ev->inner_offset &&
		    e->time == ev->u.sample.time)
			break;
		/* a sample after ev: the other reading is out of step */
		if (e->kind == E_SAMPLE && e->time > ev->u.sample.time)
			goto fail;
		drop_oldest(w);
	}
	fill(w);
	got->nr = e->nr;
	got->stop = e->stop;
	got->dso = e->dso;
	got->ips = e->ips;
	got->sps = e->ips + e->nr;
	got->act = e->act;
	return true;
fail:
	w->failed = true;
	return false;
}

static bool under(const uint64_t *pcs, int from, int n,
		  const struct entry *const *maps, int nr_maps)
{
	int i, m;

	for (m = 0; m < nr_maps; m++)
		for (i = from; i < n; i++)
			if (pcs[i] >= maps[m]->lo && pcs[i] < maps[m]->hi)
				return true;
	return false;
}

void pd__uw_window_gather(struct pd__uw_window *w, int32_t pid, int32_t tid,
			  const struct pd__uw_chain *c, int k,
			  struct pd__uw_cands *cs)
{
	const struct entry *maps[MAX_MAPS];
	int nr_maps = 0, j;
	uint64_t i;

	if (w->failed || w->tail == w->head)
		return;
	/* the one at the tail is the sample c is of */
	for (i = w->tail + 1; i < w->head; i++) {
		const struct entry *e = &w->ring[i % CAP];
		struct pd__uw_frames f;

		switch (e->kind) {
		case E_GONE_TID:
			if (e->tid == tid)
				return;
			break;
		case E_EXEC:
			if (e->pid == pid)
				return;
			break;
		case E_MAP:
			if (e->pid != pid)
				break;
			if (nr_maps == MAX_MAPS)
				return;
			maps[nr_maps++] = e;
			break;
		case E_SAMPLE:
			if (e->tid != tid || e->pid != pid || e->nr < 2)
				break;
			j = pd__uw_stitch_find(c, k, e->ips, e->ips + e->nr,
					       e->act, e->nr);
			if (j < 0)
				break;
			/*
			 * its frames beyond lie in a map since changed: other
			 * code, neither taken nor asked, nor the chains after
			 */
			if (under(e->ips, j + 1, e->nr, maps, nr_maps))
				return;
			f.pcs = e->ips;
			f.sps = e->ips + e->nr;
			f.act = e->act;
			f.n = e->nr;
			f.stop = e->stop;
			pd__uw_stitch_consider(cs, &f, j);
			break;
		}
	}
}

int pd__uw_window_stitch_all(struct pd__uw_stitch *st, struct pd__uw_window *w,
			     int32_t pid, int32_t tid, struct pd__uw_chain *c)
{
	int steps, k;

	for (steps = 0; steps < MAX_STEPS; steps++) {
		struct pd__uw_cands cs;

		k = pd__uw_stitch_at(c);
		if (k < 0)
			break;
		/* every chain of the thread with the frame, before and after */
		memset(&cs, 0, sizeof(cs));
		pd__uw_stitch_gather(st, pid, tid, c, k, &cs);
		if (w)
			pd__uw_window_gather(w, pid, tid, c, k, &cs);
		if (!pd__uw_stitch_apply(c, k, &cs))
			break;
	}
	return steps;
}
