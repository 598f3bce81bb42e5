// SPDX-License-Identifier: MIT
/*
 * pd-convert --to=speedscope: speedscope's JSON file format
 * (https://www.speedscope.app/file-format-schema.json): one "sampled"
 * profile per thread (per process with --per-process) and event, over
 * a frames table they share. A frame is a function (a symbol, or an
 * inlined function) in a file (the DSO); a stack lists frames root
 * first; each sample has a weight:
 *   samples (default)  1 per sample, unit "none";
 *   time               the period of events that count nanoseconds
 *                      (cpu-clock, task-clock, offcpu-time), unit
 *                      "nanoseconds"; other events are refused, as
 *                      their period is not a time;
 *   period             the period whatever it counts, "nanoseconds"
 *                      when every event counts time, else "none".
 * Samples of one profile with the same stack are one sample of their
 * summed weight, in the order of their first appearance: memory grows
 * with distinct stacks, not with samples (speedscope's time-ordered view
 * then shows each distinct stack once).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <perfdata/evsel.h>
#include <perfdata/format.h>

#include "common/cli.h"
#include "export-out.h"
#include "export-walk.h"
#include "common/intern.h"
#include "common/json-out.h"

struct ss_profile {
	uint64_t weight;	/* total */
	uint64_t nr_stacks;
	char *comm;		/* at its first sample */
	int32_t pid, tid;
	int evidx;
};

struct speedscope {
	const struct export_opts *o;
	struct intern frames;		/* key: name NUL file */
	struct intern profiles;		/* key: evidx, pid, tid (or -1) */
	struct ss_profile *prof;
	size_t nr_prof_alloc;
	struct intern stacks;		/* key: profile, frame ids root first */
	uint64_t *weights;		/* by stack */
	size_t nr_weights;
	uint32_t *key;
	size_t key_cap;
	char *fkey;
	size_t fkey_cap;
	int err;
	bool time_checked[256];
};

static bool counts_time(const struct pd_evsel *e, struct pd_reader *r)
{
	char name[256];

	if (e->attr.type == 1 && e->attr.config <= 1)	/* cpu/task-clock */
		return true;
	return !strcmp(pd_evsel__name(e, r, name, sizeof(name)), "offcpu-time");
}

static int64_t frame_id(struct speedscope *ss, const char *name,
			const char *file)
{
	size_t nl = strlen(name), fl = strlen(file), need = nl + fl + 1;
	int64_t id;

	if (need > ss->fkey_cap) {
		char *k = realloc(ss->fkey, need * 2);

		if (!k)
			return -1;
		ss->fkey = k;
		ss->fkey_cap = need * 2;
	}
	memcpy(ss->fkey, name, nl);
	ss->fkey[nl] = '\0';
	memcpy(ss->fkey + nl + 1, file, fl);
	id = intern__add(&ss->frames, ss->fkey, need, NULL);
	return id;
}

static int64_t profile_id(struct speedscope *ss, const struct export_sample *s,
			  int evidx)
{
	int32_t key[3];
	int added;
	int64_t id;

	key[0] = evidx;
	key[1] = pd_thread__pid(s->thread);
	key[2] = ss->o->per_process ? -1 : pd_thread__tid(s->thread);
	id = intern__add(&ss->profiles, key, sizeof(key), &added);
	if (id < 0 || !added)
		return id;
	if ((size_t)id >= ss->nr_prof_alloc) {
		size_t n = ss->nr_prof_alloc ? ss->nr_prof_alloc * 2 : 64;
		struct ss_profile *p = realloc(ss->prof, n * sizeof(*p));

		if (!p)
			return -1;
		memset(p + ss->nr_prof_alloc, 0, (n - ss->nr_prof_alloc) * sizeof(*p));
		ss->prof = p;
		ss->nr_prof_alloc = n;
	}
	ss->prof[id].comm = strdup(pd_thread__comm(s->thread));
	if (!ss->prof[id].comm)
		return -1;
	ss->prof[id].pid = key[1];
	ss->prof[id].tid = pd_thread__tid(s->thread);
	ss->prof[id].evidx = evidx;
	return id;
}

