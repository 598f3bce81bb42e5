// SPDX-License-Identifier: MIT
/*
 * perf script's default sample text (perf 6.1, tools/perf/builtin-script.c
 * and util/evsel_fprintf.c). Facts reproduced:
 * - default fields per event type: COMM TID CPU TIME EVNAME and, except
 *   for tracepoints, PERIOD IP SYM SYMOFFSET DSO; raw (and other PMU)
 *   events add ADDR DATA_SRC WEIGHT PHYS_ADDR and page sizes; a default
 *   field the sample_type lacks is left out silently;
 * - tracepoints get IP SYM DSO when any tracepoint event has callchains,
 *   and after the event name their fields as libtraceevent prints them
 *   by the format's print fmt (TEP_PRINT_INFO);
 * - "%s " for the comm when a callchain follows, else "%16s "; "%5d " tid;
 * - the period is printed whether the samples carry one or not: without
 *   PERF_SAMPLE_PERIOD, perf's sample parser gives the attr's
 *   sample_period (util/evsel.c);
 *   "[%03d] " cpu; "%12s: " time as seconds.microseconds; "%10lu " period;
 *   the event name right-aligned to the longest name, then ": ";
 * - a callchain frame is a tab, "%16lx" of the map-relative address,
 *   " name+0xoff" or " [unknown]", and " (dso)"; an inlined frame of a
 *   DWARF-unwound callchain ends in " (inlined)" instead of the dso
 *   (util/evsel_fprintf.c: sym->inlined).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfdata/evsel.h>
#include <perfdata/format.h>
#include <perfdata/trace.h>

#include "fold.h"
#include "script-text.h"

#define TYPE_TRACEPOINT	2
#define TYPE_RAW	4

struct evsel_fmt {
	bool known;
	bool has_callchain;
	bool show_tid, show_cpu, show_time, show_period, show_ip;
	uint64_t attr_period;	/* the period of samples without one */
	uint64_t trace_id;	/* a tracepoint's format id (attr.config) */
	bool has_tail;		/* fields after the event name */
	bool trace_tail;	/* ...a tracepoint's, printed by its format */
	bool name_ok;		/* a name without blanks (header_fields()) */
	char name[128];
};

struct script_text {
	struct pd_reader *r;
	struct pd_trace_printer *trace;	/* made at the first tracepoint */
	struct evsel_fmt *fmt;
	size_t nr_fmt;
	int name_width;		/* fixed at the first sample, as perf does */
	bool tp_callchain;	/* some tracepoint event has callchains */
	/* the last comm header_fields() looked at (a session string,
	 * never changed) and whether it qualified */
	const char *last_comm;
	bool last_comm_ok;
};

struct script_text *script_text__new(struct pd_reader *r)
{
	struct script_text *st = calloc(1, sizeof(*st));

	if (st)
		st->r = r;
	return st;
}

void script_text__free(struct script_text *st)
{
	if (!st)
		return;
	pd_trace_printer__free(st->trace);
	free(st->fmt);
	free(st);
}

/* Perl's \s */
static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
	       c == '\v';
}

static bool has_blank(const char *s)
{
	for (; *s; s++)
		if (is_blank(*s))
			return true;
	return false;
}

static void setup(struct script_text *st)
{
	size_t n = pd_reader__nr_evsels(st->r), i;
	struct evsel_fmt *fmt;

	if (n <= st->nr_fmt)
		return;
	fmt = realloc(st->fmt, n * sizeof(*fmt));
	if (!fmt)
		return;
	memset(fmt + st->nr_fmt, 0, (n - st->nr_fmt) * sizeof(*fmt));
	st->fmt = fmt;
	st->nr_fmt = n;
	for (i = 0; i < n; i++) {
		const struct pd_evsel *e = pd_reader__evsel(st->r, i);

		if (e->attr.type == TYPE_TRACEPOINT &&
		    (e->attr.sample_type & PD_SAMPLE_CALLCHAIN))
			st->tp_callchain = true;
	}
	for (i = 0; i < n; i++) {
		const struct pd_evsel *e = pd_reader__evsel(st->r, i);
		struct evsel_fmt *f = &st->fmt[i];
		uint64_t st_bits = e->attr.sample_type;
		bool tp = e->attr.type == TYPE_TRACEPOINT;
		bool raw_like = e->attr.type == TYPE_RAW ||
				e->attr.type >= 6;	/* PMU types */

		f->known = true;
		f->has_callchain = st_bits & PD_SAMPLE_CALLCHAIN;
		f->show_tid = st_bits & PD_SAMPLE_TID;
		f->show_cpu = st_bits & PD_SAMPLE_CPU;
		f->show_time = st_bits & PD_SAMPLE_TIME;
		/* without PERIOD in the samples, perf prints the attr's */
		f->show_period = !tp;
		f->attr_period = e->attr.sample_period;
		f->show_ip = (st_bits & PD_SAMPLE_IP) &&
			     (!tp || st->tp_callchain);
		if (tp || e->attr.type == 1)	/* trace fields, bpf-output */
			f->has_tail = st_bits & PD_SAMPLE_RAW;
		f->trace_tail = tp && f->has_tail;
		f->trace_id = e->attr.config;
		if (raw_like && e->attr.type == TYPE_RAW)
			f->has_tail = st_bits & (PD_SAMPLE_ADDR | PD_SAMPLE_DATA_SRC |
						 PD_SAMPLE_WEIGHT_TYPE |
						 PD_SAMPLE_PHYS_ADDR |
						 PD_SAMPLE_DATA_PAGE_SIZE |
						 PD_SAMPLE_CODE_PAGE_SIZE);
		pd_evsel__name(e, st->r, f->name, sizeof(f->name));
		f->name_ok = f->name[0] && !has_blank(f->name);
	}
	if (!st->name_width) {
		for (i = 0; i < n; i++) {
			int len = strlen(st->fmt[i].name);

			if (len > st->name_width)
				st->name_width = len;
		}
	}
}

