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
 * which addresses it decrements). Every architecture with a register
 * table (x86_64, its i386 processes, aarch64) is unwound on any host, as
 * the recording machine's perf unwinds it; others get the kernel part
 * only, with one warning. For arm64 recordings, frame-pointer
 * callchains get the leaf function's caller from the sampled link
 * register, as the arm64 perf inserts it, and return addresses signed by
 * pointer authentication are stripped (beyond perf 6.1).
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
	/*
	 * Ignored: every architecture with a register table is unwound on
	 * any host (it once limited unwinding to x86_64, as perf on an
	 * x86_64 host). Kept for the layout of the struct.
	 */
	bool all_arches;
	/*
	 * Threads unwinding (0 or 1: one). More than one needs path, the
	 * reader's input as a regular file, read again by a helper that
	 * unwinds the samples of part of it ahead of the caller; what the
	 * unwinder returns is the same either way. Not by default: since
	 * unwinding steps by cached CFI rows, reading and decoding the
	 * input twice costs about what the helper saves (on 2 CPUs: the
	 * same best time, a slower typical one, twice the CPU).
	 */
	int jobs;
	const char *path;
	uint64_t parallel_min_size;	/* ignored (it gated jobs 0's helper) */
	/*
	 * Chains cut where the stack copy ended completed from the same
	 * thread's earlier chains (beyond what perf shows; see
	 * pd_unwind_rewrite_opts.stitch). The caller then gives every
	 * record that is not a sample to pd_unwinder__event(), in order.
	 */
	bool stitch;
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
 * supported, a process with no file mapped that perf reads as ELF: perf
 * registers no unwinder for it), -ENODATA when perf gives up on the
 * whole callchain
 * (registers without the ip or stack pointer: perf script then prints the
 * sample without one), or -errno.
 */
int pd_unwinder__user_stack(struct pd_unwinder *u, struct pd_thread *t,
			    const struct pd_event *ev,
			    struct pd_unwind_ip *ips, int max);

/*
 * A record that is not a sample, in the order read, for stitching
 * (opts.stitch): an exec, an EXIT or a map over a thread's frames ends
 * what its earlier chains say. Nothing without opts.stitch.
 */
void pd_unwinder__event(struct pd_unwinder *u, const struct pd_event *ev);

/* Why the last pd_unwinder__user_stack() chain ended. */
enum pd_unwind_stop {
	PD_UNWIND_STOP_NONE,	/* nothing to unwind (no registers) */
	PD_UNWIND_STOP_ROOT,	/* the outermost frame: no caller */
	PD_UNWIND_STOP_MAX,	/* max frames reached */
	PD_UNWIND_STOP_NO_ELF,	/* a frame's file was not found, or
				 * no file of the process (perf has no
				 * unwinder for it: no frame at all) */
	PD_UNWIND_STOP_NO_FILE,	/* a frame in anonymous or JIT code */
	PD_UNWIND_STOP_NO_CFI,	/* a frame's file has no unwind entry */
	PD_UNWIND_STOP_NO_MAP,	/* a return address outside every map */
	PD_UNWIND_STOP_STACK,	/* the caller's frame is past the copy */
	PD_UNWIND_STOP_MEMORY,	/* a read outside the copy and every map */
	PD_UNWIND_STOP_REGS,	/* registers missing or unusable */
	PD_UNWIND_STOP_ARCH,	/* architecture or ABI not supported */
	PD_UNWIND_STOP__NR,
};

/*
 * The enum pd_unwind_stop of the last pd_unwinder__user_stack(); *dso
 * (when dso is not NULL) the file the next step needed (NO_ELF, NO_FILE,
 * NO_CFI), else NULL; valid as long as the session.
 */
int pd_unwinder__stop(const struct pd_unwinder *u, const char **dso);

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

/*
 * Unwinding once, offline: each sample with REGS_USER and STACK_USER
 * rewritten with its user stack as an ordinary callchain (the kernel
 * entries it had, then PERF_CONTEXT_USER and the unwound frames, return
 * addresses as the kernel writes them), REGS_USER and STACK_USER taken
 * out unless keep_stack. pd_convert() applies it as the "unwind" shim;
 * pd-unwind is that shim alone.
 *
 *	rw = pd_unwind_rewriter__new(r, &opts);
 *	pd_unwind_rewriter__attr(rw, &attr, &out_attr);	(each evsel)
 *	pd_unwind_rewriter__event(rw, ev, &sample);	(each record, in
 *							 time order)
 *	pd_unwind_rewriter__summary(rw);
 *	pd_unwind_rewriter__free(rw);
 */
