// SPDX-License-Identifier: MIT
/*
 * CFI rows applied without libdw (unwind-row.c) against libdw itself:
 * from every pc of the x86_64 programs in testdata/bin that libdw has
 * call frame information for, one step by libdw's unwinder and one by
 * the row libdw describes must give the same caller: the same registers
 * known, the same values, the same pc, or both the end of the chain.
 * Frames start with every register known, and again with only some (the
 * rules for unknown ones), over memory whose words differ by address,
 * with one word that does not read. Needs dwfl_frame_reg() (elfutils
 * 0.188) to see libdw's registers.
 */
#include <dwarf.h>
#include <elf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "unwinding/unwind-row.h"

#ifdef HAVE_DWFL_FRAME_REG
#define NREGS		17	/* libdw's x86_64 frame registers */
#define RA		16
#define BAD_ADDR	0x7ffc00001010ULL	/* the word that fails */

struct oracle {
	uint64_t regs[NREGS];
	uint64_t set;
	uint64_t pc;
	/* libdw's caller */
	int frames;
	uint64_t new_regs[NREGS];
	uint64_t new_set;
	uint64_t new_pc;
};

/* the frame libdw is given (dwfl_attach_state() takes one argument) */
static struct oracle *cur;

/* A word for every address: 0 at one in 11 (a chain's end), failing at
 * BAD_ADDR, else a mix of the address's bits. */
static int word(uint64_t addr, uint64_t *val)
{
	uint64_t x = addr * 0x9e3779b97f4a7c15ULL;

	if (addr == BAD_ADDR)
		return -1;
	x ^= x >> 29;
	*val = (addr >> 3) % 11 == 5 ? 0 : x | 1;
	return 0;
}

static int row_read(void *ctx, uint64_t addr, uint64_t *val)
{
	return word(addr, val);
}

/* part of the memory as a stack copy: the step reads it directly */
#define STACK_LO	0x7ffc00001040ULL
static uint8_t stack_copy[96];

static void fill_stack_copy(void)
{
	size_t i;

	for (i = 0; i + 8 <= sizeof(stack_copy); i += 8) {
		uint64_t v = 0;

		word(STACK_LO + i, &v);
		memcpy(stack_copy + i, &v, sizeof(v));
	}
}

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	if (*thread_argp)
		return 0;
	*thread_argp = arg;
	return 1;
}

static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result,
			void *arg)
{
	uint64_t v;

	if (word(addr, &v) < 0)
		return false;
	*result = v;
	return true;
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct oracle *o = cur;
	unsigned int i;

	for (i = 0; i < NREGS; i++) {
		Dwarf_Word w = o->regs[i];

		if ((o->set >> i & 1) &&
		    !dwfl_thread_state_registers(thread, (int)i, 1, &w))
			return false;
	}
	dwfl_thread_state_register_pc(thread, o->pc);
	return true;
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

static int no_debuginfo(Dwfl_Module *mod, void **userdata, const char *name,
			Dwarf_Addr base, const char *file, const char *link,
			GElf_Word crc, char **path)
{
	return -1;
}

static const Dwfl_Callbacks dwfl_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = no_debuginfo,
};

static int frame_cb(Dwfl_Frame *state, void *arg)
{
	struct oracle *o = arg;
	Dwarf_Addr pc;
	unsigned int i;

	if (o->frames++ == 0)
		return DWARF_CB_OK;
	if (!dwfl_frame_pc(state, &pc, NULL))
		return DWARF_CB_ABORT;
	o->new_pc = pc;
	o->new_set = 0;
	for (i = 0; i < NREGS; i++) {
		Dwarf_Word w;

		if (!dwfl_frame_reg(state, i, &w)) {
			o->new_regs[i] = w;
			o->new_set |= 1ULL << i;
		}
	}
	return DWARF_CB_ABORT;
}

struct tally {
	unsigned long same, ends, libdw, differ;
	uint64_t first_bad;
};

