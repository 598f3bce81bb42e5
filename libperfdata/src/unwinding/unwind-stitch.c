// SPDX-License-Identifier: MIT
/*
 * Stitching: completing chains cut where the stack copy ended.
 *
 * perf copies a bounded part of the user stack with each sample (8 KiB
 * by default), and a deeper stack's chain ends where the copy ends. The
 * outer part of that stack was often unwound already, by a sample of the
 * same thread taken with fewer frames on the stack: a frame that is
 * still live has the same stack pointer (its caller's CFA) and the same
 * pc in every sample taken while it lives, and what lies beyond it on
 * the stack (its callers) is the same too. So a cut chain whose last
 * frame has the stack pointer and pc of a frame of such a chain goes on
 * with that chain's frames beyond it.
 *
 * A frame with the same stack pointer and pc is not always the same
 * live frame: a function that returned and was called again at the same
 * depth from the same place in a function of the same frame size, but
 * under other callers (f1 > g and f2 > g), matches as well, and nothing
 * in the cut sample tells them apart (what would, the return address
 * beyond the frame, lies beyond its copy). So every chain of the thread
 * that has the frame is asked, the earlier ones kept here and the later
 * ones of the window (unwind-window.c): all of them must agree on every
 * frame beyond it, stack pointer, pc and activation, as far as both go
 * (a chain cut there too agrees as far as it goes), or nothing is taken.
 * A frame seen with two different sets of callers is not stitched at;
 * the one reaching farthest is taken. A chain whose only entry beyond
 * the frame is the 0 that ends a cut chain has nothing to give.
 *
 * Kept per thread: its last chains (CHAINS_PER_THREAD, the newest first,
 * which is what "nearest in time before" finds first), within a budget
 * of bytes for all threads, the oldest chains going first. A chain whose
 * callers are all in a newer one, at the same stack addresses, has
 * nothing to give that the newer one has not: it goes, so that the
 * chains kept reach as many depths as they can (a deep recursion's
 * chain stays while shallower ones come and go). A chain that
 * is completed is kept completed, so the next deeper sample finds the
 * whole stack in it; a chain still cut is kept too, and a chain may be
 * completed in more than one step. What a thread's chains say ends with
 * an exec of its process, with its EXIT (and a FORK that makes a thread
 * of its tid anew), and for a chain, with a map of its process over one
 * of its frames: those are forgotten.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <perfdata/format.h>
#include <perfdata/unwind.h>

#include "unwind-stitch.h"

#define CHAINS_PER_THREAD	8
#define DEFAULT_BUDGET		(16ULL << 20)
#define BUCKETS			1024	/* a power of 2 */
/* donors taken for one chain at most (each one a step outward) */
#define MAX_STEPS		8

struct st_thread;

/* A chain kept. */
struct donor {
	struct donor *older, *newer;	/* all threads' chains, by age */
	struct st_thread *t;
	int n, stop;
	uint64_t lo, hi;		/* its pcs' range */
	size_t bytes;
	uint64_t *pcs, *sps;
	bool *act;
};

struct st_thread {
	int32_t pid, tid;
	struct st_thread *tid_next, *pid_next;	/* hash chains */
	struct donor *d[CHAINS_PER_THREAD];	/* the newest first */
	int nr;
};

struct pd__uw_stitch {
	struct st_thread *by_tid[BUCKETS];
	struct st_thread *by_pid[BUCKETS];
	struct donor *oldest, *newest;
	uint64_t bytes, max_bytes;
};

static unsigned int bucket(int32_t id)
{
	return ((uint32_t)id * 2654435761u) >> 22 & (BUCKETS - 1);
}

struct pd__uw_stitch *pd__uw_stitch_new(uint64_t max_bytes)
{
	struct pd__uw_stitch *st = calloc(1, sizeof(*st));

	if (st)
		st->max_bytes = max_bytes ? max_bytes : DEFAULT_BUDGET;
	return st;
}

static void donor_unlink(struct pd__uw_stitch *st, struct donor *d)
{
	if (d->older)
		d->older->newer = d->newer;
	else
		st->oldest = d->newer;
	if (d->newer)
		d->newer->older = d->older;
	else
		st->newest = d->older;
	st->bytes -= d->bytes;
}