struct pd_unwind_rewrite_opts {
	size_t sz;
	bool keep_stack;	/* leave REGS_USER and STACK_USER in */
	int max_stack;		/* unwound frames at most; 0: 127 */
	const char *symfs;	/* as perf's --symfs */
	/*
	 * Threads unwinding (0 or 1: one). More than one needs path: the
	 * input is read again by each helper, which unwinds every other
	 * batch of samples; the output is the same whatever their number.
	 * Not by default, as pd_unwind_opts.jobs says.
	 */
	int jobs;
	const char *path;	/* the input, a regular file, or NULL */
	uint64_t parallel_min_size;	/* ignored (it gated jobs 0's helpers) */
	pd_log_fn log;
	void *log_ctx;
	/* no files from debuginfod servers (pd_symbolizer_opts) */
	bool no_debuginfod;
	/*
	 * Trees the recorded paths may lie in, NULL-terminated (read when
	 * the rewriter is made): pd_symbolizer_opts.roots
	 */
	const char *const *roots;
	/*
	 * Stitching: a chain that ends because the stack copy ended
	 * (PD_UNWIND_STOP_STACK) is completed from an earlier chain of the
	 * same thread, in the same exec, with a frame at the same stack
	 * address (the caller's CFA) with the same pc as its last frame:
	 * that chain's frames beyond it, unless a map under them changed
	 * since. Beyond what perf shows, so not by default.
	 */
	bool stitch;
};

/* A file whose absence cut user stacks, with the number of samples. */
struct pd_unwind_missing {
	const char *dso;
	uint64_t samples;
};

struct pd_unwind_summary {
	uint64_t samples;	/* samples with user registers to unwind */
	uint64_t full;		/* reached the outermost frame */
	uint64_t partial;	/* frames beyond the sampled ip, cut short */
	uint64_t none;		/* no frame beyond the sampled ip */
	/* partial and none by enum pd_unwind_stop */
	uint64_t partial_why[PD_UNWIND_STOP__NR];
	uint64_t none_why[PD_UNWIND_STOP__NR];
	uint64_t no_regs;	/* samples without user registers (kernel
				 * threads): left as they were */
	size_t nr_missing;	/* files not found (PD_UNWIND_STOP_NO_ELF) */
	const struct pd_unwind_missing *missing;
	unsigned int threads;	/* threads that unwound */
	/* of samples, those completed by stitching (opts.stitch), counted
	 * as full or partial by how their stitched chain ends */
	uint64_t stitched;
};

struct pd_unwind_rewriter;

/*
 * r: the input, read in time order (PD_ORDER_TIME) by the caller.
 * NULL with errno set on failure.
 */
struct pd_unwind_rewriter *
pd_unwind_rewriter__new(struct pd_reader *r,
			const struct pd_unwind_rewrite_opts *opts);
void pd_unwind_rewriter__free(struct pd_unwind_rewriter *rw);

/*
 * The attr the rewritten samples of an evsel have; returns true when it
 * differs from in (the evsel samples REGS_USER and STACK_USER).
 */
bool pd_unwind_rewriter__attr(const struct pd_unwind_rewriter *rw,
			      const struct pd_attr *in, struct pd_attr *out);

/*
 * Each record of the input, in the order read. A sample whose evsel is
 * rewritten: returns 1 and *out, the sample to write (pointers into
 * ev and into the rewriter, valid until the next call); other records
 * (0) go to the rewriter's session. Negative: an error.
 */
int pd_unwind_rewriter__event(struct pd_unwind_rewriter *rw,
			      const struct pd_event *ev, struct pd_sample *out);

/* What was unwound so far; valid until the rewriter is freed. */
const struct pd_unwind_summary *
pd_unwind_rewriter__summary(struct pd_unwind_rewriter *rw);

/* A short name of a stop ("missing ELF", "no CFI", ...). */
const char *pd_unwind_stop__str(int stop);

#ifdef __cplusplus
}
#endif
#endif /* PERFDATA_UNWIND_H */
