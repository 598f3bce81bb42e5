/* SPDX-License-Identifier: MIT */
/*
 * The Python module perfdata: what its files share. The module is a
 * consumer of libperfdata's public API (the headers in
 * libperfdata/include/perfdata/) and nothing else;
 * each file here has one job, named in its opening comment.
 *
 * Lifetimes: a PerfData object owns its source and the reader open()
 * made; each pass over the records (an iterator, to_pandas(), fold())
 * owns its reader, symbolizer, session and unwinder, and a Sample keeps
 * the pass it came from alive, since its frames point into that pass's
 * symbolizer and session until they are turned into Python objects.
 */
#ifndef PDPY_H
#define PDPY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdbool.h>
#include <stdint.h>

#include <perfdata/errors.h>
#include <perfdata/event.h>
#include <perfdata/reader.h>
#include <perfdata/session.h>
#include <perfdata/symbols.h>
#include <perfdata/trace.h>
#include <perfdata/unwind.h>

/* Python 3.10's, for 3.9 (Debian 11) */
#if PY_VERSION_HEX < 0x030A0000
static inline PyObject *Py_NewRef(PyObject *o)
{
	Py_INCREF(o);
	return o;
}

static inline PyObject *Py_XNewRef(PyObject *o)
{
	Py_XINCREF(o);
	return o;
}
#endif

/* errors.c: the exceptions, and the library's messages */
extern PyObject *pdpy_Error;
extern PyObject *pdpy_TruncatedError;
extern PyObject *pdpy_Warning;

int pdpy_errors_init(PyObject *module);
/*
 * Raises for a library error code err (negative): OSError for an errno,
 * perfdata.Error (TruncatedError) for a format error, with msg (which
 * names the input and the offset) as its text. Returns NULL.
 */
PyObject *pdpy_raise(int err, const char *msg, const char *name);

/*
 * The library's messages, kept until Python can take them: the library
 * calls back from inside its own calls, where a Python warning could not
 * be raised (a warning filter may turn it into an exception).
 */
struct pdpy_log {
	char **msgs;
	enum pd_log_level *levels;
	size_t nr, cap;
	/* the last warning that said the input was truncated, for the
	 * exception raised at its end */
	char *truncated;
	bool failed;		/* a message was lost (no memory) */
};

void pdpy_log_cb(enum pd_log_level level, const char *msg, void *ctx);
/* Every message kept, as perfdata.PerfDataWarning (warnings) and to
 * the "perfdata" logger (the rest); -1 when a warning raised. */
int pdpy_log_flush(struct pdpy_log *l);
void pdpy_log_free(struct pdpy_log *l);

/* source.c: what open() reads */
struct pdpy_source {
	char *path;		/* reopened for each pass; NULL: fd, once */
	int fd;			/* owned, or -1 */
	char *name;		/* in messages */
	bool used;		/* a stream whose one pass has begun */
};

int pdpy_source_init(struct pdpy_source *src, PyObject *obj);
void pdpy_source_free(struct pdpy_source *src);
/* A reader of the source from its start (NULL: exception set). */
struct pd_reader *pdpy_source_open(struct pdpy_source *src,
				   struct pd_reader_opts *opts);

/* What open() was asked for, for every pass. */
enum pdpy_inline {
	PDPY_INLINE_PERF,	/* as perf script: DWARF callchains only */
	PDPY_INLINE_ALL,	/* every user frame (addr2line -i) */
	PDPY_INLINE_NONE,	/* none (perf script --no-inline) */
};

struct pdpy_opts {
	char *symfs, *kallsyms, *vmlinux;
	char **roots;		/* NULL-terminated, or NULL */
	bool no_debuginfod;
	enum pdpy_inline inline_mode;
};

