// SPDX-License-Identifier: MIT
/*
 * records(): every record of the file with its fields, as the reader
 * decodes it (pd-info --dump's view, perf report -D's), in file order or
 * in time order. A record is a perfdata.Record: attributes type, name,
 * misc, offset, size, the sample_id fields its trailer holds, and the
 * fields of its type under the kernel's names (vars(record) gives them
 * all). No session: the frames of samples are samples()' business.
 */
#include <string.h>

#include <perfdata/evsel.h>
#include <perfdata/format.h>

#include "pdpy.h"

/* perfdata.Record and perfdata.Event: attributes from a dict */
typedef struct {
	PyObject_HEAD
	PyObject *dict;
} NamespaceObject;

static void ns_dealloc(NamespaceObject *o)
{
	Py_XDECREF(o->dict);
	Py_TYPE(o)->tp_free((PyObject *)o);
}

static PyObject *ns_repr(NamespaceObject *o)
{
	PyObject *parts, *sep, *joined, *r = NULL, *k, *v;
	Py_ssize_t pos = 0;
	int rc = Py_ReprEnter((PyObject *)o);

	if (rc)
		return rc > 0 ? PyUnicode_FromFormat("%s(...)", Py_TYPE(o)->tp_name) : NULL;
	parts = PyList_New(0);
	while (parts && o->dict && PyDict_Next(o->dict, &pos, &k, &v)) {
		PyObject *p = PyUnicode_FromFormat("%U=%R", k, v);

		if (!p || PyList_Append(parts, p))
			Py_CLEAR(parts);
		Py_XDECREF(p);
	}
	sep = PyUnicode_FromString(", ");
	joined = parts && sep ? PyUnicode_Join(sep, parts) : NULL;
	if (joined)
		r = PyUnicode_FromFormat("%s(%U)", Py_TYPE(o)->tp_name, joined);
	Py_XDECREF(joined);
	Py_XDECREF(sep);
	Py_XDECREF(parts);
	Py_ReprLeave((PyObject *)o);
	return r;
}

PyObject *pdpy_namespace(PyTypeObject *t, PyObject *d)
{
	NamespaceObject *o;

	if (!d)
		return NULL;
	o = PyObject_New(NamespaceObject, t);
	if (!o) {
		Py_DECREF(d);
		return NULL;
	}
	o->dict = d;
	return (PyObject *)o;
}

/* vars(record) */
static PyGetSetDef ns_getset[] = {
	{ "__dict__", PyObject_GenericGetDict, NULL, NULL, NULL },
	{ NULL },
};

#define NAMESPACE_TYPE(cname, pyname, doc)				\
PyTypeObject cname = {							\
	PyVarObject_HEAD_INIT(NULL, 0)					\
	.tp_name = pyname,						\
	.tp_basicsize = sizeof(NamespaceObject),			\
	.tp_dealloc = (destructor)ns_dealloc,				\
	.tp_repr = (reprfunc)ns_repr,					\
	.tp_getattro = PyObject_GenericGetAttr,				\
	.tp_dictoffset = offsetof(NamespaceObject, dict),		\
	.tp_getset = ns_getset,						\
	.tp_flags = Py_TPFLAGS_DEFAULT,					\
	.tp_doc = doc,							\
}

NAMESPACE_TYPE(pdpy_RecordType, "perfdata.Record",
	"One record as stored: type, name, misc, offset, size, its sample_id "
	"fields, and the fields of its type (vars(record) lists them).");
NAMESPACE_TYPE(pdpy_EventType, "perfdata.Event",
	"One event of the file (an attr): name, idx, ids, sample_fields and "
	"attr, the perf_event_attr as a dict under the kernel's names.");

/* d[key] = v, v stolen */
static int put(PyObject *d, const char *key, PyObject *v)
{
	int err;

	if (!v)
		return -1;
	err = PyDict_SetItemString(d, key, v);
	Py_DECREF(v);
	return err;
}

