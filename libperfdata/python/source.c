// SPDX-License-Identifier: MIT
/*
 * What perfdata.open() reads: a path (str, bytes, os.PathLike; "-" is
 * standard input, as for the tools), or a file object. A file object
 * with a descriptor of a regular file is reopened through /proc/self/fd
 * for each pass, from its start; one of a pipe or socket is read as a
 * stream, once, as `pd-fold -` reads one; one without a descriptor
 * (io.BytesIO, a gzip.GzipFile) is copied into an anonymous memory file
 * (memfd), which the reader then reads as a regular file: perf.data's
 * file mode needs to seek to its header's sections.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pdpy.h"

#define COPY_CHUNK	(1 << 20)

static int set_fd_path(struct pdpy_source *src)
{
	char p[64];

	snprintf(p, sizeof(p), "/proc/self/fd/%d", src->fd);
	src->path = strdup(p);
	if (!src->path) {
		PyErr_NoMemory();
		return -1;
	}
	return 0;
}

/* obj.name when it is a str (an open file's path), else what it is */
static int set_name(struct pdpy_source *src, PyObject *obj, const char *what)
{
	PyObject *name = PyObject_GetAttrString(obj, "name"), *b = NULL;

	if (!name)
		PyErr_Clear();
	if (name && (PyUnicode_Check(name) || PyBytes_Check(name)) &&
	    PyUnicode_FSConverter(name, &b)) {
		src->name = strdup(PyBytes_AS_STRING(b));
		Py_DECREF(b);
	} else {
		PyErr_Clear();
		src->name = strdup(what);
	}
	Py_XDECREF(name);
	if (!src->name) {
		PyErr_NoMemory();
		return -1;
	}
	return 0;
}

/* Everything obj.read() gives, into a memfd. */
static int copy_to_memfd(struct pdpy_source *src, PyObject *obj)
{
	PyObject *chunk;

	src->fd = memfd_create("perfdata", MFD_CLOEXEC);
	if (src->fd < 0) {
		PyErr_SetFromErrno(PyExc_OSError);
		return -1;
	}
	for (;;) {
		const char *p;
		Py_ssize_t n;

		chunk = PyObject_CallMethod(obj, "read", "n", (Py_ssize_t)COPY_CHUNK);
		if (!chunk)
			return -1;
		if (!PyBytes_Check(chunk)) {
			PyErr_Format(PyExc_TypeError,
				     "open(): the file object's read() gave %.100s, not bytes (open the file in binary mode)",
				     Py_TYPE(chunk)->tp_name);
			Py_DECREF(chunk);
			return -1;
		}
		n = PyBytes_GET_SIZE(chunk);
		if (!n) {
			Py_DECREF(chunk);
			break;
		}
		for (p = PyBytes_AS_STRING(chunk); n > 0;) {
			ssize_t w = write(src->fd, p, n);

			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0) {
				Py_DECREF(chunk);
				PyErr_SetFromErrno(PyExc_OSError);
				return -1;
			}
			p += w;
			n -= w;
		}
		Py_DECREF(chunk);
	}
	return set_fd_path(src);
}

static int from_file_object(struct pdpy_source *src, PyObject *obj)
{
	PyObject *fileno = PyObject_CallMethod(obj, "fileno", NULL);
	struct stat st;
	long n;

	if (!fileno) {
		/* io.BytesIO raises io.UnsupportedOperation: no descriptor */
		if (!PyErr_ExceptionMatches(PyExc_AttributeError) &&
		    !PyErr_ExceptionMatches(PyExc_OSError) &&
		    !PyErr_ExceptionMatches(PyExc_ValueError))
			return -1;
		PyErr_Clear();
		if (!PyObject_HasAttrString(obj, "read")) {
			PyErr_Format(PyExc_TypeError,
				     "open() takes a path or a binary file object, not %.100s",
				     Py_TYPE(obj)->tp_name);
			return -1;
		}
		if (set_name(src, obj, "<file object>"))
			return -1;
		return copy_to_memfd(src, obj);
	}
	n = PyLong_AsLong(fileno);
	Py_DECREF(fileno);
	if (n == -1 && PyErr_Occurred())
		return -1;
	src->fd = fcntl((int)n, F_DUPFD_CLOEXEC, 3);
	if (src->fd < 0) {
		PyErr_SetFromErrno(PyExc_OSError);
		return -1;
	}
	if (set_name(src, obj, "<file object>"))
		return -1;
	if (fstat(src->fd, &st)) {
		PyErr_SetFromErrno(PyExc_OSError);
		return -1;
	}
	return S_ISREG(st.st_mode) ? set_fd_path(src) : 0;
}

int pdpy_source_init(struct pdpy_source *src, PyObject *obj)
{
	PyObject *b;
	const char *path;

	memset(src, 0, sizeof(*src));
	src->fd = -1;
	if (!PyUnicode_Check(obj) && !PyBytes_Check(obj) &&
	    !PyObject_HasAttrString(obj, "__fspath__"))
		return from_file_object(src, obj);
	if (!PyUnicode_FSConverter(obj, &b))
		return -1;
	path = PyBytes_AS_STRING(b);
	if (!strcmp(path, "-")) {
		src->fd = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3);
		if (src->fd < 0) {
			Py_DECREF(b);
			PyErr_SetFromErrno(PyExc_OSError);
			return -1;
		}
		src->name = strdup("<stdin>");
	} else {
		src->path = strdup(path);
		src->name = strdup(path);
	}
	Py_DECREF(b);
	if (!src->name || (src->fd < 0 && !src->path)) {
		PyErr_NoMemory();
		return -1;
	}
	return 0;
}

void pdpy_source_free(struct pdpy_source *src)
{
	if (src->fd >= 0)
		close(src->fd);
	free(src->path);
	free(src->name);
	memset(src, 0, sizeof(*src));
	src->fd = -1;
}

struct pd_reader *pdpy_source_open(struct pdpy_source *src,
				   struct pd_reader_opts *opts)
{
	struct pd_reader *r;

	opts->name = src->name;
	if (src->path) {
		r = pd_reader__open(src->path, opts);
	} else if (src->used) {
		PyErr_Format(PyExc_ValueError,
			     "%s: a stream is read once, and its records were read already (save it to a file to read it again)",
			     src->name);
		return NULL;
	} else {
		src->used = true;
		r = pd_reader__open_fd(src->fd, opts);
	}
	if (!r)
		/* a system error names the file; a format error says where */
		pdpy_raise(-errno, errno < PD_ERR_BASE ? NULL :
			   pd_reader__open_errmsg(), src->name);
	return r;
}
