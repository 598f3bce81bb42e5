// SPDX-License-Identifier: MIT
/*
 * The module perfdata: every perf.data in Python, without perf.
 *
 *	import perfdata
 *	with perfdata.open("perf.data") as f:
 *		for s in f.samples():
 *			print(s.comm, s.event, s.symbol)
 *
 * docs/python.md is the reference. This file registers the module's
 * functions and types; each lives in a file of its own (pdpy.h).
 */
#include "pdpy.h"

static PyMethodDef module_methods[] = {
	{ "open", (PyCFunction)(void (*)(void))pdpy_open,
	  METH_VARARGS | METH_KEYWORDS,
	  "open(source, *, symfs=None, root=None, kallsyms=None, vmlinux=None, debuginfod=True, inline=None)\n"
	  "A perf.data file, pipe-mode stream or profile archive: a path ('-': standard input) or a binary file object." },
	{ "fold", (PyCFunction)(void (*)(void))pdpy_fold,
	  METH_VARARGS | METH_KEYWORDS,
	  "fold(source, *, symfs=None, root=None, kallsyms=None, vmlinux=None, debuginfod=True,\n"
	  "     pid=False, tid=False, kernel=False, jit=False, all=False, addrs=False, inline=None,\n"
	  "     context=False, event=None, weight=None)\n"
	  "pd-fold's folded stacks as a dict {'comm;root;...;leaf': count}." },
	{ "convert", (PyCFunction)(void (*)(void))pdpy_convert,
	  METH_VARARGS | METH_KEYWORDS,
	  "convert(src, dst, *, target_perf=None, mode=None, compress=None, compress_level=0,\n"
	  "        endian=None, shims=(), no_shims=(), symfs=None, root=None, debuginfod=True,\n"
	  "        dry_run=False)\n"
	  "pd-convert: src rewritten into dst for an older perf, another mode, byte order or\n"
	  "compression; returns what was done." },
	{ "shims", (PyCFunction)pdpy_shims, METH_NOARGS,
	  "shims(): convert()'s shims, {name: what it does}" },
	{ NULL },
};

static struct PyModuleDef module_def = {
	PyModuleDef_HEAD_INIT,
	.m_name = "perfdata",
	.m_doc = "perf.data files (any perf version, file or pipe mode, zstd, archives) read with libperfdata:\n"
		 "samples with their callchains, pandas DataFrames, folded stacks, conversion for older perfs.",
	.m_size = -1,
	.m_methods = module_methods,
};

PyMODINIT_FUNC PyInit_perfdata(void);

PyMODINIT_FUNC PyInit_perfdata(void)
{
	PyTypeObject *types[] = {
		&pdpy_PerfDataType, &pdpy_SampleType, &pdpy_FrameType,
		&pdpy_RecordType, &pdpy_EventType, &pdpy_SampleIterType,
		&pdpy_RecordIterType,
	};
	const char *names[] = {
		"PerfData", "Sample", "Frame", "Record", "Event", NULL, NULL,
	};
	PyObject *m;
	size_t i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (PyType_Ready(types[i]))
			return NULL;
	m = PyModule_Create(&module_def);
	if (!m)
		return NULL;
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		if (!names[i])
			continue;
		Py_INCREF(types[i]);
		if (PyModule_AddObject(m, names[i], (PyObject *)types[i])) {
			Py_DECREF(types[i]);
			goto fail;
		}
	}
	if (pdpy_errors_init(m) ||
	    PyModule_AddStringConstant(m, "__version__", PDPY_VERSION))
		goto fail;
	return m;
fail:
	Py_DECREF(m);
	return NULL;
}
