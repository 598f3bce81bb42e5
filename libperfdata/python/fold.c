// SPDX-License-Identifier: MIT
/*
 * fold(): the stacks `pd-fold FILE` prints ("comm;root;...;leaf COUNT",
 * as `perf script | stackcollapse-perf.pl`), as a dict {stack: count}.
 *
 * Each sample perf script prints with a callchain is one stack: its
 * header line (comm, tid, cpu, time, period, event, as perf script 6.1
 * prints them by default) gives the process name, the event and the
 * count, by the script's regexes; its frame lines give the frames
 * (fold-frame.c). Where the header's fields say what those regexes would
 * read (a comm of two characters or more without blanks, the tid shown,
 * no tracepoint fields after the event), they are used as they are; any
 * other header is printed and read back as the script reads it. Samples
 * of other events than the first one seen are left out, as the script
 * does, unless event= names the one to fold.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfdata/evsel.h>
#include <perfdata/format.h>
#include <perfdata/trace.h>

#include "fold.h"
#include "pdpy.h"

#define TYPE_TRACEPOINT	2
#define TYPE_RAW	4
#define LINE_MAX_LEN	8192

/* How perf script prints an event's samples (tools' script-text rules). */
struct evfmt {
	bool has_callchain, show_tid, show_cpu, show_time, show_period, show_ip;
	bool has_tail, trace_tail, name_ok;
	char name[128];
};

struct run {
	struct folder f;
	struct pdpy_pass *p;
	struct fhash stacks;	/* the folded stacks and their counts */
	struct evfmt *fmt;
	size_t nr_fmt;
	int name_width;
	bool tp_callchain;
	struct pd_trace_printer *trace;
	/* the event kept: asked for, or the first one seen */
	char *event;
	bool event_defaulted, event_warned;
	uint64_t nr_samples, nr_no_callchain;
	struct fbuf pname, key;
	char line[LINE_MAX_LEN];
	char pc[64];
};

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

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* The events' print settings, for those not seen yet (a pipe adds some). */
static int setup(struct run *run)
{
	const struct pd_reader *r = run->p->r;
	size_t n = pd_reader__nr_evsels(r), i;
	struct evfmt *fmt;

	if (n <= run->nr_fmt)
		return 0;
	fmt = realloc(run->fmt, n * sizeof(*fmt));
	if (!fmt)
		return -1;
	memset(fmt + run->nr_fmt, 0, (n - run->nr_fmt) * sizeof(*fmt));
	run->fmt = fmt;
	run->nr_fmt = n;
	for (i = 0; i < n; i++) {
		const struct pd_evsel *e = pd_reader__evsel(r, i);

		if (e->attr.type == TYPE_TRACEPOINT &&
		    (e->attr.sample_type & PD_SAMPLE_CALLCHAIN))
			run->tp_callchain = true;
	}
	for (i = 0; i < n; i++) {
		const struct pd_evsel *e = pd_reader__evsel(r, i);
		struct evfmt *f = &fmt[i];
		uint64_t st = e->attr.sample_type;
		bool tp = e->attr.type == TYPE_TRACEPOINT;

		f->has_callchain = st & PD_SAMPLE_CALLCHAIN;
		f->show_tid = st & PD_SAMPLE_TID;
		f->show_cpu = st & PD_SAMPLE_CPU;
		f->show_time = st & PD_SAMPLE_TIME;
		f->show_period = !tp;
		f->show_ip = (st & PD_SAMPLE_IP) && (!tp || run->tp_callchain);
		/* tracepoint fields, a bpf-output dump, a raw event's data */
		if (tp || e->attr.type == 1)
			f->has_tail = st & PD_SAMPLE_RAW;
		f->trace_tail = tp && f->has_tail;
		if (e->attr.type == TYPE_RAW)
			f->has_tail = st & (PD_SAMPLE_ADDR | PD_SAMPLE_DATA_SRC |
					    PD_SAMPLE_WEIGHT_TYPE |
					    PD_SAMPLE_PHYS_ADDR |
					    PD_SAMPLE_DATA_PAGE_SIZE |
					    PD_SAMPLE_CODE_PAGE_SIZE);
		pd_evsel__name(e, r, f->name, sizeof(f->name));
		f->name_ok = f->name[0] && !has_blank(f->name);
	}
	/* the width perf aligns names to is fixed at its first sample */
	for (i = 0; !run->name_width && i < n; i++)
		if ((int)strlen(fmt[i].name) > run->name_width)
			run->name_width = strlen(fmt[i].name);
	return 0;
}

