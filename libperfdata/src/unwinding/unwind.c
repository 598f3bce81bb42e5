// SPDX-License-Identifier: MIT
/*
 * DWARF unwinding of REGS_USER + STACK_USER samples with libdw's unwinder
 * (libdwfl), keeping the rules of the unwinder Debian's perf 6.1 really
 * uses: libunwind (`perf version --build-options` lists both, but perf's
 * Makefile.config turns libdw unwinding off when libunwind is found, and
 * the binary imports no dwfl_getthread_frames). From perf's
 * util/unwind-libunwind-local.c, util/machine.c and util/evsel.c:
 * - the first frame is the sampled ip register itself (get_entries());
 *   each caller's pc is decremented unless unw_is_signal_frame() says
 *   yes, which it does for the frame a signal interrupted (its registers
 *   come from the signal context), not for the trampoline; that
 *   decremented address is the one looked up and printed; zero addresses are skipped; at most max_stack
 *   frames;
 * - stack memory is what perf copied: [sp, sp + dyn_size), except that a
 *   word ending exactly at the end is not read from it (access_mem()'s
 *   `addr + 8 >= end`); other addresses are read from the mapped file
 *   of the map that holds them (access_dso_mem()), or fail;
 * - a frame is stepped from only with the unwind tables of the file
 *   mapped at its (decremented) pc: .eh_frame_hdr or .debug_frame
 *   (find_proc_info()); a pc with no map, no file or neither table ends
 *   the chain after that frame;
 * - the tables are read where perf thinks the file is: its lowest map of
 *   the same DSO (path, device and inode), start less offset, less
 *   elf_base_address() (read_unwind_spec_eh_frame(), 6.1.91 and later);
 *   at a wrong base no entry is found and libunwind guesses the caller
 *   from the frame pointer, and a read of the tables outside every map
 *   fails the step (unwind-tables.c);
 * - a pc stepped from with tables before is stepped from again without
 *   a lookup: libunwind's cache per process (UNW_CACHE_GLOBAL, 128 pcs,
 *   emptied at exec; struct pd_rs_cache);
 * - after a guessed step only the frame and stack pointers and the pc
 *   are known: a frame whose CFA needs another register fails the step;
 * - a process gets an unwinder only with a map of a file perf reads as
 *   ELF, or the vdso (unwind__prepare_access()): without, no user frame
 *   at all;
 * - no registers (abi 0) or an empty stack copy: no user frames
 *   (thread__resolve_callchain_unwind()); registers without the ip or
 *   the stack pointer: the whole callchain is dropped (get_entries()
 *   and unw_init_remote() fail, perf script prints the sample alone).
 *
 * Every architecture with a register table is unwound on any host: the
 * recording machine's perf is the one to agree with (Debian's arm64 perf
 * 6.1 links libunwind-aarch64; perf on x86_64 says "unwind: target
 * platform=arm64 is not supported" and prints no user frames). Its
 * architecture's own rules are in unwind-arch.c and, for aarch64,
 * unwind-arm64.c: libunwind's link register fallback, the leaf caller
 * the arm64 perf adds to frame-pointer callchains, and return addresses
 * signed by pointer authentication, which are stripped (beyond perf 6.1,
 * whose chains end there).
 *
 * One Dwfl per address space (a process's maps), kept in a small LRU
 * cache; files are reported lazily as unwinding reaches them, and a
 * space whose reported files a later mmap overlaps is rebuilt. Where the
 * architecture allows (x86_64), a pass's steps are taken here by the CFI
 * rows libdw describes once per pc (unwind-row.c, pd__uw_run_pass()), as
 * libdw would take them; libdw goes on from the first frame whose row or
 * step is anything but plain.
 *
 * This file holds the public entry points: the unwinder of unwind-core.c,
 * the stitching of its chains when pd_unwind_opts.stitch asks for it
 * (unwind-stitch.c, in the caller's order) and, when
 * pd_unwind_opts.jobs asks for one, a helper thread unwinding
 * ahead (unwind-ahead.c) with an unwinder of its own, so both are below
 * them. Below those, from the bottom: what is read of the mapped files
 * themselves (unwind-elf.c), the files reported to a process's Dwfl
 * (unwind-space.c), libdwfl's callbacks (unwind-dwfl.c), what a frame's
 * pc looks up (unwind-tables.c) and the steps of a chain
 * (unwind-step.c). The frames given to the caller are above all of them
 * (unwind-frames.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <perfdata/unwind.h>

#include "base/internal.h"
#include "session/session-internal.h"
#include "unwind-ahead.h"
#include "unwind-core.h"
#include "symbols/sym-internal.h"
#include "unwind-step.h"
#include "unwind-stitch.h"
#include "unwind-unit.h"
#include "unwind-window.h"

/*
 * The frames of the helper's unwinding of ev, as ours would be; 0 when
 * it has none, or when libunwind's cache of t's process here would have
 * given another answer than the helper's (pd__unwinder_rs_replay()).
 */
