/* SPDX-License-Identifier: MIT */
/*
 * pd-fold's second thread: the samples the session has resolved go, in
 * the order they come, to a thread that folds them (formats each frame's
 * line, parses it, memoizes, adds up the stacks), while the first reads,
 * orders, decodes and resolves the next ones. perf script | stackcollapse
 * runs on two CPUs the same way. The folder and the parser belong to the
 * folding thread from fold_ahead__new() to fold_ahead__finish(); they see
 * the same calls in the same order as without it, so the output is the
 * same whatever the threads' timing.
 */
#ifndef PD_TOOLS_FOLD_AHEAD_H
#define PD_TOOLS_FOLD_AHEAD_H

#include <stdbool.h>
#include <stddef.h>

#include <perfdata/session.h>

#include "fold.h"
#include "fold-script.h"

struct fold_ahead;

/*
 * Whether a second thread is worth starting here: when the caller finds
 * it apt, 2 CPUs or more and a load average that leaves one free;
 * $PD_FOLD_THREADS=1 or 2 decides instead.
 */
bool fold_ahead__wanted(bool apt);

/* The folding thread, started; NULL (errno set) if it could not be. */
struct fold_ahead *fold_ahead__new(struct folder *f,
				   struct fold_script_parser *p);

/*
 * A sample: its header as fields (smp's strings must live as long as the
 * session: interned comms, event names) or as a perf script header line,
 * then its frames (their symbols, names and DSO names the session's, which
 * outlive the thread). 0 or -ENOMEM.
 */
int fold_ahead__header_fields(struct fold_ahead *a,
			      const struct fold_sample *smp);
int fold_ahead__header_text(struct fold_ahead *a, const char *line,
			    size_t len);
int fold_ahead__frames(struct fold_ahead *a, const struct pd_frame *frames,
		       int n);

/*
 * A sample whole, in one piece: its header's fields (smp, as above), or
 * NULL when its header line went before, then its frames (as above).
 */
int fold_ahead__sample(struct fold_ahead *a, const struct fold_sample *smp,
		       const struct pd_frame *frames, int n);

/* Everything sent folded, the thread ended: the folder is the caller's
 * again. Then frees a. NULL is ignored. */
void fold_ahead__finish(struct fold_ahead *a);

#endif /* PD_TOOLS_FOLD_AHEAD_H */
