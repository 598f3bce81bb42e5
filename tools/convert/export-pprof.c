// SPDX-License-Identifier: MIT
/*
 * pd-convert --to=pprof: a gzipped profile.proto, as `go tool pprof`
 * reads it. Message and field numbers (google/pprof proto/profile.proto):
 *   Profile: sample_type 1, sample 2, mapping 3, location 4, function 5,
 *     string_table 6, time_nanos 9, duration_nanos 10, period_type 11,
 *     period 12, comment 13, default_sample_type 14;
 *   ValueType: type 1, unit 2 (string indexes);
 *   Sample: location_id 1 (packed, leaf first), value 2 (packed),
 *     label 3;
 *   Label: key 1, str 2, num 3;
 *   Mapping: id 1, memory_start 2, memory_limit 3, file_offset 4,
 *     filename 5, build_id 6, has_functions 7, has_line_numbers 9,
 *     has_inline_frames 10;
 *   Location: id 1, mapping_id 2, address 3, line 4 (innermost first);
 *   Line: function_id 1, line 2;
 *   Function: id 1, name 2, system_name 3, filename 4.
 * Ids start at 1; string 0 is "".
 *
 * Values: two per event, "samples" (count) and the event's name (its
 * period: nanoseconds for cpu-clock, task-clock and offcpu-time, else
 * events); with several events the counts are "samples:EVENT". Labels
 * pid, tid (numbers) and comm. Identical (event, thread, comm, stack)
 * samples are one Sample with their values added up, so memory grows
 * with distinct stacks and locations, not with samples: mappings,
 * locations and functions are encoded when first seen.
 *
 * The profile's time is its first sample's, on the wall clock: through
 * the CLOCK_DATA feature's pair of readings (the session clock and the
 * time of day at one moment, as perf script -F tod converts); without
 * it, the input file's modification time (perf writes the file when the
 * recording ends) less the samples' span; none from a pipe. Its
 * duration is the samples' span. Its period is the first event's:
 * sample_period (-c), or with a frequency (-F) the nanoseconds between
 * samples for events counting time, else the mean period of its
 * samples, which perf adjusts as it goes.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <perfdata/evsel.h>
#include <perfdata/features.h>
#include <perfdata/format.h>
#include <perfdata/symbols.h>

#include "common/cli.h"
#include "export-out.h"
#include "export-walk.h"
#include "common/gzip-out.h"
#include "common/intern.h"
#include "common/pb.h"

#define MAX_INLINE	64

struct stack_values {
	uint64_t count, period;
};

struct pprof {
	struct intern strs, maps, funcs, locs, stacks;
	struct stack_values *values;	/* by stack */
	size_t nr_values;
	struct pb mappings, locations, functions;	/* Profile fields 3-5 */
	struct pb msg, line;			/* scratch */
	uint64_t *key;				/* a sample's key */
	size_t key_cap;
	uint64_t first_time, last_time;
	bool has_time;
	int err;
};

static uint64_t str_id(struct pprof *p, const char *s)
{
	int64_t id = intern__str(&p->strs, s ? s : "");

	if (id < 0) {
		p->err = -ENOMEM;
		return 0;
	}
	return (uint64_t)id;
}

static uint64_t mapping_id(struct pprof *p, const struct pd_frame *f)
{
	uint64_t key[5];
	char hex[2 * 255 + 1];
	int added;
	int64_t id;
	size_t i;

	for (i = 0; i < f->build_id_size; i++)
		sprintf(hex + 2 * i, "%02x", f->build_id[i]);
	hex[2 * i] = '\0';
	key[0] = f->map_start;
	key[1] = f->map_end;
	key[2] = f->map_pgoff;
	key[3] = str_id(p, f->dso_name);
	key[4] = str_id(p, hex);
	id = intern__add(&p->maps, key, sizeof(key), &added);
	if (id < 0) {
		p->err = -ENOMEM;
		return 0;
	}
	if (added) {
		struct pb *m = &p->msg;

		pb__reset(m);
		pb__u64(m, 1, id + 1);
		pb__u64(m, 2, f->map_start);
		pb__u64(m, 3, f->map_end);
		pb__u64(m, 4, f->map_pgoff);
		pb__u64(m, 5, key[3]);
		pb__u64(m, 6, key[4]);
		pb__u64(m, 7, f->dso && pd_dso__loaded(f->dso));
		pb__msg(&p->mappings, 3, m);
	}
	return id + 1;
}

