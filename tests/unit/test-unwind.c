// SPDX-License-Identifier: MIT
/*
 * The unwinder's rules that need no recording: perf's register order,
 * samples perf does not unwind (no registers, an empty or lying stack
 * copy, registers without ip or sp), a sample of a process with no maps
 * (nothing: perf has no unwinder for it) or only the vdso (the ip
 * alone), and libunwind's frame-pointer and PLT guesses. Then the
 * situations of system-wide profiles where perf's unwinding depends on
 * the process's history, built from hand-made records over a program of
 * testdata (burn-nofp, static, with .eh_frame_hdr) and hand-made stacks:
 * the unwinder perf registers per process, where perf thinks a file is
 * (its lowest map of the same file: device and inode, less the offset),
 * a failed read of the tables, libunwind's cache of register states per
 * process, and a step from a register a guess left without a value.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <perfdata/format.h>
#include <perfdata/session.h>
#include <perfdata/unwind.h>

#include "session/session-maps.h"
#include "tap.h"
#include "session/session-internal.h"
#include "unwinding/unwind-arch.h"
#include "unwinding/unwind-arm64.h"
#include "unwinding/unwind-core.h"

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

/* An MMAP2 of pid's: device 8:1, inode ino (0: none) */
static void mmap_event(struct pd_session *s, uint32_t pid, const char *path,
		       uint64_t start, uint64_t len, uint64_t pgoff,
		       uint64_t ino, uint32_t prot)
{
	struct pd_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = PD_RECORD_MMAP2;
	ev.misc = PD_MISC_USER;
	ev.u.mmap.pid = ev.u.mmap.tid = pid;
	ev.u.mmap.start = start;
	ev.u.mmap.len = len;
	ev.u.mmap.pgoff = pgoff;
	ev.u.mmap.maj = ino ? 8 : 0;
	ev.u.mmap.min = ino ? 1 : 0;
	ev.u.mmap.ino = ino;
	ev.u.mmap.prot = prot;
	ev.u.mmap.filename = path;
	if (pd_session__event(s, &ev))
		CHECK(0, "MMAP2 %s taken", path);
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
	CHECK(pd_unwinder__user_stack(u, t, &ev, ips, 8) == 0 &&
	      pd_unwinder__stop(u, NULL) == PD_UNWIND_STOP_NO_ELF &&
	      pd_unwinder__sample_frames(u, t, &ev, frames, 8) == 0,
	      "no maps: no frame at all, not even the ip (perf registers no unwinder for the process)");
	/* perf's own vdso, always there: an unwinder */
	mmap_event(s, 42, "[vdso]", 0x7fff0000, 0x2000, 0, 0, 0);
	CHECK(pd_unwinder__user_stack(u, t, &ev, ips, 8) == 1 &&
	      ips[0].pc == 0x401234 && ips[0].activation,
	      "the vdso mapped: the sampled ip alone (outside every map), as perf");
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


/* ---- system-wide situations, over testdata/bin/burn-nofp ---- */

#define PROT_R		1
#define PROT_RX		5
#define STACK_SP	0x7ffc0000ULL
#define LOW		0x100000ULL	/* a lower map of the program */

static char prog[4096];
static uint64_t fn_inner_hot, fn_middle, fn_outer, fn_run, fn_main,
		fn_start, fn_leaf_cold, fn_other_work;
/* the program's PT_LOADs as maps (page-aligned start, length, offset) */
static struct { uint64_t start, len, pgoff; } seg[8];
static unsigned int nr_seg;
static uint64_t file_len;
/* a pc no FDE covers, and one whose CFA is rbx plus an offset */
static uint64_t pc_no_fde, pc_cfa_rbx;
static uint64_t sregs[24], words[32];

struct world {
	struct pd_symbolizer *sym;
	struct pd_session *s;
	struct pd_unwinder *u;
};

static bool world_new(struct world *w)
{
	struct pd_symbolizer_opts so = { .sz = sizeof(so), .no_debuginfod = true };
	struct pd_session_opts xo = { .sz = sizeof(xo) };

	memset(w, 0, sizeof(*w));
	w->sym = pd_symbolizer__new(&so);
	xo.symbolizer = w->sym;
	if (w->sym)
		w->s = pd_session__new(NULL, &xo);
	if (w->s)
		w->u = pd_unwinder__new(w->s, NULL, NULL);
	return w->u;
}

static void world_free(struct world *w)
{
	pd_unwinder__free(w->u);
	pd_session__free(w->s);
	pd_symbolizer__free(w->sym);
}

enum { ALL_SEGS, CODE_ONLY, NOT_FIRST };

/*
 * The program mapped as the loader maps it, file inode ino: all its
 * segments, or only the code's, or all but the first (their records
 * lost)
 */
static void map_prog(struct world *w, uint32_t pid, uint64_t ino, int which)
{
	unsigned int i;

	for (i = 0; i < nr_seg; i++) {
		bool code = seg[i].start <= fn_main &&
			    fn_main < seg[i].start + seg[i].len;

		if ((which == CODE_ONLY && !code) || (which == NOT_FIRST && !i))
			continue;
		mmap_event(w->s, pid, prog, seg[i].start, seg[i].len,
			   seg[i].pgoff, ino, code ? PROT_RX : PROT_R);
	}
}

static void task_event(struct world *w, uint32_t type, uint32_t pid,
		       uint32_t ppid, const char *comm, bool exec)
{
	struct pd_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = type;
	if (type == PD_RECORD_COMM) {
		ev.misc = exec ? PD_MISC_COMM_EXEC : 0;
		ev.u.comm.pid = ev.u.comm.tid = pid;
		ev.u.comm.comm = comm;
	} else {
		ev.u.fork.pid = ev.u.fork.tid = pid;
		ev.u.fork.ppid = ev.u.fork.ptid = ppid;
	}
	if (pd_session__event(w->s, &ev))
		CHECK(0, "record %u of %u taken", type, pid);
}

/* A DWARF sample of pid at ip with rbp, its stack copy words[0..n) at sp. */
static void chain_sample(struct pd_event *ev, uint32_t pid, uint64_t ip,
			 uint64_t bp, unsigned int n)
{
	unsigned int i, k = 0;

	memset(ev, 0, sizeof(*ev));
	ev->type = PD_RECORD_SAMPLE;
	ev->u.sample.sample_type = PD_SAMPLE_IP | PD_SAMPLE_TID |
				   PD_SAMPLE_CALLCHAIN | PD_SAMPLE_REGS_USER |
				   PD_SAMPLE_STACK_USER;
	ev->u.sample.pid = ev->u.sample.tid = pid;
	ev->u.sample.ip = ip;
	for (i = 0; i < 24; i++) {
		if (!(FULL_MASK & (1ULL << i)))
			continue;
		sregs[k++] = i == 6 ? bp : i == 7 ? STACK_SP : i == 8 ? ip :
			     0x100 + i;
	}
	ev->u.sample.user_regs.abi = 2;
	ev->u.sample.user_regs.mask = FULL_MASK;
	ev->u.sample.user_regs.nr = k;
	ev->u.sample.user_regs.regs = sregs;
	/* (perf's access_mem() does not read the last word of its copy) */
	ev->u.sample.user_stack.size = (n + 1) * 8;
	ev->u.sample.user_stack.dyn_size = (n + 1) * 8;
	ev->u.sample.user_stack.data = words;
}

/*
 * A chain of calls caught at their callees' first instructions (CFA =
 * sp + 8, the return address at sp): inner_hot, called from middle, from
 * outer, run, main and _start, whose return address is undefined. The
 * return addresses are each caller's entry + 1, looked up at its entry.
 * rbp 0: a guessed step anywhere ends the chain.
 */
static void entry_chain(struct pd_event *ev, uint32_t pid)
{
	memset(words, 0, sizeof(words));
	words[0] = fn_middle + 1;
	words[1] = fn_outer + 1;
	words[2] = fn_run + 1;
	words[3] = fn_main + 1;
	words[4] = fn_start + 1;
	chain_sample(ev, pid, fn_inner_hot, 0, 6);
}

static bool is_entry_chain(const struct pd_unwind_ip *ips, int n)
{
	return n == 6 && ips[0].pc == fn_inner_hot && ips[0].activation &&
	       ips[1].pc == fn_middle + 1 && !ips[1].activation &&
	       ips[2].pc == fn_outer + 1 && ips[3].pc == fn_run + 1 &&
	       ips[4].pc == fn_main + 1 && ips[5].pc == fn_start + 1;
}

/* n frames, from pid's thread */
static int unwind_pid(struct world *w, uint32_t pid, const struct pd_event *ev,
		      struct pd_unwind_ip *ips, int max)
{
	struct pd_thread *t = pd_session__thread(w->s, (int32_t)pid,
						 (int32_t)pid);

	return t ? pd_unwinder__user_stack(w->u, t, ev, ips, max) : -ENOMEM;
}

/* The program's layout, functions and two pcs of its CFI. */
static bool prog_setup(void)
{
	const char *top = getenv("PD_TOP");
	Dwarf_CFI *cfi = NULL;
	Elf *elf = NULL;
	size_t i, phnum;
	uint64_t pc;
	bool ok = false;
	int fd;

	char rel[4096];

	/* recorded paths are absolute */
	snprintf(rel, sizeof(rel), "%s/testdata/bin/burn-nofp", top ? top : ".");
	if (!realpath(rel, prog))
		snprintf(prog, sizeof(prog), "%s", rel);
	fd = open(prog, O_RDONLY);
	elf_version(EV_CURRENT);
	if (fd >= 0)
		elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf)
		cfi = dwarf_getcfi_elf(elf);
	if (!cfi || elf_getphdrnum(elf, &phnum))
		goto out;
	file_len = (uint64_t)lseek(fd, 0, SEEK_END);
	for (i = 0; i < phnum && nr_seg < 8; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD ||
		    (ph.p_flags & PF_W))
			continue;
		seg[nr_seg].start = ph.p_vaddr & ~0xfffULL;
		seg[nr_seg].pgoff = ph.p_offset & ~0xfffULL;
		seg[nr_seg].len = ((ph.p_vaddr + ph.p_filesz + 0xfff) & ~0xfffULL) -
				  seg[nr_seg].start;
		nr_seg++;
	}
	fn_inner_hot = sym_addr(elf, "inner_hot");
	fn_middle = sym_addr(elf, "middle");
	fn_outer = sym_addr(elf, "outer");
	fn_run = sym_addr(elf, "run");
	fn_main = sym_addr(elf, "main");
	fn_start = sym_addr(elf, "_start");
	fn_leaf_cold = sym_addr(elf, "leaf_cold");
	fn_other_work = sym_addr(elf, "other_work");
	/* the loader's first page of code: .init, before every FDE */
	for (i = 0; i < nr_seg && !pc_no_fde; i++) {
		Dwarf_Frame *f = NULL;

		if (seg[i].start > fn_main || fn_main >= seg[i].start + seg[i].len)
			continue;
		pc = seg[i].start + 4;
		if (dwarf_cfi_addrframe(cfi, pc, &f))
			pc_no_fde = pc;
		free(f);
		/* a row of glibc's whose CFA is rbx plus an offset */
		for (pc = seg[i].start; pc < seg[i].start + seg[i].len &&
		     !pc_cfa_rbx; pc += 4) {
			Dwarf_Op *ops;
			size_t nops;

			f = NULL;
			if (!dwarf_cfi_addrframe(cfi, pc, &f) &&
			    !dwarf_frame_cfa(f, &ops, &nops) && nops == 1 &&
			    ((ops[0].atom == DW_OP_breg3 && ops[0].number) ||
			     (ops[0].atom == DW_OP_bregx && ops[0].number == 3 &&
			      ops[0].number2)))
				pc_cfa_rbx = pc + 1;	/* a return address */
			free(f);
		}
	}
	ok = nr_seg >= 3 && fn_inner_hot && fn_middle && fn_outer && fn_run &&
	     fn_main && fn_start && fn_leaf_cold && fn_other_work;
