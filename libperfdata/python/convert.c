// SPDX-License-Identifier: MIT
/*
 * convert(src, dst, target_perf=...): what pd-convert does to a
 * perf.data file, through the library's compat API (perfdata/compat.h):
 * the file rewritten for an older perf (a version, a distribution, a
 * perf binary probed), or into another mode, byte order or compression,
 * or unwound (the "unwind" shim). Returns what was done, as pd-convert
 * --explain tells it: the shims applied and the records they changed.
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include <perfdata/compat.h>
#include <perfdata/writer.h>

#include "pdpy.h"

static int shim_bits(PyObject *names, uint64_t *bits, const char *what)
{
	PyObject *it, *n;

	*bits = 0;
	if (!names || names == Py_None)
		return 0;
	if (PyUnicode_Check(names)) {
		PyErr_Format(PyExc_TypeError, "convert(%s=...) takes a list of shim names", what);
		return -1;
	}
	it = PyObject_GetIter(names);
	if (!it)
		return -1;
	while ((n = PyIter_Next(it))) {
		const char *s = PyUnicode_AsUTF8(n);
		const struct pd_shim_info *sh = s ? pd_shim__find(s) : NULL;

		if (s && !sh)
			PyErr_Format(PyExc_ValueError,
				     "convert(%s=...): no shim '%s' (perfdata.shims() lists them)",
				     what, s);
		Py_DECREF(n);
		if (!sh) {
			Py_DECREF(it);
			return -1;
		}
		*bits |= 1ULL << sh->id;
	}
	Py_DECREF(it);
	return PyErr_Occurred() ? -1 : 0;
}

static PyObject *shim_names(uint64_t bits)
{
	const struct pd_shim_info *s;
	PyObject *l = PyList_New(0);
	size_t nr, i;

	s = pd_shims(&nr);
	for (i = 0; l && i < nr; i++) {
		PyObject *n;

		if (!(bits & (1ULL << s[i].id)))
			continue;
		n = PyUnicode_FromString(s[i].name);
		if (!n || PyList_Append(l, n))
			Py_CLEAR(l);
		Py_XDECREF(n);
	}
	return l;
}

/* {shim: count} of the shims that counted something */
static PyObject *by_shim(const uint64_t *v)
{
	const struct pd_shim_info *s;
	PyObject *d = PyDict_New();
	size_t nr, i;

	s = pd_shims(&nr);
	for (i = 0; d && i < nr; i++) {
		PyObject *n;

		if (s[i].id >= PD_SHIM__MAX || !v[s[i].id])
			continue;
		n = PyLong_FromUnsignedLongLong(v[s[i].id]);
		if (!n || PyDict_SetItemString(d, s[i].name, n))
			Py_CLEAR(d);
		Py_XDECREF(n);
	}
	return d;
}

static PyObject *report(const struct pd_convert_report *rep,
			const struct pd_perf_resolved *res, bool target)
{
	return Py_BuildValue("{s:N,s:N,s:N,s:K,s:K,s:K,s:K,s:N,s:N,s:N,s:I,s:I,s:N}",
		"target", target ? PyUnicode_FromString(res->name) : Py_NewRef(Py_None),
		"note", target && res->note[0] ? PyUnicode_FromString(res->note) :
			Py_NewRef(Py_None),
		"shims", shim_names(rep->shims),
		"records_in", (unsigned long long)rep->records_in,
		"records_out", (unsigned long long)rep->records_out,
		"samples_in", (unsigned long long)rep->samples_in,
		"samples_out", (unsigned long long)rep->samples_out,
		"changed", by_shim(rep->changed),
		"dropped", by_shim(rep->dropped),
		"compressed", rep->compress_out == PD_RECORD_COMPRESSED2 ?
			PyUnicode_FromString("COMPRESSED2") :
			rep->compress_out ? PyUnicode_FromString("COMPRESSED") :
			Py_NewRef(Py_None),
		"attr_size_in", rep->attr_size_in,
		"attr_size_out", rep->attr_size_out,
		"compress_why", rep->compress_why ? PyUnicode_FromString(rep->compress_why) :
			Py_NewRef(Py_None));
}

static int choose(const char *s, const char *const *names, const char *what)
{
	int i;

	for (i = 0; names[i]; i++)
		if (!strcmp(s, names[i]))
			return i;
	PyErr_Format(PyExc_ValueError, "convert(%s='%s'): not one of its values", what, s);
	return -1;
}

/* A target's output mode when none is asked for: pd-convert's choice */
static int mode_for(const char *out)
{
	struct stat st;

	if (!strcmp(out, "-"))
		return PD_MODE_PIPE;
	/* a file not there yet will be a regular file */
	return stat(out, &st) || S_ISREG(st.st_mode) ? PD_MODE_FILE : PD_MODE_PIPE;
}

