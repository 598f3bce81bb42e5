/* SPDX-License-Identifier: MIT */
/*
 * DWARF unwinding of user stacks: samples recorded with `perf record
 * --call-graph dwarf` carry the user registers (REGS_USER) and a copy of
 * the top of the user stack (STACK_USER) instead of a user callchain;
 * the unwinder walks that copy with the binaries' call frame information
 * (libdw), the way perf script does, and gives the frames perf prints:
 * the kernel part of the callchain, then the unwound user frames with
 * their inlined frames.
 *
 * Whose rules: perf 6.1 as Debian builds it unwinds with libunwind
 * (util/unwind-libunwind-local.c); this unwinder uses libdw but keeps
 * libunwind's observable rules (which memory it reads, where it stops,
 * which addresses it decrements). Only x86_64 64-bit processes are
 * unwound; other architectures and 32-bit processes get the kernel part
 * only, with one warning.
 *
 * Ownership: the unwinder borrows the session (which must outlive it)
 * and owns its caches; frames it returns point into the session and its
 * symbolizer, valid until those are freed.
 */
#ifndef PERFDATA_UNWIND_H
#define PERFDATA_UNWIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <perfdata/errors.h>
#include <perfdata/event.h>
#include <perfdata/reader.h>
#include <perfdata/session.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pd_unwind_opts {
	size_t sz;
	/*
	 * Entries taken from the callchain, and entries unwound, each at
	 * most (perf script's --max-stack; 0: 127, the default of
	 * kernel.perf_event_max_stack).
	 */
	int max_stack;
	bool no_inline;		/* perf script --no-inline */
	/* address spaces (processes) kept ready to unwind; 0: 16 */
	unsigned int max_cached;
	pd_log_fn log;		/* warnings, each kind once */
	void *log_ctx;
};

struct pd_unwinder;

/*
 * r: the reader of the file (its ARCH feature says whose registers the
 * samples hold; the host's when absent, as perf assumes); may be NULL.
 * NULL with errno set on failure.
 */
struct pd_unwinder *pd_unwinder__new(struct pd_session *s,
				     const struct pd_reader *r,
				     const struct pd_unwind_opts *opts);
void pd_unwinder__free(struct pd_unwinder *u);

/* Whether perf unwinds the sample's user stack (REGS_USER, STACK_USER). */
bool pd_unwinder__wants(const struct pd_event *ev);

/* One unwound user frame. */
struct pd_unwind_ip {
	uint64_t pc;		/* as unwound: a return address for callers */
	/*
	 * pc is the exact instruction (the sampled one, or the one a
	 * signal interrupted, the frame after a signal trampoline);
	 * otherwise perf looks up and prints pc - 1, the call instruction.
	 */
	bool activation;
};

/*
 * The user stack of sample ev of thread t, innermost first: the sampled
 * ip, then each caller; at most max (further capped by opts.max_stack).
 * Returns the number of frames, 0 when the sample has nothing perf
 * unwinds (no registers, an empty stack copy, an architecture or ABI not
 * supported), -ENODATA when perf gives up on the whole callchain
 * (registers without the ip or stack pointer: perf script then prints the
 * sample without one), or -errno.
 */
int pd_unwinder__user_stack(struct pd_unwinder *u, struct pd_thread *t,
			    const struct pd_event *ev,
			    struct pd_unwind_ip *ips, int max);

/*
 * The frames of a sample as perf script lists them: those of
 * pd_session__sample_frames(), followed, for samples with REGS_USER and
 * STACK_USER, by the unwound user frames, each preceded by its inlined
 * frames (pd_frame.inline_name) unless opts.no_inline. At most max
 * frames. Returns their number, -ENODATA as above (print the
 * sample without a callchain) or -errno.
 */
int pd_unwinder__sample_frames(struct pd_unwinder *u, struct pd_thread *t,
			       const struct pd_event *ev,
			       struct pd_frame *frames, int max);

#ifdef __cplusplus
}
#endif
#endif /* PERFDATA_UNWIND_H */