static int put_u64(PyObject *d, const char *key, uint64_t v)
{
	return put(d, key, PyLong_FromUnsignedLongLong(v));
}

static int put_i64(PyObject *d, const char *key, int64_t v)
{
	return put(d, key, PyLong_FromLongLong(v));
}

static int put_str(PyObject *d, const char *key, const char *s)
{
	if (!s)
		return put(d, key, Py_NewRef(Py_None));
	return put(d, key, pdpy_decode(s, strlen(s)));
}

static int put_bytes(PyObject *d, const char *key, const void *p, size_t n)
{
	return put(d, key, PyBytes_FromStringAndSize(p ? p : "", (Py_ssize_t)(p ? n : 0)));
}

static int put_bool(PyObject *d, const char *key, bool v)
{
	return put(d, key, PyBool_FromLong(v));
}

static PyObject *read_values(const struct pd_read *rd)
{
	PyObject *vals = PyList_New(0);
	uint64_t i;

	for (i = 0; vals && i < rd->nr; i++) {
		PyObject *v = Py_BuildValue("(KKK)",
			(unsigned long long)rd->values[i].value,
			(unsigned long long)rd->values[i].id,
			(unsigned long long)rd->values[i].lost);

		if (!v || PyList_Append(vals, v))
			Py_CLEAR(vals);
		Py_XDECREF(v);
	}
	if (!vals)
		return NULL;
	return Py_BuildValue("{s:K,s:K,s:N}", "time_enabled",
			     (unsigned long long)rd->time_enabled, "time_running",
			     (unsigned long long)rd->time_running, "values", vals);
}

static PyObject *regs(const struct pd_regs *r)
{
	return Py_BuildValue("{s:K,s:K,s:N}", "abi", (unsigned long long)r->abi,
			     "mask", (unsigned long long)r->mask, "regs",
			     pdpy_u64_tuple(r->regs, r->nr));
}

static PyObject *branches(const struct pd_sample *s)
{
	PyObject *l = PyList_New(0);
	uint64_t i;

	for (i = 0; l && i < s->branch_stack.nr; i++) {
		const struct pd_branch_entry *b = &s->branch_stack.entries[i];
		PyObject *t = Py_BuildValue("(KKK)", (unsigned long long)b->from,
					    (unsigned long long)b->to,
					    (unsigned long long)b->flags);

		if (!t || PyList_Append(l, t))
			Py_CLEAR(l);
		Py_XDECREF(t);
	}
	return l;
}

