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
 * This file holds the public entry points: the unwinder of unwind-core.c
 * and, when pd_unwind_opts.jobs asks for one, a helper thread unwinding
 * ahead (unwind-ahead.c) with an unwinder of its own, so both are below
 * them. Below those, from the bottom: what is read of the mapped files
 * themselves (unwind-elf.c), the files reported to a process's Dwfl
 * (unwind-space.c), libdwfl's callbacks (unwind-dwfl.c), what a frame's
 * pc looks up (unwind-tables.c) and the steps of a chain
 * (unwind-step.c). The frames given to the caller are above all of them
 * (unwind-frames.c).
 */
#include <string.h>

#include <perfdata/unwind.h>

#include "base/internal.h"
#include "session/session-internal.h"
#include "unwind-ahead.h"
#include "unwind-core.h"
#include "unwind-step.h"

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
	pd__uw_ahead_stop(u->ahead);
	pd__unwinder_free(u);
}

PD_EXPORT int pd_unwinder__user_stack(struct pd_unwinder *u,
				      struct pd_thread *t,
				      const struct pd_event *ev,
				      struct pd_unwind_ip *ips, int max)
{
	struct uw_start st;
	int ret = pd__unwinder_check(u, t, ev, max, &st);

	if (ret <= 0)
		return ret;
	if (!u->ahead_tried) {
		u->ahead_tried = true;
		u->ahead = pd__uw_ahead_start(u->s, u->r, &u->o);
	}
	if (u->ahead) {
		int n = from_helper(u, t, ev, ips, st.max);

		if (n > 0)
			return n;
	}
	return pd__unwinder_unwind(u, t, ev, &st, ips);
}
