// SPDX-License-Identifier: MIT
/*
 * perfdata.open() and the PerfData object it returns: the file's header,
 * features and events, read once at open(), and the passes over its
 * records (records(), samples(), to_pandas(), fold()), each of which
 * reads the file again from its start. open()'s own reader serves the
 * first pass in time order, so that a pipe, which can be read only
 * once, gives its samples too.
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "pdpy.h"

#include <structmember.h>

static int opt_path(PyObject *o, char **out)
{
	PyObject *b;

	*out = NULL;
	if (o == Py_None)
		return 0;
	if (!PyUnicode_FSConverter(o, &b))
		return -1;
	*out = strdup(PyBytes_AS_STRING(b));
	Py_DECREF(b);
	if (!*out) {
		PyErr_NoMemory();
		return -1;
	}
	return 0;
}

void pdpy_roots_free(char **roots)
{
	size_t i;

	for (i = 0; roots && roots[i]; i++)
		free(roots[i]);
	free(roots);
}

/* One more directory onto *v (n entries so far). */
static int add_root(char ***v, size_t n, PyObject *o)
{
	struct stat st;
	char **nv;
	char *dir;
	int err = 0;

	if (opt_path(o, &dir))
		return -1;
	if (stat(dir, &st))
		err = errno;
	else if (!S_ISDIR(st.st_mode))
		err = ENOTDIR;
	if (err) {
		/* OSError by errno: FileNotFoundError, NotADirectoryError */
		errno = err;
		PyErr_SetFromErrnoWithFilename(PyExc_OSError, dir);
		free(dir);
		return -1;
	}
	nv = realloc(*v, (n + 2) * sizeof(*nv));
	if (!nv) {
		free(dir);
		PyErr_NoMemory();
		return -1;
	}
	nv[n] = dir;
	nv[n + 1] = NULL;
	*v = nv;
	return 0;
}

int pdpy_roots(PyObject *o, char ***out)
{
	PyObject *it, *x;
	size_t n = 0;

	*out = NULL;
	if (o == Py_None)
		return 0;
	if (PyUnicode_Check(o) || PyBytes_Check(o) || PyObject_HasAttrString(o, "__fspath__"))
		return add_root(out, 0, o);
	it = PyObject_GetIter(o);
	if (!it)
		return -1;
	while ((x = PyIter_Next(it))) {
		int err = x == Py_None ? 0 : add_root(out, n, x);

		Py_DECREF(x);
		if (err)
			break;
		n += x != Py_None;
	}
	Py_DECREF(it);
	if (PyErr_Occurred()) {
		pdpy_roots_free(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}

static void file_dealloc(PerfDataObject *f)
{
	pd_reader__close(f->r0);
	pdpy_source_free(&f->src);
	free(f->opts.symfs);
	free(f->opts.kallsyms);
	free(f->opts.vmlinux);
	pdpy_roots_free(f->opts.roots);
	pdpy_log_free(&f->log);
	Py_XDECREF(f->header);
	Py_XDECREF(f->features);
	Py_XDECREF(f->events);
	Py_XDECREF(f->event_names);
	Py_TYPE(f)->tp_free((PyObject *)f);
}

int pdpy_file_check_open(PerfDataObject *f)
{
	if (!f->closed)
		return 0;
	PyErr_Format(PyExc_ValueError, "%s: the PerfData object is closed",
		     f->src.name);
	return -1;
}

static int parse_inline(PyObject *o, enum pdpy_inline *mode)
{
	if (o == Py_None)
		*mode = PDPY_INLINE_PERF;
	else if (o == Py_True)
		*mode = PDPY_INLINE_ALL;
	else if (o == Py_False)
		*mode = PDPY_INLINE_NONE;
	else {
		PyErr_SetString(PyExc_TypeError,
				"open(inline=...) takes None (as perf script), True or False");
		return -1;
	}
	return 0;
}

PyObject *pdpy_open(PyObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "source", "symfs", "root", "kallsyms",
				  "vmlinux", "debuginfod", "inline", NULL };
	PyObject *source, *symfs = Py_None, *root = Py_None;
	PyObject *kallsyms = Py_None, *vmlinux = Py_None, *inl = Py_None;
	struct pd_reader_opts ro = { .sz = sizeof(ro), .order = PD_ORDER_TIME };
	PerfDataObject *f;
	int debuginfod = 1, err;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "O|$OOOOpO:open", kwlist,
					 &source, &symfs, &root, &kallsyms,
					 &vmlinux, &debuginfod, &inl))
		return NULL;
	f = PyObject_New(PerfDataObject, &pdpy_PerfDataType);
	if (!f)
		return NULL;
	memset((char *)f + sizeof(PyObject), 0, sizeof(*f) - sizeof(PyObject));
	f->src.fd = -1;
	f->opts.no_debuginfod = !debuginfod;
	if (parse_inline(inl, &f->opts.inline_mode) ||
	    opt_path(symfs, &f->opts.symfs) ||
	    opt_path(kallsyms, &f->opts.kallsyms) ||
	    opt_path(vmlinux, &f->opts.vmlinux) ||
	    pdpy_roots(root, &f->opts.roots) ||
	    pdpy_source_init(&f->src, source))
		goto fail;
	ro.log = pdpy_log_cb;
	ro.log_ctx = &f->log;
	f->r0 = pdpy_source_open(&f->src, &ro);
	if (!f->r0)
		goto fail;
	/* a pipe's features and attrs are records at its start */
	err = pd_reader__read_header(f->r0);
	if (err < 0) {
		pdpy_raise(err, pd_reader__errmsg(f->r0), f->src.name);
		goto fail;
	}
	f->header = pdpy_header_dict(f->r0);
	f->features = f->header ? pdpy_features_dict(f->r0) : NULL;
	f->events = f->features ? pdpy_events_tuple(f->r0, &f->event_names) : NULL;
	if (!f->events || pdpy_log_flush(&f->log))
		goto fail;
	return (PyObject *)f;
