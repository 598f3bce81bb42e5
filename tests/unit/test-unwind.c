// SPDX-License-Identifier: MIT
/*
 * The unwinder's rules that need no recording: perf's register order,
 * samples perf does not unwind (no registers, an empty or lying stack
 * copy, registers without ip or sp), a sample of a process with no maps
 * (the ip alone), and libunwind's frame-pointer and PLT guesses.
 */
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfdata/format.h>
#include <perfdata/session.h>
#include <perfdata/unwind.h>

#include "tap.h"
#include "unwinding/unwind-arch.h"
#include "unwinding/unwind-arm64.h"

#define FULL_MASK	0xff0fffULL	/* perf's x86_64 user regs: no DS-GS */

static uint64_t regs[24];
static uint8_t stack[256];

/* a DWARF sample: regs in perf order, AX=0x100, ..., IP, SP set apart */
static void sample(struct pd_event *ev, uint64_t mask, uint64_t abi,
		   uint64_t size, uint64_t dyn_size)
{
	unsigned int i, n = 0;

	memset(ev, 0, sizeof(*ev));
	ev->type = PD_RECORD_SAMPLE;
	ev->u.sample.sample_type = PD_SAMPLE_IP | PD_SAMPLE_TID |
				   PD_SAMPLE_CALLCHAIN | PD_SAMPLE_REGS_USER |
				   PD_SAMPLE_STACK_USER;
	for (i = 0; i < 24; i++) {
		if (!(mask & (1ULL << i)))
			continue;
		regs[n++] = i == 7 ? 0x7ffc0000 : i == 8 ? 0x401234 :
			    0x100 + i;
	}
	ev->u.sample.user_regs.abi = abi;
	ev->u.sample.user_regs.mask = mask;
	ev->u.sample.user_regs.nr = abi ? n : 0;
	ev->u.sample.user_regs.regs = abi ? regs : NULL;
	ev->u.sample.user_stack.size = size;
	ev->u.sample.user_stack.dyn_size = dyn_size;
	ev->u.sample.user_stack.data = size ? stack : NULL;
}

static uint64_t mem_lo;
static uint64_t mem[64];

static int fake_read(void *ctx, uint64_t addr, uint64_t *val)
{
	if (addr < mem_lo || addr >= mem_lo + sizeof(mem) || addr % 8)
		return -1;
	*val = mem[(addr - mem_lo) / 8];
	return 0;
}

static void test_guess(void)
{
	struct pd_unwind_guess g;

	mem_lo = 0x7000;
	memset(mem, 0, sizeof(mem));
	/* frame pointer: rbp = sp + 32, [rbp] = next rbp, [rbp+8] = ra */
	memset(&g, 0, sizeof(g));
	g.read = fake_read;
	g.pc = 0x7000;			/* readable code */
	g.regs[7] = 0x7040;		/* rsp */
	g.regs[6] = 0x7060;		/* rbp */
	g.regs_set = (1 << 6) | (1 << 7);
	mem[(0x7060 - 0x7000) / 8] = 0x70a0;
	mem[(0x7068 - 0x7000) / 8] = 0x401000;
	CHECK(pd__unwind_guess_x86_64(&g) && g.new_pc == 0x401000 &&
	      g.new_regs[6] == 0x70a0 && g.new_regs[7] == 0x7040 + 16 &&
	      g.new_regs_set == ((1 << 6) | (1 << 7)),
	      "guess: caller from [rbp + 8], rbp from [rbp], cfa + 16");
	/* rbp below the stack pointer: libunwind's heuristic refuses it */
	g.regs[6] = 0x7010;
	CHECK(!pd__unwind_guess_x86_64(&g), "guess: rbp below cfa ends the chain");
	/* more than 16 KiB above */
	g.regs[6] = 0x7040 + 0x4008;
	CHECK(!pd__unwind_guess_x86_64(&g), "guess: rbp 16 KiB above cfa ends the chain");
	/* rbp unknown */
	g.regs_set = 1 << 7;
	CHECK(!pd__unwind_guess_x86_64(&g), "guess: no rbp, no caller");
	/* rbp 0 with readable code: the end */
	g.regs[6] = 0;
	g.regs_set = (1 << 6) | (1 << 7);
	CHECK(!pd__unwind_guess_x86_64(&g), "guess: rbp 0 is the end");
	/* a PLT entry: jmp *x(%rip); push $n; jmp */
	memset(mem, 0, sizeof(mem));
	mem[0] = 0x00680000000025ffULL;
	mem[1] = 0x00000000e9000000ULL;
	mem[(0x7040 - 0x7000) / 8] = 0x402000;
	g.regs[6] = 0x1234;
	g.regs[3] = 0x55;
	g.regs_set = (1 << 3) | (1 << 6) | (1 << 7);
	CHECK(pd__unwind_guess_x86_64(&g) && g.new_pc == 0x402000 &&
	      g.new_regs[7] == 0x7048 && g.new_regs[3] == 0x55 &&
	      g.new_regs[6] == 0x1234,
	      "guess: a PLT entry returns to [sp], registers kept");
	/* sigreturn code: not reproduced, the chain ends */
	mem[0] = 0x0f0000000fc0c748ULL;
	mem[1] = 0x05;
	CHECK(!pd__unwind_guess_x86_64(&g), "guess: sigreturn ends the chain");
}