/*
 * The period perf prints: the sample's, the growth of a value read
 * (pd_read_periods, which fills it in), else the attr's sample_period
 * (perf's sample parser starts from it; a frequency when freq is set).
 */
static uint64_t period_of(const struct evsel_fmt *f, const struct pd_sample *s)
{
	return s->sample_type & (PD_SAMPLE_PERIOD | PD_SAMPLE_READ) ?
	       s->period : f->attr_period;
}

static const struct evsel_fmt *fmt_of(struct script_text *st,
				      const struct pd_event *ev)
{
	if (!ev->evsel)
		return NULL;
	if ((size_t)ev->evsel->idx >= st->nr_fmt)
		setup(st);
	if ((size_t)ev->evsel->idx >= st->nr_fmt)
		return NULL;
	return &st->fmt[ev->evsel->idx];
}

bool script_text__has_callchain(struct script_text *st,
				const struct pd_event *ev)
{
	const struct evsel_fmt *f = fmt_of(st, ev);

	return f && f->show_ip && f->has_callchain;
}

bool script_text__shows_ip(struct script_text *st, const struct pd_event *ev)
{
	const struct evsel_fmt *f = fmt_of(st, ev);

	return f && f->show_ip;
}

bool script_text__is_offcpu_time(struct script_text *st,
				 const struct pd_event *ev)
{
	const struct evsel_fmt *f = fmt_of(st, ev);

	return f && !strcmp(f->name, "offcpu-time");
}

/*
 * The header is printed once per sample: formatted by hand, since
 * snprintf's format parsing would cost more than all the folding that
 * follows. Each helper writes what the printf conversion in its comment
 * would, truncating at the buffer's end.
 */
struct out {
	char *p;
	size_t n, size;		/* size > 0; p[n] is kept a NUL */
};

static void put_bytes(struct out *o, const char *s, size_t len)
{
	if (len > o->size - 1 - o->n)
		len = o->size - 1 - o->n;
	memcpy(o->p + o->n, s, len);
	o->n += len;
	o->p[o->n] = '\0';
}

/* "%*s" */
static void put_str(struct out *o, const char *s, int width)
{
	static const char blanks[] = "                                ";
	size_t len = strlen(s);

	while (width > 0 && (size_t)width > len) {
		size_t k = (size_t)width - len;

		if (k > sizeof(blanks) - 1)
			k = sizeof(blanks) - 1;
		put_bytes(o, blanks, k);
		width -= k;
	}
	put_bytes(o, s, len);
}

/* "%*lu", or "%0*lu" with zero */
static void put_u64(struct out *o, uint64_t v, int width, bool zero)
{
	char buf[24], *p = buf + sizeof(buf);

	*--p = '\0';
	do {
		*--p = '0' + v % 10;
		v /= 10;
	} while (v);
	while (buf + sizeof(buf) - 1 - p < width)
		*--p = zero ? '0' : ' ';
	put_bytes(o, p, buf + sizeof(buf) - 1 - p);
}

/* "%5d" */
static void put_i32_5(struct out *o, int32_t v)
{
	char num[16];

	if (v >= 0) {
		put_u64(o, (uint64_t)v, 5, false);
		return;
	}
	snprintf(num, sizeof(num), "%5d", v);
	put_bytes(o, num, strlen(num));
}

/*
 * A tracepoint's fields, as its format prints them; nothing when the
 * tracing data has no format for it (perf then has no format either and
 * prints none).
 */
static void put_trace(struct script_text *st, const struct evsel_fmt *f,
		      const struct pd_sample *s, struct out *o)
{
	int n;

	if (!st->trace)
		st->trace = pd_trace_printer__new(pd_reader__features(st->r));
	if (!st->trace || o->n + 1 >= o->size)
		return;
	n = pd_trace_printer__print(st->trace, f->trace_id, (int)s->cpu,
				    s->raw.data, s->raw.size, o->p + o->n,
				    o->size - o->n);
	if (n <= 0)
		return;
	o->n += (size_t)n < o->size - o->n ? (size_t)n : o->size - o->n - 1;
}