static const struct evfmt *fmt_of(struct run *run, const struct pd_evsel *e)
{
	if ((size_t)e->idx >= run->nr_fmt && setup(run))
		return NULL;
	return (size_t)e->idx < run->nr_fmt ? &run->fmt[e->idx] : NULL;
}

/* What the script's header regexes read. */
struct header {
	const char *comm;
	size_t comm_len;
	const char *pid, *tid;	/* the ids as shown; NULL: none */
	size_t pid_len, tid_len;
	int tid_num;
	const char *event;	/* NULL: none matched */
	size_t event_len;
	bool has_period;
	uint64_t period;
};

/*
 * `^(\S.+?)\s+(\d+)[/]*(\d+)*\s+`: the command name is the shortest
 * prefix of two characters or more followed by blanks, digits,
 * optional slashes and digits, and a blank.
 */
static bool match_header(const char *s, size_t len, struct header *h,
			 const char **rest)
{
	size_t e, p, a, b, c, d;

	if (!len || is_blank(s[0]))
		return false;
	for (e = 2; e < len; e++) {
		if (!is_blank(s[e]))
			continue;
		for (p = e; p < len && is_blank(s[p]); p++)
			;
		if (p < len && is_digit(s[p])) {
			for (a = p; p < len && is_digit(s[p]); p++)
				;
			b = p;
			while (p < len && s[p] == '/')
				p++;
			for (c = p; p < len && is_digit(s[p]); p++)
				;
			d = p;
			if (p < len && is_blank(s[p])) {
				h->comm = s;
				h->comm_len = e;
				/* one number is the tid (perf's default) */
				if (c < d && !(d - c == 1 && s[c] == '0')) {
					h->pid = s + a;
					h->pid_len = b - a;
					h->tid = s + c;
					h->tid_len = d - c;
				} else {
					h->pid = NULL;
					h->tid = s + a;
					h->tid_len = b - a;
				}
				*rest = s + p;
				return true;
			}
		}
		/* a later start in the same run of blanks fails alike */
		while (e + 1 < len && is_blank(s[e + 1]))
			e++;
	}
	return false;
}

/*
 * `:\s*(\d+)*\s+(\S+):\s*$`: the last word ends in ':' and is the event;
 * before it only blanks and an optional number (the period) back to a ':'.
 */
static void match_event(const char *s, size_t len, struct header *h)
{
	size_t end = len, t, q, dg;

	while (end > 0 && is_blank(s[end - 1]))
		end--;
	if (end < 2 || s[end - 1] != ':')
		return;
	for (t = end - 1; t > 0 && !is_blank(s[t - 1]); t--)
		;
	if (t == end - 1 || t == 0)
		return;
	for (q = t; q > 0 && is_blank(s[q - 1]); q--)
		;
	for (dg = q; dg > 0 && is_digit(s[dg - 1]); dg--)
		;
	if (dg == 0)
		return;
	{
		size_t k = dg;

		while (k > 0 && is_blank(s[k - 1]))
			k--;
		if (k == 0 || s[k - 1] != ':')
			return;
	}
	h->event = s + t;
	h->event_len = end - 1 - t;
	/* the script's `if (not $period)`: none or "0" count 1 */
	if (dg < q && !(q - dg == 1 && s[dg] == '0')) {
		h->has_period = true;
		for (; dg < q; dg++)
			h->period = h->period * 10 + (s[dg] - '0');
	}
}

/* "%*s" and friends of perf script's header, into run->line */
struct out {
	char *p;
	size_t n, size;
};

static void put(struct out *o, const char *s, size_t len)
{
	if (len > o->size - 1 - o->n)
		len = o->size - 1 - o->n;
	memcpy(o->p + o->n, s, len);
	o->n += len;
	o->p[o->n] = '\0';
}

