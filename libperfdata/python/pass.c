// SPDX-License-Identifier: MIT
/*
 * One pass over a file's records, as the tools make it: the reader (in
 * time order for samples, as perf script reads), and for samples the
 * symbolizer, the session rebuilt from the other records, the unwinder
 * of DWARF callchains and perf's delivery of counter groups (one sample
 * per value read). A sample's frames are what pd-fold and perf script
 * show: pd_unwinder__sample_frames(), leaf first.
 *
 * The end of a pass is where errors surface: the reader's error, or a
 * truncated input, whose whole records have all been delivered by then.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfdata/evsel.h>
#include <perfdata/format.h>

#include "pdpy.h"

static int raise_errno(struct pdpy_pass *p, int err)
{
	pdpy_raise(-err, NULL, p->file->src.name);
	return -1;
}

int pdpy_pass_open(struct pdpy_pass *p, PerfDataObject *f,
		   enum pdpy_pass_kind kind, enum pdpy_inline mode)
{
	struct pd_reader_opts ro = {
		.sz = sizeof(ro),
		.order = kind == PDPY_PASS_RECORDS ? PD_ORDER_FILE : PD_ORDER_TIME,
		.log = pdpy_log_cb,
		.log_ctx = &f->log,
	};
	struct pd_symbolizer_opts so = {
		.sz = sizeof(so),
		.symfs = f->opts.symfs,
		.kallsyms = f->opts.kallsyms,
		.vmlinux = f->opts.vmlinux,
		.no_debuginfod = f->opts.no_debuginfod,
		.roots = (const char *const *)f->opts.roots,
		.log = pdpy_log_cb,
		.log_ctx = &f->log,
	};
	struct pd_session_opts xo = {
		.sz = sizeof(xo),
		.log = pdpy_log_cb,
		.log_ctx = &f->log,
	};
	struct pd_unwind_opts uo = {
		.sz = sizeof(uo),
		.max_stack = PDPY_MAX_STACK,
		/* inline=True: addr2line's chains instead (expand()) */
		.no_inline = mode != PDPY_INLINE_PERF,
		.log = pdpy_log_cb,
		.log_ctx = &f->log,
	};

	memset(p, 0, sizeof(*p));
	Py_INCREF(f);
	p->file = f;
	p->inline_mode = mode;
	/*
	 * open()'s reader is in time order: it serves the first pass that
	 * wants that, and any pass of a stream, which has no other
	 */
	if (f->r0 && (ro.order == PD_ORDER_TIME || !f->src.path)) {
		p->r = f->r0;
		f->r0 = NULL;
	} else {
		p->r = pdpy_source_open(&f->src, &ro);
		if (!p->r)
			goto fail;
	}
	if (kind != PDPY_PASS_SAMPLES)
		return 0;
	p->sym = pd_symbolizer__new(&so);
	if (!p->sym)
		goto fail_errno;
	xo.symbolizer = p->sym;
	p->s = pd_session__new(p->r, &xo);
	if (!p->s)
		goto fail_errno;
	p->u = pd_unwinder__new(p->s, p->r, &uo);
	if (!p->u)
		goto fail_errno;
	p->reads = pd_read_periods__new(p->r);
	p->frames = malloc(PDPY_MAX_FRAMES * sizeof(*p->frames));
	p->out = malloc(PDPY_MAX_FRAMES * sizeof(*p->out));
	if (!p->reads || !p->frames || !p->out) {
		PyErr_NoMemory();
		goto fail;
	}
	return 0;
fail_errno:
	raise_errno(p, errno);
fail:
	pdpy_pass_close(p);
	return -1;
}

void pdpy_pass_close(struct pdpy_pass *p)
{
	pdpy_strs_free(&p->strs);
	free(p->frames);
	free(p->out);
	pd_read_periods__free(p->reads);
	pd_unwinder__free(p->u);
	pd_session__free(p->s);
	pd_symbolizer__free(p->sym);
	pd_reader__close(p->r);
	Py_XDECREF(p->file);
	memset(p, 0, sizeof(*p));
}

/* Where a file-mode input's data section says it ends past the file. */
static bool data_cut(const struct pd_reader *r)
{
	const struct pd_header_info *h = pd_reader__header(r);

	return h->mode == PD_MODE_FILE && !h->data_size_was_zero &&
	       h->file_size && h->data.offset + h->data.size > h->file_size;
}