/* one pc, one register set: libdw's step against the row's */
static void compare(Dwfl *dwfl, Dwarf_CFI *cfi, uint64_t pc, uint64_t bias,
		    uint64_t set, struct tally *t)
{
	static unsigned int salt;
	struct oracle o = { .set = set, .pc = pc };
	/* words of [STACK_LO, STACK_HI) from the copy, as word() has them */
	struct pd_row_mem mem = {
		.data = stack_copy,
		.lo = STACK_LO,
		.hi = STACK_LO + sizeof(stack_copy),
		.read = row_read,
	};
	uint64_t nregs[NREGS], nset = 0, npc = 0;
	struct pd_row row;
	Dwarf_Frame *frame;
	unsigned int i;
	int ret, step;

	for (i = 0; i < NREGS; i++)
		o.regs[i] = 0x7ffc00001000ULL + 8 * ((i * 7 + salt) % 24);
	salt++;
	if (dwarf_cfi_addrframe(cfi, pc - bias, &frame))
		return;
	pd__row_parse(frame, NREGS, RA, &row);
	free(frame);
	if (row.state != PD_ROW_PLAIN) {
		t->libdw++;
		return;
	}
	step = pd__row_step(&row, o.regs, o.set, &mem, nregs, &nset, &npc);
	if (step == PD_ROW_ASK_LIBDW) {
		t->libdw++;
		return;
	}
	cur = &o;
	ret = dwfl_getthread_frames(dwfl, 1, frame_cb, &o);
	cur = NULL;
	if (step == PD_ROW_END && ret == 0 && o.frames == 1) {
		t->ends++;
		return;
	}
	if (step == PD_ROW_CALLER && ret == DWARF_CB_ABORT && o.frames == 2 &&
	    o.new_pc == npc && o.new_set == nset) {
		for (i = 0; i < NREGS; i++)
			if ((nset >> i & 1) && nregs[i] != o.new_regs[i])
				break;
		if (i == NREGS) {
			t->same++;
			return;
		}
	}
	if (!t->differ++)
		t->first_bad = pc;
}

static void test_file(const char *top, const char *name)
{
	char path[4096];
	struct tally t = { 0 };
	uint64_t sets[] = {
		(1ULL << NREGS) - 1,			/* all known */
		1ULL << 7 | 1ULL << RA,			/* rsp only */
		1ULL << 7 | 1ULL << 6 | 1ULL << 3,	/* rsp, rbp, rbx */
		(1ULL << NREGS) - 1 - (1ULL << 7),	/* no rsp */
	};
	Dwarf_Addr bias, lo = 0, hi = 0;
	unsigned char ehdr[sizeof(Elf64_Ehdr)] = { 0 };
	Elf64_Ehdr *h = (Elf64_Ehdr *)ehdr;
	Dwfl_Module *mod;
	Dwarf_CFI *cfi;
	Elf *arch;
	uint64_t stride;
	Dwfl *dwfl;
	size_t k;
	int fd;

	snprintf(path, sizeof(path), "%s/testdata/bin/%s", top, name);
	fd = open(path, O_RDONLY);
	dwfl = dwfl_begin(&dwfl_callbacks);
	memcpy(h->e_ident, ELFMAG, SELFMAG);
	h->e_ident[EI_CLASS] = ELFCLASS64;
	h->e_ident[EI_DATA] = ELFDATA2LSB;
	h->e_ident[EI_VERSION] = EV_CURRENT;
	h->e_type = ET_EXEC;
	h->e_machine = EM_X86_64;
	h->e_version = EV_CURRENT;
	h->e_ehsize = sizeof(*h);
	arch = elf_memory((char *)ehdr, sizeof(ehdr));
	mod = fd >= 0 && dwfl ? dwfl_report_elf(dwfl, name, path, fd, 0, true) :
				NULL;
	dwfl_report_end(dwfl, NULL, NULL);
	cfi = mod ? dwfl_module_eh_cfi(mod, &bias) : NULL;
	if (!cfi || !arch ||
	    !dwfl_attach_state(dwfl, arch, 1, &thread_callbacks, NULL)) {
		printf("ok %d # skip %s: no x86_64 program with CFI to compare on\n",
		       ++tap_n, path);
		goto out;
	}
	dwfl_module_info(mod, NULL, &lo, &hi, NULL, NULL, NULL, NULL);
	/* every pc of a small program, some 40000 of a static one's */
	stride = (hi - lo) / 40000 | 1;
	for (k = 0; k < sizeof(sets) / sizeof(sets[0]); k++) {
		uint64_t pc;

		for (pc = lo + k; pc < hi; pc += stride)
			compare(dwfl, cfi, pc, bias, sets[k], &t);
	}
	CHECK(t.same > 100 && !t.differ,
	      "%s: a CFI row's step is libdw's (%lu callers, %lu chain ends the same; %lu left to libdw; %lu differ, first at %#llx)",
	      name, t.same, t.ends, t.libdw, t.differ,
	      (unsigned long long)t.first_bad);
	CHECK(t.ends > 0 && t.libdw > 0,
	      "%s: chain ends and steps left to libdw were compared too", name);
out:
	if (dwfl)
		dwfl_end(dwfl);
	if (arch)
		elf_end(arch);
}
#endif

int main(void)
{
#ifdef HAVE_DWFL_FRAME_REG
	const char *top = getenv("PD_TOP");

	elf_version(EV_CURRENT);
	fill_stack_copy();
	test_file(top ? top : ".", "burn-nofp");
	test_file(top ? top : ".", "burn");
	test_file(top ? top : ".", "inl");
#else
	printf("ok 1 # skip elfutils before 0.188 shows no frame's registers: libdw cannot be compared with\n");
	tap_n = 1;
#endif
	return tap_done();
}