static void thread_unlink(struct pd__uw_stitch *st, struct st_thread *t)
{
	struct st_thread **p;

	for (p = &st->by_tid[bucket(t->tid)]; *p; p = &(*p)->tid_next)
		if (*p == t) {
			*p = t->tid_next;
			break;
		}
	for (p = &st->by_pid[bucket(t->pid)]; *p; p = &(*p)->pid_next)
		if (*p == t) {
			*p = t->pid_next;
			break;
		}
}

static void forget_thread(struct pd__uw_stitch *st, struct st_thread *t)
{
	int i;

	for (i = 0; i < t->nr; i++) {
		donor_unlink(st, t->d[i]);
		free(t->d[i]);
	}
	thread_unlink(st, t);
	free(t);
}

/* Chain d forgotten, and its thread with its last chain. */
static void drop_donor(struct pd__uw_stitch *st, struct donor *d)
{
	struct st_thread *t = d->t;
	int i;

	for (i = 0; i < t->nr && t->d[i] != d; i++)
		;
	if (i < t->nr) {
		memmove(&t->d[i], &t->d[i + 1],
			(size_t)(t->nr - i - 1) * sizeof(t->d[0]));
		t->nr--;
	}
	donor_unlink(st, d);
	free(d);
	if (!t->nr)
		forget_thread(st, t);
}

void pd__uw_stitch_free(struct pd__uw_stitch *st)
{
	unsigned int i;

	if (!st)
		return;
	for (i = 0; i < BUCKETS; i++)
		while (st->by_tid[i])
			forget_thread(st, st->by_tid[i]);
	free(st);
}

static struct st_thread *find_thread(struct pd__uw_stitch *st, int32_t tid)
{
	struct st_thread *t;

	for (t = st->by_tid[bucket(tid)]; t; t = t->tid_next)
		if (t->tid == tid)
			return t;
	return NULL;
}

/* Every thread of process pid forgotten: it exec'd. */
static void forget_process(struct pd__uw_stitch *st, int32_t pid)
{
	struct st_thread *t = st->by_pid[bucket(pid)], *next;

	for (; t; t = next) {
		next = t->pid_next;
		if (t->pid == pid)
			forget_thread(st, t);
	}
}

static bool covers(const struct donor *d, uint64_t lo, uint64_t hi)
{
	int i;

	if (d->hi < lo || d->lo >= hi)
		return false;
	for (i = 0; i < d->n; i++)
		if (d->pcs[i] >= lo && d->pcs[i] < hi)
			return true;
	return false;
}

/* A map of process pid at [lo, hi): the chains with a frame there go. */
static void map_changed(struct pd__uw_stitch *st, int32_t pid, uint64_t lo,
			uint64_t hi)
{
	struct st_thread *t = st->by_pid[bucket(pid)], *next;
	int i;

	for (; t; t = next) {
		next = t->pid_next;
		if (t->pid != pid)
			continue;
		/* (dropping a thread's last chain frees the thread) */
		for (i = t->nr - 1; i >= 0; i--) {
			bool last = t->nr == 1;

			if (!covers(t->d[i], lo, hi))
				continue;
			drop_donor(st, t->d[i]);
			if (last)
				break;
		}
	}
}

void pd__uw_stitch_event(struct pd__uw_stitch *st, const struct pd_event *ev)
{
	struct st_thread *t;

	switch (ev->type) {
	case PD_RECORD_COMM:
		if (ev->misc & PD_MISC_COMM_EXEC)
			forget_process(st, (int32_t)ev->u.comm.pid);
		break;
	case PD_RECORD_EXIT:
	case PD_RECORD_FORK:
		/* a thread ends, or one begins with the tid of another */
		t = find_thread(st, (int32_t)ev->u.fork.tid);
		if (t)
			forget_thread(st, t);
		break;
	case PD_RECORD_MMAP:
	case PD_RECORD_MMAP2:
		if (ev->u.mmap.start + ev->u.mmap.len < ev->u.mmap.start)
			map_changed(st, (int32_t)ev->u.mmap.pid,
				    ev->u.mmap.start, UINT64_MAX);
		else
			map_changed(st, (int32_t)ev->u.mmap.pid,
				    ev->u.mmap.start,
				    ev->u.mmap.start + ev->u.mmap.len);
		break;
	default:
		break;
	}
}

int pd__uw_stitch_at(const struct pd__uw_chain *c)
{
	int k = c->n - 1;

	if (c->stop != PD_UNWIND_STOP_STACK || k < 0)
		return -1;
	/* the zero return address libunwind ends some chains with */
	while (k > 0 && !c->pcs[k])
		k--;
	if (!c->sps[k] || !c->pcs[k] || k + 1 >= c->max)
		return -1;
	return k;
}