out:
	if (cfi)
		dwarf_cfi_end(cfi);
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
	return ok;
}

/*
 * perf registers its unwinder for a process only with a map of a file it
 * reads as ELF, or the vdso (unwind__prepare_access()); a forked process
 * gets one when a map it copies is such a file.
 */
static void test_unwinder_registered(void)
{
	struct pd_unwind_ip ips[16];
	struct pd_event ev;
	struct world w;
	char txt[4096];

	if (!world_new(&w))
		goto out;
	entry_chain(&ev, 10);
	CHECK(unwind_pid(&w, 10, &ev, ips, 16) == 0 &&
	      pd_unwinder__stop(w.u, NULL) == PD_UNWIND_STOP_NO_ELF,
	      "a process with no map (its MMAP records lost): no frame");
	snprintf(txt, sizeof(txt), "%s", prog);
	strcpy(strrchr(txt, '/') + 1, "../README.md");
	mmap_event(w.s, 10, txt, fn_main & ~0xfffULL, 0x1000, 0, 0, PROT_RX);
	CHECK(unwind_pid(&w, 10, &ev, ips, 16) == 0,
	      "... and with a map of a file that is not ELF: none still");
	map_prog(&w, 11, 0, ALL_SEGS);
	entry_chain(&ev, 11);
	CHECK(is_entry_chain(ips, unwind_pid(&w, 11, &ev, ips, 16)),
	      "a process with the program mapped: the whole chain");
	task_event(&w, PD_RECORD_FORK, 12, 11, NULL, false);
	entry_chain(&ev, 12);
	CHECK(is_entry_chain(ips, unwind_pid(&w, 12, &ev, ips, 16)),
	      "its child (the maps copied at fork): the whole chain");
	task_event(&w, PD_RECORD_FORK, 13, 10, NULL, false);
	entry_chain(&ev, 13);
	CHECK(unwind_pid(&w, 13, &ev, ips, 16) == 0,
	      "the child of a process without one: no frame");
out:
	world_free(&w);
}

