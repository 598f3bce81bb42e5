// SPDX-License-Identifier: MIT
/*
 * Where each sample of the offline unwinding is unwound: in the main
 * thread, or in a helper thread that reads the same input again.
 *
 * Unwinding a sample needs the threads and maps of the moment it was
 * taken and nothing else, so a helper with its own reader (same file,
 * same time order), symbolizer, session and unwinder sees the same
 * samples in the same order, with the same state, and unwinds any of
 * them as the main thread would. Samples are dealt out in batches of
 * BATCH by their rank: batch b goes to thread b % (1 + helpers). A
 * helper passes its results through a ring, in rank order; the main
 * thread takes them when it reaches those samples, so the output is
 * the same whatever the number of threads. The ring is bounded (the
 * helper waits when it is full), and so is memory.
 *
 * A helper that fails (cannot open the input, runs out of memory, sees
 * a sample out of step) says so in the ring and stops; the main thread
 * then unwinds the rest itself.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reading/reader-state.h"
#include "symbols/sym-internal.h"
#include "unwind-core.h"
#include "unwind-jobs.h"
#include "unwind-unit.h"

#define BATCH		64
#define RING		(4 * BATCH)
#define MAX_HELPERS	1

struct helper {
	unsigned int nr;		/* helpers the samples are dealt to */
	unsigned int idx;		/* 1..nr */
	pthread_t thread;
	bool started;
	struct pd_reader *r;
	struct pd__uw_unit *unit;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct pd__uw_result *ring;	/* RING entries */
	uint64_t head, tail;		/* produced, consumed */
	bool done;			/* no more results */
	bool stop;			/* the main thread leaves */
};

struct pd__uw_jobs {
	struct helper h[MAX_HELPERS];
	unsigned int nr;
	bool failed[MAX_HELPERS];	/* fell back to the main thread */
	struct pd__uw_unit *main;	/* the main thread's, borrowed */
	struct pd__uw_result res;	/* the main thread's */
	uint64_t seq;			/* rewritten samples so far */
};

bool pd__uw_rewritable(const struct pd_event *ev)
{
	uint64_t need = PD_SAMPLE_REGS_USER | PD_SAMPLE_STACK_USER;

	return ev->type == PD_RECORD_SAMPLE && ev->evsel &&
	       (ev->evsel->attr.sample_type & need) == need &&
	       pd_unwinder__wants(ev);
}

static unsigned int owner(uint64_t seq, unsigned int nr)
{
	return (unsigned int)((seq / BATCH) % (nr + 1));
}

static void *helper_main(void *arg)
{
	struct helper *h = arg;
	unsigned int nr = h->nr;
	const struct pd_event *ev;
	uint64_t seq = 0;
	bool stop;

	while (pd_reader__next(h->r, &ev) > 0) {
		struct pd__uw_result *res;

		if (!pd__uw_rewritable(ev)) {
			if (ev->type != PD_RECORD_SAMPLE &&
			    pd__uw_unit_event(h->unit, ev) < 0)
				break;
			continue;
		}
		if (owner(seq++, nr) != h->idx)
			continue;
		pthread_mutex_lock(&h->lock);
		while (h->head - h->tail >= RING && !h->stop)
			pthread_cond_wait(&h->cond, &h->lock);
		stop = h->stop;
		pthread_mutex_unlock(&h->lock);
		if (stop)
			break;
		/* only this thread writes the slot at head */
		res = &h->ring[h->head % RING];
		if (pd__uw_unit_unwind(h->unit, ev, res) < 0)
			break;
		res->offset = ev->offset;
		res->time = ev->u.sample.time;
		pthread_mutex_lock(&h->lock);
		h->head++;
		pthread_cond_broadcast(&h->cond);
		pthread_mutex_unlock(&h->lock);
	}
	pthread_mutex_lock(&h->lock);
	h->done = true;
	pthread_cond_broadcast(&h->cond);
	pthread_mutex_unlock(&h->lock);
	return NULL;
}

static unsigned int want_helpers(const struct pd_reader *r,
				 const struct pd_unwind_rewrite_opts *o)
{
	struct stat st;
	int jobs = o->jobs;

	/* only when asked for: see pd_unwind_rewrite_opts.jobs */
	if (jobs <= 1 || !o->path || r->opts.order != PD_ORDER_TIME)
		return 0;
	if (stat(o->path, &st) || !S_ISREG(st.st_mode))
		return 0;
	if (jobs - 1 > MAX_HELPERS)
		return MAX_HELPERS;
	return jobs > 1 ? (unsigned int)(jobs - 1) : 0;
}

static void helper_free(struct helper *h)
{
	if (h->started) {
		pthread_mutex_lock(&h->lock);
		h->stop = true;
		pthread_cond_broadcast(&h->cond);
		pthread_mutex_unlock(&h->lock);
		pthread_join(h->thread, NULL);
		pthread_mutex_destroy(&h->lock);
		pthread_cond_destroy(&h->cond);
	}
	pd__uw_unit_free(h->unit);
	pd_reader__close(h->r);
	free(h->ring);
	memset(h, 0, sizeof(*h));
}