static void test_aarch64(void)
{
	const struct pd_unwind_arch *a = pd__unwind_arch("aarch64");
	struct pd_unwind_guess g;

	CHECK(a && a->guess && a->guess_any_failure && a->pac_va_bits == 48 &&
	      a->fp_leaf_caller && a->dwarf_ra == 30,
	      "aarch64: link register fallback, PAC below 48 bits, FP leaf caller");
	CHECK(pd__unwind_strip_pac(0x003f0000004005d4ULL, 48) == 0x4005d4 &&
	      pd__unwind_strip_pac(0xff7f0000004005d4ULL, 48) == 0x4005d4 &&
	      pd__unwind_strip_pac(0x0000ffff8a2b1c04ULL, 48) == 0xffff8a2b1c04ULL &&
	      pd__unwind_strip_pac(0x00700fff8a2b1c04ULL, 52) == 0xfff8a2b1c04ULL &&
	      pd__unwind_strip_pac(0x12345678ULL, 0) == 0x12345678ULL,
	      "PAC: bits from the VA size up cleared (top byte too), none at 0");
	memset(&g, 0, sizeof(g));
	g.pc = 0x400100;
	g.first = true;
	g.regs[29] = 0x7ff0;
	g.regs[30] = 0x400234;
	g.regs[31] = 0x7fe0;
	g.regs_set = (1ULL << 29) | (1ULL << 30) | (1ULL << 31);
	CHECK(pd__unwind_guess_aarch64(&g) && g.new_pc == 0x400234 &&
	      !g.new_pc_is_return && g.new_pc_exact &&
	      g.new_regs_set == ((1ULL << 29) | (1ULL << 31)) &&
	      g.new_regs[29] == 0x7ff0 && g.new_regs[31] == 0x7fe0,
	      "aarch64 fallback from the first frame: pc = lr, looked up there, lr unknown after");
	memset(&g.new_regs, 0, sizeof(g.new_regs));
	g.new_regs_set = 0;
	g.first = false;
	CHECK(pd__unwind_guess_aarch64(&g) && g.new_pc_is_return &&
	      !g.new_pc_exact,
	      "aarch64 fallback from a caller: looked up at lr - 1");
	g.regs_set &= ~(1ULL << 30);
	CHECK(!pd__unwind_guess_aarch64(&g), "aarch64 fallback: lr unknown ends the chain");
	g.regs_set |= 1ULL << 30;
	g.regs[30] = 0;
	CHECK(!pd__unwind_guess_aarch64(&g), "aarch64 fallback: lr 0 ends the chain, no frame");
}

static int stack_read(void *ctx, uint64_t addr, uint64_t *val)
{
	/* one word of stack at 0x7000: the caller's saved lr at 0x7008 */
	if (addr != 0x7008)
		return -1;
	*val = 0x400374;
	return 0;
}

/* libunwind's step on aarch64 from a row of a real program's CFI */
static int cfi_step(Dwarf_CFI *cfi, uint64_t pc, struct pd_cfi_regs *r,
		    uint64_t *caller)
{
	Dwarf_Frame *frame = NULL;
	int ret;

	if (dwarf_cfi_addrframe(cfi, pc, &frame))
		frame = NULL;
	ret = pd__unwind_cfi_caller(frame, r, stack_read, NULL, caller);
	free(frame);
	return ret;
}

/* The address of function name in elf's symbol table, 0 if none. */
static uint64_t sym_addr(Elf *elf, const char *name)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *data = elf_getdata(scn, NULL);
		size_t i;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB ||
		    !data || !sh.sh_entsize)
			continue;
		for (i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			const char *n;

			if (!gelf_getsym(data, (int)i, &sym))
				break;
			n = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (n && !strcmp(n, name))
				return sym.st_value;
		}
	}
	return 0;
}