/* A sample's fields: those its sample_type has. */
static int sample_fields(PyObject *d, const struct pd_sample *s)
{
	uint64_t t = s->sample_type;

	if ((t & PD_SAMPLE_IDENTIFIER || t & PD_SAMPLE_ID) && put_u64(d, "id", s->id))
		return -1;
	if (t & PD_SAMPLE_IP && put_u64(d, "ip", s->ip))
		return -1;
	if (t & PD_SAMPLE_TID &&
	    (put_i64(d, "pid", (int32_t)s->pid) || put_i64(d, "tid", (int32_t)s->tid)))
		return -1;
	if (t & PD_SAMPLE_TIME && put_u64(d, "time", s->time))
		return -1;
	if (t & PD_SAMPLE_ADDR && put_u64(d, "addr", s->addr))
		return -1;
	if (t & PD_SAMPLE_STREAM_ID && put_u64(d, "stream_id", s->stream_id))
		return -1;
	if (t & PD_SAMPLE_CPU && put_u64(d, "cpu", s->cpu))
		return -1;
	if (t & PD_SAMPLE_PERIOD && put_u64(d, "period", s->period))
		return -1;
	if (t & PD_SAMPLE_READ && put(d, "read", read_values(&s->read)))
		return -1;
	if (t & PD_SAMPLE_CALLCHAIN &&
	    put(d, "callchain", pdpy_u64_tuple(s->callchain.ips, s->callchain.nr)))
		return -1;
	if (t & PD_SAMPLE_RAW && put_bytes(d, "raw", s->raw.data, s->raw.size))
		return -1;
	if (t & PD_SAMPLE_BRANCH_STACK && put(d, "branch_stack", branches(s)))
		return -1;
	if (t & PD_SAMPLE_REGS_USER && put(d, "user_regs", regs(&s->user_regs)))
		return -1;
	if (t & PD_SAMPLE_STACK_USER &&
	    (put_bytes(d, "user_stack", s->user_stack.data, s->user_stack.dyn_size ?
		       s->user_stack.dyn_size : s->user_stack.size) ||
	     put_u64(d, "user_stack_size", s->user_stack.size)))
		return -1;
	if (t & PD_SAMPLE_WEIGHT_TYPE && put_u64(d, "weight", s->weight))
		return -1;
	if (t & PD_SAMPLE_DATA_SRC && put_u64(d, "data_src", s->data_src))
		return -1;
	if (t & PD_SAMPLE_TRANSACTION && put_u64(d, "transaction", s->transaction))
		return -1;
	if (t & PD_SAMPLE_REGS_INTR && put(d, "intr_regs", regs(&s->intr_regs)))
		return -1;
	if (t & PD_SAMPLE_PHYS_ADDR && put_u64(d, "phys_addr", s->phys_addr))
		return -1;
	if (t & PD_SAMPLE_AUX && put_bytes(d, "aux", s->aux.data, s->aux.size))
		return -1;
	if (t & PD_SAMPLE_CGROUP && put_u64(d, "cgroup", s->cgroup))
		return -1;
	if (t & PD_SAMPLE_DATA_PAGE_SIZE && put_u64(d, "data_page_size", s->data_page_size))
		return -1;
	if (t & PD_SAMPLE_CODE_PAGE_SIZE && put_u64(d, "code_page_size", s->code_page_size))
		return -1;
	return 0;
}

/* The sample_id trailer of other records: its fields prefixed "sample_". */
static int sid_fields(PyObject *d, const struct pd_sample_id *sid)
{
	uint64_t t = sid->present;

	if (t & PD_SAMPLE_TID && (put_i64(d, "sample_pid", (int32_t)sid->pid) ||
				  put_i64(d, "sample_tid", (int32_t)sid->tid)))
		return -1;
	if (t & PD_SAMPLE_TIME && put_u64(d, "sample_time", sid->time))
		return -1;
	if ((t & (PD_SAMPLE_ID | PD_SAMPLE_IDENTIFIER)) && put_u64(d, "sample_id", sid->id))
		return -1;
	if (t & PD_SAMPLE_STREAM_ID && put_u64(d, "sample_stream_id", sid->stream_id))
		return -1;
	if (t & PD_SAMPLE_CPU && put_u64(d, "sample_cpu", sid->cpu))
		return -1;
	return 0;
}

static PyObject *pairs(const uint64_t *v, uint64_t n)
{
	PyObject *l = PyList_New(0);
	uint64_t i;

	for (i = 0; l && i < n; i++) {
		PyObject *t = Py_BuildValue("(KK)", (unsigned long long)v[2 * i],
					    (unsigned long long)v[2 * i + 1]);

		if (!t || PyList_Append(l, t))
			Py_CLEAR(l);
		Py_XDECREF(t);
	}
	return l;
}

static PyObject *cpu_list(const struct pd_cpu_map *m)
{
	PyObject *t = PyTuple_New(m->nr);
	uint32_t i;

	for (i = 0; t && i < m->nr; i++) {
		PyObject *x = PyLong_FromLong(m->cpus[i]);

		if (!x) {
			Py_CLEAR(t);
			break;
		}
		PyTuple_SET_ITEM(t, i, x);
	}
	return t;
}