int pd__uw_stitch_find(const struct pd__uw_chain *c, int k,
		       const uint64_t *pcs, const uint64_t *sps,
		       const bool *act, int n)
{
	bool a = c->act ? c->act[k] : false;
	int j;

	for (j = 0; j + 1 < n; j++)
		if (sps[j] == c->sps[k] && pcs[j] == c->pcs[k] &&
		    (act ? act[j] : false) == a)
			return j;
	return -1;
}

void pd__uw_stitch_take(struct pd__uw_chain *c, int k, const uint64_t *pcs,
			const uint64_t *sps, const bool *act, int n, int j,
			int stop)
{
	int m = n - (j + 1), i;

	if (m > c->max - (k + 1))
		m = c->max - (k + 1);
	memcpy(&c->pcs[k + 1], &pcs[j + 1], (size_t)m * sizeof(uint64_t));
	memcpy(&c->sps[k + 1], &sps[j + 1], (size_t)m * sizeof(uint64_t));
	if (c->act)
		for (i = 0; i < m; i++)
			c->act[k + 1 + i] = act ? act[j + 1 + i] : false;
	c->n = k + 1 + m;
	c->stop = m == n - (j + 1) ? stop : PD_UNWIND_STOP_MAX;
}

static bool act_at(const bool *act, int i)
{
	return act ? act[i] : false;
}

/* f's frames after j up to its end, or to a 0 pc (a cut chain's end) */
static int beyond(const struct pd__uw_frames *f, int j)
{
	int i;

	for (i = j + 1; i < f->n && f->pcs[i]; i++)
		;
	return i - (j + 1);
}

bool pd__uw_stitch_agree(const struct pd__uw_frames *a, int ja,
			 const struct pd__uw_frames *b, int jb)
{
	int i = ja + 1, l = jb + 1;

	for (; i < a->n && l < b->n && a->pcs[i] && b->pcs[l]; i++, l++)
		if (a->pcs[i] != b->pcs[l] || a->sps[i] != b->sps[l] ||
		    act_at(a->act, i) != act_at(b->act, l))
			return false;
	return true;
}

/*
 * Each chain is compared with the one reaching farthest so far: one that
 * agrees with it over all its own frames agrees with every other that
 * did, so disagreeing pairs are all found.
 */
void pd__uw_stitch_consider(struct pd__uw_cands *cs,
			    const struct pd__uw_frames *f, int j)
{
	int m = beyond(f, j);

	/* nothing to give (only the end of a chain cut there too) */
	if (!m || cs->ambiguous)
		return;
	if (cs->beyond && !pd__uw_stitch_agree(&cs->ref, cs->j, f, j)) {
		cs->ambiguous = true;
		return;
	}
	if (m > cs->beyond) {
		cs->ref = *f;
		cs->j = j;
		cs->beyond = m;
	}
}

void pd__uw_stitch_gather(struct pd__uw_stitch *st, int32_t pid, int32_t tid,
			  const struct pd__uw_chain *c, int k,
			  struct pd__uw_cands *cs)
{
	struct st_thread *t = find_thread(st, tid);
	int i, j;

	if (!t || t->pid != pid)
		return;
	/* the newest first: the nearest in time, taken if as far-reaching */
	for (i = 0; i < t->nr; i++) {
		struct donor *d = t->d[i];
		struct pd__uw_frames f = {
			.pcs = d->pcs, .sps = d->sps, .act = d->act,
			.n = d->n, .stop = d->stop,
		};

		j = pd__uw_stitch_find(c, k, d->pcs, d->sps, d->act, d->n);
		if (j >= 0)
			pd__uw_stitch_consider(cs, &f, j);
	}
}

bool pd__uw_stitch_apply(struct pd__uw_chain *c, int k,
			 const struct pd__uw_cands *cs)
{
	const struct pd__uw_frames *f = &cs->ref;

	if (cs->ambiguous || !cs->beyond)
		return false;
	pd__uw_stitch_take(c, k, f->pcs, f->sps, f->act, f->n, cs->j, f->stop);
	return true;
}

