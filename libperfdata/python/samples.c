// SPDX-License-Identifier: MIT
/*
 * samples() and perfdata.Sample: each sample as perf script delivers it
 * (a counter group's sample once per member whose count grew), with the
 * thread's name at that moment and its frames resolved then, while the
 * session's maps are those of the sample's time. The frames are kept in
 * C (struct pdpy_frame, in the Sample's own allocation) and become
 * Python objects only when asked for: .stack, a tuple of the symbols
 * (str objects shared by all samples), costs a tuple; .callchain, the
 * Frame objects, more.
 */
#include <stdio.h>
#include <string.h>

#include <perfdata/format.h>

#include "pdpy.h"

#include <structmember.h>

typedef struct {
	PyObject_HEAD
	struct pdpy_pass pass;
	bool open;
} SampleIterObject;

typedef struct {
	PyObject_VAR_HEAD
	PyObject *owner;	/* the SampleIter: frames point into its pass */
	unsigned long long time, ip, addr, period, id, stream_id;
	unsigned long long weight, data_src, phys_addr, cgroup, config;
	long long pid, tid, cpu;
	PyObject *event, *comm, *raw;
	PyObject *callchain, *stack, *fields;	/* made when asked */
	struct pdpy_frame alone;	/* without frames: its address's */
	bool has_alone;
	struct pdpy_frame frames[];
} SampleObject;

static void sample_dealloc(SampleObject *s)
{
	Py_XDECREF(s->event);
	Py_XDECREF(s->comm);
	Py_XDECREF(s->raw);
	Py_XDECREF(s->callchain);
	Py_XDECREF(s->stack);
	Py_XDECREF(s->fields);
	Py_XDECREF(s->owner);
	Py_TYPE(s)->tp_free((PyObject *)s);
}

static struct pdpy_pass *pass_of(SampleObject *s)
{
	return &((SampleIterObject *)s->owner)->pass;
}

static PyObject *get_callchain(SampleObject *s, void *unused)
{
	Py_ssize_t i, n = Py_SIZE(s);
	PyObject *t;

	if (s->callchain)
		return Py_NewRef(s->callchain);
	t = PyTuple_New(n);
	for (i = 0; t && i < n; i++) {
		PyObject *f = pdpy_frame_new(pass_of(s), &s->frames[i]);

		if (!f) {
			Py_CLEAR(t);
			break;
		}
		PyTuple_SET_ITEM(t, i, f);
	}
	s->callchain = t;
	return Py_XNewRef(t);
}

static PyObject *get_stack(SampleObject *s, void *unused)
{
	Py_ssize_t i, n = Py_SIZE(s);
	PyObject *t;

	if (s->stack)
		return Py_NewRef(s->stack);
	t = PyTuple_New(n);
	for (i = 0; t && i < n; i++) {
		PyObject *name = pdpy_frame_name(pass_of(s), &s->frames[i]);

		if (!name) {
			Py_CLEAR(t);
			break;
		}
		PyTuple_SET_ITEM(t, i, Py_NewRef(name));
	}
	s->stack = t;
	return Py_XNewRef(t);
}

static PyObject *get_symbol(SampleObject *s, void *unused)
{
	const struct pdpy_frame *leaf = pdpy_leaf(s->frames, Py_SIZE(s),
						   s->has_alone ? &s->alone : NULL);

	if (!leaf || !leaf->sym)
		Py_RETURN_NONE;
	return Py_XNewRef(pdpy_str(&pass_of(s)->strs, leaf->sym));
}

static PyObject *get_dso(SampleObject *s, void *unused)
{
	const struct pdpy_frame *leaf = pdpy_leaf(s->frames, Py_SIZE(s),
						   s->has_alone ? &s->alone : NULL);

	if (!leaf)
		Py_RETURN_NONE;
	return Py_XNewRef(pdpy_str(&pass_of(s)->strs, leaf->dso));
}