static int mmap_fields(PyObject *d, const struct pd_event *ev)
{
	const struct pd_mmap_event *m = &ev->u.mmap;

	if (put_i64(d, "pid", (int32_t)m->pid) || put_i64(d, "tid", (int32_t)m->tid) ||
	    put_u64(d, "start", m->start) || put_u64(d, "len", m->len) ||
	    put_u64(d, "pgoff", m->pgoff) || put_str(d, "filename", m->filename) ||
	    put_u64(d, "cpumode", ev->misc & PD_MISC_CPUMODE_MASK))
		return -1;
	if (ev->type != PD_RECORD_MMAP2)
		return 0;
	if (m->has_build_id)
		return put(d, "build_id", pdpy_build_id_str(m->build_id, m->build_id_size)) ||
		       put_u64(d, "prot", m->prot) || put_u64(d, "flags", m->flags);
	return put_u64(d, "maj", m->maj) || put_u64(d, "min", m->min) ||
	       put_u64(d, "ino", m->ino) ||
	       put_u64(d, "ino_generation", m->ino_generation) ||
	       put_u64(d, "prot", m->prot) || put_u64(d, "flags", m->flags);
}

static int more_fields(PyObject *d, const struct pd_event *ev)
{
	const typeof(ev->u) *u = &ev->u;
	uint64_t i;

	switch (ev->type) {
	case PD_RECORD_AUXTRACE_ERROR:
		return put_u64(d, "type", u->auxtrace_error.type) ||
		       put_u64(d, "code", u->auxtrace_error.code) ||
		       put_u64(d, "cpu", u->auxtrace_error.cpu) ||
		       put_i64(d, "pid", (int32_t)u->auxtrace_error.pid) ||
		       put_i64(d, "tid", (int32_t)u->auxtrace_error.tid) ||
		       put_u64(d, "fmt", u->auxtrace_error.fmt) ||
		       put_u64(d, "ip", u->auxtrace_error.ip) ||
		       put_u64(d, "time", u->auxtrace_error.time) ||
		       put_str(d, "msg", u->auxtrace_error.msg) ||
		       put_u64(d, "machine_pid", u->auxtrace_error.machine_pid) ||
		       put_u64(d, "vcpu", u->auxtrace_error.vcpu);
	case PD_RECORD_THREAD_MAP: {
		PyObject *l = PyList_New(0);

		for (i = 0; l && i < u->thread_map.nr; i++) {
			PyObject *t = Py_BuildValue("(KN)",
				(unsigned long long)u->thread_map.entries[i].pid,
				pdpy_decode(u->thread_map.entries[i].comm,
					    strnlen(u->thread_map.entries[i].comm, 16)));

			if (!t || PyList_Append(l, t))
				Py_CLEAR(l);
			Py_XDECREF(t);
		}
		return put(d, "entries", l);
	}
	case PD_RECORD_CPU_MAP:
		return put(d, "cpus", cpu_list(&u->cpu_map)) ||
		       put_bool(d, "any_cpu", u->cpu_map.any_cpu);
	case PD_RECORD_STAT_CONFIG:
		return put(d, "pairs", pairs(u->stat_config.pairs, u->stat_config.nr));
	case PD_RECORD_STAT:
		return put_u64(d, "id", u->stat.id) || put_u64(d, "cpu", u->stat.cpu) ||
		       put_u64(d, "thread", u->stat.thread) ||
		       put_u64(d, "val", u->stat.val) || put_u64(d, "ena", u->stat.ena) ||
		       put_u64(d, "run", u->stat.run);
	case PD_RECORD_STAT_ROUND:
		return put_u64(d, "round_type", u->stat_round.type) ||
		       put_u64(d, "time", u->stat_round.time);
	case PD_RECORD_EVENT_UPDATE: {
		const struct pd_event_update_event *e = &u->event_update;

		if (put_u64(d, "update_type", e->type) || put_u64(d, "id", e->id))
			return -1;
		if (e->type == 0)
			return put_str(d, "unit", e->str);
		if (e->type == 1)
			return put(d, "scale", PyFloat_FromDouble(e->scale));
		if (e->type == 2)
			return put_str(d, "event_name", e->str);
		if (e->type == 3)
			return put(d, "cpus", cpu_list(&e->cpus));
		return 0;
	}
	case PD_RECORD_TIME_CONV:
		if (put_u64(d, "time_shift", u->time_conv.time_shift) ||
		    put_u64(d, "time_mult", u->time_conv.time_mult) ||
		    put_u64(d, "time_zero", u->time_conv.time_zero))
			return -1;
		if (!u->time_conv.extended)
			return 0;
		return put_u64(d, "time_cycles", u->time_conv.time_cycles) ||
		       put_u64(d, "time_mask", u->time_conv.time_mask) ||
		       put_bool(d, "cap_user_time_zero", u->time_conv.cap_user_time_zero) ||
		       put_bool(d, "cap_user_time_short", u->time_conv.cap_user_time_short);
	case PD_RECORD_HEADER_FEATURE:
		return put_u64(d, "feat_id", u->feature.feat_id) ||
		       put_str(d, "feature", pd_feature_name(u->feature.feat_id)) ||
		       put_bytes(d, "data", u->feature.data, u->feature.size);
	case PD_RECORD_COMPRESSED:
	case PD_RECORD_COMPRESSED2:
		return put_u64(d, "data_size", u->compressed.data_size);
	case PD_RECORD_BPF_METADATA: {
		PyObject *m = PyDict_New();

		for (i = 0; m && i < u->bpf_metadata.nr_entries; i++) {
			const char *e = u->bpf_metadata.entries + i * (64 + 256);
			char key[65];

			memcpy(key, e, 64);
			key[64] = '\0';
			if (put(m, key, pdpy_decode(e + 64, strnlen(e + 64, 256))))
				Py_CLEAR(m);
		}
		return put_str(d, "prog_name", u->bpf_metadata.prog_name) ||
		       put(d, "entries", m);
	}
	}
	return 0;
}

