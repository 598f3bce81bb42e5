// SPDX-License-Identifier: MIT
/* pd-fold's --comm, --cpu and --time selections (see sample-select.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <perfdata/evsel.h>
#include <perfdata/format.h>

#include "common/cli.h"
#include "sample-select.h"

/* perf's own limit on CPU numbers */
#define MAX_CPU	4096

struct sample_select {
	char *comm_buf;		/* the --comm list, commas replaced by NULs */
	char **comms;
	size_t ncomms;
	bool has_cpu;
	uint8_t cpus[MAX_CPU / 8];
};

void sample_select__free(struct sample_select *s)
{
	if (!s)
		return;
	free(s->comm_buf);
	free(s->comms);
	free(s);
}

static int parse_comms(struct sample_select *s, const char *list)
{
	char *p;

	s->comm_buf = strdup(list);
	s->comms = calloc(strlen(list) + 1, sizeof(*s->comms));
	if (!s->comm_buf || !s->comms)
		return -ENOMEM;
	for (p = s->comm_buf;;) {
		char *comma = strchr(p, ',');

		if (comma)
			*comma = '\0';
		if (*p)
			s->comms[s->ncomms++] = p;
		if (!comma)
			break;
		p = comma + 1;
	}
	if (!s->ncomms) {
		pd_err("--comm: no command names in '%s'", list);
		return -EINVAL;
	}
	return 0;
}

static int parse_cpu(const char **pp, long *v)
{
	char *end;

	if (**pp < '0' || **pp > '9')
		return -EINVAL;
	errno = 0;
	*v = strtol(*pp, &end, 10);
	if (errno || *v >= MAX_CPU)
		return -EINVAL;
	*pp = end;
	return 0;
}

/* "0-3,7": ranges and single CPUs, as perf's --cpu takes them */
static int parse_cpus(struct sample_select *s, const char *list)
{
	const char *p = list;
	long lo, hi;

	s->has_cpu = true;
	for (;;) {
		if (parse_cpu(&p, &lo) < 0)
			goto bad;
		hi = lo;
		if (*p == '-') {
			p++;
			if (parse_cpu(&p, &hi) < 0 || hi < lo)
				goto bad;
		}
		for (; lo <= hi; lo++)
			s->cpus[lo / 8] |= 1u << (lo % 8);
		if (!*p)
			return 0;
		if (*p++ != ',')
			goto bad;
	}
bad:
	pd_err("--cpu: bad CPU list '%s' (expected e.g. 0-3,7; CPUs below %d)",
	       list, MAX_CPU);
	return -EINVAL;
}

struct sample_select *sample_select__new(const char *comm_list,
				     const char *cpu_list)
{
	struct sample_select *s = calloc(1, sizeof(*s));
	int err = 0;

	if (!s)
		return NULL;
	if (comm_list)
		err = parse_comms(s, comm_list);
	if (!err && cpu_list)
		err = parse_cpus(s, cpu_list);
	if (err) {
		sample_select__free(s);
		errno = -err;
		return NULL;
	}
	return s;
}

bool sample_select__has_cpu(const struct sample_select *s)
{
	return s->has_cpu;
}

bool sample_select__comm(const struct sample_select *s, const char *comm)
{
	size_t i;

	if (!s->ncomms)
		return true;
	for (i = 0; i < s->ncomms; i++)
		if (!strcmp(s->comms[i], comm))
			return true;
	return false;
}

bool sample_select__cpu(const struct sample_select *s, int cpu)
{
	if (!s->has_cpu)
		return true;
	return cpu >= 0 && cpu < MAX_CPU && (s->cpus[cpu / 8] & (1u << (cpu % 8)));
}

/* "SECONDS[.FRACTION]" to ns; an empty string is 0 (an open end). */
static int parse_seconds(const char *p, const char *end, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0;
	int digits = 0;

	*ns = 0;
	if (p == end)
		return 0;
	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		if (sec > (UINT64_MAX / 1000000000u - 9) / 10)
			return -EINVAL;
		sec = sec * 10 + (*p - '0');
	}
	if (p < end && *p == '.') {
		for (p++; p < end && *p >= '0' && *p <= '9'; p++) {
			if (++digits > 9)
				return -EINVAL;
			frac = frac * 10 + (*p - '0');
		}
	}
	if (p != end)
		return -EINVAL;
	for (; digits < 9; digits++)
		frac *= 10;
	*ns = sec * 1000000000u + frac;
	return 0;
}

