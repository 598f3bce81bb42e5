/* SPDX-License-Identifier: MIT */
/* unwind-tables.c: what a frame's pc says before a step from it. */
#ifndef PD_UNWIND_TABLES_H
#define PD_UNWIND_TABLES_H

#include "unwind-state.h"

bool pd__uw_is_sigreturn(struct uw_ctx *c, uint64_t pc);
bool pd__uw_frame_is_sigreturn(struct uw_ctx *c, uint64_t pc);
Dwarf_Frame *pd__uw_cfi_frame(struct uw_space *sp, uint64_t addr);
const struct pd_row *pd__uw_space_row(struct pd_unwinder *u,
				      struct uw_space *sp, uint64_t addr,
				      struct pd_row *tmp);

/*
 * Whether an FDE covers addr, and whether the frame at addr ends the
 * chain by its tables: its return address column says "undefined"
 * (glibc's _start, clone3) or there is no FDE. libdw also ends a chain
 * at a return address that reads as 0; libunwind does not, it gives that
 * frame (printed as ffffffffffffffff) and stops after it. Both are asked
 * of every frame: the answers come with the rows.
 */
static inline bool has_fde(struct pd_unwinder *u, struct uw_space *sp,
			   uint64_t addr)
{
	struct pd_row tmp;

	return pd__uw_space_row(u, sp, addr, &tmp)->fde;
}

/* What perf's libunwind finds for a frame in a file's tables. */
enum uw_lookup_res {
	UW_LOOKUP_FOUND,	/* the frame's entry */
	UW_LOOKUP_NONE,		/* none (-UNW_ENOINFO): libunwind guesses */
	UW_LOOKUP_FAIL,		/* a failure: the chain ends */
};

enum uw_lookup_res pd__uw_perf_lookup(struct uw_ctx *c, struct uw_mod *m,
				      uint64_t at);

static inline bool ra_undefined(struct pd_unwinder *u, struct uw_space *sp,
				uint64_t addr)
{
	struct pd_row tmp;

	return pd__uw_space_row(u, sp, addr, &tmp)->ra_undef;
}

#endif /* PD_UNWIND_TABLES_H */