static int from_helper(struct pd_unwinder *u, struct pd_thread *t,
		       const struct pd_event *ev, struct pd_unwind_ip *ips,
		       int max)
{
	struct pd__uw_ahead_res res;

	if (!pd__uw_ahead_take(u->ahead, ev, max, &res) || res.n <= 0 ||
	    res.n > max || !pd__unwinder_rs_replay(t, res.ops, res.nr_ops))
		return 0;
	if (res.warned_frame_reg)
		pd__uw_warn_frame_reg(u);
	memcpy(ips, res.ips, (size_t)res.n * sizeof(*ips));
	memcpy(u->sps, res.sps, (size_t)res.n * sizeof(*u->sps));
	u->last_stop = res.stop;
	u->last_dso = res.dso ? pd__session_intern(u->s, res.dso) : NULL;
	return res.n;
}

PD_EXPORT struct pd_unwinder *pd_unwinder__new(struct pd_session *s,
					       const struct pd_reader *r,
					       const struct pd_unwind_opts *opts)
{
	/* the helper, if opts ask for one, starts with the first stack */
	return pd__unwinder_new(s, r, opts);
}

PD_EXPORT void pd_unwinder__free(struct pd_unwinder *u)
{
	if (!u)
		return;
	pd__uw_window_stop(u->window);
	pd__uw_stitch_free(u->stitch);
	free(u->st_pcs);
	free(u->st_act);
	pd__uw_ahead_stop(u->ahead);
	pd__unwinder_free(u);
}

PD_EXPORT void pd_unwinder__event(struct pd_unwinder *u,
				  const struct pd_event *ev)
{
	if (u && u->stitch && ev->type != PD_RECORD_SAMPLE)
		pd__uw_stitch_event(u->stitch, ev);
}

/*
 * A frame as a callchain entry (unwind-unit.c), the form the chains of
 * the window have: what perf prints, a caller's return address less
 * one; 0 for what a callchain cannot carry.
 */
static uint64_t entry(const struct pd_unwind_ip *ip)
{
	uint64_t e = ip->activation ? ip->pc : ip->pc - 1;

	return e >= PD_CONTEXT_MAX ? 0 : e;
}

/*
 * The window over the input read again, for stitching from later
 * chains: as the session's symbolizer finds files, at most
 * PD_UW_MAX_STACK frames (a unit's results). NULL for a pipe.
 */
static struct pd__uw_window *window_start(struct pd_unwinder *u)
{
	const struct pd_symbolizer *ms = pd__session_symbolizer(u->s);
	struct pd_unwind_rewrite_opts o = {
		.sz = sizeof(o),
		.max_stack = u->o.max_stack < PD_UW_MAX_STACK ?
			     u->o.max_stack : PD_UW_MAX_STACK,
		.symfs = ms->symfs,
		.jobs = u->o.jobs,
		.path = u->o.path,
		.no_debuginfod = ms->opts.no_debuginfod,
		.roots = ms->opts.roots,
	};