static void puts_(struct out *o, const char *buf, int k)
{
	if (k > 0)
		put(o, buf, (size_t)k);
}

/* The header line perf script prints for a sample with a callchain. */
static size_t header_text(struct run *run, const struct evfmt *f,
			  const struct pdpy_delivery *d, const char *comm)
{
	const struct pd_sample *s = &d->ev->u.sample;
	struct out o = { .p = run->line, .size = sizeof(run->line) };
	char num[64];
	int pad;

	run->line[0] = '\0';
	put(&o, comm, strlen(comm));
	put(&o, " ", 1);
	if (f->show_tid)
		puts_(&o, num, snprintf(num, sizeof(num), "%5d ", (int32_t)s->tid));
	if (f->show_cpu)
		puts_(&o, num, snprintf(num, sizeof(num), "[%03u] ", s->cpu));
	if (f->show_time)
		puts_(&o, num, snprintf(num, sizeof(num), "%5llu.%06llu: ",
					(unsigned long long)(s->time / 1000000000),
					(unsigned long long)(s->time % 1000000000 / 1000)));
	if (f->show_period)
		puts_(&o, num, snprintf(num, sizeof(num), "%10llu ",
					(unsigned long long)pdpy_period(d)));
	for (pad = run->name_width - (int)strlen(f->name); pad > 0; pad--)
		put(&o, " ", 1);
	put(&o, f->name, strlen(f->name));
	put(&o, ": ", 2);
	if (f->trace_tail) {
		int n;

		if (!run->trace)
			run->trace = pd_trace_printer__new(pd_reader__features(run->p->r));
		if (run->trace && o.n + 1 < o.size) {
			n = pd_trace_printer__print(run->trace, d->evsel->attr.config,
						    (int)s->cpu, s->raw.data,
						    s->raw.size, o.p + o.n,
						    o.size - o.n);
			if (n > 0)
				o.n += (size_t)n < o.size - o.n ? (size_t)n :
				       o.size - o.n - 1;
		}
	} else if (f->has_tail) {
		put(&o, "...", 3);
	}
	return o.n;
}

/*
 * The sample's header as the script reads it: from the fields where
 * they say it all, else from its text. False: no header line matched
 * (the script then folds none of its frames).
 */
static bool header_of(struct run *run, const struct evfmt *f,
		      const struct pdpy_delivery *d, struct header *h)
{
	const char *comm = d->t ? pd_thread__comm(d->t) : ":-1", *rest;
	int32_t tid = (int32_t)d->ev->u.sample.tid;
	size_t len;

	memset(h, 0, sizeof(*h));
	if (f->show_tid && !f->trace_tail && tid >= 0 && comm[0] && comm[1] &&
	    !has_blank(comm) && f->name_ok) {
		h->comm = comm;
		h->comm_len = strlen(comm);
		h->tid_num = tid;
		if (f->show_time && !f->has_tail) {
			uint64_t period = pdpy_period(d);

			h->event = f->name;
			h->event_len = strlen(f->name);
			if (f->show_period && period) {
				h->has_period = true;
				h->period = period;
			}
		}
		return true;
	}
	len = header_text(run, f, d, comm);
	if (!match_header(run->line, len, h, &rest))
		return false;
	match_event(run->line, len, h);
	return true;
}

static int add_id(struct fbuf *b, const char *text, size_t len, int num)
{
	char s[16];

	if (text)
		return fbuf_add(b, text, len);
	snprintf(s, sizeof(s), "%d", num);
	return fbuf_add(b, s, strlen(s));
}

/* The event filter: the one asked for, else the first event seen. */
static int event_kept(struct run *run, const struct header *h, bool *kept)
{
	*kept = true;
	if (!h->event)
		return 0;	/* the script only filters what it sees */
	if (!run->event) {
		run->event = strndup(h->event, h->event_len);
		run->event_defaulted = true;
		return run->event ? 0 : -1;
	}
	if (strlen(run->event) == h->event_len &&
	    !memcmp(run->event, h->event, h->event_len))
		return 0;
	*kept = false;
	if (run->event_defaulted && !run->event_warned) {
		char msg[256];

		run->event_warned = true;
		snprintf(msg, sizeof(msg), "Filtering for events of type: %s",
			 run->event);
		return PyErr_WarnEx(pdpy_Warning, msg, 1);
	}
	return 0;
}

