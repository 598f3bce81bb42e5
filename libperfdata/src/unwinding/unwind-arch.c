// SPDX-License-Identifier: MIT
/*
 * Register tables for the unwinder. Sources of the numbers:
 * - perf's register bits: arch/x86/include/uapi/asm/perf_regs.h
 *   (AX BX CX DX SI DI BP SP IP FLAGS CS SS DS ES FS GS, then R8-R15
 *   from bit 16);
 * - DWARF's: the x86-64 psABI, figure 3.36 (rax rdx rcx rbx rsi rdi rbp
 *   rsp r8-r15, then the return address column 16), the numbering libdw's
 *   x86_64 backend unwinds with (17 frame registers, pc in column 16);
 * - signal frames: libunwind's x86_64 unw_is_signal_frame() answers by
 *   the unwind table entry of the last step (its CIE's 'S'
 *   augmentation: sigcontext_format, set by tdep_fetch_frame() or from
 *   its cache by tdep_reuse_frame(), reset by each unw_step()), not by
 *   the code at pc. glibc's __restore_rt has such an entry from the byte
 *   before it (a return address's lookup, less one) to its syscall
 *   included: a sample taken at that syscall steps to the interrupted
 *   frame as a signal frame too.
 * - i386 (32-bit processes of an x86_64 recording: REGS_USER ABI 32,
 *   the same perf bits): DWARF's eax ecx edx ebx esp ebp esi edi eip
 *   (System V i386 psABI, table 2.14; libdw's i386 backend unwinds 9
 *   registers with the return address in column 8); sigreturn is glibc's
 *   __restore_rt (mov $173,%eax; int $0x80);
 * - aarch64: perf's X0-X29, LR, SP, PC are bits 0-32
 *   (arch/arm64/include/uapi/asm/perf_regs.h); DWARF's x0-x30 and sp
 *   are columns 0-31 (AAPCS64 DWARF, section 4.1), the return address
 *   column is x30 and the pc is set apart (libdw's aarch64 backend);
 *   sigreturn is the kernel's vDSO __kernel_rt_sigreturn (mov x8, #139;
 *   svc #0), what libunwind's aarch64 unw_is_signal_frame() compares.
 *   libunwind's step without tables is its link register fallback
 *   (unwind-arm64.c). Return addresses signed by pointer authentication
 *   (pac-ret) hold the code in bits 48-54 (the kernel's
 *   ptrauth_user_pac_mask(): bits 54 down to the VA size, 48 for user
 *   space unless a process asks for 52-bit addresses), and the top byte
 *   is ignored (TBI); no perf records the masks
 *   (arch/arm64/include/uapi/asm/perf_regs.h has no such register).
 *   The arm64 perf completes a frame-pointer callchain with the leaf
 *   function's caller from the link register
 *   (tools/perf/util/arm64-frame-pointer-unwind-support.c).
 */
#include <elf.h>
#include <errno.h>
#include <string.h>

#include "unwind-arch.h"

enum {	/* perf_regs.h, x86 */
	X86_AX, X86_BX, X86_CX, X86_DX, X86_SI, X86_DI, X86_BP, X86_SP,
	X86_IP, X86_FLAGS, X86_CS, X86_SS, X86_DS, X86_ES, X86_FS, X86_GS,
	X86_R8, X86_R9, X86_R10, X86_R11, X86_R12, X86_R13, X86_R14, X86_R15,
};

static const uint8_t i386_sigreturn[] = {
	0xb8, 0xad, 0x00, 0x00, 0x00,			/* mov $0xad,%eax */
	0xcd, 0x80,					/* int $0x80 */
};

static const uint8_t aarch64_sigreturn[] = {
	0x68, 0x11, 0x80, 0xd2,				/* mov x8, #0x8b */
	0x01, 0x00, 0x00, 0xd4,				/* svc #0 */
};

static const struct pd_unwind_arch arches[] = {
	{
		.name = "x86_64",
		.e_machine = EM_X86_64,
		.elf_class = ELFCLASS64,
		.abi = 2,	/* PERF_SAMPLE_REGS_ABI_64 */
		.nr_dwarf = 17,
		.perf_reg = {
			X86_AX, X86_DX, X86_CX, X86_BX, X86_SI, X86_DI,
			X86_BP, X86_SP, X86_R8, X86_R9, X86_R10, X86_R11,
			X86_R12, X86_R13, X86_R14, X86_R15, X86_IP,
		},
		.perf_ip = X86_IP,
		.perf_sp = X86_SP,
		.dwarf_pc = 16,
		.dwarf_ra = 16,
		.compat = "i386",
		.signal_by_cie = true,
		.guess = pd__unwind_guess_x86_64,
		.cfi_rows = true,
	},
	{
		.name = "i386",
		.e_machine = EM_386,
		.elf_class = ELFCLASS32,
		.abi = 1,	/* PERF_SAMPLE_REGS_ABI_32 */
		.nr_dwarf = 9,
		.perf_reg = {
			X86_AX, X86_CX, X86_DX, X86_BX, X86_SP, X86_BP,
			X86_SI, X86_DI, X86_IP,
		},
		.perf_ip = X86_IP,
		.perf_sp = X86_SP,
		.dwarf_pc = 8,
		.dwarf_ra = 8,
		.sigreturn = i386_sigreturn,
		.sigreturn_len = sizeof(i386_sigreturn),
	},
	{
		.name = "aarch64",
		.e_machine = EM_AARCH64,
		.elf_class = ELFCLASS64,
		.abi = 2,	/* PERF_SAMPLE_REGS_ABI_64 */
		.nr_dwarf = 32,
		.perf_reg = {
			0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
			16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
			30, 31,
		},
		.perf_ip = 32,
		.perf_sp = 31,
		.dwarf_pc = -1,
		.dwarf_ra = 30,
		.sigreturn = aarch64_sigreturn,
		.sigreturn_len = sizeof(aarch64_sigreturn),
		.guess = pd__unwind_guess_aarch64,
		.guess_any_failure = true,
		.sigframe = pd__unwind_sigframe_aarch64,
		.pac_va_bits = 48,
		.fp_leaf_caller = true,
	},
};

const struct pd_unwind_arch *pd__unwind_arch(const char *name)
{
	size_t i;

	if (!name)
		return NULL;
	/* `uname -m` says "x86_64"; BSD-style names say "amd64" */
	if (!strcmp(name, "amd64"))
		name = "x86_64";
	else if (!strcmp(name, "arm64"))
		name = "aarch64";
	else if (name[0] == 'i' && strlen(name) == 4 && !strcmp(name + 2, "86"))
		name = "i386";	/* i486, i586, i686 */
	for (i = 0; i < sizeof(arches) / sizeof(arches[0]); i++)
		if (!strcmp(arches[i].name, name))
			return &arches[i];
	return NULL;
}

uint64_t pd__unwind_strip_pac(uint64_t addr, unsigned int va_bits)
{
	if (!va_bits || va_bits >= 64)
		return addr;
	return addr & ((1ULL << va_bits) - 1);
}

int pd__unwind_reg(const struct pd_regs *r, int reg, uint64_t *val)
{
	uint64_t below;
	unsigned int idx;

	if (reg < 0 || reg > 63 || !r->abi || !r->regs ||
	    !(r->mask & (1ULL << reg)))
		return -ENOENT;
	below = reg ? r->mask & ((1ULL << reg) - 1) : 0;
	idx = (unsigned int)__builtin_popcountll(below);
	if (idx >= r->nr)
		return -ENOENT;
	memcpy(val, &r->regs[idx], sizeof(*val));
	return 0;
}