static uint64_t function_id(struct pprof *p, const char *name, const char *file)
{
	uint64_t key[2] = { str_id(p, name), str_id(p, file) };
	int added;
	int64_t id = intern__add(&p->funcs, key, sizeof(key), &added);

	if (id < 0) {
		p->err = -ENOMEM;
		return 0;
	}
	if (added) {
		struct pb *m = &p->msg;

		pb__reset(m);
		pb__u64(m, 1, id + 1);
		pb__u64(m, 2, key[0]);
		pb__u64(m, 3, key[0]);
		pb__u64(m, 4, key[1]);
		pb__msg(&p->functions, 5, m);
	}
	return id + 1;
}

/*
 * A new location: frames f[0..n) are the inlined frames of f[n - 1],
 * innermost first, then f[n - 1] itself. Their source lines come from
 * the DSO's inline chain at the address when it has as many entries.
 */
static void encode_location(struct pprof *p, uint64_t id,
			    const struct pd_frame *f, int n)
{
	const struct pd_frame *real = &f[n - 1];
	struct pd_inline_frame chain[MAX_INLINE];
	uint64_t fids[MAX_INLINE], mid;
	int m = 0, i;
	struct pb *msg = &p->msg, *line = &p->line;

	if (!real->sym)
		n = 0;		/* no symbol: an address in its mapping */
	if (n && real->dso)
		m = pd_dso__inline_frames(real->dso, real->addr, chain, MAX_INLINE);
	if (m < 0)
		m = 0;
	for (i = 0; i < n; i++) {
		const char *name = i < n - 1 ? f[i].inline_name : real->sym->name;
		const char *file = NULL;

		if (m == n)
			file = chain[i].file;
		else if (m && i == n - 1)
			file = chain[m - 1].file;
		fids[i] = function_id(p, name, file);
	}
	/* mapping_id() encodes with the same scratch buffer */
	mid = real->has_map ? mapping_id(p, real) : 0;
	pb__reset(msg);
	pb__u64(msg, 1, id);
	pb__u64(msg, 2, mid);
	pb__u64(msg, 3, real->ip);
	for (i = 0; i < n; i++) {
		unsigned int ln = 0;

		if (m == n)
			ln = chain[i].line;
		else if (m && i == n - 1)
			ln = chain[m - 1].line;
		pb__reset(line);
		pb__u64(line, 1, fids[i]);
		pb__u64(line, 2, ln);
		pb__msg(msg, 4, line);
	}
	pb__msg(&p->locations, 4, msg);
}

/* The location of frames f[0..n) (see encode_location): its id. */
static uint64_t location_id(struct pprof *p, const struct pd_frame *f, int n)
{
	uint64_t key[4 + MAX_INLINE];
	const struct pd_frame *real = &f[n - 1];
	int added, i;
	int64_t id;

	/*
	 * by the strings' ids, not the session's pointers: the inputs of
	 * one profile each have a session of their own, freed after it
	 */
	key[0] = real->ip;
	key[1] = real->map_start;
	key[2] = str_id(p, real->dso_name);
	key[3] = real->sym ? str_id(p, real->sym->name) + 1 : 0;
	for (i = 0; i < n - 1; i++)
		key[4 + i] = str_id(p, f[i].inline_name);
	id = intern__add(&p->locs, key, (3 + n) * sizeof(key[0]), &added);
	if (id < 0) {
		p->err = -ENOMEM;
		return 0;
	}
	if (added)
		encode_location(p, id + 1, f, n);
	return id + 1;
}