static int add_sample(void *ctx, struct pd_reader *r,
		      const struct export_sample *s)
{
	struct speedscope *ss = ctx;
	const struct pd_sample *smp = &s->ev->u.sample;
	const struct pd_evsel *e = s->ev->evsel;
	int evidx = e ? e->idx : 0;
	size_t need = 1 + (size_t)s->nr_frames, k;
	uint64_t w;
	int64_t pid, id;
	int i, added;

	if (ss->o->weight == EXPORT_WEIGHT_TIME && e && evidx < 256 &&
	    !ss->time_checked[evidx]) {
		char name[256];

		if (!counts_time(e, r)) {
			pd_err("--weight=time: event '%s' does not count time (only cpu-clock, task-clock and offcpu-time do): use --weight=period or samples",
			       pd_evsel__name(e, r, name, sizeof(name)));
			return -EINVAL;
		}
		ss->time_checked[evidx] = true;
	}
	if (need > ss->key_cap) {
		uint32_t *key = realloc(ss->key, need * 2 * sizeof(*key));

		if (!key)
			return -ENOMEM;
		ss->key = key;
		ss->key_cap = need * 2;
	}
	pid = profile_id(ss, s, evidx);
	if (pid < 0)
		return -ENOMEM;
	k = 0;
	ss->key[k++] = (uint32_t)pid;
	/* root first: the frames come leaf first */
	for (i = s->nr_frames - 1; i >= 0; i--) {
		const struct pd_frame *f = &s->frames[i];
		const char *name = f->inline_name ? f->inline_name :
				   f->sym ? f->sym->name : "[unknown]";

		id = frame_id(ss, name, f->dso_name ? f->dso_name : "[unknown]");
		if (id < 0)
			return -ENOMEM;
		ss->key[k++] = (uint32_t)id;
	}
	id = intern__add(&ss->stacks, ss->key, k * sizeof(ss->key[0]), &added);
	if (id < 0)
		return -ENOMEM;
	if ((size_t)id >= ss->nr_weights) {
		size_t n = ss->nr_weights ? ss->nr_weights * 2 : 1024;
		uint64_t *v = realloc(ss->weights, n * sizeof(*v));

		if (!v)
			return -ENOMEM;
		memset(v + ss->nr_weights, 0, (n - ss->nr_weights) * sizeof(*v));
		ss->weights = v;
		ss->nr_weights = n;
	}
	if (ss->o->weight == EXPORT_WEIGHT_SAMPLES ||
	    ss->o->weight == EXPORT_WEIGHT_DEFAULT)
		w = 1;
	else
		w = (smp->sample_type & PD_SAMPLE_PERIOD) ? smp->period : 1;
	ss->weights[id] += w;
	ss->prof[pid].weight += w;
	ss->prof[pid].nr_stacks += added;
	return 0;
}

static const char *unit(struct speedscope *ss, struct pd_reader *r)
{
	size_t i;

	switch (ss->o->weight) {
	case EXPORT_WEIGHT_TIME:
		return "nanoseconds";
	case EXPORT_WEIGHT_PERIOD:
		for (i = 0; i < pd_reader__nr_evsels(r); i++)
			if (!counts_time(pd_reader__evsel(r, i), r))
				return "none";
		return "nanoseconds";
	default:
		return "none";
	}
}

