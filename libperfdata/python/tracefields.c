// SPDX-License-Identifier: MIT
/*
 * A tracepoint sample's fields, by the event's format as the tracing
 * data stores it (the kernel's tracing/events/SYSTEM/EVENT/format):
 *
 *	field:char prev_comm[16];	offset:8;	size:16;	signed:0;
 *
 * read as perf script -s hands them to a handler: integers by size and
 * sign in the tracing data's byte order, char arrays and __data_loc
 * strings as str, other arrays as tuples of integers, common_* fields
 * included. Only the format's own lines are read; the print fmt (what
 * perf script prints) is libtraceevent's business in the library.
 */
#include <stdlib.h>
#include <string.h>

#include <perfdata/features.h>

#include "pdpy.h"

/* An integer of size bytes stored in the tracing data's byte order. */
static uint64_t load(const uint8_t *p, unsigned int size, bool big)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < size; i++)
		v |= (uint64_t)p[i] << (8 * (big ? size - 1 - i : i));
	return v;
}

static PyObject *integer(const uint8_t *p, unsigned int size, bool is_signed,
			 bool big)
{
	uint64_t v = load(p, size, big);

	if (is_signed && size < 8 && (v >> (8 * size - 1)) & 1)
		v |= ~0ULL << (8 * size);
	if (is_signed)
		return PyLong_FromLongLong((long long)v);
	return PyLong_FromUnsignedLongLong(v);
}

static PyObject *cstring(const uint8_t *p, size_t max)
{
	return pdpy_decode((const char *)p, strnlen((const char *)p, max));
}

/* "KEY" followed by a number in [s, end): the number, or -1 */
static long number_after(const char *s, const char *end, const char *key)
{
	size_t n = strlen(key);

	for (; s + n < end; s++)
		if (!memcmp(s, key, n))
			return strtol(s + n, NULL, 10);
	return -1;
}

static bool ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

/* The array's values: integers of its element size, or bytes. */
static PyObject *array(const uint8_t *p, long size, long nr, bool is_signed,
		       bool big)
{
	long elem = nr > 0 ? size / nr : 0, i;
	PyObject *v;

	if (elem != 1 && elem != 2 && elem != 4 && elem != 8)
		return PyBytes_FromStringAndSize((const char *)p, size);
	v = PyTuple_New(nr);
	for (i = 0; v && i < nr; i++) {
		PyObject *x = integer(p + i * elem, elem, is_signed, big);

		if (!x) {
			Py_CLEAR(v);
			break;
		}
		PyTuple_SET_ITEM(v, i, x);
	}
	return v;
}

/*
 * One "field:DECL;	offset:N;	size:N;	signed:N;" line into d[name]:
 * DECL is "TYPE NAME", "TYPE NAME[N]" or "__data_loc TYPE[] NAME". A
 * line that does not parse, or whose bytes the sample lacks, is left out.
 */
static int field(PyObject *d, const char *line, const char *end,
		 const uint8_t *raw, size_t size, bool big)
{
	const char *decl = line + 6, *semi = memchr(decl, ';', end - decl);
	const char *name, *name_end, *bracket;
	long off = number_after(line, end, "offset:");
	long sz = number_after(line, end, "size:");
	bool sgn = number_after(line, end, "signed:") > 0, chars;
	PyObject *v, *key;
	int err;

	if (!semi || off < 0 || sz <= 0 || (size_t)off + (size_t)sz > size)
		return 0;
	/* "__data_loc char[] name": the brackets belong to the type */
	bracket = memchr(decl, '[', semi - decl);
	if (!strncmp(decl, "__data_loc", 10))
		bracket = NULL;
	name_end = bracket ? bracket : semi;
	for (name = name_end; name > decl && ident(name[-1]); name--)
		;
	if (name == name_end)
		return 0;
	chars = memmem(decl, name - decl, "char", 4) != NULL;
	if (!strncmp(decl, "__data_loc", 10)) {
		/* a u32: where the data is (low half) and its length */
		uint32_t loc = (uint32_t)load(raw + off, 4, big);
		size_t at = loc & 0xffff, len = loc >> 16;

		if (at > size)
			at = size;
		if (len > size - at)
			len = size - at;
		v = chars ? cstring(raw + at, len) :
		    PyBytes_FromStringAndSize((const char *)raw + at, (Py_ssize_t)len);
	} else if (bracket && chars) {
		v = cstring(raw + off, (size_t)sz);
	} else if (bracket) {
		v = array(raw + off, sz, strtol(bracket + 1, NULL, 10), sgn, big);
	} else if (sz == 1 || sz == 2 || sz == 4 || sz == 8) {
		v = integer(raw + off, (unsigned int)sz, sgn, big);
	} else {
		v = PyBytes_FromStringAndSize((const char *)raw + off, sz);
	}
	if (!v)
		return -1;
	key = pdpy_decode(name, name_end - name);
	err = key ? PyDict_SetItem(d, key, v) : -1;
	Py_XDECREF(key);
	Py_DECREF(v);
	return err;
}

PyObject *pdpy_trace_fields(const struct pd_reader *r, uint64_t config,
			    const void *raw, size_t size)
{
	const struct pd_features *f = pd_reader__features(r);
	const struct pd_trace_event *ev = NULL;
	const char *s, *end, *nl;
	PyObject *d;
	uint32_t i;

	for (i = 0; f && i < f->tracing.nr_events; i++)
		if (f->tracing.events[i].id == config)
			ev = &f->tracing.events[i];
	if (!ev || !ev->format)
		Py_RETURN_NONE;
	d = PyDict_New();
	end = ev->format + ev->format_len;
	for (s = ev->format; d && s < end; s = nl + 1) {
		const char *t;

		nl = memchr(s, '\n', end - s);
		if (!nl)
			nl = end;
		for (t = s; t < nl && (*t == ' ' || *t == '\t'); t++)
			;
		if (nl - t > 6 && !memcmp(t, "field:", 6) &&
		    field(d, t, nl, raw, size, f->tracing.big_endian))
			Py_CLEAR(d);
	}
	return d;
}
