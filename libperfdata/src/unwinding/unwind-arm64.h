/* SPDX-License-Identifier: MIT */
/*
 * libunwind's step on aarch64 from one frame's call frame information,
 * as the arm64 perf takes a frame-pointer sample's leaf caller with it
 * (unwind-arm64.c).
 */
#ifndef PD_UNWIND_ARM64_H
#define PD_UNWIND_ARM64_H

#include <elfutils/libdw.h>
#include <stdint.h>

#include "unwind-guess.h"

/* A frame's registers by DWARF number; bit i of set: val[i] known. */
struct pd_cfi_regs {
	uint64_t val[PD_UNWIND_MAX_DWARF_REGS];
	uint64_t set;
};

enum pd_cfi_step {
	PD_CFI_CALLER,		/* *caller: the return address (0: none) */
	PD_CFI_FALLBACK,	/* failed before any location changed:
				 * libunwind takes the link register */
	PD_CFI_FAIL,		/* the return address does not read: no
				 * caller */
};

/*
 * The caller of the frame whose registers are r, by its CFI row frame
 * (NULL: none found). read is perf's access_mem(): below 0 failure, 0 a
 * value, above 0 a mapped address without data (read as 0).
 */
int pd__unwind_cfi_caller(Dwarf_Frame *frame, const struct pd_cfi_regs *r,
			  int (*read)(void *ctx, uint64_t addr, uint64_t *val),
			  void *ctx, uint64_t *caller);

#endif /* PD_UNWIND_ARM64_H */
