/* SPDX-License-Identifier: MIT */
/* unwind-step.c: stepping one chain. */
#ifndef PD_UNWIND_STEP_H
#define PD_UNWIND_STEP_H

#include "unwind-dwfl.h"
#include "unwind-state.h"
#include "unwind-tables.h"

void pd__uw_warn_frame_reg(struct pd_unwinder *u);
uint64_t pd__uw_strip_pac(struct uw_ctx *c, uint64_t pc);
enum uw_lookup_res pd__uw_step_lookup(struct uw_ctx *c, struct uw_mod *m,
				      uint64_t pc, uint64_t at);
int pd__uw_run_pass(struct uw_ctx *c);
enum pd_unwind_stop pd__uw_stop_reason(const struct uw_ctx *c, int ret);

/* perf_access_mem() as the steps without libdw read (pd_unwind_guess,
 * pd_row_mem) */
static inline int guess_read(void *ctx, uint64_t addr, uint64_t *val)
{
	return perf_access_mem(ctx, addr, val);
}

#endif /* PD_UNWIND_STEP_H */