/* The process name: comm[-PID[/TID]], blanks as '_'. */
static int pname(struct run *run, const struct header *h)
{
	struct fbuf *b = &run->pname;
	const struct fold_opts *o = &run->f.o;
	size_t i;

	b->len = 0;
	if (fbuf_add(b, h->comm, h->comm_len))
		return -1;
	if (o->pid || o->tid) {
		/* perf script's default header shows no pid: "?" */
		if (fbuf_add(b, "-", 1) ||
		    (h->pid ? fbuf_add(b, h->pid, h->pid_len) : fbuf_add(b, "?", 1)))
			return -1;
		if (o->tid && (fbuf_add(b, "/", 1) ||
			       add_id(b, h->tid, h->tid_len, h->tid_num)))
			return -1;
	}
	for (i = 0; i < b->len; i++)
		if (b->p[i] == ' ')
			b->p[i] = '_';
	run->f.java = !strncmp(b->p, "java", 4);
	return 0;
}

/* A frame's entries, kept by what its line shows: symbol, DSO, inline. */
struct memo_key {
	const void *sym, *dso, *inl;
	uintptr_t java;
};

struct memo {
	size_t nr;
	size_t *lens;
	char *text;
};

static void memo_free(void *p)
{
	free(p);
}

static int memo_store(struct folder *f, const struct memo_key *k, size_t first)
{
	size_t nr = f->nent - first, bytes = 0, i;
	struct fhash_ent *e;
	struct memo *m;
	bool added;
	char *t;

	for (i = first; i < f->nent; i++)
		bytes += f->ent[i].len;
	m = malloc(sizeof(*m) + nr * sizeof(size_t) + bytes);
	if (!m)
		return -1;
	m->nr = nr;
	m->lens = (size_t *)(m + 1);
	m->text = t = (char *)(m->lens + nr);
	for (i = 0; i < nr; i++) {
		const struct fspan *s = &f->ent[first + i];

		m->lens[i] = s->len;
		memcpy(t, f->text.p + s->off, s->len);
		t += s->len;
	}
	e = fhash_get(&f->memo, k, sizeof(*k), &added);
	if (!e || !added) {
		free(m);
		return e ? 0 : -1;
	}
	e->ptr = m;
	return 0;
}

static void frame(struct run *run, const struct pd_frame *fr)
{
	struct folder *f = &run->f;
	struct memo_key k = {
		.sym = fr->sym, .dso = fr->dso_name, .inl = fr->inline_name,
		.java = f->java,
	};
	struct fhash_ent *e = fhash_find(&f->memo, &k, sizeof(k));
	const char *pc, *sym, *mod;
	size_t len, first, i;

	if (e) {
		const struct memo *m = e->ptr;
		const char *t = m->text;

		for (i = 0; i < m->nr; t += m->lens[i++])
			fold_push(f, t, m->lens[i]);
		return;
	}
	len = fold_frame_text(fr, run->line, sizeof(run->line));
	if (!fold_match_frame(run->line, len, run->pc, sizeof(run->pc), &pc,
			      &sym, &mod))
		return;
	first = f->nent;
	f->rec_ok = true;
	fold_frame(f, pc, sym, mod);
	/* the same symbol and DSO fold alike, unless the address mattered */
	if (f->rec_ok && memo_store(f, &k, first))
		f->failed = true;
}