/*
 * Where perf reads a file's tables: at the start less the offset of the
 * lowest map of the same DSO (same path, device and inode), less the
 * first PT_LOAD's page. A container's copy of a file (another inode)
 * mapped above the host's copy the process kept from before its exec is
 * another DSO: its own maps place it, and perf unwinds through it.
 */
static void test_other_inode(void)
{
	struct pd_unwind_ip ips[16];
	struct pd_event ev;
	struct world w;

	if (!world_new(&w))
		goto out;
	mmap_event(w.s, 20, prog, LOW, (file_len + 0xfff) & ~0xfffULL, 0, 111,
		   PROT_RX);
	map_prog(&w, 20, 222, ALL_SEGS);
	entry_chain(&ev, 20);
	CHECK(is_entry_chain(ips, unwind_pid(&w, 20, &ev, ips, 16)),
	      "the same path lower with another inode (the host's file): tables read at the file's own base, the whole chain");
	mmap_event(w.s, 21, prog, LOW, (file_len + 0xfff) & ~0xfffULL, 0, 222,
		   PROT_RX);
	map_prog(&w, 21, 222, ALL_SEGS);
	entry_chain(&ev, 21);
	CHECK(unwind_pid(&w, 21, &ev, ips, 16) == 1 &&
	      ips[0].pc == fn_inner_hot &&
	      pd_unwinder__stop(w.u, NULL) == PD_UNWIND_STOP_NO_CFI,
	      "the same file lower (same inode): a wrong base, no entry found, the guess ends the chain (rbp 0)");
	/*
	 * the first page's record lost, the code's and the tables' there:
	 * the lowest map is the code's, at offset 0x1000 (a frame-pointer
	 * chain at rbp = sp + 0x40 for a guess to follow)
	 */
	map_prog(&w, 22, 0, NOT_FIRST);
	entry_chain(&ev, 22);
	words[8] = 0;
	words[9] = fn_other_work + 1;
	ev.u.sample.user_stack.size = ev.u.sample.user_stack.dyn_size = 11 * 8;
	sregs[6] = STACK_SP + 0x40;
	CHECK(is_entry_chain(ips, unwind_pid(&w, 22, &ev, ips, 16)),
	      "the first page's map lost: the file starts at the code's map's start less its offset, the whole chain");
out:
	world_free(&w);
}