static struct st_thread *get_thread(struct pd__uw_stitch *st, int32_t pid,
				    int32_t tid)
{
	struct st_thread *t = find_thread(st, tid);

	/* a tid reused by another process without its records */
	if (t && t->pid != pid) {
		forget_thread(st, t);
		t = NULL;
	}
	if (t)
		return t;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->pid = pid;
	t->tid = tid;
	t->tid_next = st->by_tid[bucket(tid)];
	st->by_tid[bucket(tid)] = t;
	t->pid_next = st->by_pid[bucket(pid)];
	st->by_pid[bucket(pid)] = t;
	return t;
}

/*
 * Whether every frame of d but its first (the sampled one) is a frame of
 * c, at the same place from the outermost frame: d has nothing to give.
 */
static bool subsumed(const struct donor *d, const struct pd__uw_chain *c)
{
	int i, off = c->n - d->n;

	if (off < 0 || d->stop != c->stop)
		return false;
	for (i = d->n - 1; i >= 1; i--)
		if (d->pcs[i] != c->pcs[off + i] || d->sps[i] != c->sps[off + i] ||
		    d->act[i] != (c->act ? c->act[off + i] : false))
			return false;
	return true;
}

/* c kept as t's newest chain; older ones go beyond the budget. */
static int keep(struct pd__uw_stitch *st, struct st_thread *t,
		const struct pd__uw_chain *c)
{
	size_t n = (size_t)c->n;
	size_t bytes = sizeof(struct donor) + n * (2 * sizeof(uint64_t) + sizeof(bool));
	struct donor *d = malloc(bytes);
	size_t i;

	if (!d)
		return -ENOMEM;
	d->pcs = (uint64_t *)(d + 1);
	d->sps = d->pcs + n;
	d->act = (bool *)(d->sps + n);
	memcpy(d->pcs, c->pcs, n * sizeof(uint64_t));
	memcpy(d->sps, c->sps, n * sizeof(uint64_t));
	for (i = 0; i < n; i++)
		d->act[i] = c->act ? c->act[i] : false;
	d->lo = UINT64_MAX;
	d->hi = 0;
	for (i = 0; i < n; i++) {
		if (d->pcs[i] < d->lo)
			d->lo = d->pcs[i];
		if (d->pcs[i] > d->hi)
			d->hi = d->pcs[i];
	}
	d->n = c->n;
	d->stop = c->stop;
	d->bytes = bytes;
	d->t = t;
	for (i = (size_t)t->nr; i-- > 0;)
		if (subsumed(t->d[i], c)) {
			struct donor *old = t->d[i];

			memmove(&t->d[i], &t->d[i + 1],
				(t->nr - i - 1) * sizeof(t->d[0]));
			t->nr--;
			donor_unlink(st, old);
			free(old);
		}
	if (t->nr == CHAINS_PER_THREAD) {
		t->nr--;
		donor_unlink(st, t->d[t->nr]);
		free(t->d[t->nr]);
	}
	memmove(&t->d[1], &t->d[0], (size_t)t->nr * sizeof(t->d[0]));
	t->d[0] = d;
	t->nr++;
	d->newer = NULL;
	d->older = st->newest;
	if (st->newest)
		st->newest->newer = d;
	else
		st->oldest = d;
	st->newest = d;
	st->bytes += bytes;
	while (st->bytes > st->max_bytes && st->oldest != d)
		drop_donor(st, st->oldest);
	return 0;
}

int pd__uw_stitch_before(struct pd__uw_stitch *st, int32_t pid, int32_t tid,
			 struct pd__uw_chain *c)
{
	int steps = 0, k;

	while (steps < MAX_STEPS && (k = pd__uw_stitch_at(c)) >= 0) {
		struct pd__uw_cands cs;

		memset(&cs, 0, sizeof(cs));
		pd__uw_stitch_gather(st, pid, tid, c, k, &cs);
		if (!pd__uw_stitch_apply(c, k, &cs))
			break;
		steps++;
	}
	return steps > 0;
}

int pd__uw_stitch_keep(struct pd__uw_stitch *st, int32_t pid, int32_t tid,
		       const struct pd__uw_chain *c)
{
	struct st_thread *t;

	/* a chain of the sampled frame alone says nothing of the stack */
	if (c->n < 2)
		return 0;
	t = get_thread(st, pid, tid);
	if (!t)
		return -ENOMEM;
	return keep(st, t, c);
}

int pd__uw_stitch_chain(struct pd__uw_stitch *st, int32_t pid, int32_t tid,
			struct pd__uw_chain *c)
{
	int ret = pd__uw_stitch_before(st, pid, tid, c);
	int err = pd__uw_stitch_keep(st, pid, tid, c);

	return err ? err : ret;
}