int pdpy_pass_raise_end(struct pdpy_pass *p, int err)
{
	const char *name = p->file->src.name;
	char msg[512];

	p->done = true;
	if (err < 0) {
		if (pdpy_log_flush(&p->file->log))
			return -1;
		pdpy_raise(err, pd_reader__errmsg(p->r), name);
		return -1;
	}
	if (!pd_reader__stats(p->r)->truncated && !data_cut(p->r))
		return pdpy_log_flush(&p->file->log);
	/* the library said where, in a warning; else the header's end */
	if (p->file->log.truncated) {
		snprintf(msg, sizeof(msg), "%s", p->file->log.truncated);
	} else {
		const struct pd_header_info *h = pd_reader__header(p->r);

		snprintf(msg, sizeof(msg),
			 "%s: offset %#llx: the data section runs to %#llx: input truncated",
			 name, (unsigned long long)h->file_size,
			 (unsigned long long)(h->data.offset + h->data.size));
	}
	if (pdpy_log_flush(&p->file->log))
		return -1;
	pdpy_raise(-PD_ERR_TRUNCATED, msg, name);
	return -1;
}

int pdpy_pass_next(struct pdpy_pass *p, const struct pd_event **ev)
{
	int err;

	if (p->done)
		return 0;
	err = pd_reader__next(p->r, ev);
	if (err <= 0)
		return pdpy_pass_raise_end(p, err);
	if (p->file->log.nr && pdpy_log_flush(&p->file->log))
		return -1;
	return 1;
}

int pdpy_pass_next_sample(struct pdpy_pass *p, struct pdpy_delivery *d)
{
	const struct pd_event *ev;
	int rc, n;

	while (p->idl >= p->ndl) {
		rc = pdpy_pass_next(p, &ev);
		if (rc <= 0)
			return rc;
		if (ev->type != PD_RECORD_SAMPLE) {
			n = pd_session__event(p->s, ev);
			if (n < 0) {
				char msg[256];

				snprintf(msg, sizeof(msg), "%s: offset %#llx: %s",
					 p->file->src.name,
					 (unsigned long long)ev->offset,
					 pd_strerror(n));
				pdpy_raise(n, msg, p->file->src.name);
				return -1;
			}
			continue;
		}
		n = pd_read_periods__deliver(p->reads, ev, p->dl,
					     PDPY_MAX_DELIVERIES);
		if (n < 0)
			return raise_errno(p, -n);
		p->ev = ev;
		p->t = n ? pd_session__sample_thread(p->s, &ev->u.sample) : NULL;
		if (n && !p->t) {
			PyErr_NoMemory();
			return -1;
		}
		p->ndl = n < PDPY_MAX_DELIVERIES ? n : PDPY_MAX_DELIVERIES;
		p->idl = 0;
	}
	d->ev = p->ev;
	d->t = p->t;
	d->evsel = p->dl[p->idl].evsel;
	d->id = p->dl[p->idl].id;
	d->period = p->dl[p->idl].period;
	p->idl++;
	return 1;
}

uint64_t pdpy_period(const struct pdpy_delivery *d)
{
	/* perf's sample parser starts from the attr's sample_period */
	if (d->ev->u.sample.sample_type & (PD_SAMPLE_PERIOD | PD_SAMPLE_READ))
		return d->period;
	return d->evsel->attr.sample_period;
}

PyObject *pdpy_event_name(struct pdpy_pass *p, const struct pd_evsel *e)
{
	PyObject *names = p->file->event_names;
	Py_ssize_t i;
	char buf[256];

	/* a pipe may bring events after its header: named when first seen */
	for (i = PyList_GET_SIZE(names); i <= e->idx; i++) {
		const struct pd_evsel *x = pd_reader__evsel(p->r, (size_t)i);
		PyObject *n;

		n = x ? PyUnicode_FromString(pd_evsel__name(x, p->r, buf, sizeof(buf))) :
			PyUnicode_FromString("");
		if (!n || PyList_Append(names, n)) {
			Py_XDECREF(n);
			return NULL;
		}
		Py_DECREF(n);
	}
	return PyList_GET_ITEM(names, e->idx);
}

const struct pdpy_frame *pdpy_leaf(const struct pdpy_frame *f, int n,
				   const struct pdpy_frame *alone)
{
	int i;

	for (i = 0; i < n; i++)
		if (!f[i].inlined)
			return &f[i];
	return n ? &f[0] : alone;
}

static PyObject *unknown_str;

