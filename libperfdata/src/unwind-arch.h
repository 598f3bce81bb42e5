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

#define PD_UNWIND_MAX_DWARF_REGS	40

struct pd_unwind_arch {
	const char *name;		/* `uname -m` */
	uint16_t e_machine;		/* EM_* */
	uint8_t elf_class;		/* ELFCLASS64 */
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
	/*
	 * The sigreturn trampoline's first bytes: libunwind's
	 * unw_is_signal_frame() compares the code at a frame's pc with
	 * them, and perf does not decrement the pc of such a frame.
	 */
	const uint8_t *sigreturn;
	size_t sigreturn_len;
};

/*
 * The entry for an ARCH feature's name (`uname -m`: "x86_64"), NULL
 * when unsupported.
 */
const struct pd_unwind_arch *pd__unwind_arch(const char *name);

/* The value of perf register reg in a sample's registers: 0 or -ENOENT. */
int pd__unwind_reg(const struct pd_regs *r, int reg, uint64_t *val);

#endif /* PD_UNWIND_ARCH_H */