/*
 * A read of the tables outside the stack copy and every map fails
 * libunwind's step: no guess, the chain ends (perf 6.1.91 and later take
 * the lowest map's start less its offset for the file's start: the
 * right one when only the code's map was recorded).
 */
static void test_tables_unread(void)
{
	struct pd_unwind_ip ips[16];
	struct pd_event ev;
	struct world w;

	if (!world_new(&w))
		goto out;
	/* a frame-pointer chain a guess would follow: rbp at sp + 0x40 */
	map_prog(&w, 30, 0, CODE_ONLY);
	entry_chain(&ev, 30);
	words[8] = 0;
	words[9] = fn_other_work + 1;
	ev.u.sample.user_stack.size = ev.u.sample.user_stack.dyn_size = 11 * 8;
	sregs[6] = STACK_SP + 0x40;	/* rbp */
	CHECK(unwind_pid(&w, 30, &ev, ips, 16) == 1 &&
	      pd_unwinder__stop(w.u, NULL) == PD_UNWIND_STOP_MEMORY,
	      "only the code mapped (the tables' map lost): the table read fails, one frame, no guess");
	map_prog(&w, 30, 0, ALL_SEGS);
	CHECK(is_entry_chain(ips, unwind_pid(&w, 30, &ev, ips, 16)),
	      "... with the tables' map: the whole chain");
	/* a wrong base whose table lies where nothing is mapped */
	mmap_event(w.s, 31, prog, LOW, 0x1000, 0, 0, PROT_R);
	map_prog(&w, 31, 0, ALL_SEGS);
	entry_chain(&ev, 31);
	words[8] = 0;
	words[9] = fn_other_work + 1;
	ev.u.sample.user_stack.size = ev.u.sample.user_stack.dyn_size = 11 * 8;
	sregs[6] = STACK_SP + 0x40;
	CHECK(unwind_pid(&w, 31, &ev, ips, 16) == 1 &&
	      pd_unwinder__stop(w.u, NULL) == PD_UNWIND_STOP_MEMORY,
	      "a page of the file mapped lower: its table read at that base hits no map, one frame, no guess");
out:
	world_free(&w);
}

