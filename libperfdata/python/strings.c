// SPDX-License-Identifier: MIT
/*
 * C strings as str objects, each made once per pass. The library hands
 * out the same pointer for the same symbol name, DSO path or command
 * name for as long as its symbolizer and session live (the pass), so a
 * table keyed by the pointer turns a frame's names into str objects
 * with a lookup, and every sample of a function shares one str: a
 * DataFrame of a million samples holds a few thousand strings.
 */
#include <stdlib.h>
#include <string.h>

#include "pdpy.h"

PyObject *pdpy_decode(const char *s, size_t len)
{
	/* names are bytes to the kernel: keep any that are not UTF-8 */
	return PyUnicode_DecodeUTF8(s, (Py_ssize_t)len, "surrogateescape");
}

static size_t slot_of(uintptr_t key, size_t cap)
{
	uint64_t h = (uint64_t)key * 0x9e3779b97f4a7c15ULL;

	return (size_t)(h >> 32) & (cap - 1);
}

static int grow(struct pdpy_strs *c)
{
	size_t cap = c->cap ? 2 * c->cap : 1024, i, j;
	uintptr_t *keys = calloc(cap, sizeof(*keys));
	PyObject **vals = calloc(cap, sizeof(*vals));

	if (!keys || !vals) {
		free(keys);
		free(vals);
		PyErr_NoMemory();
		return -1;
	}
	for (i = 0; i < c->cap; i++) {
		if (!c->keys[i])
			continue;
		for (j = slot_of(c->keys[i], cap); keys[j]; j = (j + 1) & (cap - 1))
			;
		keys[j] = c->keys[i];
		vals[j] = c->vals[i];
	}
	free(c->keys);
	free(c->vals);
	c->keys = keys;
	c->vals = vals;
	c->cap = cap;
	return 0;
}

PyObject *pdpy_str(struct pdpy_strs *c, const char *s)
{
	uintptr_t key = (uintptr_t)s;
	PyObject *v;
	size_t i;

	if (!s)
		return Py_None;
	if (c->cap) {
		for (i = slot_of(key, c->cap); c->keys[i]; i = (i + 1) & (c->cap - 1))
			if (c->keys[i] == key)
				return c->vals[i];
	}
	/* at most half full: probes stay short */
	if (2 * (c->nr + 1) > c->cap && grow(c))
		return NULL;
	v = pdpy_decode(s, strlen(s));
	if (!v)
		return NULL;
	/* equal names from different pointers share one str too */
	PyUnicode_InternInPlace(&v);
	for (i = slot_of(key, c->cap); c->keys[i]; i = (i + 1) & (c->cap - 1))
		;
	c->keys[i] = key;
	c->vals[i] = v;
	c->nr++;
	return v;
}

void pdpy_strs_free(struct pdpy_strs *c)
{
	size_t i;

	for (i = 0; i < c->cap; i++)
		Py_XDECREF(c->vals[i]);
	free(c->keys);
	free(c->vals);
	memset(c, 0, sizeof(*c));
}