/* The fields of a record's type. */
static int type_fields(PyObject *d, const struct pd_event *ev)
{
	const typeof(ev->u) *u = &ev->u;
	uint64_t i;

	switch (ev->type) {
	case PD_RECORD_SAMPLE:
		return sample_fields(d, &u->sample);
	case PD_RECORD_MMAP:
	case PD_RECORD_MMAP2:
		return mmap_fields(d, ev);
	case PD_RECORD_COMM:
		return put_i64(d, "pid", (int32_t)u->comm.pid) ||
		       put_i64(d, "tid", (int32_t)u->comm.tid) ||
		       put_str(d, "comm", u->comm.comm) ||
		       put_bool(d, "exec", ev->misc & PD_MISC_COMM_EXEC);
	case PD_RECORD_FORK:
	case PD_RECORD_EXIT:
		return put_i64(d, "pid", (int32_t)u->fork.pid) ||
		       put_i64(d, "ppid", (int32_t)u->fork.ppid) ||
		       put_i64(d, "tid", (int32_t)u->fork.tid) ||
		       put_i64(d, "ptid", (int32_t)u->fork.ptid) ||
		       put_u64(d, "time", u->fork.time);
	case PD_RECORD_LOST:
		return put_u64(d, "id", u->lost.id) || put_u64(d, "lost", u->lost.lost);
	case PD_RECORD_THROTTLE:
	case PD_RECORD_UNTHROTTLE:
		return put_u64(d, "time", u->throttle.time) ||
		       put_u64(d, "id", u->throttle.id) ||
		       put_u64(d, "stream_id", u->throttle.stream_id);
	case PD_RECORD_READ:
		return put_i64(d, "pid", (int32_t)u->read.pid) ||
		       put_i64(d, "tid", (int32_t)u->read.tid) ||
		       put(d, "read", read_values(&u->read.read));
	case PD_RECORD_AUX:
		return put_u64(d, "aux_offset", u->aux.aux_offset) ||
		       put_u64(d, "aux_size", u->aux.aux_size) ||
		       put_u64(d, "flags", u->aux.flags);
	case PD_RECORD_ITRACE_START:
		return put_i64(d, "pid", (int32_t)u->itrace_start.pid) ||
		       put_i64(d, "tid", (int32_t)u->itrace_start.tid);
	case PD_RECORD_LOST_SAMPLES:
		return put_u64(d, "lost", u->lost_samples.lost);
	case PD_RECORD_SWITCH:
	case PD_RECORD_SWITCH_CPU_WIDE:
		if (put_bool(d, "out", ev->misc & PD_MISC_SWITCH_OUT) ||
		    put_bool(d, "preempt", ev->misc & PD_MISC_SWITCH_OUT_PREEMPT))
			return -1;
		if (ev->type == PD_RECORD_SWITCH)
			return 0;
		return put_i64(d, "next_prev_pid", (int32_t)u->context_switch.next_prev_pid) ||
		       put_i64(d, "next_prev_tid", (int32_t)u->context_switch.next_prev_tid);
	case PD_RECORD_NAMESPACES:
		return put_i64(d, "pid", (int32_t)u->namespaces.pid) ||
		       put_i64(d, "tid", (int32_t)u->namespaces.tid) ||
		       put(d, "link_info", pairs(u->namespaces.link_info, u->namespaces.nr));
	case PD_RECORD_KSYMBOL:
		return put_u64(d, "addr", u->ksymbol.addr) ||
		       put_u64(d, "len", u->ksymbol.len) ||
		       put_u64(d, "ksym_type", u->ksymbol.ksym_type) ||
		       put_u64(d, "flags", u->ksymbol.flags) ||
		       put_str(d, "symbol", u->ksymbol.name);
	case PD_RECORD_BPF_EVENT:
		return put_u64(d, "bpf_type", u->bpf.type) ||
		       put_u64(d, "flags", u->bpf.flags) ||
		       put_u64(d, "id", u->bpf.id) ||
		       put(d, "tag", pdpy_build_id_str(u->bpf.tag, 8));
	case PD_RECORD_CGROUP:
		return put_u64(d, "id", u->cgroup.id) || put_str(d, "path", u->cgroup.path);
	case PD_RECORD_TEXT_POKE:
		return put_u64(d, "addr", u->text_poke.addr) ||
		       put_bytes(d, "old_bytes", u->text_poke.bytes, u->text_poke.old_len) ||
		       put_bytes(d, "new_bytes", u->text_poke.bytes + u->text_poke.old_len,
				 u->text_poke.new_len);
	case PD_RECORD_AUX_OUTPUT_HW_ID:
		return put_u64(d, "hw_id", u->aux_output_hw_id.hw_id);
	case PD_RECORD_CALLCHAIN_DEFERRED:
		return put_u64(d, "cookie", u->callchain_deferred.cookie) ||
		       put(d, "callchain", pdpy_u64_tuple(u->callchain_deferred.ips,
						u->callchain_deferred.nr));
	case PD_RECORD_HEADER_ATTR:
		return put_i64(d, "evsel_idx", u->attr.evsel_idx) ||
		       put(d, "ids", pdpy_u64_tuple(u->attr.ids, u->attr.nr_ids));
	case PD_RECORD_HEADER_TRACING_DATA:
		return put_u64(d, "data_size", u->tracing_data.size);
	case PD_RECORD_HEADER_BUILD_ID:
		return put_i64(d, "pid", u->build_id.pid) ||
		       put(d, "build_id", pdpy_build_id_str(u->build_id.build_id,
							    u->build_id.size)) ||
		       put_str(d, "filename", u->build_id.filename);
	case PD_RECORD_ID_INDEX: {
		PyObject *l = PyList_New(0);

		for (i = 0; l && i < u->id_index.nr; i++) {
			const struct pd_id_index_entry *e = &u->id_index.entries[i];
			PyObject *t = Py_BuildValue("(KKKK)", (unsigned long long)e->id,
						    (unsigned long long)e->idx,
						    (unsigned long long)e->cpu,
						    (unsigned long long)e->tid);

			if (!t || PyList_Append(l, t))
				Py_CLEAR(l);
			Py_XDECREF(t);
		}
		return put(d, "entries", l);
	}
	case PD_RECORD_AUXTRACE_INFO:
		return put_u64(d, "auxtrace_type", u->auxtrace_info.type) ||
		       put(d, "priv", pdpy_u64_tuple(u->auxtrace_info.priv, u->auxtrace_info.nr_priv));
	case PD_RECORD_AUXTRACE:
		return put_u64(d, "aux_size", u->auxtrace.size) ||
		       put_u64(d, "aux_offset", u->auxtrace.offset) ||
		       put_u64(d, "reference", u->auxtrace.reference) ||
		       put_u64(d, "idx", u->auxtrace.idx) ||
		       put_i64(d, "tid", (int32_t)u->auxtrace.tid) ||
		       put_u64(d, "cpu", u->auxtrace.cpu);
	}
	return more_fields(d, ev);
}

