/* SPDX-License-Identifier: MIT */
/*
 * The folder: turns samples (a header and frames, leaf first, as
 * `perf script` prints them) into folded stacks ("a;b;c COUNT"), with
 * stackcollapse-perf.pl's per-frame rules (offset stripping, [unknown]
 * fallbacks, tidying, _[k]/_[j]/_[i] annotations) and pd-fold's own
 * filters, then prints them sorted bytewise as Perl's sort does.
 *
 * Both pd-fold inputs feed it: perf script text (fold-script.c) and
 * perf.data decoded by libperfdata (fold-data.c). So the two give the
 * same output for the same samples by construction.
 */
#ifndef PD_TOOLS_FOLD_H
#define PD_TOOLS_FOLD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common/sample-select.h"

struct fold_inline;

enum fold_weight {
	FOLD_WEIGHT_DEFAULT,	/* stackcollapse-perf.pl: period when shown, else 1 */
	FOLD_WEIGHT_SAMPLES,	/* 1 per sample */
	FOLD_WEIGHT_PERIOD,	/* the period (1 when there is none) */
};

enum fold_capture {
	FOLD_CAPTURE_BOTH,
	FOLD_CAPTURE_USER,
	FOLD_CAPTURE_KERNEL,
};

struct fold_opts {
	bool pid, tid;			/* --pid, --tid: comm-PID[/TID] */
	bool annotate_kernel;		/* --kernel (and --all) */
	bool annotate_jit;		/* --jit (and --all) */
	bool addrs;			/* --addrs */
	bool inline_frames;		/* --inline */
	bool context;			/* --context (with --inline) */
	enum fold_weight weight;
	enum fold_capture capture;
	/*
	 * Selections; NULL/0 = all. sel.event_filter NULL: the first
	 * event seen, as stackcollapse-perf.pl does.
	 */
	struct sample_select_opts sel;
	const char *filter_allow;	/* --filter=allow:FILE */
	const char *filter_deny;	/* --filter=deny:FILE */
	bool filter_mark;		/* --filter-mark */
	bool chronological;		/* --chronological: input order, runs merged */
	/* --inline resolver for frames that carry a DSO path; may be NULL */
	struct fold_inline *inliner;
	/*
	 * Where each sample's stack goes instead of the folder's table
	 * (pd-fold --symbolize: to be added up with bounded memory); NULL:
	 * the table. Returns 0 or -errno (printed).
	 */
	int (*sink)(void *ctx, const char *key, size_t len, uint64_t count);
	void *sink_ctx;
};

/* One sample's header, as far as the input shows it. */
struct fold_sample {
	const char *comm;
	int pid;		/* -1: not shown (stackcollapse prints "?") */
	int tid;
	/* the ids as the text input shows them ("007"), NULL: pid/tid */
	const char *pid_text, *tid_text;
	size_t pid_text_len, tid_text_len;
	bool has_period;
	uint64_t period;
	const char *event;	/* NULL: not shown */
	int cpu;		/* -1: not shown */
	bool has_time;
	uint64_t time_ns;
	/*
	 * comm is a string that never changes while the folder runs (the
	 * session's): the folder may know it by its address.
	 */
	bool comm_fixed;
};

struct folder;

/* NULL with errno set on failure (e.g. an unreadable filter file; the
 * message has been printed). */
struct folder *folder__new(const struct fold_opts *opts);
void folder__free(struct folder *f);

/*
 * Start a sample. Returns true when it is kept (event, comm, cpu and time
 * selections), false when its frames are to be ignored. As in
 * stackcollapse-perf.pl, only folder__end() closes a sample: a kept begin
 * while one is open renames it (its frames so far stay), and a rejected
 * begin changes nothing at all (the script skips such a header line).
 * A selection on a field the sample does not show (cpu -1, no time)
 * keeps the sample, with one warning.
 */
bool folder__begin(struct folder *f, const struct fold_sample *s);

/*
 * One frame, leaf first: pc as printed (hex without 0x), the symbol as
 * printed ("name+0x1f", "[unknown]", "a->b" for inlined chains) and the
 * module as printed inside the parentheses ("/usr/bin/x",
 * "[kernel.kallsyms]", "[unknown]").
 */
void folder__frame(struct folder *f, const char *pc, const char *sym,
		   const char *mod);

/*
 * Frames folded once per key: a caller that knows two frames print alike
 * (the same symbol and module objects, pointers stable for the run) asks
 * folder__replay() first; it pushes what the key's frame folded to
 * before and returns true, or returns false when there is nothing to
 * replay. The caller then folds the frame's text as usual between
 * folder__record_begin() and folder__record_end(), which keep the result
 * under the key unless it depended on the frame's address (--inline,
 * --addrs on unknown symbols) or on the frames around it (--filter-mark).
 */
bool folder__replay(struct folder *f, const void *a, const void *b,
		    const void *c);
void folder__record_begin(struct folder *f, const void *a, const void *b,
			  const void *c);
void folder__record_end(struct folder *f);

/*
 * Whether f may fold on another thread than the one reading the input
 * (fold-ahead.h): not with --inline, whose resolver reads DSOs as the
 * session does.
 */
bool folder__may_run_apart(const struct folder *f);

/* End the sample (the blank line after a callchain). */
void folder__end(struct folder *f);

/* What a folded frame is known to be, for --capture. */
enum fold_frame_side {
	FOLD_FRAME_ANY,		/* a frame of a folded stack: unknown */
	FOLD_FRAME_USER,	/* a raw user frame */
	FOLD_FRAME_KERNEL,	/* a raw kernel frame */
};

/*
 * One frame already folded (a frame of a folded stack, or a raw frame of
 * pd-fold --raw): taken as it is, as the next frame of the sample. Only
 * --capture=kernel leaves a user frame out, --capture=user a kernel one.
 */
void folder__folded_frame(struct folder *f, const char *name, size_t len,
			  enum fold_frame_side side);

/*
 * The next input of several (pd-fold A.data B.data): without
 * --event-filter, its first event is the one folded in it, as folding
 * each file alone would choose; the stacks add up with the others'.
 */
void folder__next_input(struct folder *f);

/*
 * The event being folded (NULL: none seen yet) and the number of samples
 * of other events left out, so that a caller comparing two inputs (pd-diff)
 * can refuse to mix events.
 */
const char *folder__event(const struct folder *f, uint64_t *nr_other);

/* Print every stack, sorted bytewise (--chronological: in the order
 * they came, consecutive equal stacks merged; with a sink: nothing, the
 * stacks went there). 0 or -errno (-ENOMEM: some stack was lost). */
int folder__write(struct folder *f, FILE *out);

#endif /* PD_TOOLS_FOLD_H */