static void write_profile(struct speedscope *ss, struct pd_reader *r,
			  FILE *f, size_t p, const size_t *order, size_t n,
			  bool several_events)
{
	const struct ss_profile *pr = &ss->prof[p];
	char name[512], ev[256];
	size_t i, j;

	if (ss->o->per_process)
		snprintf(name, sizeof(name), "%s (pid %d)", pr->comm, pr->pid);
	else
		snprintf(name, sizeof(name), "%s (pid %d, tid %d)", pr->comm,
			 pr->pid, pr->tid);
	if (several_events && pd_reader__evsel(r, pr->evidx))
		snprintf(name + strlen(name), sizeof(name) - strlen(name), " %s",
			 pd_evsel__name(pd_reader__evsel(r, pr->evidx), r, ev,
					sizeof(ev)));
	fputs("{\"type\":\"sampled\",\"name\":", f);
	json_cstr(f, name);
	fprintf(f, ",\"unit\":\"%s\",\"startValue\":0,\"endValue\":%" PRIu64 ",\n\"samples\":[",
		unit(ss, r), pr->weight);
	for (i = 0; i < n; i++) {
		const struct intern_key *k = intern__key(&ss->stacks, order[i]);
		const uint32_t *v = k->p;
		size_t nv = k->len / sizeof(*v);

		fputs(i ? ",\n[" : "\n[", f);
		for (j = 1; j < nv; j++)
			fprintf(f, j > 1 ? ",%u" : "%u", v[j]);
		fputc(']', f);
	}
	fputs("],\n\"weights\":[", f);
	for (i = 0; i < n; i++)
		fprintf(f, i ? ",%" PRIu64 : "%" PRIu64, ss->weights[order[i]]);
	fputs("]}", f);
}

static int done_cb(void *ctx, struct pd_reader *r)
{
	struct speedscope *ss = ctx;
	size_t np = ss->profiles.nr, ns = ss->stacks.nr, i, p;
	size_t *start = calloc(np + 1, sizeof(*start));
	size_t *order = malloc((ns ? ns : 1) * sizeof(*order));
	bool several = pd_reader__nr_evsels(r) > 1;
	struct export_out out;
	int ret = PD_EXIT_DATA;
	FILE *f;

	if (!start || !order) {
		pd_err("%s", strerror(ENOMEM));
		goto free;
	}
	/* stacks by profile, each profile's in order of appearance */
	for (i = 0; i < ns; i++)
		start[*(const uint32_t *)intern__key(&ss->stacks, i)->p + 1]++;
	for (p = 0; p < np; p++)
		start[p + 1] += start[p];
	for (i = 0; i < ns; i++)
		order[start[*(const uint32_t *)intern__key(&ss->stacks, i)->p]++] = i;
	if (export_out__open(&out, ss->o->output))
		goto free;
	f = out.f;
	fputs("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\n\"exporter\":\"pd-convert\",\"name\":", f);
	json_cstr(f, ss->o->input);
	fputs(",\"activeProfileIndex\":0,\n\"shared\":{\"frames\":[", f);
	for (i = 0; i < ss->frames.nr; i++) {
		const struct intern_key *k = intern__key(&ss->frames, i);
		const char *name = k->p;
		size_t nl = strlen(name);

		fputs(i ? ",\n{\"name\":" : "\n{\"name\":", f);
		json_str(f, name, nl);
		fputs(",\"file\":", f);
		json_str(f, name + nl + 1, k->len - nl - 1);
		fputc('}', f);
	}
	fputs("]},\n\"profiles\":[", f);
	/* start[p] is now the end of profile p's stacks */
	for (p = 0; p < np; p++) {
		size_t first = p ? start[p - 1] : 0;

		if (p)
			fputs(",\n", f);
		write_profile(ss, r, f, p, order + first, start[p] - first, several);
	}
	fputs("]}\n", f);
	ret = export_out__close(&out, true);
free:
	free(start);
	free(order);
	return ret;
}

int export_speedscope(const struct export_opts *o)
{
	static const struct export_walk_ops ops = {
		.sample = add_sample,
		.done = done_cb,
	};
	struct speedscope *ss = calloc(1, sizeof(*ss));
	size_t i;
	int ret;

	if (!ss) {
		pd_err("%s", strerror(ENOMEM));
		return PD_EXIT_DATA;
	}
	ss->o = o;
	ret = export_walk(o, &ops, ss);
	for (i = 0; i < ss->profiles.nr; i++)
		free(ss->prof[i].comm);
	free(ss->prof);
	intern__free(&ss->frames);
	intern__free(&ss->profiles);
	intern__free(&ss->stacks);
	free(ss->weights);
	free(ss->key);
	free(ss->fkey);
	free(ss);
	return ret;
}