/* file.c: perfdata.PerfData, what open() returns */
typedef struct {
	PyObject_HEAD
	struct pdpy_source src;
	struct pdpy_opts opts;
	struct pdpy_log log;
	struct pd_reader *r0;	/* open()'s reader, for the first pass */
	PyObject *header, *features, *events;
	PyObject *event_names;	/* str by evsel index */
	bool closed;
} PerfDataObject;

extern PyTypeObject pdpy_PerfDataType;
PyObject *pdpy_open(PyObject *self, PyObject *args, PyObject *kw);
int pdpy_file_check_open(PerfDataObject *f);
/*
 * root=: None, a directory or several (pd-fold's --root, repeated), as
 * a NULL-terminated list the caller frees with pdpy_roots_free(); *out
 * NULL for None. 0, or -1 with an exception (NotADirectoryError).
 */
int pdpy_roots(PyObject *o, char ***out);
void pdpy_roots_free(char **roots);

/* describe.c: the header, features and attrs as Python values */
/* a tuple of ints of n values (NULL and an exception when out of memory) */
PyObject *pdpy_u64_tuple(const uint64_t *v, uint64_t n);
PyObject *pdpy_header_dict(const struct pd_reader *r);
PyObject *pdpy_features_dict(const struct pd_reader *r);
PyObject *pdpy_attr_dict(const struct pd_attr *a);
PyObject *pdpy_events_tuple(const struct pd_reader *r, PyObject **names);
PyObject *pdpy_build_id_str(const uint8_t *id, size_t size);

/* strings.c: C strings of a pass as str objects, each made once */
struct pdpy_strs {
	uintptr_t *keys;
	PyObject **vals;
	size_t nr, cap;
};

/* Borrowed str for s (a string that lives as long as the pass), or
 * NULL with an exception. */
PyObject *pdpy_str(struct pdpy_strs *c, const char *s);
void pdpy_strs_free(struct pdpy_strs *c);
/* A new str from bytes that may not be UTF-8 (surrogateescape). */
PyObject *pdpy_decode(const char *s, size_t len);

/* pass.c: one reading of the records */
#define PDPY_MAX_STACK	127
#define PDPY_MAX_FRAMES	(PDPY_MAX_STACK * 16)
#define PDPY_MAX_DELIVERIES	64

/* A frame as a Sample keeps it until Python asks for it. */
enum pdpy_kind { PDPY_USER, PDPY_KERNEL, PDPY_JIT };

struct pdpy_frame {
	uint64_t ip;		/* as sampled */
	uint64_t addr;		/* in the DSO (map-relative), as perf prints */
	uint64_t sym_start;	/* of the symbol addr falls in */
	const char *sym;	/* NULL: none */
	const char *dso;
	uint8_t kind;		/* enum pdpy_kind */
	bool inlined;
};

/* One sample as perf delivers it (one per value of a READ group). */
struct pdpy_delivery {
	const struct pd_event *ev;
	struct pd_thread *t;
	const struct pd_evsel *evsel;
	uint64_t id, period;
};

struct pdpy_pass {
	PerfDataObject *file;	/* strong reference */
	struct pd_reader *r;
	struct pd_symbolizer *sym;
	struct pd_session *s;
	struct pd_unwinder *u;
	struct pd_read_periods *reads;
	struct pdpy_strs strs;
	bool done;
	/* the sample being delivered */
	const struct pd_event *ev;
	struct pd_thread *t;
	struct pd_read_delivery dl[PDPY_MAX_DELIVERIES];
	int ndl, idl;
	struct pd_frame *frames;	/* PDPY_MAX_FRAMES */
	struct pdpy_frame *out;		/* the frames as kept */
	/*
	 * A sample perf shows without frames (its callchain unusable):
	 * its address's own frame, for its symbol, as perf script -F sym
	 * and perf report name it
	 */
	struct pdpy_frame alone;
	bool has_alone;
	enum pdpy_inline inline_mode;
	const char *last_dso;		/* the last frame's, and whether */
	bool last_jit;			/* it is JIT code */
};