static int add_sample(void *ctx, struct pd_reader *r,
		      const struct export_sample *s)
{
	struct pprof *p = ctx;
	const struct pd_sample *smp = &s->ev->u.sample;
	size_t need = 4 + (size_t)s->nr_frames, k = 0;
	struct stack_values *v;
	int added, i, j;
	int64_t id;

	if (need > p->key_cap) {
		uint64_t *key = realloc(p->key, need * 2 * sizeof(*key));

		if (!key)
			return -ENOMEM;
		p->key = key;
		p->key_cap = need * 2;
	}
	p->key[k++] = s->ev->evsel ? (uint64_t)s->ev->evsel->idx : 0;
	p->key[k++] = (uint32_t)pd_thread__pid(s->thread);
	p->key[k++] = (uint32_t)pd_thread__tid(s->thread);
	p->key[k++] = str_id(p, pd_thread__comm(s->thread));
	for (i = 0; i < s->nr_frames; i = j) {
		/* an inlined frame's chain ends at its real frame */
		for (j = i; j < s->nr_frames - 1 && s->frames[j].inline_name &&
			    j - i < MAX_INLINE - 1; j++)
			;
		j++;
		p->key[k++] = location_id(p, &s->frames[i], j - i);
	}
	if (p->err)
		return p->err;
	id = intern__add(&p->stacks, p->key, k * sizeof(p->key[0]), &added);
	if (id < 0)
		return -ENOMEM;
	if ((size_t)id >= p->nr_values) {
		size_t n = p->nr_values ? p->nr_values * 2 : 1024;

		v = realloc(p->values, n * sizeof(*v));
		if (!v)
			return -ENOMEM;
		memset(v + p->nr_values, 0, (n - p->nr_values) * sizeof(*v));
		p->values = v;
		p->nr_values = n;
	}
	v = &p->values[id];
	v->count++;
	v->period += (smp->sample_type & PD_SAMPLE_PERIOD) ? smp->period : 1;
	if (smp->sample_type & PD_SAMPLE_TIME) {
		if (!p->has_time || smp->time < p->first_time)
			p->first_time = smp->time;
		if (!p->has_time || smp->time > p->last_time)
			p->last_time = smp->time;
		p->has_time = true;
	}
	return 0;
}

static bool counts_time(const struct pd_evsel *e, const char *name)
{
	/* software events: cpu-clock (0) and task-clock (1) count ns */
	return (e->attr.type == 1 && e->attr.config <= 1) ||
	       !strcmp(name, "offcpu-time");
}

static void value_type(struct pb *out, struct pb *m, unsigned int field,
		       uint64_t type, uint64_t unit)
{
	pb__reset(m);
	pb__u64(m, 1, type);
	pb__u64(m, 2, unit);
	pb__msg(out, field, m);
}

/* The first sample's wall-clock time in ns (see the top), false if none */
static bool start_time(const struct pprof *p, struct pd_reader *r,
		       const char *input, uint64_t *ns)
{
	const struct pd_features *f = pd_reader__features(r);
	struct stat st;

	if (!p->has_time)
		return false;
	if (f && pd_features__has(f, PD_FEAT_CLOCK_DATA) &&
	    f->clock_data.tod_ns) {
		*ns = f->clock_data.tod_ns + (p->first_time - f->clock_data.clockid_ns);
		return true;
	}
	if (strcmp(input, "-") && !stat(input, &st) && S_ISREG(st.st_mode)) {
		*ns = (uint64_t)st.st_mtim.tv_sec * 1000000000 +
		      (uint64_t)st.st_mtim.tv_nsec -
		      (p->last_time - p->first_time);
		return true;
	}
	return false;
}

