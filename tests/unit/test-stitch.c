// SPDX-License-Identifier: MIT
/*
 * Stitching (unwind-stitch.c) on made-up chains: a cut chain is completed
 * from an earlier chain of its thread with a frame at the same stack
 * pointer with the same pc, and from nothing else: not another thread's,
 * not across an exec, an EXIT or a FORK of its tid, not across a map over
 * the frames it would take; a chain that did not end at the copy's end is
 * left alone; the result stays within max; the budget forgets the oldest.
 * Chains that have the frame but disagree beyond it (the same function at
 * the same depth under other callers) give nothing; a chain cut there too
 * gives what it has, ending as cut (deep's live recordings in t0220: the
 * 0 that ends it is the chain's end, not a frame), and the one reaching
 * farthest is taken.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <perfdata/format.h>
#include <perfdata/unwind.h>

#include "tap.h"
#include "unwinding/unwind-stitch.h"

#define MAXF	16

struct ch {
	uint64_t pcs[MAXF], sps[MAXF];
	struct pd__uw_chain c;
};

/* a chain of n frames: pcs and sps given, 0-terminated */
static struct pd__uw_chain *mk(struct ch *h, const uint64_t *pcs,
			       const uint64_t *sps, int stop, int max)
{
	int n;

	memset(h, 0, sizeof(*h));
	for (n = 0; pcs[n] || sps[n]; n++) {
		h->pcs[n] = pcs[n];
		h->sps[n] = sps[n];
	}
	h->c.pcs = h->pcs;
	h->c.sps = h->sps;
	h->c.n = n;
	h->c.max = max;
	h->c.stop = stop;
	return &h->c;
}

/* the full chain: leaf 100 at sp 10, callers 200@20, 300@30, 400@40 */
static const uint64_t full_pcs[] = { 100, 200, 300, 400, 0 };
static const uint64_t full_sps[] = { 10, 20, 30, 40, 0 };
/* a deeper sample cut: 150@5, 250@8, then 200@20 is its last frame */
static const uint64_t cut_pcs[] = { 150, 250, 200, 0 };
static const uint64_t cut_sps[] = { 5, 8, 20, 0 };

static int feed_full(struct pd__uw_stitch *st, int32_t pid, int32_t tid)
{
	struct ch h;

	return pd__uw_stitch_chain(st, pid, tid,
				   mk(&h, full_pcs, full_sps,
				      PD_UNWIND_STOP_ROOT, MAXF));
}

/* the cut chain of tid, stitched or not: its frames after stitching */
static int try_cut(struct pd__uw_stitch *st, int32_t pid, int32_t tid,
		   struct ch *h, int max)
{
	return pd__uw_stitch_chain(st, pid, tid,
				   mk(h, cut_pcs, cut_sps,
				      PD_UNWIND_STOP_STACK, max));
}

static void event(struct pd__uw_stitch *st, uint32_t type, uint16_t misc,
		  uint32_t pid, uint32_t tid, uint64_t start, uint64_t len)
{
	struct pd_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = type;
	ev.misc = misc;
	switch (type) {
	case PD_RECORD_COMM:
		ev.u.comm.pid = pid;
		ev.u.comm.tid = tid;
		break;
	case PD_RECORD_EXIT:
	case PD_RECORD_FORK:
		ev.u.fork.pid = pid;
		ev.u.fork.tid = tid;
		break;
	default:
		ev.u.mmap.pid = pid;
		ev.u.mmap.tid = tid;
		ev.u.mmap.start = start;
		ev.u.mmap.len = len;
		break;
	}
	pd__uw_stitch_event(st, &ev);
}