static PyObject *get_fields(SampleObject *s, void *unused)
{
	if (!s->fields) {
		if (s->raw == Py_None)
			Py_RETURN_NONE;
		s->fields = pdpy_trace_fields(pass_of(s)->r, s->config,
					      PyBytes_AS_STRING(s->raw),
					      PyBytes_GET_SIZE(s->raw));
	}
	return Py_XNewRef(s->fields);
}

static PyObject *sample_repr(SampleObject *s)
{
	PyObject *sym = get_symbol(s, NULL), *r;
	char ip[24];

	if (!sym)
		return NULL;
	/* PyUnicode_FromFormat() has no %llx */
	snprintf(ip, sizeof(ip), "%#llx", s->ip);
	r = PyUnicode_FromFormat("perfdata.Sample(time=%llu, pid=%lld, tid=%lld, cpu=%lld, comm=%R, event=%R, period=%llu, ip=%s, symbol=%R, frames=%zd)",
				 s->time, s->pid, s->tid, s->cpu, s->comm, s->event,
				 s->period, ip, sym, Py_SIZE(s));
	Py_DECREF(sym);
	return r;
}

#define M(name, type, doc) \
	{ #name, type, offsetof(SampleObject, name), READONLY, doc }

static PyMemberDef sample_members[] = {
	M(time, T_ULONGLONG, "the time in ns of the session's clock (0 without PERF_SAMPLE_TIME)"),
	M(pid, T_LONGLONG, "the process id (-1 without PERF_SAMPLE_TID)"),
	M(tid, T_LONGLONG, "the thread id (-1 without PERF_SAMPLE_TID)"),
	M(cpu, T_LONGLONG, "the CPU (-1 without PERF_SAMPLE_CPU)"),
	M(period, T_ULONGLONG, "the period perf script prints (the attr's when samples carry none; a group member's growth)"),
	M(event, T_OBJECT, "the event's name, as perf script prints it"),
	M(comm, T_OBJECT, "the thread's name at the sample's time"),
	M(ip, T_ULONGLONG, "the sampled instruction address"),
	M(addr, T_ULONGLONG, "the data address (PERF_SAMPLE_ADDR; 0 otherwise)"),
	M(id, T_ULONGLONG, "the sample id (the event's counter)"),
	M(stream_id, T_ULONGLONG, "PERF_SAMPLE_STREAM_ID"),
	M(weight, T_ULONGLONG, "PERF_SAMPLE_WEIGHT (WEIGHT_STRUCT's raw u64)"),
	M(data_src, T_ULONGLONG, "PERF_SAMPLE_DATA_SRC"),
	M(phys_addr, T_ULONGLONG, "PERF_SAMPLE_PHYS_ADDR"),
	M(cgroup, T_ULONGLONG, "PERF_SAMPLE_CGROUP: the cgroup id"),
	M(raw, T_OBJECT, "PERF_SAMPLE_RAW's bytes (tracepoints), else None"),
	{ NULL },
};

static PyGetSetDef sample_getset[] = {
	{ "callchain", (getter)get_callchain, NULL,
	  "the frames (perfdata.Frame), leaf first, as perf script prints them; for a sample without a callchain, its ip's frame", NULL },
	{ "stack", (getter)get_stack, NULL,
	  "the frames' symbols, leaf first ('[unknown]' where perf prints that): a tuple to count or group by", NULL },
	{ "symbol", (getter)get_symbol, NULL,
	  "the symbol of the sampled address, as perf script -F ip,sym prints it (the first frame not of an inlined function), or None", NULL },
	{ "dso", (getter)get_dso, NULL, "that frame's DSO, or None", NULL },
	{ "fields", (getter)get_fields, NULL,
	  "a tracepoint's fields by its format (dict), else None", NULL },
	{ NULL },
};

PyTypeObject pdpy_SampleType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "perfdata.Sample",
	.tp_basicsize = offsetof(SampleObject, frames),
	.tp_itemsize = sizeof(struct pdpy_frame),
	.tp_dealloc = (destructor)sample_dealloc,
	.tp_repr = (reprfunc)sample_repr,
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "One sample, as perf script delivers it.",
	.tp_members = sample_members,
	.tp_getset = sample_getset,
};