/* The first event's samples so far: their number and periods added. */
static void first_event_sums(const struct pprof *p, uint64_t *count,
			     uint64_t *period)
{
	size_t i;

	*count = *period = 0;
	for (i = 0; i < p->stacks.nr; i++) {
		const uint64_t *kv = intern__key(&p->stacks, i)->p;

		if (kv[0] == 0) {
			*count += p->values[i].count;
			*period += p->values[i].period;
		}
	}
}

/*
 * The first event's sampling period (see the top), from the input's
 * samples of it (count, period added); 0 when unknown.
 */
static uint64_t sampling_period(const struct pd_evsel *e, bool time,
				uint64_t count, uint64_t period)
{
	if (!e || !e->attr.sample_period)
		return 0;
	if (!(e->attr.flags & PD_ATTR_FREQ))
		return e->attr.sample_period;
	if (time)
		return 1000000000 / e->attr.sample_period;
	return count ? (period + count / 2) / count : 0;
}

static void label(struct pb *out, struct pb *m, uint64_t key, uint64_t str,
		  uint64_t num)
{
	pb__reset(m);
	pb__u64(m, 1, key);
	pb__u64(m, 2, str);
	pb__u64(m, 3, num);
	pb__msg(out, 3, m);
}

/*
 * The header: what each input's own profile says, combined as go tool
 * pprof merges profiles (google/pprof profile/merge.go, combineHeaders
 * and compatible): the same sample and period types in every input,
 * the default sample type of the first, the earliest time, the
 * durations added, the largest period, each distinct comment once.
 */
struct pprof_head {
	uint64_t *types;	/* per event: "samples[:EVENT]", EVENT, unit */
	size_t nev;
	const char *first;	/* the input that set types */
	uint64_t default_type, default_unit;
	uint64_t period, time, duration;
	uint64_t *comments;
	size_t nr_comments;
	uint64_t count, sum;	/* the first event's sums, earlier inputs */
};

struct pprof_run {
	struct pprof p;
	struct pprof_head h;
	const struct export_opts *o;
	const char *input;	/* being read */
	struct export_out out;
};

/* The sample types of r's events into types (3 string ids each). */
static void sample_types(struct pprof *p, struct pd_reader *r, size_t nev,
			 uint64_t *types, bool *time0)
{
	char name[256], tname[300];
	size_t e;

	for (e = 0; e < nev; e++) {
		const struct pd_evsel *ev = pd_reader__evsel(r, e);
		uint64_t unit = str_id(p, "events");
		bool time = false;

		if (ev) {
			pd_evsel__name(ev, r, name, sizeof(name));
			time = counts_time(ev, name);
			if (time)
				unit = str_id(p, "nanoseconds");
		} else {
			snprintf(name, sizeof(name), "event%zu", e);
		}
		if (nev == 1)
			snprintf(tname, sizeof(tname), "samples");
		else
			snprintf(tname, sizeof(tname), "samples:%s", name);
		types[3 * e] = str_id(p, tname);
		types[3 * e + 1] = str_id(p, name);
		types[3 * e + 2] = unit;
		if (!e)
			*time0 = time;
	}
}

