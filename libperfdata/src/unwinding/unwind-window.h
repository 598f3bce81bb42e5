/* SPDX-License-Identifier: MIT */
/*
 * The samples after the one being rewritten (unwind-window.c): for
 * stitching from later chains, a second reading of the input unwinds
 * every sample a bounded number of samples ahead of the rewriter, which
 * takes its chains from there.
 */
#ifndef PD_UNWIND_WINDOW_H
#define PD_UNWIND_WINDOW_H

#include <stdbool.h>
#include <stdint.h>

#include <perfdata/reader.h>
#include <perfdata/unwind.h>

#include "unwind-stitch.h"

struct pd__uw_window;

/* A sample's unwound user stack, as the rewriter counts and writes it. */
struct pd__uw_got {
	int nr, stop;		/* entries, enum pd_unwind_stop */
	const char *dso;	/* the file a NO_ELF stop needed */
	const uint64_t *ips;	/* callchain entries (unwind-unit.c) */
	const uint64_t *sps;	/* each one's stack pointer, 0: not known */
	const bool *act;	/* ... and whether it is an exact pc */
};

/*
 * The window over r's input (a regular file at o->path, read in time
 * order), its helpers as o->jobs asks; NULL when the input cannot be
 * read again (a pipe) or without memory.
 */
struct pd__uw_window *pd__uw_window_start(const struct pd_reader *r,
					  const struct pd_unwind_rewrite_opts *o);
void pd__uw_window_stop(struct pd__uw_window *w);
/* helper threads unwinding for it */
unsigned int pd__uw_window_helpers(const struct pd__uw_window *w);

/*
 * The user stack of sample ev (one the rewriter rewrites, in its order)
 * into *got, valid until the next call, the samples after it read; false
 * when the window has none for it (the rewriter unwinds it itself).
 */
bool pd__uw_window_sample(struct pd__uw_window *w, const struct pd_event *ev,
			  struct pd__uw_got *got);

/*
 * One step of stitching chain c of the last sample given, of thread
 * pid/tid, from the first later chain of the thread in the window with
 * its last frame; none across the thread's end, an exec, or a map of the
 * process over the frames it would take. 1: a step taken, 0: none.
 */
int pd__uw_window_stitch(struct pd__uw_window *w, int32_t pid, int32_t tid,
			 struct pd__uw_chain *c);

/*
 * Chain c of the last sample given (w may be NULL: earlier chains only)
 * stitched from the thread's earlier chains in st, else from its later
 * ones in w, step after step: the number of steps taken (0: as it was).
 */
int pd__uw_window_stitch_all(struct pd__uw_stitch *st, struct pd__uw_window *w,
			     int32_t pid, int32_t tid, struct pd__uw_chain *c);

#endif /* PD_UNWIND_WINDOW_H */
