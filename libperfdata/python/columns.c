// SPDX-License-Identifier: MIT
/*
 * to_pandas() and to_arrow(): one row per sample (as samples() delivers
 * them), the columns built in C from one pass: numbers into C arrays
 * handed to numpy without a Python object per value, names as pandas
 * Categoricals (codes and the distinct names: a profile names a few
 * thousand functions in a million rows), and the stack as a tuple of
 * symbols, leaf first, one tuple object per distinct stack.
 *
 * Columns: time, pid, tid, cpu, period, event, comm, ip, symbol, dso,
 * stack. symbol and dso are the sampled address's (Sample.symbol, .dso;
 * NaN where perf prints [unknown]).
 */
#include <stdlib.h>
#include <string.h>

#include "pdpy.h"

struct col {
	char *p;
	size_t len, cap;	/* bytes */
};

static int col_add(struct col *c, const void *v, size_t size)
{
	if (c->len + size > c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 64 * 1024;
		char *p = realloc(c->p, cap);

		if (!p) {
			PyErr_NoMemory();
			return -1;
		}
		c->p = p;
		c->cap = cap;
	}
	memcpy(c->p + c->len, v, size);
	c->len += size;
	return 0;
}

/* Names as Categorical codes: the distinct names, in order of appearance. */
struct names {
	PyObject *codes;	/* str -> int */
	PyObject *list;		/* the categories */
	struct col col;		/* int32 codes, -1: none */
};

static int names_add(struct names *n, PyObject *s)
{
	int32_t code = -1;
	PyObject *c;

	if (s && s != Py_None) {
		c = PyDict_GetItemWithError(n->codes, s);
		if (c) {
			code = (int32_t)PyLong_AsLong(c);
		} else if (PyErr_Occurred()) {
			return -1;
		} else {
			code = (int32_t)PyList_GET_SIZE(n->list);
			c = PyLong_FromLong(code);
			if (!c || PyDict_SetItem(n->codes, s, c) ||
			    PyList_Append(n->list, s)) {
				Py_XDECREF(c);
				return -1;
			}
			Py_DECREF(c);
		}
	}
	return col_add(&n->col, &code, sizeof(code));
}

struct table {
	struct col time, pid, tid, cpu, period, ip;
	struct names event, comm, symbol, dso;
	PyObject *stacks;	/* list: the stack of each row */
	PyObject *distinct;	/* tuple -> the same tuple */
};

static int stack_add(struct table *t, struct pdpy_pass *p, int n)
{
	PyObject *tup = PyTuple_New(n), *have;
	int i, err;

	if (!tup)
		return -1;
	for (i = 0; i < n; i++) {
		PyObject *name = pdpy_frame_name(p, &p->out[i]);

		if (!name) {
			Py_DECREF(tup);
			return -1;
		}
		PyTuple_SET_ITEM(tup, i, Py_NewRef(name));
	}
	have = PyDict_SetDefault(t->distinct, tup, tup);
	err = have ? PyList_Append(t->stacks, have) : -1;
	Py_DECREF(tup);
	return err;
}

static int row(struct table *t, struct pdpy_pass *p,
	       const struct pdpy_delivery *d)
{
	const struct pd_sample *s = &d->ev->u.sample;
	uint64_t st = s->sample_type, time = st & PD_SAMPLE_TIME ? s->time : 0;
	uint64_t period = pdpy_period(d);
	int32_t pid = st & PD_SAMPLE_TID ? (int32_t)s->pid : -1;
	int32_t tid = st & PD_SAMPLE_TID ? (int32_t)s->tid : -1;
	int32_t cpu = st & PD_SAMPLE_CPU ? (int32_t)s->cpu : -1;
	const struct pdpy_frame *leaf;
	PyObject *comm;
	int n = pdpy_pass_frames(p, d);

	if (n < 0)
		return -1;
	leaf = pdpy_leaf(p->out, n, p->has_alone ? &p->alone : NULL);
	comm = d->t ? pdpy_str(&p->strs, pd_thread__comm(d->t)) : Py_None;
	if (!comm ||
	    col_add(&t->time, &time, 8) || col_add(&t->pid, &pid, 4) ||
	    col_add(&t->tid, &tid, 4) || col_add(&t->cpu, &cpu, 4) ||
	    col_add(&t->period, &period, 8) || col_add(&t->ip, &s->ip, 8) ||
	    names_add(&t->event, pdpy_event_name(p, d->evsel)) ||
	    names_add(&t->comm, comm) ||
	    names_add(&t->symbol, leaf && leaf->sym ?
		      pdpy_str(&p->strs, leaf->sym) : Py_None) ||
	    names_add(&t->dso, leaf ? pdpy_str(&p->strs, leaf->dso) : Py_None))
		return -1;
	return stack_add(t, p, n);
}

static void table_free(struct table *t)
{
	struct names *n[] = { &t->event, &t->comm, &t->symbol, &t->dso };
	size_t i;

	free(t->time.p);
	free(t->pid.p);
	free(t->tid.p);
	free(t->cpu.p);
	free(t->period.p);
	free(t->ip.p);
	for (i = 0; i < 4; i++) {
		Py_XDECREF(n[i]->codes);
		Py_XDECREF(n[i]->list);
		free(n[i]->col.p);
	}
	Py_XDECREF(t->stacks);
	Py_XDECREF(t->distinct);
}