/* One input read: its header into h. A PD_EXIT_* code. */
static int input_done(struct pprof_run *run, struct pd_reader *r)
{
	struct pprof *p = &run->p;
	struct pprof_head *h = &run->h;
	size_t nev = pd_reader__nr_evsels(r), i;
	uint64_t *types, count, sum, period, t0 = 0, comment;
	bool time0 = false;
	char *text;

	if (!nev)
		nev = 1;
	types = calloc(3 * nev, sizeof(*types));
	if (!types || asprintf(&text, "pd-convert --to=pprof %s", run->input) < 0) {
		free(types);
		pd_err("%s", strerror(ENOMEM));
		return PD_EXIT_DATA;
	}
	sample_types(p, r, nev, types, &time0);
	comment = str_id(p, text);
	free(text);
	if (!h->types) {
		h->types = types;
		h->nev = nev;
		h->first = run->input;
		h->default_type = types[1];
		h->default_unit = types[2];
	} else {
		bool same = nev == h->nev &&
			    !memcmp(types, h->types, 3 * nev * sizeof(*types));

		free(types);
		if (!same) {
			pd_err("%s: other events than %s's: one profile holds samples of the same types only (as go tool pprof merges)",
			       run->input, h->first);
			return PD_EXIT_DATA;
		}
	}
	/* this input's samples of the first event: the sums less the earlier ones */
	first_event_sums(p, &count, &sum);
	period = sampling_period(pd_reader__evsel(r, 0), time0,
				 count - h->count, sum - h->sum);
	h->count = count;
	h->sum = sum;
	if (period > h->period)
		h->period = period;
	start_time(p, r, run->input, &t0);
	if (!h->time || t0 < h->time)
		h->time = t0;
	if (p->has_time)
		h->duration += p->last_time - p->first_time;
	p->has_time = false;
	for (i = 0; i < h->nr_comments && h->comments[i] != comment; i++)
		;
	if (i == h->nr_comments) {
		uint64_t *v = realloc(h->comments, (i + 1) * sizeof(*v));

		if (!v) {
			pd_err("%s", strerror(ENOMEM));
			return PD_EXIT_DATA;
		}
		v[i] = comment;
		h->comments = v;
		h->nr_comments = i + 1;
	}
	return p->err ? PD_EXIT_DATA : PD_EXIT_OK;
}

/* The header fields and the samples, into pb, flushed to gz as it fills. */
static int write_profile(struct pprof *p, const struct pprof_head *h,
			 struct gzip_out *gz)
{
	size_t nev = h->nev, i, e;
	struct pb out = { 0 }, sm = { 0 }, m = { 0 };
	uint64_t *vals = NULL, k_pid, k_tid, k_comm;
	uint64_t *locs = NULL;
	int ret = -ENOMEM;

	vals = calloc(2 * nev, sizeof(*vals));
	if (!vals)
		goto out;
	for (e = 0; e < nev; e++) {
		value_type(&out, &m, 1, h->types[3 * e], str_id(p, "count"));
		value_type(&out, &m, 1, h->types[3 * e + 1], h->types[3 * e + 2]);
	}
	k_pid = str_id(p, "pid");
	k_tid = str_id(p, "tid");
	k_comm = str_id(p, "comm");
	for (i = 0; i < h->nr_comments; i++)
		pb__u64(&out, 13, h->comments[i]);
	pb__u64(&out, 14, h->default_type);
	if (h->time)
		pb__u64(&out, 9, h->time);
	if (h->duration)
		pb__u64(&out, 10, h->duration);
	value_type(&out, &m, 11, h->default_type, h->default_unit);
	pb__u64(&out, 12, h->period);
	for (i = 0; i < p->stacks.nr; i++) {
		const struct intern_key *key = intern__key(&p->stacks, i);
		const uint64_t *kv = key->p;
		size_t nk = key->len / sizeof(uint64_t);

		e = kv[0] < nev ? kv[0] : 0;
		memset(vals, 0, 2 * nev * sizeof(*vals));
		vals[2 * e] = p->values[i].count;
		vals[2 * e + 1] = p->values[i].period;
		pb__reset(&sm);
		/* the key holds the location ids from its fifth entry */
		locs = (uint64_t *)(kv + 4);
		pb__packed(&sm, 1, locs, nk - 4);
		pb__packed(&sm, 2, vals, 2 * nev);
		label(&sm, &m, k_pid, 0, kv[1]);
		label(&sm, &m, k_tid, 0, kv[2]);
		label(&sm, &m, k_comm, kv[3], 0);
		pb__msg(&out, 2, &sm);
		if (out.n > 1 << 20) {
			if (out.oom || gzip_out__write(gz, out.p, out.n))
				goto out;
			pb__reset(&out);
		}
	}
	if (p->err || out.oom || p->mappings.oom || p->locations.oom ||
	    p->functions.oom)
		goto out;
	ret = -EIO;
	if (gzip_out__write(gz, out.p, out.n) ||
	    gzip_out__write(gz, p->mappings.p, p->mappings.n) ||
	    gzip_out__write(gz, p->locations.p, p->locations.n) ||
	    gzip_out__write(gz, p->functions.p, p->functions.n))
		goto out;
	/* the string table last: everything above named its strings */
	for (i = 0; i < p->strs.nr; i++) {
		const struct intern_key *key = intern__key(&p->strs, i);

		pb__reset(&out);
		pb__bytes(&out, 6, key->p, key->len);
		if (out.oom) {
			ret = -ENOMEM;
			goto out;
		}
		if (gzip_out__write(gz, out.p, out.n))
			goto out;
	}
	ret = 0;
out:
	free(vals);
	pb__free(&out);
	pb__free(&sm);
	pb__free(&m);
	return ret;
}

