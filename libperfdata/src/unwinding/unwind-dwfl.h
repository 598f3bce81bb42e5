/* SPDX-License-Identifier: MIT */
/*
 * unwind-dwfl.c: what libdwfl is told of a sample, and a space's Dwfl;
 * perf's access_mem() (inline), which reads the stack copy or the
 * mapped files.
 */
#ifndef PD_UNWIND_DWFL_H
#define PD_UNWIND_DWFL_H

#include "unwind-space.h"
#include "unwind-state.h"

bool pd__uw_memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result,
			void *arg);
bool pd__uw_pass_start(struct uw_ctx *c, uint64_t *regs, uint64_t *set,
		       uint64_t *pc);
struct uw_space *pd__uw_space_get(struct pd_unwinder *u, struct pd_maps *maps,
				  const struct uw_arch *arch);

/* perf's access_mem(): the stack copy, else the mapped files */
static inline int perf_access_mem(struct uw_ctx *c, uint64_t addr,
				  uint64_t *val)
{
	if (addr + sizeof(*val) < addr)
		return -1;
	if (addr < c->stack_lo || addr + sizeof(*val) >= c->stack_hi) {
		/* the caller's frame lies past what perf copied */
		if (addr >= c->stack_lo && addr - c->stack_lo < STACK_SLACK)
			c->read_beyond = true;
		return pd__uw_file_read(c, addr, val);
	}
	memcpy(val, (const uint8_t *)c->smp->user_stack.data +
		    (addr - c->stack_lo), sizeof(*val));
	return 0;
}

#endif /* PD_UNWIND_DWFL_H */