/*
 * libunwind's cache per process (UNW_CACHE_GLOBAL): the register state
 * of the last 128 pcs stepped from with tables. A pc found there is
 * stepped from as before even where the tables now read at a wrong base;
 * an exec empties it, a new process starts with none.
 */
static void test_rs_cache(void)
{
	struct pd_unwind_ip ips[16];
	struct pd_maps *m = NULL;
	struct pd_event ev;
	struct world w;
	uint64_t ip;
	bool ok;

	if (!world_new(&w))
		goto out;
	task_event(&w, PD_RECORD_COMM, 40, 0, "prog", false);
	map_prog(&w, 40, 222, ALL_SEGS);
	entry_chain(&ev, 40);
	CHECK(is_entry_chain(ips, unwind_pid(&w, 40, &ev, ips, 16)),
	      "the chain, its pcs now in the process's cache");
	/* the program maps its own file lower: perf's base is wrong */
	mmap_event(w.s, 40, prog, LOW, (file_len + 0xfff) & ~0xfffULL, 0, 222,
		   PROT_R);
	task_event(&w, PD_RECORD_FORK, 41, 40, NULL, false);
	CHECK(is_entry_chain(ips, unwind_pid(&w, 40, &ev, ips, 16)),
	      "the same stack after a lower map of the file: stepped from the cache, the whole chain");
	entry_chain(&ev, 40);
	ev.u.sample.ip = sregs[16 - 8] = fn_leaf_cold;
	sregs[8] = fn_leaf_cold;
	CHECK(unwind_pid(&w, 40, &ev, ips, 16) == 1 && ips[0].pc == fn_leaf_cold,
	      "a pc not in the cache: looked up at the wrong base, no entry, the guess ends the chain");
	entry_chain(&ev, 41);
	CHECK(unwind_pid(&w, 41, &ev, ips, 16) == 1,
	      "the forked child, with the same maps: a cache of its own, empty, one frame");
	task_event(&w, PD_RECORD_COMM, 40, 0, "prog2", true);
	entry_chain(&ev, 40);
	CHECK(unwind_pid(&w, 40, &ev, ips, 16) == 1,
	      "after an exec (the maps kept, as perf keeps them): the cache emptied, one frame");

	/* 128 pcs, the oldest leaving first (round robin, not LRU) */
	m = pd__maps_new();
	ok = m != NULL;
	for (ip = 1; ok && ip <= 128; ip++)
		ok = !pd__maps_rs_add(m, ip * 16);
	for (ip = 1; ok && ip <= 128; ip++)
		ok = pd__maps_rs_cached(m, ip * 16);
	CHECK(ok, "the cache holds 128 pcs");
	ok = ok && !pd__maps_rs_add(m, 129 * 16);
	CHECK(ok && !pd__maps_rs_cached(m, 16) && pd__maps_rs_cached(m, 32) &&
	      pd__maps_rs_cached(m, 129 * 16),
	      "the 129th takes the place of the first");
	ok = ok && !pd__maps_rs_add(m, 130 * 16);
	CHECK(ok && !pd__maps_rs_cached(m, 32) && pd__maps_rs_cached(m, 48),
	      "the 130th that of the second, whatever was looked up since");
	if (m)
		pd__maps_rs_flush(m);
	CHECK(m && !pd__maps_rs_cached(m, 48) && !pd__maps_rs_cached(m, 130 * 16),
	      "flushed: empty");
	pd__maps_put(m);

	/* a helper's notes, done to the cache here (--jobs=2) */
	{
		struct pd_thread *t = pd_session__thread(w.s, 60, 60);
		const struct uw_rs_op ok_ops[] = {
			{ 0x1000, UW_RS_ADD }, { 0x2000, UW_RS_ABSENT },
			{ 0x1000, UW_RS_PRESENT },
		};
		const struct uw_rs_op bad_ops[] = {
			{ 0x3000, UW_RS_ADD }, { 0x4000, UW_RS_PRESENT },
		};
		struct pd_maps *tm = t ? pd__thread_maps(t) : NULL;

		CHECK(t && pd__unwinder_rs_replay(t, ok_ops, 3) &&
		      pd__maps_rs_cached(tm, 0x1000) &&
		      !pd__maps_rs_cached(tm, 0x2000),
		      "a helper's notes the cache here agrees with: its pcs added");
		CHECK(t && !pd__unwinder_rs_replay(t, bad_ops, 2) &&
		      !pd__maps_rs_cached(tm, 0x3000) &&
		      pd__maps_rs_cached(tm, 0x1000),
		      "notes it does not agree with (a pc the helper's cache had): refused, the cache as it was");
		CHECK(t && !pd__unwinder_rs_replay(t, ok_ops, -1),
		      "notes lost: refused");
	}
out:
	world_free(&w);
}

