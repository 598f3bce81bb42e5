/* SPDX-License-Identifier: MIT */
/*
 * Per-architecture facts the unwinder needs: how perf numbers the user
 * registers of a sample (the PERF_REG_* bits of sample_regs_user) against
 * DWARF's register numbers, and how libunwind, whose rules perf 6.1
 * follows, recognizes a signal trampoline. One table entry per
 * architecture; an architecture without an entry is not unwound.
 */
#ifndef PD_UNWIND_ARCH_H
#define PD_UNWIND_ARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <perfdata/event.h>

#include "unwind-guess.h"

struct pd_unwind_arch {
	const char *name;		/* `uname -m` */
	uint16_t e_machine;		/* EM_* */
	uint8_t elf_class;		/* ELFCLASS64, ELFCLASS32 */
	uint64_t abi;			/* PERF_SAMPLE_REGS_ABI_* it unwinds */
	/* perf register of each DWARF register 0..nr_dwarf-1, -1: none */
	unsigned int nr_dwarf;
	int8_t perf_reg[PD_UNWIND_MAX_DWARF_REGS];
	int perf_ip, perf_sp;		/* perf's numbers of ip and sp */
	/*
	 * The DWARF column that holds the pc in libdw's initial frame, or
	 * -1 when the pc is set apart (dwfl_thread_state_register_pc).
	 */
	int dwarf_pc;
	int dwarf_ra;			/* the return address column */
	bool big_endian;
	/* the architecture of its 32-bit processes (REGS_USER ABI 32) */
	const char *compat;
	/*
	 * The sigreturn trampoline's first bytes: libunwind's
	 * unw_is_signal_frame() compares the code at a frame's pc with
	 * them, and perf does not decrement the pc of such a frame.
	 */
	const uint8_t *sigreturn;
	size_t sigreturn_len;
	/*
	 * libunwind tells a signal frame by its unwind table instead (the
	 * CIE's 'S' augmentation, x86_64): after a step by such an entry,
	 * unw_is_signal_frame() says yes and perf prints the frame stepped
	 * to undecremented, whatever the code at either pc
	 */
	bool signal_by_cie;
	/* libunwind's guess when tables miss; NULL: the chain ends */
	bool (*guess)(struct pd_unwind_guess *g);
	/* ... and when the frame's file is missing or has no tables */
	bool guess_any_failure;
	/*
	 * libunwind's own step from a signal trampoline (the frame whose
	 * code is sigreturn), which is then printed undecremented; NULL:
	 * the tables step, and the frame after it is the undecremented one
	 */
	bool (*sigframe)(struct pd_unwind_guess *g);
	/*
	 * Return addresses may carry a pointer authentication code above
	 * this many address bits (aarch64's user space: 48); 0: never.
	 */
	unsigned int pac_va_bits;
	/*
	 * libdw's frame registers are the nr_dwarf ones and its CFI rows
	 * can be applied without it (unwind-row.c; x86_64 only, where that
	 * was checked against libdw)
	 */
	bool cfi_rows;
	/*
	 * perf takes the caller of a frame-pointer sample's leaf function
	 * from the link register (arm64's get_leaf_frame_caller())
	 */
	bool fp_leaf_caller;
};

/*
 * The entry for an ARCH feature's name (`uname -m`: "x86_64"), NULL
 * when unsupported.
 */
const struct pd_unwind_arch *pd__unwind_arch(const char *name);

/*
 * A user space code address without its pointer authentication code:
 * the bits from va_bits up cleared (with the top byte, which user space
 * addresses ignore); addr itself when va_bits is 0.
 */
uint64_t pd__unwind_strip_pac(uint64_t addr, unsigned int va_bits);

/* The value of perf register reg in a sample's registers: 0 or -ENOENT. */
int pd__unwind_reg(const struct pd_regs *r, int reg, uint64_t *val);

#endif /* PD_UNWIND_ARCH_H */
