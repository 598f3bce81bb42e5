/* SPDX-License-Identifier: MIT */
/*
 * The interface between the register tables (unwind-arch.c), which name
 * each architecture's steps without unwind tables, and those steps
 * (unwind-guess-x86.c, unwind-arm64.c): what a step is given and gives
 * back. Below both, so that a step needs nothing of the tables.
 */
#ifndef PD_UNWIND_GUESS_H
#define PD_UNWIND_GUESS_H

#include <stdbool.h>
#include <stdint.h>

#define PD_UNWIND_MAX_DWARF_REGS	40

/*
 * One step of libunwind's unwinding without unwind tables (guessing from
 * the frame pointer and code patterns), from a frame whose registers are
 * partly known. Memory reads follow perf's access_mem(): 0, 1 (a mapped
 * address without data: 0 read, which libunwind takes for success) or -1.
 */
struct pd_unwind_guess {
	uint64_t pc;				/* the frame's, as unwound */
	uint64_t regs[PD_UNWIND_MAX_DWARF_REGS];	/* DWARF numbers */
	uint64_t regs_set;			/* bit i: regs[i] known */
	int (*read)(void *ctx, uint64_t addr, uint64_t *val);
	void *ctx;
	bool first;				/* the sample's own frame */
	/* the caller found */
	uint64_t new_pc;
	uint64_t new_regs[PD_UNWIND_MAX_DWARF_REGS];
	uint64_t new_regs_set;
	/*
	 * Where libunwind looks new_pc's tables up: at new_pc - 1, as a
	 * return address's (new_pc_is_return), or at new_pc itself
	 * (new_pc_exact); neither: x86_64's guess, whose resumed chain
	 * libdw looks up at new_pc and we at new_pc - 1.
	 */
	bool new_pc_is_return;
	bool new_pc_exact;
};

/* x86_64 (unwind-guess-x86.c): true when a caller was found */
bool pd__unwind_guess_x86_64(struct pd_unwind_guess *g);
/* aarch64 (unwind-arm64.c): the link register, when it is known */
bool pd__unwind_guess_aarch64(struct pd_unwind_guess *g);
/* aarch64: the context a signal interrupted, from the trampoline's frame */
bool pd__unwind_sigframe_aarch64(struct pd_unwind_guess *g);

#endif /* PD_UNWIND_GUESS_H */