/*
 * After a guessed step libunwind knows the frame pointer, the stack
 * pointer and the pc only: a caller whose CFA is computed from another
 * register (here rbx, in glibc code) fails the step, and the chain ends
 * at that caller; libdw's frame-pointer fallback would go on (to a zero
 * return address, a frame 0 more).
 */
static void test_cfa_after_guess(void)
{
	struct pd_unwind_ip ips[16];
	struct pd_event ev;
	struct world w;
	int n;

	if (!pc_no_fde || !pc_cfa_rbx) {
		printf("ok %d # skip no pc without an FDE, or none with its CFA from rbx, in %s\n",
		       ++tap_n, prog);
		return;
	}
	if (!world_new(&w))
		goto out;
	map_prog(&w, 50, 0, ALL_SEGS);
	memset(words, 0, sizeof(words));
	/* rbp = sp + 0x10: [rbp] the next rbp (sp + 0x30), [rbp + 8] the
	 * return address; at the next rbp a zero return address */
	words[2] = STACK_SP + 0x30;
	words[3] = pc_cfa_rbx;
	chain_sample(&ev, 50, pc_no_fde, STACK_SP + 0x10, 10);
	n = unwind_pid(&w, 50, &ev, ips, 16);
	CHECK(n == 2 && ips[0].pc == pc_no_fde && ips[1].pc == pc_cfa_rbx &&
	      pd_unwinder__stop(w.u, NULL) == PD_UNWIND_STOP_REGS,
	      "a guessed step to a pc whose CFA is rbx-based: two frames, the chain ends (got %d)",
	      n);
out:
	world_free(&w);
}

int main(void)
{
	struct utsname uts;

	test_regs();
	test_guess();
	test_aarch64();
	test_arm64_cfi();
	test_samples();
	/* a session without a reader: the samples are the host's */
	if (uname(&uts) || strcmp(uts.machine, "x86_64")) {
		printf("ok %d # skip x86_64 samples of a session without a recording: not on a %s host\n",
		       ++tap_n, uts.machine);
	} else if (!prog_setup()) {
		printf("ok %d # skip %s: not readable, or without its functions\n",
		       ++tap_n, prog);
	} else {
		test_unwinder_registered();
		test_other_inode();
		test_tables_unread();
		test_rs_cache();
		test_cfa_after_guess();
	}
	return tap_done();
}