PyObject *pdpy_frame_name(struct pdpy_pass *p, const struct pdpy_frame *f)
{
	if (f->sym)
		return pdpy_str(&p->strs, f->sym);
	if (!unknown_str) {
		unknown_str = PyUnicode_InternFromString("[unknown]");
		if (!unknown_str)
			return NULL;
	}
	return unknown_str;
}

static bool all_digits(const char *s, const char *end)
{
	if (s == end)
		return false;
	for (; s < end; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/*
 * JIT code: what perf names from a JIT's own description, the map file
 * /tmp/perf-PID.map or the jitted-PID-N.so files perf inject --jit
 * makes of a jitdump.
 */
static bool is_jit(const char *dso)
{
	const char *base = strrchr(dso, '/'), *end = dso + strlen(dso);

	base = base ? base + 1 : dso;
	if (!strncmp(base, "perf-", 5) && end - base > 9 &&
	    !strcmp(end - 4, ".map"))
		return all_digits(base + 5, end - 4);
	if (!strncmp(base, "jitted-", 7) && end - base > 10 &&
	    !strcmp(end - 3, ".so"))
		return true;
	return false;
}

static uint8_t kind_of(struct pdpy_pass *p, const struct pd_frame *fr)
{
	if (fr->kernel)
		return PDPY_KERNEL;
	/* consecutive frames share their DSO */
	if (fr->dso_name != p->last_dso) {
		p->last_dso = fr->dso_name;
		p->last_jit = fr->dso_name && is_jit(fr->dso_name);
	}
	return p->last_jit ? PDPY_JIT : PDPY_USER;
}

static void keep(struct pdpy_frame *o, const struct pd_frame *fr, uint8_t kind)
{
	o->ip = fr->ip;
	o->addr = fr->addr;
	o->sym_start = fr->sym ? fr->sym->start : 0;
	o->sym = fr->inline_name && fr->sym ? fr->inline_name :
		 fr->sym ? fr->sym->name : NULL;
	o->dso = fr->dso_name;
	o->kind = kind;
	o->inlined = fr->inline_name && fr->sym;
}

/*
 * inline=True: a user frame becomes the inline chain at its address as
 * addr2line -i -f -C prints it (pd-fold --inline's frames), innermost
 * first, the last one the function it was inlined into; a frame where
 * DWARF says nothing stays as it was.
 */
static int expand(struct pdpy_frame *o, int room, const struct pd_frame *fr,
		  uint8_t kind)
{
	struct pd_inline_frame chain[64];
	int n, i;

	if (kind != PDPY_USER || !fr->dso || !fr->has_map)
		n = 0;
	else
		n = pd_dso__addr2line(fr->dso, fr->addr, chain, 64);
	if (n <= 0) {
		keep(o, fr, kind);
		return 1;
	}
	if (n > room)
		n = room;
	for (i = 0; i < n; i++) {
		keep(&o[i], fr, kind);
		o[i].sym = chain[i].function ? chain[i].function : "??";
		o[i].inlined = i < n - 1;
	}
	return n;
}

int pdpy_pass_frames(struct pdpy_pass *p, const struct pdpy_delivery *d)
{
	int n, i, k = 0;

	n = pd_unwinder__sample_frames(p->u, d->t, d->ev, p->frames,
				       PDPY_MAX_FRAMES);
	if (p->file->log.nr && pdpy_log_flush(&p->file->log))
		return -1;
	if (n < 0 && n != -ENODATA)
		return raise_errno(p, -n);
	p->has_alone = n <= 0;
	/*
	 * perf script prints such a sample without frames (registers it
	 * does not unwind, a callchain it gives up on), and names its
	 * address all the same (perf script -F sym, perf report)
	 */
	if (p->has_alone) {
		struct pd_frame fr;

		pd_session__resolve(p->s, d->t, d->ev->misc & PD_MISC_CPUMODE_MASK,
				    d->ev->u.sample.ip, &fr);
		keep(&p->alone, &fr, kind_of(p, &fr));
		return 0;
	}
	for (i = 0; i < n && k < PDPY_MAX_FRAMES; i++) {
		uint8_t kind = kind_of(p, &p->frames[i]);

		if (p->inline_mode == PDPY_INLINE_ALL)
			k += expand(&p->out[k], PDPY_MAX_FRAMES - k, &p->frames[i], kind);
		else
			keep(&p->out[k++], &p->frames[i], kind);
	}
	return k;
}