PyObject *pdpy_convert(PyObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "src", "dst", "target_perf", "mode", "compress",
				  "compress_level", "endian", "shims", "no_shims",
				  "symfs", "root", "debuginfod", "dry_run", NULL };
	static const char *const modes[] = { "file", "pipe", NULL };
	static const char *const endians[] = { "native", "little", "big", NULL };
	PyObject *src, *dst_obj, *dst_b = NULL, *compress = Py_None;
	PyObject *shims = NULL, *no_shims = NULL, *symfs_obj = Py_None, *res = NULL;
	PyObject *symfs_b = NULL, *root = Py_None;
	const char *target = NULL, *mode = NULL, *endian = NULL;
	int level = 0, debuginfod = 1, dry_run = 0, err;
	struct pd_convert_opts co = { .sz = sizeof(co), .mode = -1 };
	struct pd_reader_opts ro = { .sz = sizeof(ro), .load_aux = true };
	struct pd_unwind_rewrite_opts uo = { .sz = sizeof(uo) };
	struct pd_perf_resolved tres = { .sz = sizeof(tres) };
	struct pd_unwind_rewriter *rw = NULL;
	struct pd_convert_report rep;
	struct pdpy_source source;
	struct pdpy_log log = { 0 };
	struct pd_reader *r = NULL;
	char errmsg[512] = "";
	const char *dst;
	char **roots = NULL;

	memset(&source, 0, sizeof(source));
	source.fd = -1;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|$zzOizOOOOpp:convert", kwlist,
					 &src, &dst_obj, &target, &mode, &compress,
					 &level, &endian, &shims, &no_shims,
					 &symfs_obj, &root, &debuginfod, &dry_run))
		return NULL;
	if (!PyUnicode_FSConverter(dst_obj, &dst_b))
		return NULL;
	dst = PyBytes_AS_STRING(dst_b);
	if ((symfs_obj != Py_None && !PyUnicode_FSConverter(symfs_obj, &symfs_b)) ||
	    pdpy_roots(root, &roots))
		goto out;
	if (shim_bits(shims, &co.shims_add, "shims") ||
	    shim_bits(no_shims, &co.shims_remove, "no_shims"))
		goto out;
	if (target) {
		if (pd_perf_target__resolve(target, &tres)) {
			PyErr_Format(PyExc_ValueError, "convert(target_perf='%s'): %s",
				     target, tres.note);
			goto out;
		}
		if (tres.how == PD_TARGET_NEWER &&
		    PyErr_WarnEx(pdpy_Warning, tres.note, 1))
			goto out;
		co.target = &tres.target;
	}
	if (mode && (co.mode = choose(mode, modes, "mode")) < 0)
		goto out;
	if (co.target && co.mode < 0)
		co.mode = mode_for(dst);
	if (endian && (co.endian = choose(endian, endians, "endian")) < 0)
		goto out;
	if (compress != Py_None) {
		int on = PyObject_IsTrue(compress);

		if (on < 0)
			goto out;
		co.compress = on ? 1 : -1;
	}
	co.compress_level = level;
	co.dry_run = dry_run;
	if (pdpy_source_init(&source, src))
		goto out;
	ro.log = uo.log = pdpy_log_cb;
	ro.log_ctx = uo.log_ctx = &log;
	/* unwinding follows the session in time order, as perf does */
	if ((co.shims_add & ~co.shims_remove) & (1ULL << PD_SHIM_UNWIND)) {
		ro.order = PD_ORDER_TIME;
		ro.load_aux = false;
		uo.path = source.path;
		uo.symfs = symfs_b ? PyBytes_AS_STRING(symfs_b) : NULL;
		uo.no_debuginfod = !debuginfod;
		uo.roots = (const char *const *)roots;
	}
	r = pdpy_source_open(&source, &ro);
	if (!r)
		goto out;
	if (ro.order == PD_ORDER_TIME) {
		rw = pd_unwind_rewriter__new(r, &uo);
		if (!rw) {
			pdpy_raise(-errno, NULL, source.name);
			goto out;
		}
		co.unwind = rw;
	}
	Py_BEGIN_ALLOW_THREADS
	err = pd_convert(r, dst, &co, &rep, errmsg, sizeof(errmsg));
	Py_END_ALLOW_THREADS
	if (pdpy_log_flush(&log))
		goto out;
	if (err) {
		pdpy_raise(err, errmsg, source.name);
		goto out;
	}
	res = report(&rep, &tres, co.target != NULL);
out:
	pd_unwind_rewriter__free(rw);
	pd_reader__close(r);
	pdpy_source_free(&source);
	pdpy_log_free(&log);
	pdpy_roots_free(roots);
	Py_XDECREF(dst_b);
	Py_XDECREF(symfs_b);
	return res;
}

PyObject *pdpy_shims(PyObject *self, PyObject *unused)
{
	const struct pd_shim_info *s = NULL;
	PyObject *d = PyDict_New();
	size_t nr = 0, i;

	s = pd_shims(&nr);
	for (i = 0; d && i < nr; i++) {
		PyObject *v = PyUnicode_FromString(s[i].summary);

		if (!v || PyDict_SetItemString(d, s[i].name, v))
			Py_CLEAR(d);
		Py_XDECREF(v);
	}
	return d;
}