static int sample_cb(void *ctx, struct pd_reader *r,
		     const struct export_sample *s)
{
	return add_sample(&((struct pprof_run *)ctx)->p, r, s);
}

static int done_cb(void *ctx, struct pd_reader *r)
{
	return input_done(ctx, r);
}

/* Every input read: the profile written. A PD_EXIT_* code. */
static int write_out(struct pprof_run *run)
{
	struct gzip_out *gz;
	int err;

	if (export_out__open(&run->out, run->o->output))
		return PD_EXIT_DATA;
	gz = gzip_out__new(run->out.f);
	if (!gz) {
		pd_err("%s", strerror(ENOMEM));
		export_out__close(&run->out, false);
		return PD_EXIT_DATA;
	}
	err = write_profile(&run->p, &run->h, gz);
	if (err) {
		gzip_out__free(gz);
		if (err == -ENOMEM)
			pd_err("%s", strerror(ENOMEM));
		else
			pd_err("%s: write error: %s", run->out.name,
			       strerror(errno ? errno : EIO));
		export_out__close(&run->out, false);
		return PD_EXIT_DATA;
	}
	if (gzip_out__finish(gz)) {
		export_out__close(&run->out, false);
		pd_err("%s: write error: %s", run->out.name, strerror(errno ? errno : EIO));
		return PD_EXIT_DATA;
	}
	return export_out__close(&run->out, true);
}

static void pprof_free(struct pprof *p)
{
	intern__free(&p->strs);
	intern__free(&p->maps);
	intern__free(&p->funcs);
	intern__free(&p->locs);
	intern__free(&p->stacks);
	free(p->values);
	free(p->key);
	pb__free(&p->mappings);
	pb__free(&p->locations);
	pb__free(&p->functions);
	pb__free(&p->msg);
	pb__free(&p->line);
}

/*
 * The output is opened once the input is read: a run that fails on
 * the input leaves no file.
 */
int export_pprof(const struct export_opts *o)
{
	static const struct export_walk_ops ops = {
		.sample = sample_cb,
		.done = done_cb,
	};
	struct pprof_run *run = calloc(1, sizeof(*run));
	int nr = o->nr_inputs > 1 ? o->nr_inputs : 0, i, ret;

	if (!run) {
		pd_err("%s", strerror(ENOMEM));
		return PD_EXIT_DATA;
	}
	run->o = o;
	/* string 0 is the empty string */
	str_id(&run->p, "");
	/* several inputs: one profile, as go tool pprof -proto A B merges */
	for (i = 0, ret = PD_EXIT_OK; !ret && i < (nr ? nr : 1); i++) {
		struct export_opts one = *o;

		if (nr)
			one.input = o->inputs[i];
		run->input = one.input;
		ret = export_walk(&one, &ops, run);
	}
	if (!ret)
		ret = write_out(run);
	pprof_free(&run->p);
	free(run->h.types);
	free(run->h.comments);
	free(run);
	return ret;
}
