/* SPDX-License-Identifier: MIT */
/*
 * Stitching (unwind-stitch.c): a chain that ended because the stack copy
 * ended, completed from an earlier chain of the same thread that has its
 * last frame, at the same stack address with the same pc, when every
 * chain of the thread with that frame agrees on what lies beyond it.
 * Fed in the samples' order, with the records that end what a thread's
 * chains say (exec, EXIT, maps over their frames).
 */
#ifndef PD_UNWIND_STITCH_H
#define PD_UNWIND_STITCH_H

#include <stdbool.h>
#include <stdint.h>

#include <perfdata/event.h>

struct pd__uw_stitch;

/*
 * One chain, innermost first: each frame's pc (whatever the caller's
 * form, the same for every chain), its stack pointer (0: not known) and
 * whether it is an activation (act, NULL: none is); n frames of room
 * for max; stop, the enum pd_unwind_stop it ended with.
 */
struct pd__uw_chain {
	uint64_t *pcs;
	uint64_t *sps;
	bool *act;
	int n, max;
	int stop;
};

/* NULL without memory; max_bytes 0: the default budget of chains kept */
struct pd__uw_stitch *pd__uw_stitch_new(uint64_t max_bytes);
void pd__uw_stitch_free(struct pd__uw_stitch *st);

/* A record other than a sample, in order: what it ends is forgotten. */
void pd__uw_stitch_event(struct pd__uw_stitch *st, const struct pd_event *ev);

/*
 * Chain c of a sample of thread pid/tid, in order: completed where it
 * ended at the stack copy's end and an earlier chain of the thread has
 * its last frame (c's frames after it replaced, n and stop updated),
 * then kept for the samples after it. 1: stitched, 0: not, -ENOMEM.
 * The same as pd__uw_stitch_before(), then pd__uw_stitch_keep().
 */
int pd__uw_stitch_chain(struct pd__uw_stitch *st, int32_t pid, int32_t tid,
			struct pd__uw_chain *c);
/* c completed from the thread's earlier chains: 1 if it was, else 0 */
int pd__uw_stitch_before(struct pd__uw_stitch *st, int32_t pid, int32_t tid,
			 struct pd__uw_chain *c);
/* c kept as the thread's newest chain: 0 or -ENOMEM */
int pd__uw_stitch_keep(struct pd__uw_stitch *st, int32_t pid, int32_t tid,
		       const struct pd__uw_chain *c);

/*
 * One step, with any other chain (pcs, sps, act (NULL: none), n frames):
 * the frame of c to stitch at (-1: c did not end at the copy's end, or
 * its last frame is not known); the index of the frame of the other
 * chain that is c's frame k, with frames beyond it (-1: none); c's
 * frames after k replaced by those beyond j, the other chain ending
 * with stop.
 */
int pd__uw_stitch_at(const struct pd__uw_chain *c);
int pd__uw_stitch_find(const struct pd__uw_chain *c, int k,
		       const uint64_t *pcs, const uint64_t *sps,
		       const bool *act, int n);
void pd__uw_stitch_take(struct pd__uw_chain *c, int k, const uint64_t *pcs,
			const uint64_t *sps, const bool *act, int n, int j,
			int stop);

/* Another chain's frames (act NULL: none is an activation). */
struct pd__uw_frames {
	const uint64_t *pcs, *sps;
	const bool *act;
	int n, stop;
};

/*
 * The chains one step of stitching could take from, from every source
 * (the thread's earlier chains, the window's later ones): every chain of
 * the thread with c's frame k and a frame beyond it must agree with the
 * others on each frame beyond it (stack pointer, pc, activation) as far
 * as both go, or none is taken. ref: the one reaching farthest, its
 * frame j being c's frame k, with beyond frames after it (0: none yet).
 * Zeroed before the first.
 */
struct pd__uw_cands {
	struct pd__uw_frames ref;
	int j, beyond;
	bool ambiguous;		/* two of them disagree */
};

/* Whether a's frames after ja and b's after jb agree as far as both go. */
bool pd__uw_stitch_agree(const struct pd__uw_frames *a, int ja,
			 const struct pd__uw_frames *b, int jb);
/* chain f, whose frame j is c's frame k, counted in cs */
void pd__uw_stitch_consider(struct pd__uw_cands *cs,
			    const struct pd__uw_frames *f, int j);
/* the thread's earlier chains with c's frame k, counted in cs */
void pd__uw_stitch_gather(struct pd__uw_stitch *st, int32_t pid, int32_t tid,
			  const struct pd__uw_chain *c, int k,
			  struct pd__uw_cands *cs);
/* c's frames after k replaced by cs's ref's: false when none or ambiguous */
bool pd__uw_stitch_apply(struct pd__uw_chain *c, int k,
			 const struct pd__uw_cands *cs);

#endif /* PD_UNWIND_STITCH_H */