static int table_fill(struct table *t, PerfDataObject *f)
{
	struct names *n[] = { &t->event, &t->comm, &t->symbol, &t->dso };
	struct pdpy_delivery d;
	struct pdpy_pass p;
	size_t i;
	int rc;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < 4; i++) {
		n[i]->codes = PyDict_New();
		n[i]->list = PyList_New(0);
		if (!n[i]->codes || !n[i]->list)
			return -1;
	}
	t->stacks = PyList_New(0);
	t->distinct = PyDict_New();
	if (!t->stacks || !t->distinct)
		return -1;
	if (pdpy_file_check_open(f) || pdpy_pass_open(&p, f, PDPY_PASS_SAMPLES, f->opts.inline_mode))
		return -1;
	while ((rc = pdpy_pass_next_sample(&p, &d)) > 0)
		if (row(t, &p, &d)) {
			rc = -1;
			break;
		}
	/* the strings are Python objects now: the pass may go */
	pdpy_pass_close(&p);
	return rc;
}

/* numpy.frombuffer(bytearray(column), dtype) */
static PyObject *array(PyObject *np, const struct col *c, const char *dtype)
{
	PyObject *buf = PyByteArray_FromStringAndSize(c->p ? c->p : "",
						     (Py_ssize_t)c->len);
	PyObject *a;

	if (!buf)
		return NULL;
	a = PyObject_CallMethod(np, "frombuffer", "Os", buf, dtype);
	Py_DECREF(buf);
	return a;
}

/* pandas.Categorical.from_codes(codes, categories) */
static PyObject *categorical(PyObject *pd, PyObject *np, const struct names *n)
{
	PyObject *codes = array(np, &n->col, "int32"), *cat, *r = NULL;

	if (!codes)
		return NULL;
	cat = PyObject_GetAttrString(pd, "Categorical");
	if (cat)
		r = PyObject_CallMethod(cat, "from_codes", "OO", codes, n->list);
	Py_XDECREF(cat);
	Py_DECREF(codes);
	return r;
}

static PyObject *import(const char *name, const char *package, const char *what)
{
	PyObject *m = PyImport_ImportModule(name);

	if (!m && PyErr_ExceptionMatches(PyExc_ImportError)) {
		PyErr_Clear();
		PyErr_Format(PyExc_ImportError,
			     "%s needs %s, which is not installed (Debian: apt-get install %s)",
			     what, name, package);
	}
	return m;
}

static int put(PyObject *d, const char *key, PyObject *v)
{
	int err;

	if (!v)
		return -1;
	err = PyDict_SetItemString(d, key, v);
	Py_DECREF(v);
	return err;
}

PyObject *pdpy_to_pandas(PerfDataObject *f, PyObject *unused)
{
	PyObject *pd, *np = NULL, *cols = NULL, *stacks = NULL, *df = NULL;
	PyObject *all = NULL;
	struct table t;

	pd = import("pandas", "python3-pandas", "to_pandas()");
	if (pd)
		np = import("numpy", "python3-numpy", "to_pandas()");
	if (!pd || !np)
		goto out;
	if (table_fill(&t, f))
		goto out_table;
	cols = PyDict_New();
	/*
	 * an object array of the tuples, filled by a[:] = list: an array
	 * made of the list would take tuples of one length for rows
	 */
	stacks = PyObject_CallMethod(np, "empty", "ns", PyList_GET_SIZE(t.stacks), "O");
	all = PySlice_New(NULL, NULL, NULL);
	if (!cols || !stacks || !all ||
	    PyObject_SetItem(stacks, all, t.stacks) < 0 ||
	    put(cols, "time", array(np, &t.time, "uint64")) ||
	    put(cols, "pid", array(np, &t.pid, "int32")) ||
	    put(cols, "tid", array(np, &t.tid, "int32")) ||
	    put(cols, "cpu", array(np, &t.cpu, "int32")) ||
	    put(cols, "period", array(np, &t.period, "uint64")) ||
	    put(cols, "event", categorical(pd, np, &t.event)) ||
	    put(cols, "comm", categorical(pd, np, &t.comm)) ||
	    put(cols, "ip", array(np, &t.ip, "uint64")) ||
	    put(cols, "symbol", categorical(pd, np, &t.symbol)) ||
	    put(cols, "dso", categorical(pd, np, &t.dso)) ||
	    put(cols, "stack", Py_NewRef(stacks)))
		goto out_table;
	df = PyObject_CallMethod(pd, "DataFrame", "O", cols);
out_table:
	table_free(&t);
out:
	Py_XDECREF(all);
	Py_XDECREF(stacks);
	Py_XDECREF(cols);
	Py_XDECREF(np);
	Py_XDECREF(pd);
	return df;
}

PyObject *pdpy_to_arrow(PerfDataObject *f, PyObject *unused)
{
	PyObject *pa, *df, *table, *tbl = NULL;

	pa = import("pyarrow", "python3-pyarrow", "to_arrow()");
	if (!pa)
		return NULL;
	df = pdpy_to_pandas(f, NULL);
	table = df ? PyObject_GetAttrString(pa, "Table") : NULL;
	if (table) {
		PyObject *args = PyTuple_Pack(1, df);
		PyObject *kw = Py_BuildValue("{s:O}", "preserve_index", Py_False);
		PyObject *from = PyObject_GetAttrString(table, "from_pandas");

		if (args && kw && from)
			tbl = PyObject_Call(from, args, kw);
		Py_XDECREF(args);
		Py_XDECREF(kw);
		Py_XDECREF(from);
	}
	Py_XDECREF(table);
	Py_XDECREF(df);
	Py_DECREF(pa);
	return tbl;
}
