// SPDX-License-Identifier: MIT
/*
 * The module's exceptions and the library's messages.
 *
 * perfdata.Error carries what the tools print on one line ("FILE: offset
 * 0x1a2b: ...") as its text, and the same parts as attributes (path,
 * offset, code), so that a caller can tell where a file went bad without
 * parsing. System errors stay OSError (FileNotFoundError, ...), as
 * Python's own open() raises them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pdpy.h"

PyObject *pdpy_Error;
PyObject *pdpy_TruncatedError;
PyObject *pdpy_Warning;

/* PyModule_AddObjectRef() of Python 3.10, for 3.9 (Debian 11) too */
static int add_ref(PyObject *module, const char *name, PyObject *o)
{
	Py_INCREF(o);
	if (PyModule_AddObject(module, name, o)) {
		Py_DECREF(o);
		return -1;
	}
	return 0;
}

int pdpy_errors_init(PyObject *module)
{
	pdpy_Error = PyErr_NewExceptionWithDoc("perfdata.Error",
		"A perf.data file that cannot be read: the text names the file "
		"and offset; .path, .offset (None when unknown) and .code (the "
		"library's error code) say the same.", NULL, NULL);
	if (!pdpy_Error)
		return -1;
	pdpy_TruncatedError = PyErr_NewExceptionWithDoc(
		"perfdata.TruncatedError",
		"The input ends inside a record or section: raised after every "
		"whole record was read.", pdpy_Error, NULL);
	if (!pdpy_TruncatedError)
		return -1;
	pdpy_Warning = PyErr_NewExceptionWithDoc("perfdata.PerfDataWarning",
		"What perf would warn about (unknown parts skipped, files not "
		"found for symbols), one warning per message of the library.",
		PyExc_UserWarning, NULL);
	if (!pdpy_Warning)
		return -1;
	if (add_ref(module, "Error", pdpy_Error) ||
	    add_ref(module, "TruncatedError", pdpy_TruncatedError) ||
	    add_ref(module, "PerfDataWarning", pdpy_Warning))
		return -1;
	return 0;
}

/* "NAME: offset 0x1a2b: ..." -> 0x1a2b; None when the text has none */
static PyObject *offset_of(const char *msg)
{
	const char *p = strstr(msg, "offset 0x");

	if (!p)
		Py_RETURN_NONE;
	return PyLong_FromUnsignedLongLong(strtoull(p + 7, NULL, 16));
}

static int set_attr(PyObject *o, const char *attr, PyObject *v)
{
	int err;

	if (!v)
		return -1;
	err = PyObject_SetAttrString(o, attr, v);
	Py_DECREF(v);
	return err;
}

PyObject *pdpy_raise(int err, const char *msg, const char *name)
{
	PyObject *exc, *type;
	int code = err < 0 ? -err : err;

	if (code == ENOMEM)
		return PyErr_NoMemory();
	if (code < PD_ERR_BASE && (!msg || !*msg)) {
		errno = code;
		return PyErr_SetFromErrnoWithFilename(PyExc_OSError, name);
	}
	if (code < PD_ERR_BASE) {
		/* OSError(errno, text) is FileNotFoundError, ... by errno */
		exc = Py_BuildValue("(is)", code, msg);
		if (exc) {
			PyErr_SetObject(PyExc_OSError, exc);
			Py_DECREF(exc);
		}
		return NULL;
	}
	if (!msg || !*msg)
		msg = pd_strerror(err);
	type = code == PD_ERR_TRUNCATED ? pdpy_TruncatedError : pdpy_Error;
	exc = PyObject_CallFunction(type, "s", msg);
	if (!exc)
		return NULL;
	if (set_attr(exc, "path", name ? PyUnicode_DecodeFSDefault(name) :
					 Py_NewRef(Py_None)) ||
	    set_attr(exc, "offset", offset_of(msg)) ||
	    set_attr(exc, "code", PyLong_FromLong(code))) {
		Py_DECREF(exc);
		return NULL;
	}
	PyErr_SetObject(type, exc);
	Py_DECREF(exc);
	return NULL;
}

/*
 * Only C here: the library calls it from inside its own calls, and
 * convert() runs those with the GIL released. A truncation warning is
 * kept aside, for the exception the pass raises at the input's end
 * (perfdata.TruncatedError); the reader's "stopping here" is that
 * exception's text, so not a warning of its own too.
 */
void pdpy_log_cb(enum pd_log_level level, const char *msg, void *ctx)
{
	struct pdpy_log *l = ctx;
	char *copy;

	if (level == PD_LOG_DEBUG)
		return;
	if (level == PD_LOG_WARN && strstr(msg, "truncated")) {
		free(l->truncated);
		l->truncated = strdup(msg);
		if (strstr(msg, "stopping here"))
			return;
	}
	if (l->nr == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 16;
		char **m = realloc(l->msgs, cap * sizeof(*m));
		enum pd_log_level *v;

		if (!m) {
			l->failed = true;
			return;
		}
		l->msgs = m;
		v = realloc(l->levels, cap * sizeof(*v));
		if (!v) {
			l->failed = true;
			return;
		}
		l->levels = v;
		l->cap = cap;
	}
	copy = strdup(msg);
	if (!copy) {
		l->failed = true;
		return;
	}
	l->msgs[l->nr] = copy;
	l->levels[l->nr++] = level;
}

static int log_info(const char *msg)
{
	PyObject *logging, *logger, *r;

	logging = PyImport_ImportModule("logging");
	if (!logging)
		return -1;
	logger = PyObject_CallMethod(logging, "getLogger", "s", "perfdata");
	Py_DECREF(logging);
	if (!logger)
		return -1;
	r = PyObject_CallMethod(logger, "info", "s", msg);
	Py_DECREF(logger);
	Py_XDECREF(r);
	return r ? 0 : -1;
}

int pdpy_log_flush(struct pdpy_log *l)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < l->nr; i++) {
		if (!ret && l->levels[i] == PD_LOG_WARN)
			ret = PyErr_WarnEx(pdpy_Warning, l->msgs[i], 1);
		else if (!ret)
			ret = log_info(l->msgs[i]);
		free(l->msgs[i]);
	}
	l->nr = 0;
	if (!ret && l->failed) {
		l->failed = false;
		ret = PyErr_WarnEx(pdpy_Warning,
				   "some messages of libperfdata were lost (out of memory)",
				   1);
	}
	return ret;
}

void pdpy_log_free(struct pdpy_log *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		free(l->msgs[i]);
	free(l->msgs);
	free(l->levels);
	free(l->truncated);
	memset(l, 0, sizeof(*l));
}
