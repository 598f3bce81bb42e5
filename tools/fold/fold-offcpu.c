// SPDX-License-Identifier: MIT
/*
 * Off-CPU bookkeeping: one pending stack per thread that left the CPU,
 * found by tid in an open-addressing table. Memory is bounded by the
 * number of threads, not by the number of switches.
 *
 * sched_switch's prev_pid and next_pid are read with libtraceevent, from
 * the tracing data's formats; a build without it says once, for a file
 * with sched_switch samples, that it cannot read them (context-switches
 * samples, pd-record --off-cpu's, need no format).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_LIBTRACEEVENT
#include <traceevent/event-parse.h>
#endif

#include <perfdata/features.h>

#include "common/cli.h"
#include "fold-offcpu.h"

struct pending {
	int32_t tid;		/* 0 = free slot (tid 0 never waits: idle) */
	uint64_t time;
	char *text;
	size_t len;
};

struct fold_offcpu {
	struct pd_reader *r;
#ifdef HAVE_LIBTRACEEVENT
	struct tep_event *sched_switch;
	struct tep_format_field *prev_pid, *next_pid;
#endif
	bool looked_up;
	bool unreadable;	/* sched_switch samples without libtraceevent */
	struct pending *v;
	size_t nr, cap;
	char *out;		/* returned by fold_offcpu__in */
};

struct fold_offcpu *fold_offcpu__new(struct pd_reader *r)
{
	struct fold_offcpu *oc = calloc(1, sizeof(*oc));

	if (oc)
		oc->r = r;
	return oc;
}

void fold_offcpu__free(struct fold_offcpu *oc)
{
	size_t i;

	if (!oc)
		return;
	for (i = 0; i < oc->cap; i++)
		free(oc->v[i].text);
	free(oc->v);
	free(oc->out);
	free(oc);
}

#ifdef HAVE_LIBTRACEEVENT
static void lookup(struct fold_offcpu *oc)
{
	struct tep_handle *tep;

	oc->looked_up = true;
	tep = pd_features__tep(pd_reader__features(oc->r));
	if (!tep)
		return;
	oc->sched_switch = tep_find_event_by_name(tep, "sched", "sched_switch");
	if (!oc->sched_switch)
		return;
	oc->prev_pid = tep_find_field(oc->sched_switch, "prev_pid");
	oc->next_pid = tep_find_field(oc->sched_switch, "next_pid");
}

bool fold_offcpu__is_switch(struct fold_offcpu *oc, const struct pd_event *ev,
			    int32_t *prev_tid, int32_t *next_tid)
{
	const struct pd_sample *s = &ev->u.sample;
	unsigned long long prev, next;
	uint16_t id;

	if (!oc->looked_up)
		lookup(oc);
	if (!oc->prev_pid || !oc->next_pid || !s->raw.data || s->raw.size < 2)
		return false;
	/* the common_type field leads every tracepoint record */
	memcpy(&id, s->raw.data, sizeof(id));
	if (id != oc->sched_switch->id)
		return false;
	if (tep_read_number_field(oc->prev_pid, s->raw.data, &prev) ||
	    tep_read_number_field(oc->next_pid, s->raw.data, &next))
		return false;
	*prev_tid = (int32_t)prev;
	*next_tid = (int32_t)next;
	return true;
}
#else
bool fold_offcpu__is_switch(struct fold_offcpu *oc, const struct pd_event *ev,
			    int32_t *prev_tid, int32_t *next_tid)
{
	const struct pd_tracing *t;
	uint32_t i;

	if (oc->looked_up)
		return false;
	oc->looked_up = true;
	t = &pd_reader__features(oc->r)->tracing;
	for (i = 0; i < t->nr_events; i++) {
		if (!strcmp(t->events[i].name, "sched:sched_switch")) {
			pd_warn("--off-cpu: sched:sched_switch samples not read: this %s was built without libtraceevent",
				pd_prog);
			oc->unreadable = true;
			break;
		}
	}
	return false;
}
#endif

bool fold_offcpu__unreadable(const struct fold_offcpu *oc)
{
	return oc->unreadable;
}

static uint64_t hash_tid(int32_t tid)
{
	uint64_t v = (uint32_t)tid * 0x9e3779b97f4a7c15ULL;

	return v ^ (v >> 29);
}

static struct pending *slot(struct fold_offcpu *oc, int32_t tid)
{
	size_t i;

	for (i = hash_tid(tid) & (oc->cap - 1); oc->v[i].tid;
	     i = (i + 1) & (oc->cap - 1))
		if (oc->v[i].tid == tid)
			break;
	return &oc->v[i];
}

static int grow(struct fold_offcpu *oc)
{
	struct pending *old = oc->v;
	size_t oldcap = oc->cap, i;

	if (oc->nr * 2 < oc->cap)
		return 0;
	oc->cap = oldcap ? oldcap * 2 : 64;
	oc->v = calloc(oc->cap, sizeof(*oc->v));
	if (!oc->v) {
		oc->v = old;
		oc->cap = oldcap;
		return -ENOMEM;
	}
	for (i = 0; i < oldcap; i++)
		if (old[i].tid)
			*slot(oc, old[i].tid) = old[i];
	free(old);
	return 0;
}

int fold_offcpu__out(struct fold_offcpu *oc, int32_t tid, uint64_t time,
		     const char *text, size_t len)
{
	struct pending *p;
	char *copy;

	if (tid <= 0)
		return 0;
	if (grow(oc))
		return -ENOMEM;
	copy = malloc(len + 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, text, len);
	copy[len] = '\0';
	p = slot(oc, tid);
	if (p->tid)
		free(p->text);
	else
		oc->nr++;
	p->tid = tid;
	p->time = time;
	p->text = copy;
	p->len = len;
	return 0;
}

const char *fold_offcpu__in(struct fold_offcpu *oc, int32_t tid, uint64_t time,
			    uint64_t *wait_ns, size_t *len)
{
	struct pending *p;
	size_t i, j;

	if (tid <= 0 || !oc->nr)
		return NULL;
	p = slot(oc, tid);
	if (!p->tid)
		return NULL;
	free(oc->out);
	oc->out = p->text;
	*len = p->len;
	*wait_ns = time > p->time ? time - p->time : 0;
	/* delete with backward shift, keeping probe chains intact */
	i = p - oc->v;
	oc->v[i].tid = 0;
	oc->v[i].text = NULL;
	oc->nr--;
	for (j = (i + 1) & (oc->cap - 1); oc->v[j].tid; j = (j + 1) & (oc->cap - 1)) {
		struct pending e = oc->v[j];

		oc->v[j].tid = 0;
		oc->v[j].text = NULL;
		*slot(oc, e.tid) = e;
	}
	return oc->out;
}