fail:
	Py_DECREF(f);
	return NULL;
}

static PyObject *file_close(PerfDataObject *f, PyObject *unused)
{
	pd_reader__close(f->r0);
	f->r0 = NULL;
	/* passes under way keep their own readers; new ones cannot start */
	f->closed = true;
	Py_RETURN_NONE;
}

static PyObject *file_enter(PerfDataObject *f, PyObject *unused)
{
	if (pdpy_file_check_open(f))
		return NULL;
	return Py_NewRef((PyObject *)f);
}

static PyObject *file_exit(PerfDataObject *f, PyObject *args)
{
	return file_close(f, NULL);
}

static PyObject *file_repr(PerfDataObject *f)
{
	return PyUnicode_FromFormat("<perfdata.PerfData %s%s>", f->src.name,
				    f->closed ? " (closed)" : "");
}

static PyObject *get_name(PerfDataObject *f, void *unused)
{
	return PyUnicode_DecodeFSDefault(f->src.name);
}

static PyMethodDef file_methods[] = {
	{ "records", (PyCFunction)(void (*)(void))pdpy_records,
	  METH_VARARGS | METH_KEYWORDS,
	  "records(*, order='file'): every record with its fields (perfdata.Record), in file or time order" },
	{ "samples", (PyCFunction)pdpy_samples, METH_NOARGS,
	  "samples(): the samples as perf script delivers them (perfdata.Sample), with their frames" },
	{ "to_pandas", (PyCFunction)pdpy_to_pandas, METH_NOARGS,
	  "to_pandas(): a pandas.DataFrame, one row per sample" },
	{ "to_arrow", (PyCFunction)pdpy_to_arrow, METH_NOARGS,
	  "to_arrow(): a pyarrow.Table, one row per sample" },
	{ "fold", (PyCFunction)(void (*)(void))pdpy_fold_method,
	  METH_VARARGS | METH_KEYWORDS,
	  "fold(**options): pd-fold's stacks as a dict {stack: count} (see perfdata.fold)" },
	{ "close", (PyCFunction)file_close, METH_NOARGS,
	  "close(): release the file (iterators under way finish)" },
	{ "__enter__", (PyCFunction)file_enter, METH_NOARGS, NULL },
	{ "__exit__", (PyCFunction)file_exit, METH_VARARGS, NULL },
	{ NULL },
};

static PyMemberDef file_members[] = {
	{ "header", T_OBJECT, offsetof(PerfDataObject, header), READONLY,
	  "the file header: mode, version, byte order, sections, features present" },
	{ "features", T_OBJECT, offsetof(PerfDataObject, features), READONLY,
	  "the header features decoded, by lower-case name (hostname, build_id, ...)" },
	{ "events", T_OBJECT, offsetof(PerfDataObject, events), READONLY,
	  "the events (perfdata.Event), in the file's order" },
	{ NULL },
};

static PyGetSetDef file_getset[] = {
	{ "name", (getter)get_name, NULL, "the input as messages name it", NULL },
	{ NULL },
};

PyTypeObject pdpy_PerfDataType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "perfdata.PerfData",
	.tp_basicsize = sizeof(PerfDataObject),
	.tp_dealloc = (destructor)file_dealloc,
	.tp_repr = (reprfunc)file_repr,
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "A perf.data file, stream or archive, as perfdata.open() opened it.",
	.tp_methods = file_methods,
	.tp_members = file_members,
	.tp_getset = file_getset,
};
