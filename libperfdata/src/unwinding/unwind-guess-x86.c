// SPDX-License-Identifier: MIT
/*
 * libunwind's x86_64 step for a frame its tables do not cover (unw_step()
 * in src/x86_64/Gstep.c, libunwind 1.6, which Debian's perf 6.1 links),
 * reproduced so that pd's chains continue, or end, where perf's do. The
 * rules, in libunwind's order, with cfa the frame's stack pointer:
 * - a signal trampoline: libunwind reads the sigcontext; not reproduced,
 *   the chain ends (such frames come with tables from the vdso or libc);
 * - a PLT entry (jmp *x(%rip); push $n; jmp): the return address is at
 *   cfa, cfa += 8, other registers unchanged;
 * - rbp unknown: the chain ends;
 * - rbp 0 and the frame's pc readable: the end of the chain;
 * - the frame's pc not readable (a call through a bad pointer): the
 *   return address is [cfa] if that and the memory it points to read,
 *   cfa += 8;
 * - else the frame-pointer guess: return address [rbp + 8], caller's rbp
 *   [rbp], cfa += 16 (the old cfa, not rbp: libunwind's own arithmetic),
 *   unless [rbp] does not read or rbp is below cfa or more than 16 KiB
 *   above it, which ends the chain;
 * - every other register becomes unknown; the same pc and cfa again
 *   ends the chain.
 */
#include "unwind-guess.h"

enum { RBP = 6, RSP = 7 };

static bool is_plt(struct pd_unwind_guess *g)
{
	uint64_t w0, w1;

	if (g->read(g->ctx, g->pc, &w0) < 0 ||
	    g->read(g->ctx, g->pc + 8, &w1) < 0)
		return false;
	return (w0 & 0xffff) == 0x25ff && ((w0 >> 48) & 0xff) == 0x68 &&
	       ((w1 >> 24) & 0xff) == 0xe9;
}

static bool is_sigreturn(struct pd_unwind_guess *g)
{
	uint64_t w0, w1;

	if (g->read(g->ctx, g->pc, &w0) < 0 ||
	    g->read(g->ctx, g->pc + 8, &w1) < 0)
		return false;
	return w0 == 0x0f0000000fc0c748ULL && (w1 & 0xff) == 0x05;
}

static void set(struct pd_unwind_guess *g, int reg, uint64_t val)
{
	g->new_regs[reg] = val;
	g->new_regs_set |= 1ULL << reg;
}

bool pd__unwind_guess_x86_64(struct pd_unwind_guess *g)
{
	uint64_t cfa, rbp, rbp1, ip, unused;
	bool have_rbp;
	int ret;

	if (!(g->regs_set & (1ULL << RSP)))
		return false;
	cfa = g->regs[RSP];
	have_rbp = g->regs_set & (1ULL << RBP);
	rbp = g->regs[RBP];
	g->new_regs_set = 0;
	if (is_sigreturn(g))
		return false;
	if (is_plt(g)) {
		if (!have_rbp)
			return false;
		/* registers keep their places: all known ones stay */
		for (ret = 0; ret < PD_UNWIND_MAX_DWARF_REGS; ret++)
			if (g->regs_set & (1ULL << ret))
				set(g, ret, g->regs[ret]);
		if (g->read(g->ctx, cfa, &ip) < 0)
			return false;
		set(g, RSP, cfa + 8);
		g->new_pc = ip;
		return true;
	}
	if (!have_rbp)
		return false;
	ret = g->read(g->ctx, g->pc, &unused);
	if (!rbp && !ret)
		return false;
	if (ret) {
		uint64_t new_ip;

		if (g->read(g->ctx, cfa, &new_ip) == 0 &&
		    g->read(g->ctx, new_ip, &unused) == 0) {
			if (g->read(g->ctx, rbp, &rbp1) >= 0)
				set(g, RBP, rbp1);
			set(g, RSP, cfa + 8);
			g->new_pc = new_ip;
			return true;
		}
	}
	ret = g->read(g->ctx, rbp, &rbp1);
	if (ret < 0 || rbp < cfa || rbp - cfa > 0x4000)
		return false;
	if (g->read(g->ctx, rbp + 8, &ip) < 0)
		return false;
	if (ip == g->pc && cfa + 16 == cfa)
		return false;
	set(g, RBP, rbp1);
	set(g, RSP, cfa + 16);
	g->new_pc = ip;
	return true;
}
