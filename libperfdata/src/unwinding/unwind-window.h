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
 * The later chains of thread pid/tid in the window with c's frame k (c
 * of the last sample given), counted in cs: up to the thread's end or an
 * exec, and not those whose frames beyond it lie in a map of the process
 * made since (nor any after such a one).
 */
void pd__uw_window_gather(struct pd__uw_window *w, int32_t pid, int32_t tid,
			  const struct pd__uw_chain *c, int k,
			  struct pd__uw_cands *cs);

/*
 * Chain c of the last sample given (w may be NULL: earlier chains only)
 * stitched from the thread's chains that have its last frame, earlier
 * ones in st and later ones in w, when they all agree beyond it (the one
 * reaching farthest taken), step after step: the number of steps taken
 * (0: as it was).
 */
int pd__uw_window_stitch_all(struct pd__uw_stitch *st, struct pd__uw_window *w,
			     int32_t pid, int32_t tid, struct pd__uw_chain *c);

#endif /* PD_UNWIND_WINDOW_H */