int sample_parse_time_range(const char *arg, uint64_t *start_ns,
			  uint64_t *end_ns)
{
	const char *comma = strchr(arg, ',');

	if (!comma ||
	    parse_seconds(arg, comma, start_ns) < 0 ||
	    parse_seconds(comma + 1, comma + strlen(comma), end_ns) < 0 ||
	    (*end_ns && *start_ns > *end_ns))
		return -EINVAL;
	return 0;
}

void sample_select_opts__set(struct sample_select_opts *o,
			     enum sample_select_opt which, const char *arg)
{
	switch (which) {
	case SELECT_OPT_EVENT:
		o->event_filter = arg;
		break;
	case SELECT_OPT_COMM:
		o->comm_list = arg;
		break;
	case SELECT_OPT_CPU:
		o->cpu_list = arg;
		break;
	case SELECT_OPT_TIME:
		if (sample_parse_time_range(arg, &o->time_start_ns,
					    &o->time_end_ns) < 0)
			pd_usage_error("--time takes START,END in seconds (e.g. 10.5,12 or 10.5,), not '%s'",
				       arg);
		o->has_time = o->time_start_ns || o->time_end_ns;
		break;
	}
}

struct sample_filter {
	struct sample_select_opts o;
	struct sample_select *sel;
	struct pd_reader *r;
	uint8_t *event_kept;	/* per evsel: 0 unknown, 1 kept, 2 not */
	size_t nr_events;
	bool warned_cpu, warned_time;
};

struct sample_filter *sample_filter__new(const struct sample_select_opts *o,
					 struct pd_reader *r)
{
	struct sample_filter *f = calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	f->o = *o;
	f->r = r;
	f->sel = sample_select__new(o->comm_list, o->cpu_list);
	if (!f->sel) {
		free(f);
		return NULL;
	}
	return f;
}

void sample_filter__free(struct sample_filter *f)
{
	if (!f)
		return;
	sample_select__free(f->sel);
	free(f->event_kept);
	free(f);
}

static bool event_kept(struct sample_filter *f, const struct pd_evsel *e)
{
	char name[256];
	size_t idx;

	if (!f->o.event_filter || !*f->o.event_filter)
		return true;
	if (!e)
		return false;
	idx = (size_t)e->idx;
	if (idx >= f->nr_events) {
		size_t n = idx + 16;
		uint8_t *v = realloc(f->event_kept, n);

		if (!v)
			return false;
		memset(v + f->nr_events, 0, n - f->nr_events);
		f->event_kept = v;
		f->nr_events = n;
	}
	if (!f->event_kept[idx]) {
		pd_evsel__name(e, f->r, name, sizeof(name));
		f->event_kept[idx] = strcmp(name, f->o.event_filter) ? 2 : 1;
	}
	return f->event_kept[idx] == 1;
}

bool sample_filter__keep(struct sample_filter *f, const struct pd_event *ev,
			 const struct pd_thread *t)
{
	const struct pd_sample *s = &ev->u.sample;

	if (!event_kept(f, ev->evsel))
		return false;
	if (!sample_select__comm(f->sel, t ? pd_thread__comm(t) : ""))
		return false;
	if (sample_select__has_cpu(f->sel)) {
		if (!(s->sample_type & PD_SAMPLE_CPU)) {
			if (!f->warned_cpu)
				pd_warn("--cpu: the samples have no CPU; samples without one are kept");
			f->warned_cpu = true;
		} else if (!sample_select__cpu(f->sel, (int)s->cpu)) {
			return false;
		}
	}
	if (f->o.has_time) {
		if (!(s->sample_type & PD_SAMPLE_TIME)) {
			if (!f->warned_time)
				pd_warn("--time: the samples have no time; samples without one are kept");
			f->warned_time = true;
		} else if ((f->o.time_start_ns && s->time < f->o.time_start_ns) ||
			   (f->o.time_end_ns && s->time > f->o.time_end_ns)) {
			return false;
		}
	}
	return true;
}