/*
 * testdata/arm64/bin/leafcalls (gcc -O2 -fno-omit-frame-pointer, static):
 * _start (x30 undefined); spin, a leaf (no frame record: its CFA moves
 * to sp+16 after its first instructions, x30 stays in place); descend,
 * which begins with stp x29, x30 (then CFA sp+16, x30 at CFA-8)
 */
static void test_arm64_cfi(void)
{
	const char *top = getenv("PD_TOP");
	struct pd_cfi_regs r;
	char path[4096];
	Dwarf_CFI *cfi = NULL;
	uint64_t caller, start, spin, descend;
	Elf *elf = NULL;
	int fd;

	snprintf(path, sizeof(path), "%s/testdata/arm64/bin/leafcalls",
		 top ? top : ".");
	fd = open(path, O_RDONLY);
	elf_version(EV_CURRENT);
	if (fd >= 0)
		elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf)
		cfi = dwarf_getcfi_elf(elf);
	if (!cfi) {
		printf("ok %d # skip %s: no aarch64 program to read CFI from\n",
		       ++tap_n, path);
		goto out;
	}
	start = sym_addr(elf, "_start");
	spin = sym_addr(elf, "spin");
	descend = sym_addr(elf, "descend");
	CHECK(start && spin && descend, "leafcalls: _start, spin, descend");
	memset(&r, 0, sizeof(r));
	r.val[30] = 0x400320;	/* lr: in via_a */
	r.set = 1ULL << 30 | 1ULL << 31;	/* sp 0: not recorded */
	CHECK(cfi_step(cfi, spin, &r, &caller) == PD_CFI_CALLER &&
	      caller == 0x400320, "leaf at entry: the caller is the link register");
	CHECK(cfi_step(cfi, spin + 0x20, &r, &caller) == PD_CFI_CALLER &&
	      caller == 0x400320, "leaf with no frame record: the link register");
	CHECK(cfi_step(cfi, descend, &r, &caller) == PD_CFI_CALLER &&
	      caller == 0x400320, "non-leaf before its stp: the link register");
	CHECK(cfi_step(cfi, descend + 8, &r, &caller) == PD_CFI_FAIL,
	      "non-leaf after its stp, no stack: the saved lr does not read, no caller");
	r.val[31] = 0x7000;
	CHECK(cfi_step(cfi, descend + 8, &r, &caller) == PD_CFI_CALLER &&
	      caller == 0x400374, "non-leaf after its stp: the lr saved at CFA - 8");
	CHECK(cfi_step(cfi, start, &r, &caller) == PD_CFI_CALLER &&
	      caller == 0, "_start: x30 undefined, the outermost frame");
	CHECK(cfi_step(cfi, 0x300000, &r, &caller) == PD_CFI_FALLBACK,
	      "no CFI for the pc: libunwind's link register fallback");
	r.set = 1ULL << 31;
	CHECK(cfi_step(cfi, spin, &r, &caller) == PD_CFI_FAIL,
	      "leaf without the link register recorded: no caller");
	r.set = 1ULL << 30;
	CHECK(cfi_step(cfi, spin, &r, &caller) == PD_CFI_FALLBACK,
	      "CFA from a register the sample lacks: the link register fallback");
out:
	if (cfi)
		dwarf_cfi_end(cfi);
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
}

static void test_regs(void)
{
	const struct pd_unwind_arch *a = pd__unwind_arch("x86_64");
	struct pd_event ev;
	uint64_t v;

	CHECK(a && a->nr_dwarf == 17, "x86_64: 17 DWARF registers");
	CHECK(a && a->perf_reg[0] == 0 && a->perf_reg[1] == 3 &&
	      a->perf_reg[2] == 2 && a->perf_reg[3] == 1 &&
	      a->perf_reg[6] == 6 && a->perf_reg[7] == 7 &&
	      a->perf_reg[8] == 16 && a->perf_reg[15] == 23 &&
	      a->perf_reg[16] == 8,
	      "x86_64: DWARF rax rdx rcx rbx .. rbp rsp r8-r15 rip from perf's AX BX CX DX .. IP");
	CHECK(pd__unwind_arch("aarch64") && pd__unwind_arch("arm64") &&
	      pd__unwind_arch("i686") == pd__unwind_arch("i386") &&
	      pd__unwind_arch("i386")->abi == 1 &&
	      pd__unwind_arch("aarch64")->perf_ip == 32 &&
	      !pd__unwind_arch("riscv64") && !pd__unwind_arch(NULL),
	      "aarch64 and i386 known, other arches refused");
	CHECK(pd__unwind_arch("amd64") == a, "amd64 is x86_64");
	sample(&ev, FULL_MASK, 2, 64, 64);
	CHECK(!pd__unwind_reg(&ev.u.sample.user_regs, 16, &v) && v == 0x100 + 16,
	      "R8 is the 13th value of a full mask (DS-GS absent)");
	CHECK(!pd__unwind_reg(&ev.u.sample.user_regs, 8, &v) && v == 0x401234,
	      "IP read");
	CHECK(pd__unwind_reg(&ev.u.sample.user_regs, 12, &v) == -ENOENT,
	      "DS not in the mask: -ENOENT");
	ev.u.sample.user_regs.nr = 3;	/* lies about its size */
	CHECK(pd__unwind_reg(&ev.u.sample.user_regs, 16, &v) == -ENOENT,
	      "a register past nr is not read");
}