/* The main thread's reader and unwinder say it all: helpers keep quiet. */
static void quiet(enum pd_log_level level, const char *msg, void *ctx)
{
}

static int helper_start(const struct pd_unwind_rewrite_opts *o,
			struct helper *h, unsigned int idx, unsigned int nr)
{
	struct pd_reader_opts ro = {
		.sz = sizeof(ro),
		.order = PD_ORDER_TIME,
		.log = quiet,
		.stack_used_only = true,	/* helpers only unwind */
	};
	struct pd_unwind_rewrite_opts uo = *o;

	uo.log = quiet;
	h->nr = nr;
	h->idx = idx;
	h->r = pd_reader__open(o->path, &ro);
	if (!h->r)
		return -errno;
	if (pd_reader__read_header(h->r) < 0)
		return -EIO;
	h->unit = pd__uw_unit_new(h->r, &uo);
	/* what its debuginfod queries meet, the main thread says */
	if (h->unit)
		pd__sym_debuginfod_quiet(h->unit->sym);
	h->ring = malloc(RING * sizeof(*h->ring));
	if (!h->unit || !h->ring || pd__unwinder_trace_rs(h->unit->u))
		return -ENOMEM;
	pthread_mutex_init(&h->lock, NULL);
	pthread_cond_init(&h->cond, NULL);
	if (pthread_create(&h->thread, NULL, helper_main, h)) {
		pthread_mutex_destroy(&h->lock);
		pthread_cond_destroy(&h->cond);
		return -EAGAIN;
	}
	h->started = true;
	return 0;
}

struct pd__uw_jobs *pd__uw_jobs_start(const struct pd_reader *r,
				      const struct pd_unwind_rewrite_opts *o,
				      struct pd__uw_unit *main)
{
	unsigned int n = want_helpers(r, o), i;
	struct pd__uw_jobs *j = calloc(1, sizeof(*j));

	if (!j)
		return NULL;
	j->main = main;
	/*
	 * A helper is told how many there are before it runs (it deals the
	 * samples by that). One that fails to start leaves the others out of
	 * step with the main thread, which then unwinds their samples too.
	 */
	for (i = 0; i < n; i++) {
		if (helper_start(o, &j->h[i], i + 1, n)) {
			helper_free(&j->h[i]);
			break;
		}
	}
	j->nr = i;
	return j;
}

void pd__uw_jobs_stop(struct pd__uw_jobs *j)
{
	unsigned int i;

	if (!j)
		return;
	for (i = 0; i < j->nr; i++)
		helper_free(&j->h[i]);
	free(j);
}

unsigned int pd__uw_jobs_helpers(const struct pd__uw_jobs *j)
{
	return j->nr;
}

int pd__uw_jobs_event(struct pd__uw_jobs *j, const struct pd_event *ev)
{
	return pd__uw_unit_event(j->main, ev);
}

/* The helper's result for ev; false when it has none (then ours). */
static bool take(struct helper *h, const struct pd_event *ev,
		 struct pd__uw_result *out)
{
	struct pd__uw_result *res;
	bool ok = false;

	pthread_mutex_lock(&h->lock);
	while (h->head == h->tail && !h->done)
		pthread_cond_wait(&h->cond, &h->lock);
	if (h->head != h->tail) {
		res = &h->ring[h->tail % RING];
		ok = res->offset == ev->offset && res->time == ev->u.sample.time;
		if (ok)
			memcpy(out, res, sizeof(*out));
		h->tail++;
		pthread_cond_broadcast(&h->cond);
	}
	pthread_mutex_unlock(&h->lock);
	return ok;
}

/* pd__unwinder_rs_replay() of a helper's result in the main unit */
static bool replay(struct pd__uw_jobs *j, const struct pd_event *ev,
		   const struct pd__uw_result *res)
{
	const struct pd_sample *smp = &ev->u.sample;
	struct pd_thread *t = pd_session__thread(j->main->s, (int32_t)smp->pid,
						 (int32_t)smp->tid);

	return t && pd__unwinder_rs_replay(t, res->ops, res->nr_ops);
}

int pd__uw_jobs_sample(struct pd__uw_jobs *j, const struct pd_event *ev,
		       const struct pd__uw_result **res)
{
	unsigned int who = 0;

	if (j->nr)
		who = owner(j->seq, j->nr);
	j->seq++;
	*res = &j->res;
	if (who && !j->failed[who - 1]) {
		if (take(&j->h[who - 1], ev, &j->res)) {
			/*
			 * libunwind's cache of the process here gives the
			 * helper's answers: then as unwound here, else ours
			 */
			if (replay(j, ev, &j->res))
				return 0;
		} else {
			/* out of step or gone: the rest is ours */
			j->failed[who - 1] = true;
		}
	}
	return pd__uw_unit_unwind(j->main, ev, &j->res);
}