static PyObject *record_new(struct pdpy_pass *p, const struct pd_event *ev)
{
	const char *name = pd_record_type_name(ev->type);
	PyObject *d = PyDict_New();

	if (!d)
		return NULL;
	if (put_u64(d, "type", ev->type) ||
	    put_str(d, "name", name ? name : "UNKNOWN") ||
	    put_u64(d, "misc", ev->misc) || put_u64(d, "offset", ev->offset) ||
	    put_u64(d, "size", ev->size) ||
	    (ev->evsel && PyDict_SetItemString(d, "event",
					       pdpy_event_name(p, ev->evsel))) ||
	    (ev->type != PD_RECORD_SAMPLE && sid_fields(d, &ev->sid)) ||
	    (ev->flags & PD_EVENT_UNKNOWN ? put_bytes(d, "raw", ev->raw, ev->size) :
	     type_fields(d, ev))) {
		Py_DECREF(d);
		return NULL;
	}
	return pdpy_namespace(&pdpy_RecordType, d);
}

/* records(): the iterator */
typedef struct {
	PyObject_HEAD
	struct pdpy_pass pass;
	bool open;
} RecordIterObject;

static void rit_dealloc(RecordIterObject *it)
{
	if (it->open)
		pdpy_pass_close(&it->pass);
	Py_TYPE(it)->tp_free((PyObject *)it);
}

