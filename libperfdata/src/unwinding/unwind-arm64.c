// SPDX-License-Identifier: MIT
/*
 * What the arm64 perf's unwinding does beyond the call frame information,
 * reproduced so that a profile from an arm64 machine unwinds here as its
 * own perf unwinds it. Debian's arm64 perf 6.1 unwinds with libunwind
 * 1.6.2 (src/aarch64/Gstep.c, src/dwarf/Gparser.c), whose facts are:
 * - a step that fails (no unwind tables or entry for the pc, a register
 *   the rules need missing, a rule libunwind does not know) takes the
 *   caller's pc from the link register: x30 as the frame has it (the
 *   register for the sample's own frame; where an earlier step said it
 *   was saved, for the others), and x30 becomes unknown. A link register
 *   of 0, or unknown, ends the chain without a frame;
 * - a step's table rules are applied in this order: the CFA (a register
 *   plus an offset; the stack pointer is the frame's CFA itself), then
 *   every register's new location, and only then the return address is
 *   read. A failure before the locations change falls back to the link
 *   register above; a failure reading the return address (the link
 *   register's new location) fails the fallback as well, and the chain
 *   ends.
 * - a frame whose code is the signal trampoline (the vDSO's
 *   __kernel_rt_sigreturn) is printed as it is, not decremented, and
 *   its caller is the interrupted context, every register read from the
 *   sigcontext the kernel left on the stack (aarch64_handle_signal_frame());
 *   that frame is decremented like any caller (unw_is_signal_frame()
 *   says no for it), though its tables are looked up at its pc.
 * Where libunwind 1.6.2 is wrong for code built with pointer
 * authentication (-mbranch-protection=pac-ret), we are not: it stops at
 * DW_CFA_AARCH64_negate_ra_state (an "unexpected opcode", so every step
 * past a paciasp falls back to the link register), libdw's CFI ignores
 * that opcode, and the unwinder strips the authentication code from the
 * return addresses (unwind-step.c).
 */
#include <dwarf.h>
#include <errno.h>
#include <string.h>

#include "unwind-arm64.h"

enum { A64_FP = 29, A64_LR = 30, A64_SP = 31 };

bool pd__unwind_guess_aarch64(struct pd_unwind_guess *g)
{
	unsigned int i;

	if (!(g->regs_set & (1ULL << A64_LR)) || !g->regs[A64_LR])
		return false;
	for (i = 0; i < PD_UNWIND_MAX_DWARF_REGS; i++)
		if (i != A64_LR && (g->regs_set & (1ULL << i))) {
			g->new_regs[i] = g->regs[i];
			g->new_regs_set |= 1ULL << i;
		}
	g->new_pc = g->regs[A64_LR];
	/*
	 * libunwind looks a frame's tables up at pc - 1 once a step from
	 * tables succeeded; the sample's own frame failed before any did,
	 * so its caller is looked up at the link register itself.
	 */
	g->new_pc_is_return = !g->first;
	g->new_pc_exact = g->first;
	return true;
}

/*
 * The kernel's struct rt_sigframe at the trampoline's stack pointer:
 * siginfo (128 bytes), then the ucontext, whose uc_mcontext (struct
 * sigcontext: fault_address, x0-x30, sp, pc, pstate) is at 176
 * (arch/arm64/kernel/signal.c, include/uapi/asm/ucontext.h and
 * sigcontext.h).
 */
#define SIGFRAME_SC		(128 + 176)
#define SC_X0			8
#define SC_SP			(8 + 31 * 8)
#define SC_PC			(SC_SP + 8)

bool pd__unwind_sigframe_aarch64(struct pd_unwind_guess *g)
{
	uint64_t sp, sc, w;
	unsigned int i;

	if (!(g->regs_set & (1ULL << A64_SP)))
		return false;
	sp = g->regs[A64_SP];
	/* libunwind reads the word at the CFA first, and gives up without */
	if (g->read(g->ctx, sp, &w) < 0)
		return false;
	sc = sp + SIGFRAME_SC;
	for (i = 0; i <= A64_LR; i++)
		if (g->read(g->ctx, sc + SC_X0 + 8 * i, &w) >= 0) {
			g->new_regs[i] = w;
			g->new_regs_set |= 1ULL << i;
		}
	if (g->read(g->ctx, sc + SC_SP, &w) >= 0) {
		g->new_regs[A64_SP] = w;
		g->new_regs_set |= 1ULL << A64_SP;
	}
	if (g->read(g->ctx, sc + SC_PC, &g->new_pc) < 0 || !g->new_pc)
		return false;
	/* looked up at the pc itself; printed decremented all the same */
	g->new_pc_exact = true;
	return true;
}

static int reg_value(const struct pd_cfi_regs *r, uint64_t reg, uint64_t *val)
{
	if (reg >= PD_UNWIND_MAX_DWARF_REGS || !(r->set & (1ULL << reg)))
		return -ENOENT;
	*val = r->val[reg];
	return 0;
}

/* The CFA of frame: 0, or -1 when the rule needs what is not known. */
static int cfa_value(Dwarf_Frame *frame, const struct pd_cfi_regs *r,
		     uint64_t *cfa)
{
	Dwarf_Op *ops;
	size_t nops;
	uint64_t base, reg;
	int64_t off;

	if (dwarf_frame_cfa(frame, &ops, &nops) || nops != 1)
		return -1;	/* an expression: not reproduced */
	if (ops[0].atom == DW_OP_bregx) {
		reg = ops[0].number;
		off = (int64_t)ops[0].number2;
	} else if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31) {
		reg = ops[0].atom - DW_OP_breg0;
		off = (int64_t)ops[0].number;
	} else {
		return -1;
	}
	/* the stack pointer: the frame's CFA, which is sp for the first */
	if (reg_value(r, reg, &base))
		return -1;
	*cfa = base + (uint64_t)off;
	return 0;
}

int pd__unwind_cfi_caller(Dwarf_Frame *frame, const struct pd_cfi_regs *r,
			  int (*read)(void *ctx, uint64_t addr, uint64_t *val),
			  void *ctx, uint64_t *caller)
{
	Dwarf_Op ops_mem[3], *ops;
	size_t nops;
	uint64_t cfa, addr;
	int ret;

	*caller = 0;
	if (!frame || cfa_value(frame, r, &cfa))
		return PD_CFI_FALLBACK;
	if (dwarf_frame_register(frame, A64_LR, ops_mem, &ops, &nops))
		return PD_CFI_FALLBACK;
	if (!nops && !ops)	/* same value: still in the link register */
		return reg_value(r, A64_LR, caller) ? PD_CFI_FAIL : PD_CFI_CALLER;
	if (!nops)		/* undefined: the outermost frame */
		return PD_CFI_CALLER;
	if (ops[0].atom == DW_OP_regx)
		return reg_value(r, ops[0].number, caller) ? PD_CFI_FAIL :
							       PD_CFI_CALLER;
	if (ops[0].atom != DW_OP_call_frame_cfa)
		return PD_CFI_FAIL;	/* an expression: not reproduced */
	addr = cfa;
	if (nops > 1 && ops[1].atom == DW_OP_plus_uconst)
		addr += ops[1].number;
	if (ops[nops - 1].atom == DW_OP_stack_value) {
		*caller = addr;
		return PD_CFI_CALLER;
	}
	ret = read(ctx, addr, caller);
	if (ret < 0)
		return PD_CFI_FAIL;
	if (ret > 0)
		*caller = 0;	/* perf's "mapped, nothing to read": 0 */
	return PD_CFI_CALLER;
}