static PyObject *make_sample(SampleIterObject *it, const struct pdpy_delivery *d,
			     int n)
{
	struct pdpy_pass *p = &it->pass;
	const struct pd_sample *smp = &d->ev->u.sample;
	uint64_t st = smp->sample_type;
	SampleObject *s;
	PyObject *event, *comm;

	event = pdpy_event_name(p, d->evsel);
	comm = d->t ? pdpy_str(&p->strs, pd_thread__comm(d->t)) : Py_None;
	if (!event || !comm)
		return NULL;
	s = PyObject_NewVar(SampleObject, &pdpy_SampleType, n);
	if (!s)
		return NULL;
	s->owner = Py_NewRef((PyObject *)it);
	s->time = st & PD_SAMPLE_TIME ? smp->time : 0;
	s->pid = st & PD_SAMPLE_TID ? (int32_t)smp->pid : -1;
	s->tid = st & PD_SAMPLE_TID ? (int32_t)smp->tid : -1;
	s->cpu = st & PD_SAMPLE_CPU ? (long long)smp->cpu : -1;
	s->period = pdpy_period(d);
	s->ip = smp->ip;
	s->addr = smp->addr;
	s->id = d->id;
	s->stream_id = smp->stream_id;
	s->weight = smp->weight;
	s->data_src = smp->data_src;
	s->phys_addr = smp->phys_addr;
	s->cgroup = smp->cgroup;
	s->config = d->evsel->attr.config;
	s->event = Py_NewRef(event);
	s->comm = Py_NewRef(comm);
	s->callchain = s->stack = s->fields = NULL;
	s->raw = st & PD_SAMPLE_RAW ?
		 PyBytes_FromStringAndSize(smp->raw.data, smp->raw.size) :
		 Py_NewRef(Py_None);
	if (!s->raw) {
		Py_DECREF(s);
		return NULL;
	}
	memcpy(s->frames, p->out, n * sizeof(*p->out));
	s->has_alone = p->has_alone;
	if (p->has_alone)
		s->alone = p->alone;
	return (PyObject *)s;
}

static PyObject *sit_next(SampleIterObject *it)
{
	struct pdpy_delivery d;
	int rc, n;

	if (!it->open)
		return NULL;
	rc = pdpy_pass_next_sample(&it->pass, &d);
	if (rc <= 0) {
		/* the samples made keep the pass; it goes with the last */
		it->open = false;
		return NULL;
	}
	n = pdpy_pass_frames(&it->pass, &d);
	if (n < 0)
		return NULL;
	return make_sample(it, &d, n);
}

static void sit_dealloc(SampleIterObject *it)
{
	if (it->pass.file)
		pdpy_pass_close(&it->pass);
	Py_TYPE(it)->tp_free((PyObject *)it);
}

PyTypeObject pdpy_SampleIterType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "perfdata.SampleIterator",
	.tp_basicsize = sizeof(SampleIterObject),
	.tp_dealloc = (destructor)sit_dealloc,
	.tp_iter = PyObject_SelfIter,
	.tp_iternext = (iternextfunc)sit_next,
	.tp_flags = Py_TPFLAGS_DEFAULT,
};

PyObject *pdpy_samples(PerfDataObject *f, PyObject *unused)
{
	SampleIterObject *it;

	if (pdpy_file_check_open(f))
		return NULL;
	it = PyObject_New(SampleIterObject, &pdpy_SampleIterType);
	if (!it)
		return NULL;
	memset(&it->pass, 0, sizeof(it->pass));
	it->open = false;
	if (pdpy_pass_open(&it->pass, f, PDPY_PASS_SAMPLES, f->opts.inline_mode)) {
		Py_DECREF(it);
		return NULL;
	}
	it->open = true;
	return (PyObject *)it;
}