static int sample(struct run *run, const struct pdpy_delivery *d)
{
	const struct evfmt *fmt = fmt_of(run, d->evsel);
	struct pdpy_pass *p = run->p;
	struct folder *f = &run->f;
	struct header h;
	struct fhash_ent *e;
	uint64_t count;
	bool kept, added;
	size_t i;
	int n;

	if (!fmt) {
		PyErr_NoMemory();
		return -1;
	}
	run->nr_samples++;
	if (!fmt->show_ip || !fmt->has_callchain) {
		run->nr_no_callchain++;
		return 0;
	}
	n = pd_unwinder__sample_frames(p->u, d->t, d->ev, p->frames,
				       PDPY_MAX_FRAMES);
	if (p->file->log.nr && pdpy_log_flush(&p->file->log))
		return -1;
	/* perf script prints the sample alone: nothing to fold */
	if (n == -ENODATA)
		return 0;
	if (n < 0) {
		pdpy_raise(n, NULL, p->file->src.name);
		return -1;
	}
	if (!header_of(run, fmt, d, &h))
		return 0;
	if (event_kept(run, &h, &kept))
		return -1;
	if (!kept)
		return 0;
	switch (f->o.weight) {
	case FOLD_WEIGHT_SAMPLES:
		count = 1;
		break;
	case FOLD_WEIGHT_PERIOD:
		count = h.has_period ? h.period : 1;
		break;
	default:
		count = h.has_period && h.period ? h.period : 1;
		break;
	}
	if (pname(run, &h)) {
		PyErr_NoMemory();
		return -1;
	}
	f->nent = 0;
	f->text.len = 0;
	for (i = 0; i < (size_t)n; i++)
		frame(run, &p->frames[i]);
	/* the stack, root first */
	run->key.len = 0;
	if (fbuf_add(&run->key, run->pname.p, run->pname.len))
		f->failed = true;
	for (i = f->nent; i-- > 0;)
		if (fbuf_add(&run->key, ";", 1) ||
		    fbuf_add(&run->key, f->text.p + f->ent[i].off, f->ent[i].len))
			f->failed = true;
	e = f->failed ? NULL : fhash_get(&run->stacks, run->key.p, run->key.len, &added);
	if (!e) {
		PyErr_NoMemory();
		return -1;
	}
	e->val += count;
	return 0;
}

static PyObject *stacks_dict(struct run *run)
{
	PyObject *d = PyDict_New();
	struct fhash_ent *e = NULL;
	size_t bucket = 0;

	while (d && (e = fhash_next(&run->stacks, &bucket, e))) {
		PyObject *k = pdpy_decode(e->key, e->len);
		PyObject *v = PyLong_FromUnsignedLongLong(e->val);

		if (!k || !v || PyDict_SetItem(d, k, v))
			Py_CLEAR(d);
		Py_XDECREF(k);
		Py_XDECREF(v);
	}
	return d;
}

static void run_free(struct run *run)
{
	fhash_free(&run->stacks, NULL);
	fhash_free(&run->f.memo, memo_free);
	fold_frame_free(&run->f);
	pd_trace_printer__free(run->trace);
	free(run->fmt);
	free(run->event);
	free(run->pname.p);
	free(run->key.p);
	free(run);
}

static PyObject *fold_file(PerfDataObject *file, const struct fold_opts *o,
			   const char *event, enum pdpy_inline mode)
{
	struct run *run = calloc(1, sizeof(*run));
	struct pdpy_delivery d;
	struct pdpy_pass p;
	PyObject *res = NULL;
	int rc;

	if (!run)
		return PyErr_NoMemory();
	run->f.o = *o;
	if (event && !(run->event = strdup(event))) {
		free(run);
		return PyErr_NoMemory();
	}
	if (pdpy_file_check_open(file) ||
	    pdpy_pass_open(&p, file, PDPY_PASS_SAMPLES, mode)) {
		run_free(run);
		return NULL;
	}
	run->p = &p;
	run->f.sym = p.sym;
	while ((rc = pdpy_pass_next_sample(&p, &d)) > 0)
		if (sample(run, &d)) {
			rc = -1;
			break;
		}
	if (!rc && run->nr_samples && run->nr_samples == run->nr_no_callchain) {
		char msg[512];

		snprintf(msg, sizeof(msg),
			 "%s: no callchains (record with -g or --call-graph): nothing to fold",
			 file->src.name);
		rc = PyErr_WarnEx(pdpy_Warning, msg, 1);
	}
	if (!rc)
		res = stacks_dict(run);
	run_free(run);
	pdpy_pass_close(&p);
	return res;
}

static int parse_weight(const char *w, enum fold_weight *out)
{
	if (!w || !strcmp(w, "default"))
		*out = FOLD_WEIGHT_DEFAULT;
	else if (!strcmp(w, "samples"))
		*out = FOLD_WEIGHT_SAMPLES;
	else if (!strcmp(w, "period"))
		*out = FOLD_WEIGHT_PERIOD;
	else {
		PyErr_Format(PyExc_ValueError,
			     "fold(weight='%s'): 'samples', 'period' or None", w);
		return -1;
	}
	return 0;
}

