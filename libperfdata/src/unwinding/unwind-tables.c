// SPDX-License-Identifier: MIT
/*
 * What unwinding asks of a frame's pc before stepping from it: its CFI
 * row as libdw finds it (kept per space and per file, unwind-row.c),
 * whether perf's libunwind would find its file's unwind tables at all,
 * and whether its code is a signal trampoline (kept per space). Each
 * question is asked of every frame, so each answer is cached.
 */
#include <stdlib.h>
#include <string.h>

#include "unwind-dwfl.h"
#include "unwind-space.h"
#include "unwind-tables.h"

/* libunwind's unw_is_signal_frame(): the code at pc is sigreturn */
bool pd__uw_is_sigreturn(struct uw_ctx *c, uint64_t pc)
{
	const struct pd_unwind_arch *a = c->a;
	uint8_t code[16];
	size_t i;

	if (!a->sigreturn_len || a->sigreturn_len > sizeof(code))
		return false;
	for (i = 0; i < a->sigreturn_len; i += 8) {
		Dwarf_Word w;

		if (!pd__uw_memory_read(NULL, pc + i, &w, c->sp))
			return false;
		memcpy(code + i, &w, sizeof(w));
	}
	return !memcmp(code, a->sigreturn, a->sigreturn_len);
}

/*
 * Whether reads of [addr, addr + len) go to the mapped files whatever
 * the sample's stack copy: below the stack pointer, or above what the
 * copy and its slack (perf_access_mem()) can reach.
 */
static bool reads_files_only(const struct uw_ctx *c, uint64_t addr,
			     uint64_t len)
{
	uint64_t top = c->stack_lo + STACK_SLACK;

	if (addr + len < addr)
		return false;
	if (addr + len <= c->stack_lo)
		return true;
	return top > c->stack_lo && c->stack_hi <= top && addr >= top;
}

/*
 * pd__uw_is_sigreturn() for a frame, from the space's cache when the answer
 * cannot depend on the sample: its reads, their failure included
 * (c->read_failed), are the same while maps and reported files are.
 */
bool pd__uw_frame_is_sigreturn(struct uw_ctx *c, uint64_t pc)
{
	struct uw_space *sp = c->sp;
	struct uw_sig *e;
	bool failed = c->read_failed, ret;

	if (!reads_files_only(c, pc, 16))
		return pd__uw_is_sigreturn(c, pc);
	if (!sp->sigs) {
		sp->sigs = calloc(UW_SIGS, sizeof(*sp->sigs));
		if (!sp->sigs)
			return pd__uw_is_sigreturn(c, pc);
		sp->sigs_gen = sp->maps->gen;
	}
	if (sp->sigs_gen != sp->maps->gen) {
		sp->sigs_epoch++;
		sp->sigs_gen = sp->maps->gen;
	}
	e = &sp->sigs[((pc * 0x9e3779b97f4a7c15ULL) >> 32) % UW_SIGS];
	if (e->state && e->pc == pc && e->epoch == sp->sigs_epoch) {
		if (e->state == UW_SIG_FAILED)
			c->read_failed = true;
		return e->state == UW_SIG_YES;
	}
	c->read_failed = false;
	ret = pd__uw_is_sigreturn(c, pc);
	/* the answer as the files now reported give it */
	e->pc = pc;
	e->epoch = sp->sigs_epoch;
	e->state = c->read_failed ? UW_SIG_FAILED : ret ? UW_SIG_YES : UW_SIG_NO;
	c->read_failed = c->read_failed || failed;
	return ret;
}

/*
 * Whether perf's libunwind finds the unwind table entries of module m.
 * read_unwind_spec_eh_frame() takes the file's load address to be the
 * lowest start of any map of the same file in the process, less
 * elf_base_address(). perf keeps the maps of a process's previous image
 * across exec, so a file the old image mapped lower (libc, ld.so after a
 * fork and exec) gets a wrong base: the table lookup then misses and
 * libunwind falls back to frame-pointer guessing.
 */
bool pd__uw_perf_finds_tables(struct uw_space *sp, struct uw_mod *m)
{
	size_t i;

	if (m->perf_base_gen != sp->maps->gen) {
		uint64_t lo = UINT64_MAX;

		for (i = 0; i < sp->maps->nr; i++)
			if (sp->maps->v[i].path == m->path &&
			    sp->maps->v[i].start < lo)
				lo = sp->maps->v[i].start;
		m->perf_base = lo - m->elf_base;
		m->perf_base_gen = sp->maps->gen;
	}
	return m->perf_base == m->bias;
}

/* The call frame information for addr (libunwind's lookup), or NULL */
Dwarf_Frame *pd__uw_cfi_frame(struct uw_space *sp, uint64_t addr)
{
	Dwfl_Module *mod = dwfl_addrmodule(sp->dwfl, addr);
	Dwarf_Frame *frame;
	Dwarf_CFI *cfi;
	Dwarf_Addr bias;

	if (!mod)
		return NULL;
	cfi = dwfl_module_eh_cfi(mod, &bias);
	if (cfi && !dwarf_cfi_addrframe(cfi, addr - bias, &frame))
		return frame;
	cfi = dwfl_module_dwarf_cfi(mod, &bias);
	if (cfi && !dwarf_cfi_addrframe(cfi, addr - bias, &frame))
		return frame;
	return NULL;
}

/*
 * The CFI row at addr as libdw finds it (the module it has there), from
 * the space's cache, the file's, or libdw (then kept in both); in *tmp
 * when there is no memory for them.
 */
const struct pd_row *pd__uw_space_row(struct pd_unwinder *u,
				      struct uw_space *sp, uint64_t addr,
				      struct pd_row *tmp)
{
	const struct pd_unwind_arch *a = sp->arch->a;
	struct pd_row *row = pd__row_slot(&sp->rows, UW_ROWS, NULL, addr);
	struct pd_row *fr = NULL;
	Dwfl_Module *mod;
	Dwarf_Frame *frame;
	struct uw_mod *m;
	uint64_t rel = 0;

	if (row && row->state != PD_ROW_EMPTY && row->addr == addr)
		return row;
	if (!row)
		row = tmp;
	mod = dwfl_addrmodule(sp->dwfl, addr);
	m = mod ? mod_of(sp, mod) : NULL;
	if (m && m->dso) {
		rel = addr - m->dw_bias;
		fr = pd__row_slot(&u->file_rows, UW_FILE_ROWS, m->dso, rel);
		if (fr && fr->state != PD_ROW_EMPTY && fr->file == m->dso &&
		    fr->addr == rel) {
			*row = *fr;
			goto out;
		}
	}
	frame = pd__uw_cfi_frame(sp, addr);
	pd__row_parse(frame, a->cfi_rows ? a->nr_dwarf : 0, a->dwarf_ra, row);
	free(frame);
	if (fr) {
		*fr = *row;
		fr->file = m->dso;
		fr->addr = rel;
	}
out:
	row->file = NULL;
	row->addr = addr;
	return row;
}
