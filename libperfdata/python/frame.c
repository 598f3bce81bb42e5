// SPDX-License-Identifier: MIT
/*
 * perfdata.Frame: one line of a callchain as perf script prints it, in
 * fields: the address sampled (ip), the one printed (addr: in the DSO
 * for user code, the address itself for the kernel's), the symbol (None
 * where perf prints [unknown]), the offset perf prints after it, the
 * DSO, what kind of code it is and whether it is an inlined function's
 * frame. Made only when a Sample's callchain is asked for.
 */
#include <stdio.h>

#include "pdpy.h"

#include <structmember.h>

typedef struct {
	PyObject_HEAD
	unsigned long long ip, addr;
	PyObject *symbol, *dso, *offset, *kind;
	char inlined;
} FrameObject;

static PyObject *kind_strs[3];

static void frame_dealloc(FrameObject *o)
{
	Py_XDECREF(o->symbol);
	Py_XDECREF(o->dso);
	Py_XDECREF(o->offset);
	Py_XDECREF(o->kind);
	Py_TYPE(o)->tp_free((PyObject *)o);
}

static PyObject *frame_repr(FrameObject *o)
{
	char ip[24], addr[24];

	/* PyUnicode_FromFormat() has no %llx */
	snprintf(ip, sizeof(ip), "%#llx", o->ip);
	snprintf(addr, sizeof(addr), "%#llx", o->addr);
	return PyUnicode_FromFormat("perfdata.Frame(ip=%s, addr=%s, symbol=%R, offset=%R, dso=%R, kind=%R, inlined=%s)",
				    ip, addr, o->symbol, o->offset, o->dso,
				    o->kind, o->inlined ? "True" : "False");
}

static PyMemberDef frame_members[] = {
	{ "ip", T_ULONGLONG, offsetof(FrameObject, ip), READONLY,
	  "the address as sampled" },
	{ "addr", T_ULONGLONG, offsetof(FrameObject, addr), READONLY,
	  "the address perf script prints: in the DSO for user code, the address for the kernel's" },
	{ "symbol", T_OBJECT, offsetof(FrameObject, symbol), READONLY,
	  "the function (an inlined one's for inlined frames), None when unknown" },
	{ "offset", T_OBJECT, offsetof(FrameObject, offset), READONLY,
	  "the offset into the symbol perf prints as +0x..., None without a symbol" },
	{ "dso", T_OBJECT, offsetof(FrameObject, dso), READONLY,
	  "the file the code was in ([kernel.kallsyms], [vdso], [unknown], ...)" },
	{ "kind", T_OBJECT, offsetof(FrameObject, kind), READONLY,
	  "'user', 'kernel' or 'jit' (code named by /tmp/perf-PID.map or a jitdump)" },
	{ "inlined", T_BOOL, offsetof(FrameObject, inlined), READONLY,
	  "an inlined function's frame, at the address of the frame after it" },
	{ NULL },
};

PyTypeObject pdpy_FrameType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "perfdata.Frame",
	.tp_basicsize = sizeof(FrameObject),
	.tp_dealloc = (destructor)frame_dealloc,
	.tp_repr = (reprfunc)frame_repr,
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "One frame of a callchain, leaf first, as perf script prints it.",
	.tp_members = frame_members,
};

static PyObject *kind_str(uint8_t kind)
{
	static const char *const names[] = { "user", "kernel", "jit" };

	if (!kind_strs[kind])
		kind_strs[kind] = PyUnicode_InternFromString(names[kind]);
	return kind_strs[kind];
}

PyObject *pdpy_frame_new(struct pdpy_pass *p, const struct pdpy_frame *f)
{
	FrameObject *o;
	PyObject *sym, *dso, *kind;

	sym = f->sym ? pdpy_str(&p->strs, f->sym) : Py_None;
	dso = pdpy_str(&p->strs, f->dso);
	kind = kind_str(f->kind);
	if (!sym || !dso || !kind)
		return NULL;
	o = PyObject_New(FrameObject, &pdpy_FrameType);
	if (!o)
		return NULL;
	o->ip = f->ip;
	o->addr = f->kind == PDPY_KERNEL ? f->ip : f->addr;
	o->symbol = Py_NewRef(sym);
	o->dso = Py_NewRef(dso);
	o->kind = Py_NewRef(kind);
	o->inlined = f->inlined;
	o->offset = f->sym ? PyLong_FromUnsignedLongLong(f->addr - f->sym_start) :
		    Py_NewRef(Py_None);
	if (!o->offset) {
		Py_DECREF(o);
		return NULL;
	}
	return (PyObject *)o;
}