	if (!u->r || !u->o.path || !strcmp(u->o.path, "-"))
		return NULL;
	return pd__uw_window_start(u->r, &o);
}

/*
 * The chain of n frames in ips of sample ev, at most max, stitched where
 * it was cut from the thread's earlier chains, else its later ones (the
 * window's: read ahead, but unwound here as ever): its frames then (n
 * or more), or -ENOMEM. The chains are kept as entries, as the
 * rewriter's are, so that a frame taken from the window is what
 * pd-unwind --stitch would write.
 */
static int stitch(struct pd_unwinder *u, const struct pd_event *ev,
		  struct pd_unwind_ip *ips, int n, int max)
{
	struct pd__uw_chain c = {
		.pcs = u->st_pcs, .sps = u->sps, .act = u->st_act,
		.n = n, .max = max, .stop = u->last_stop,
	};
	int32_t pid = (int32_t)ev->u.sample.pid, tid = (int32_t)ev->u.sample.tid;
	struct pd__uw_got got;
	int i, steps, err;

	for (i = 0; i < n; i++) {
		u->st_pcs[i] = entry(&ips[i]);
		u->st_act[i] = ips[i].activation;
	}
	if (!u->window_tried) {
		u->window_tried = true;
		u->window = window_start(u);
	}
	/* (the window moves on to ev: its chain is not used) */
	if (u->window && !pd__uw_window_sample(u->window, ev, &got)) {
		pd__uw_window_stop(u->window);
		u->window = NULL;
	}
	steps = pd__uw_window_stitch_all(u->stitch, u->window, pid, tid, &c);
	err = pd__uw_stitch_keep(u->stitch, pid, tid, &c);
	if (err)
		return err;
	if (!steps)
		return n;
	/* the frames stitched (those after the frame stitched at) back */
	for (i = 0; i < c.n; i++) {
		if (i < n && entry(&ips[i]) == u->st_pcs[i] &&
		    ips[i].activation == u->st_act[i])
			continue;
		ips[i].activation = u->st_act[i];
		ips[i].pc = u->st_act[i] || !u->st_pcs[i] ? u->st_pcs[i] :
			    u->st_pcs[i] + 1;
	}
	u->last_stop = c.stop;
	/* the file the original chain ended for is not where it ends */
	u->last_dso = NULL;
	return c.n;
}

static int stitch_ready(struct pd_unwinder *u)
{
	if (u->stitch)
		return 0;
	u->stitch = pd__uw_stitch_new(0);
	u->st_pcs = calloc(u->o.max_stack, sizeof(*u->st_pcs));
	u->st_act = calloc(u->o.max_stack, sizeof(*u->st_act));
	if (!u->stitch || !u->st_pcs || !u->st_act) {
		pd__uw_stitch_free(u->stitch);
		u->stitch = NULL;
		return -ENOMEM;
	}
	return 0;
}

PD_EXPORT int pd_unwinder__user_stack(struct pd_unwinder *u,
				      struct pd_thread *t,
				      const struct pd_event *ev,
				      struct pd_unwind_ip *ips, int max)
{
	struct uw_start st;
	int ret, n = 0;

	ret = pd__unwinder_check(u, t, ev, max, &st);
	if (ret <= 0)
		return ret;
	if (!u->ahead_tried) {
		u->ahead_tried = true;
		u->ahead = pd__uw_ahead_start(u->s, u->r, &u->o);
	}
	if (u->ahead)
		n = from_helper(u, t, ev, ips, st.max);
	if (n <= 0)
		n = pd__unwinder_unwind(u, t, ev, &st, ips);
	if (!u->o.stitch || n <= 0)
		return n;
	ret = stitch_ready(u);
	return ret ? ret : stitch(u, ev, ips, n, st.max);
}