static PyObject *rit_next(RecordIterObject *it)
{
	const struct pd_event *ev;
	int rc;

	if (!it->open)
		return NULL;
	rc = pdpy_pass_next(&it->pass, &ev);
	if (rc <= 0) {
		/* the pass ends here: its reader and caches go */
		pdpy_pass_close(&it->pass);
		it->open = false;
		return NULL;
	}
	return record_new(&it->pass, ev);
}

PyTypeObject pdpy_RecordIterType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "perfdata.RecordIterator",
	.tp_basicsize = sizeof(RecordIterObject),
	.tp_dealloc = (destructor)rit_dealloc,
	.tp_iter = PyObject_SelfIter,
	.tp_iternext = (iternextfunc)rit_next,
	.tp_flags = Py_TPFLAGS_DEFAULT,
};

PyObject *pdpy_records(PerfDataObject *f, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "order", NULL };
	const char *order = "file";
	RecordIterObject *it;
	enum pdpy_pass_kind kind;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "|$s:records", kwlist, &order))
		return NULL;
	if (!strcmp(order, "file")) {
		kind = PDPY_PASS_RECORDS;
	} else if (!strcmp(order, "time")) {
		kind = PDPY_PASS_RECORDS_TIME;
	} else {
		PyErr_Format(PyExc_ValueError,
			     "records(order='%s'): 'file' or 'time'", order);
		return NULL;
	}
	if (pdpy_file_check_open(f))
		return NULL;
	it = PyObject_New(RecordIterObject, &pdpy_RecordIterType);
	if (!it)
		return NULL;
	it->open = false;
	if (pdpy_pass_open(&it->pass, f, kind, f->opts.inline_mode)) {
		Py_DECREF(it);
		return NULL;
	}
	it->open = true;
	return (PyObject *)it;
}