/* inline=None: pd-fold's default; True: --inline; False: --no-inline */
static int parse_inline(PyObject *v, struct fold_opts *o, enum pdpy_inline *mode)
{
	*mode = PDPY_INLINE_PERF;
	if (v == Py_True)
		o->inline_frames = true;
	else if (v == Py_False)
		*mode = PDPY_INLINE_NONE;
	else if (v != Py_None) {
		PyErr_SetString(PyExc_TypeError, "fold(inline=...) takes None, True or False");
		return -1;
	}
	return 0;
}

#define FOLD_KWLIST "pid", "tid", "kernel", "jit", "all", "addrs", "inline", \
	"context", "event", "weight"

PyObject *pdpy_fold_method(PerfDataObject *file, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { FOLD_KWLIST, NULL };
	struct fold_opts o = { 0 };
	int pid = 0, tid = 0, kernel = 0, jit = 0, all = 0, addrs = 0, context = 0;
	const char *event = NULL, *weight = NULL;
	enum pdpy_inline mode;
	PyObject *inl = NULL;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "|$ppppppOpzz:fold", kwlist,
					 &pid, &tid, &kernel, &jit, &all, &addrs,
					 &inl, &context, &event, &weight))
		return NULL;
	/* the file's inline= unless told */
	if (!inl)
		inl = file->opts.inline_mode == PDPY_INLINE_ALL ? Py_True :
		      file->opts.inline_mode == PDPY_INLINE_NONE ? Py_False : Py_None;
	o.pid = pid;
	o.tid = tid;
	o.kernel = kernel || all;
	o.jit = jit || all;
	o.addrs = addrs;
	o.context = context;
	if (parse_inline(inl, &o, &mode) || parse_weight(weight, &o.weight))
		return NULL;
	return fold_file(file, &o, event, mode);
}

PyObject *pdpy_fold(PyObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "source", "symfs", "root", "kallsyms",
				  "vmlinux", "debuginfod", FOLD_KWLIST, NULL };
	static const char *const open_kw[] = { "symfs", "root", "kallsyms",
					       "vmlinux", "debuginfod", NULL };
	PyObject *source, *okw = NULL, *fkw = NULL, *oargs = NULL;
	PyObject *file = NULL, *res = NULL, *k, *v, *empty = NULL;
	Py_ssize_t pos = 0;
	size_t i;

	/* checked here, so that a misspelt option is named as fold()'s */
	if (!PyArg_ParseTupleAndKeywords(args, kw, "O|$OOOOOOOOOOOOOOO:fold",
					 kwlist, &source, &v, &v, &v, &v, &v, &v,
					 &v, &v, &v, &v, &v, &v, &v, &v, &v))
		return NULL;
	okw = PyDict_New();
	fkw = PyDict_New();
	oargs = PyTuple_Pack(1, source);
	empty = PyTuple_New(0);
	if (!okw || !fkw || !oargs || !empty)
		goto out;
	while (kw && PyDict_Next(kw, &pos, &k, &v)) {
		PyObject *to = fkw;

		for (i = 0; open_kw[i]; i++)
			if (PyUnicode_CompareWithASCIIString(k, open_kw[i]) == 0)
				to = okw;
		if (PyDict_SetItem(to, k, v))
			goto out;
	}
	file = pdpy_open(NULL, oargs, okw);
	if (file)
		res = pdpy_fold_method((PerfDataObject *)file, empty, fkw);
out:
	if (file) {
		PyObject *exc_type, *exc, *tb;

		/* closed whatever happened, keeping fold's exception */
		PyErr_Fetch(&exc_type, &exc, &tb);
		Py_XDECREF(PyObject_CallMethod(file, "close", NULL));
		PyErr_Restore(exc_type, exc, tb);
	}
	Py_XDECREF(file);
	Py_XDECREF(okw);
	Py_XDECREF(fkw);
	Py_XDECREF(oargs);
	Py_XDECREF(empty);
	return res;
}