static void test_samples(void)
{
	struct pd_symbolizer_opts so = { .sz = sizeof(so) };
	struct pd_symbolizer *sym = pd_symbolizer__new(&so);
	struct pd_session_opts xo = { .sz = sizeof(xo), .symbolizer = sym };
	struct pd_session *s = pd_session__new(NULL, &xo);
	struct pd_unwinder *u = pd_unwinder__new(s, NULL, NULL);
	struct pd_thread *t = pd_session__thread(s, 42, 42);
	struct pd_unwind_ip ips[8];
	struct pd_frame frames[8];
	struct pd_event ev;

	CHECK(sym && s && u && t, "symbolizer, session, unwinder");
	if (!u || !t)
		goto out;
	sample(&ev, FULL_MASK, 2, sizeof(stack), sizeof(stack));
	CHECK(pd_unwinder__user_stack(u, t, &ev, ips, 8) == 1 &&
	      ips[0].pc == 0x401234 && ips[0].activation,
	      "no maps: the sampled ip alone, as perf");
	CHECK(pd_unwinder__sample_frames(u, t, &ev, frames, 8) == 1 &&
	      frames[0].ip == 0x401234 && !frames[0].has_map,
	      "frames: the ip, unresolved");
	sample(&ev, FULL_MASK, 0, sizeof(stack), sizeof(stack));
	CHECK(pd_unwinder__user_stack(u, t, &ev, ips, 8) == 0,
	      "abi 0 (no registers): nothing unwound");
	sample(&ev, FULL_MASK, 2, 0, 0);
	CHECK(pd_unwinder__user_stack(u, t, &ev, ips, 8) == 0,
	      "zero-size stack: nothing unwound");
	sample(&ev, FULL_MASK, 2, sizeof(stack), 0);
	CHECK(pd_unwinder__user_stack(u, t, &ev, ips, 8) == 0,
	      "dyn_size 0: nothing unwound");
	sample(&ev, FULL_MASK, 2, 64, 128);
	CHECK(pd_unwinder__user_stack(u, t, &ev, ips, 8) == 0,
	      "dyn_size above size: nothing read past the copy");
	sample(&ev, FULL_MASK & ~(1ULL << 7), 2, sizeof(stack), sizeof(stack));
	CHECK(pd_unwinder__user_stack(u, t, &ev, ips, 8) == -ENODATA &&
	      pd_unwinder__sample_frames(u, t, &ev, frames, 8) == -ENODATA,
	      "no SP in the mask: perf drops the callchain");
	sample(&ev, FULL_MASK & ~(1ULL << 8), 2, sizeof(stack), sizeof(stack));
	CHECK(pd_unwinder__user_stack(u, t, &ev, ips, 8) == -ENODATA,
	      "no IP in the mask: perf drops the callchain");
	sample(&ev, FULL_MASK, 1, sizeof(stack), sizeof(stack));
	CHECK(pd_unwinder__user_stack(u, t, &ev, ips, 8) == 1 &&
	      ips[0].pc == 0x401234 && ips[0].activation,
	      "32-bit ABI: unwound as i386 (no maps: the ip alone)");
	sample(&ev, FULL_MASK, 2, sizeof(stack), sizeof(stack));
	ev.u.sample.sample_type &= ~PD_SAMPLE_STACK_USER;
	CHECK(!pd_unwinder__wants(&ev) &&
	      pd_unwinder__user_stack(u, t, &ev, ips, 8) == 0,
	      "no STACK_USER: not a DWARF sample");
out:
	pd_unwinder__free(u);
	pd_session__free(s);
	pd_symbolizer__free(sym);
}

int main(void)
{
	test_regs();
	test_guess();
	test_aarch64();
	test_arm64_cfi();
	test_samples();
	return tap_done();
}