enum pdpy_pass_kind {
	PDPY_PASS_RECORDS,	/* the records alone, in file order */
	PDPY_PASS_RECORDS_TIME,	/* the same in time order */
	PDPY_PASS_SAMPLES,	/* time order, a session, frames */
};

/* 0, or -1 with an exception set. */
/* mode: the file's inline=, or fold()'s */
int pdpy_pass_open(struct pdpy_pass *p, PerfDataObject *f,
		   enum pdpy_pass_kind kind, enum pdpy_inline mode);
void pdpy_pass_close(struct pdpy_pass *p);
/* Next record: 1, 0 at the end, -1 with an exception (a truncated
 * input ends with TruncatedError). */
int pdpy_pass_next(struct pdpy_pass *p, const struct pd_event **ev);
/* Next sample delivery: 1, 0, -1 as above; non-samples go to the
 * session. */
int pdpy_pass_next_sample(struct pdpy_pass *p, struct pdpy_delivery *d);
/* The error ending a pass, raised: the reader's, or a truncation. */
int pdpy_pass_raise_end(struct pdpy_pass *p, int err);
/*
 * The frames of d's sample, leaf first, into p->out: their number, or -1
 * with an exception; 0 when perf shows it without a callchain, and
 * then p->alone is its address's frame.
 */
int pdpy_pass_frames(struct pdpy_pass *p, const struct pdpy_delivery *d);
/* The period perf shows for a delivery (the attr's without PERIOD). */
uint64_t pdpy_period(const struct pdpy_delivery *d);
/* The sample's event name, borrowed. */
PyObject *pdpy_event_name(struct pdpy_pass *p, const struct pd_evsel *e);
/*
 * The sample's own frame among n: the first that is not an inlined
 * function's (perf's symbol for the sample's ip); alone (NULL: none)
 * when n is 0.
 */
const struct pdpy_frame *pdpy_leaf(const struct pdpy_frame *f, int n,
				   const struct pdpy_frame *alone);
/* A frame's symbol or "[unknown]", borrowed. */
PyObject *pdpy_frame_name(struct pdpy_pass *p, const struct pdpy_frame *f);

/* frame.c: perfdata.Frame */
extern PyTypeObject pdpy_FrameType;
PyObject *pdpy_frame_new(struct pdpy_pass *p, const struct pdpy_frame *f);

/* samples.c: perfdata.Sample and samples() */
extern PyTypeObject pdpy_SampleType;
extern PyTypeObject pdpy_SampleIterType;
PyObject *pdpy_samples(PerfDataObject *f, PyObject *unused);

/* records.c: perfdata.Record and records() */
extern PyTypeObject pdpy_RecordType;
extern PyTypeObject pdpy_RecordIterType;
extern PyTypeObject pdpy_EventType;
PyObject *pdpy_records(PerfDataObject *f, PyObject *args, PyObject *kw);
/* A namespace object of type t holding the items of dict d (stolen). */
PyObject *pdpy_namespace(PyTypeObject *t, PyObject *d);

/* tracefields.c: a tracepoint sample's fields by its format */
PyObject *pdpy_trace_fields(const struct pd_reader *r, uint64_t config,
			    const void *raw, size_t size);

/* columns.c: to_pandas(), to_arrow() */
PyObject *pdpy_to_pandas(PerfDataObject *f, PyObject *unused);
PyObject *pdpy_to_arrow(PerfDataObject *f, PyObject *unused);

/* fold.c: fold() */
PyObject *pdpy_fold_method(PerfDataObject *f, PyObject *args, PyObject *kw);
PyObject *pdpy_fold(PyObject *self, PyObject *args, PyObject *kw);

/* convert.c: convert() and shims() */
PyObject *pdpy_convert(PyObject *self, PyObject *args, PyObject *kw);
PyObject *pdpy_shims(PyObject *self, PyObject *unused);

#endif /* PDPY_H */