size_t script_text__header(struct script_text *st, const struct pd_event *ev,
			   const struct pd_thread *t, char *buf, size_t size)
{
	const struct evsel_fmt *f = fmt_of(st, ev);
	const struct pd_sample *s = &ev->u.sample;
	const char *comm = t ? pd_thread__comm(t) : ":-1";
	struct out o = { .p = buf, .size = size };

	buf[0] = '\0';
	if (!f)
		return 0;
	put_str(&o, comm, f->show_ip && f->has_callchain ? 0 : 16);
	put_bytes(&o, " ", 1);
	if (f->show_tid) {
		put_i32_5(&o, (int32_t)s->tid);
		put_bytes(&o, " ", 1);
	}
	if (f->show_cpu) {
		put_bytes(&o, "[", 1);
		put_u64(&o, s->cpu, 3, true);
		put_bytes(&o, "] ", 2);
	}
	if (f->show_time) {
		put_u64(&o, s->time / 1000000000, 5, false);
		put_bytes(&o, ".", 1);
		put_u64(&o, s->time % 1000000000 / 1000, 6, true);
		put_bytes(&o, ": ", 2);
	}
	if (f->show_period) {
		put_u64(&o, period_of(f, s), 10, false);
		put_bytes(&o, " ", 1);
	}
	put_str(&o, f->name, st->name_width);
	put_bytes(&o, ": ", 2);
	if (f->trace_tail)
		put_trace(st, f, s, &o);
	else if (f->has_tail)
		put_bytes(&o, "...", 3);
	return o.n;
}

size_t script_text__sample_ip(const struct pd_frame *f, char *buf, size_t size)
{
	int k;

	if (f->sym)
		k = snprintf(buf, size, " %16" PRIx64 " %s+0x%" PRIx64 " (%s)",
			     f->ip, f->sym->name, f->addr - f->sym->start,
			     f->dso_name);
	else
		k = snprintf(buf, size, " %16" PRIx64 " [unknown] (%s)",
			     f->ip, f->dso_name);
	if (k < 0)
		return 0;
	return (size_t)k < size ? (size_t)k : size - 1;
}

size_t script_text__frame(const struct pd_frame *f, char *buf, size_t size)
{
	/*
	 * perf prints a user DSO's frames at their offset in it, a kernel
	 * DSO's (a BPF program's too, whose map is not the identity) at
	 * their address
	 */
	uint64_t at = f->kernel ? f->ip : f->addr;
	int k;

	if (f->inline_name && f->sym)	/* only DWARF callchains have them */
		k = snprintf(buf, size, "\t%16" PRIx64 " %s+0x%" PRIx64 " (inlined)",
			     at, f->inline_name, f->addr - f->sym->start);
	else if (f->sym)
		k = snprintf(buf, size, "\t%16" PRIx64 " %s+0x%" PRIx64 " (%s)",
			     at, f->sym->name, f->addr - f->sym->start,
			     f->dso_name);
	else
		k = snprintf(buf, size, "\t%16" PRIx64 " [unknown] (%s)",
			     at, f->dso_name);
	if (k < 0)
		return 0;
	return (size_t)k < size ? (size_t)k : size - 1;
}

/*
 * What stackcollapse-perf.pl's regexes read from the header line (see
 * fold-script.c), derived from the fields instead of the text:
 * - the comm, when it is two characters or more without blanks, is all
 *   that precedes the first blank, and the tid (printed alone) follows;
 * - the event and period match only when the time's ':' precedes them
 *   and nothing follows the event's ':'; a period of 0 counts as none;
 * - the time is read to the microsecond, as printed.
 * Other headers (blanks in the comm, a one-letter comm, no tid, blanks
 * in the event name) can parse in other ways: false, the text decides.
 */
bool script_text__header_fields(struct script_text *st,
				const struct pd_event *ev,
				const struct pd_thread *t,
				struct fold_sample *smp)
{
	const struct evsel_fmt *f = fmt_of(st, ev);
	const struct pd_sample *s = &ev->u.sample;
	const char *comm = t ? pd_thread__comm(t) : NULL;

	if (!f || !f->show_ip || !f->has_callchain || !f->show_tid ||
	    f->trace_tail || (int32_t)s->tid < 0 || !comm)
		return false;
	/* the same few comms and events, sample after sample */
	if (comm != st->last_comm) {
		st->last_comm = comm;
		st->last_comm_ok = comm[0] && comm[1] && !has_blank(comm);
	}
	if (!st->last_comm_ok || !f->name_ok)
		return false;
	memset(smp, 0, sizeof(*smp));
	smp->comm = comm;
	smp->comm_fixed = true;
	smp->pid = -1;
	smp->tid = (int32_t)s->tid;
	smp->cpu = f->show_cpu ? (int)s->cpu : -1;
	if (f->show_time) {
		smp->has_time = true;
		smp->time_ns = s->time / 1000 * 1000;
	}
	if (f->show_time && !f->has_tail) {
		smp->event = f->name;
		if (f->show_period && period_of(f, s)) {
			smp->has_period = true;
			smp->period = period_of(f, s);
		}
	}
	return true;
}