int main(void)
{
	static const uint64_t want[] = { 150, 250, 200, 300, 400 };
	static const uint64_t want_sps[] = { 5, 8, 20, 30, 40 };
	static const uint64_t other_pcs[] = { 150, 250, 201, 0 };
	static const uint64_t zero_pcs[] = { 150, 250, 200, 0, 0 };
	static const uint64_t zero_sps[] = { 5, 8, 20, 24, 0 };
	struct pd__uw_stitch *st = pd__uw_stitch_new(0);
	struct ch h;
	int ret;

	CHECK(st, "a stitcher");
	if (!st)
		return tap_done();

	ret = try_cut(st, 1, 1, &h, MAXF);
	CHECK(ret == 0 && h.c.n == 3, "nothing to stitch from: the chain as it was");
	CHECK(feed_full(st, 1, 1) == 0, "a full chain kept");
	ret = try_cut(st, 1, 1, &h, MAXF);
	CHECK(ret == 1 && h.c.n == 5 && !memcmp(h.pcs, want, sizeof(want)) &&
	      !memcmp(h.sps, want_sps, sizeof(want_sps)),
	      "the cut chain goes on with the full chain's callers");
	CHECK(h.c.stop == PD_UNWIND_STOP_ROOT, "... and ends as it does");

	ret = pd__uw_stitch_chain(st, 1, 1, mk(&h, other_pcs, cut_sps,
						PD_UNWIND_STOP_STACK, MAXF));
	CHECK(ret == 0 && h.c.n == 3, "the same stack pointer with another pc: not stitched");
	ret = pd__uw_stitch_chain(st, 1, 1, mk(&h, cut_pcs, cut_sps,
						PD_UNWIND_STOP_NO_CFI, MAXF));
	CHECK(ret == 0 && h.c.n == 3, "a chain that did not end at the copy's end: left alone");
	ret = pd__uw_stitch_chain(st, 1, 1, mk(&h, zero_pcs, zero_sps,
						PD_UNWIND_STOP_STACK, MAXF));
	CHECK(ret == 1 && h.c.n == 5 && !memcmp(h.pcs, want, sizeof(want)),
	      "a trailing zero frame is replaced");
	ret = try_cut(st, 1, 2, &h, MAXF);
	CHECK(ret == 0, "another thread's chains: not stitched");
	ret = try_cut(st, 1, 1, &h, 4);
	CHECK(ret == 1 && h.c.n == 4 && h.c.stop == PD_UNWIND_STOP_MAX,
	      "within max frames, ending as cut there");

	/* what ends a thread's chains */
	event(st, PD_RECORD_MMAP2, 0, 1, 1, 0x1000, 0x1000);
	CHECK(try_cut(st, 1, 1, &h, MAXF) == 1, "a map elsewhere: still stitched");
	event(st, PD_RECORD_MMAP2, 0, 2, 2, 0, 0x1000);
	CHECK(try_cut(st, 1, 1, &h, MAXF) == 1, "another process's map: still stitched");
	event(st, PD_RECORD_MMAP2, 0, 1, 1, 300, 1);
	CHECK(try_cut(st, 1, 1, &h, MAXF) == 0, "a map over a frame it would take: not stitched");

	feed_full(st, 1, 1);
	event(st, PD_RECORD_COMM, 0, 1, 1, 0, 0);
	CHECK(try_cut(st, 1, 1, &h, MAXF) == 1, "a COMM that is no exec: still stitched");
	event(st, PD_RECORD_COMM, PD_MISC_COMM_EXEC, 1, 1, 0, 0);
	CHECK(try_cut(st, 1, 1, &h, MAXF) == 0, "an exec: not stitched");

	feed_full(st, 1, 3);
	event(st, PD_RECORD_COMM, PD_MISC_COMM_EXEC, 1, 1, 0, 0);
	CHECK(try_cut(st, 1, 3, &h, MAXF) == 0, "an exec of another thread of the process: not stitched");

	feed_full(st, 1, 1);
	event(st, PD_RECORD_EXIT, 0, 1, 1, 0, 0);
	CHECK(try_cut(st, 1, 1, &h, MAXF) == 0, "after the thread's EXIT: not stitched");
	feed_full(st, 1, 1);
	event(st, PD_RECORD_FORK, 0, 1, 1, 0, 0);
	CHECK(try_cut(st, 1, 1, &h, MAXF) == 0, "a FORK making its tid anew: not stitched");
	feed_full(st, 1, 1);
	CHECK(try_cut(st, 5, 1, &h, MAXF) == 0, "its tid in another process: not stitched");
	pd__uw_stitch_free(st);

	/*
	 * The same function at the same depth under another caller: 200@20
	 * called from 301@30 instead of 300@30. Both kept, the cut chain's
	 * last frame 200@20 matches both: nothing taken.
	 */
	st = pd__uw_stitch_new(0);
	CHECK(st, "a stitcher");
	if (!st)
		return tap_done();
	{
		static const uint64_t b_pcs[] = { 110, 200, 301, 400, 0 };
		static const uint64_t c_pcs[] = { 120, 200, 300, 0, 0 };
		static const uint64_t c_sps[] = { 12, 20, 30, 36, 0 };
		static const uint64_t z_pcs[] = { 120, 200, 0, 0 };
		static const uint64_t z_sps[] = { 12, 20, 26, 0 };
		static const uint64_t part[] = { 150, 250, 200, 300, 0 };
		static const uint64_t part_sps[] = { 5, 8, 20, 30, 36 };
		static const uint64_t s_sps[] = { 10, 20, 31, 40, 0 };

		feed_full(st, 1, 4);
		pd__uw_stitch_chain(st, 1, 4, mk(&h, b_pcs, full_sps,
						 PD_UNWIND_STOP_ROOT, MAXF));
		ret = try_cut(st, 1, 4, &h, MAXF);
		CHECK(ret == 0 && h.c.n == 3 && h.c.stop == PD_UNWIND_STOP_STACK,
		      "chains with the frame under other callers: not stitched");
		/* the same pcs, a caller at another stack address */
		feed_full(st, 1, 7);
		pd__uw_stitch_chain(st, 1, 7, mk(&h, full_pcs, s_sps,
						 PD_UNWIND_STOP_ROOT, MAXF));
		ret = try_cut(st, 1, 7, &h, MAXF);
		CHECK(ret == 0 && h.c.n == 3,
		      "... or with a caller at another stack pointer: not stitched");

		/* deep's case: the only chain with the frame was cut too */
		pd__uw_stitch_chain(st, 1, 5, mk(&h, c_pcs, c_sps,
						 PD_UNWIND_STOP_STACK, MAXF));
		ret = try_cut(st, 1, 5, &h, MAXF);
		CHECK(ret == 1 && h.c.n == 5 && !memcmp(h.pcs, part, sizeof(part)) &&
		      !memcmp(h.sps, part_sps, sizeof(part_sps)) &&
		      h.c.stop == PD_UNWIND_STOP_STACK,
		      "from a chain cut too: its frames, then its end (0), cut still");
		/* a whole chain after it: it agrees as far as the cut one goes */
		feed_full(st, 1, 5);
		ret = try_cut(st, 1, 5, &h, MAXF);
		CHECK(ret == 1 && h.c.n == 5 && !memcmp(h.pcs, want, sizeof(want)) &&
		      h.c.stop == PD_UNWIND_STOP_ROOT,
		      "a whole chain and a cut one agreeing: whole");
		/* the whole one older, a cut one newer: the whole one taken */
		feed_full(st, 1, 6);
		pd__uw_stitch_chain(st, 1, 6, mk(&h, c_pcs, c_sps,
						 PD_UNWIND_STOP_STACK, MAXF));
		ret = try_cut(st, 1, 6, &h, MAXF);
		CHECK(ret == 1 && h.c.n == 5 && !memcmp(h.pcs, want, sizeof(want)) &&
		      h.c.stop == PD_UNWIND_STOP_ROOT,
		      "the chain reaching farthest is taken, not the nearest");

		/* nothing beyond the frame but a cut chain's end */
		pd__uw_stitch_chain(st, 1, 8, mk(&h, z_pcs, z_sps,
						 PD_UNWIND_STOP_STACK, MAXF));
		ret = try_cut(st, 1, 8, &h, MAXF);
		CHECK(ret == 0 && h.c.n == 3,
		      "a chain with only the 0 of its end beyond the frame: nothing taken");
	}
	pd__uw_stitch_free(st);

	/* the window's later chains are counted the same way */
	{
		static const uint64_t b_pcs[] = { 110, 200, 301, 400 };
		static const uint64_t c_pcs[] = { 120, 200, 300, 0 };
		static const bool no_act[4];
		struct pd__uw_frames a = {
			.pcs = full_pcs, .sps = full_sps, .n = 4,
			.stop = PD_UNWIND_STOP_ROOT,
		};
		struct pd__uw_frames b = a, c = a;
		struct pd__uw_cands cs;

		b.pcs = b_pcs;
		c.pcs = c_pcs;
		c.act = no_act;
		c.stop = PD_UNWIND_STOP_STACK;
		CHECK(pd__uw_stitch_agree(&a, 1, &c, 1), "a cut chain agrees as far as it goes");
		CHECK(!pd__uw_stitch_agree(&a, 1, &b, 1), "other callers: no agreement");
		memset(&cs, 0, sizeof(cs));
		pd__uw_stitch_consider(&cs, &c, 1);
		pd__uw_stitch_consider(&cs, &a, 1);
		CHECK(!cs.ambiguous && cs.beyond == 2 && cs.ref.pcs == full_pcs,
		      "of two that agree, the one reaching farthest");
		pd__uw_stitch_consider(&cs, &b, 1);
		mk(&h, cut_pcs, cut_sps, PD_UNWIND_STOP_STACK, MAXF);
		CHECK(cs.ambiguous && !pd__uw_stitch_apply(&h.c, 2, &cs) && h.c.n == 3,
		      "a third that disagrees: nothing applied");
	}

	/* a budget of one chain: the older ones go */
	st = pd__uw_stitch_new(1);
	CHECK(st, "a stitcher with a budget of one byte");
	if (st) {
		static const uint64_t p2[] = { 7, 8, 0 }, s2[] = { 70, 80, 0 };

		feed_full(st, 1, 1);
		CHECK(try_cut(st, 1, 1, &h, MAXF) == 1, "the newest chain is kept whatever the budget");
		pd__uw_stitch_chain(st, 1, 9, mk(&h, p2, s2, PD_UNWIND_STOP_ROOT, MAXF));
		CHECK(try_cut(st, 1, 1, &h, MAXF) == 0, "... and an older one goes");
		pd__uw_stitch_free(st);
	}
	return tap_done();
}
