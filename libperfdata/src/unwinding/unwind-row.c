// SPDX-License-Identifier: MIT
/*
 * A CFI row kept per pc, applied as libdw's unwinder applies it. libdw
 * finds the FDE, runs its instructions to the pc and evaluates each
 * register's rule for every frame it steps, even where the same return
 * addresses recur in most samples (callgrind of pd-fold --no-inline on
 * a mixed DWARF profile: 2.5e9 of 3.5e9 instructions under
 * dwfl_getthread_frames). Here libdw describes the row once, through
 * dwarf_frame_cfa() and dwarf_frame_register(), and the rules it gives
 * are evaluated with the meaning libdw's own evaluator gives them: the
 * CFA by its register and offset; a rule that starts from the CFA reads
 * the word there unless it ends in DW_OP_stack_value; a register
 * without a rule, or whose rule needs an unknown register, is unknown
 * in the caller. Rows with anything else, and steps that would not give
 * a caller, are left to libdw.
 */
#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include "unwind-row.h"

static bool to_off(Dwarf_Word w, int32_t *off)
{
	int64_t s = (int64_t)w;

	if (s < INT32_MIN || s > INT32_MAX)
		return false;
	*off = (int32_t)s;
	return true;
}

/* A register plus an offset: DW_OP_bregN, DW_OP_bregx, DW_OP_regN,
 * DW_OP_regx (offset 0) */
static bool reg_op(const Dwarf_Op *op, unsigned int nregs, uint8_t *reg,
		   int32_t *off)
{
	unsigned int r;
	Dwarf_Word o;

	if (op->atom >= DW_OP_breg0 && op->atom <= DW_OP_breg31) {
		r = op->atom - DW_OP_breg0;
		o = op->number;
	} else if (op->atom == DW_OP_bregx) {
		if (op->number >= nregs)
			return false;
		r = (unsigned int)op->number;
		o = op->number2;
	} else if (op->atom >= DW_OP_reg0 && op->atom <= DW_OP_reg31) {
		r = op->atom - DW_OP_reg0;
		o = 0;
	} else if (op->atom == DW_OP_regx) {
		if (op->number >= nregs)
			return false;
		r = (unsigned int)op->number;
		o = 0;
	} else {
		return false;
	}
	if (r >= nregs || !to_off(o, off))
		return false;
	*reg = (uint8_t)r;
	return true;
}

/* One register's rule; false when it is not plain. */
static bool parse_rule(Dwarf_Frame *frame, unsigned int regno, bool is_ra,
		       struct pd_row *row)
{
	Dwarf_Op ops_mem[3], *ops;
	struct pd_row_rule *r = &row->rule[row->nr];
	size_t nops, i;
	bool location;

	if (dwarf_frame_register(frame, (int)regno, ops_mem, &ops, &nops))
		return false;
	r->regno = (uint8_t)regno;
	r->src = 0;
	r->off = 0;
	if (!nops) {
		if (ops == ops_mem) {	/* undefined: no rule */
			if (is_ra)
				row->ra_rule = false;
			return true;
		}
		if (ops)
			return false;
		row->same |= 1U << regno;
		return true;
	}
	if (nops == 1 && reg_op(&ops[0], row->nr_regs, &r->src, &r->off)) {
		/* DW_OP_regN/regx push the register's value, as bregN does */
		r->kind = PD_ROW_REG;
		row->nr++;
		return true;
	}
	if (ops[0].atom != DW_OP_call_frame_cfa)
		return false;
	/* the CFA, a location unless a DW_OP_stack_value follows */
	location = true;
	i = 1;
	if (i < nops && ops[i].atom == DW_OP_plus_uconst) {
		if (!to_off(ops[i].number, &r->off))
			return false;
		i++;
	}
	if (i < nops && ops[i].atom == DW_OP_stack_value) {
		location = false;
		i++;
	}
	if (i != nops)
		return false;
	r->kind = location ? PD_ROW_AT_CFA : PD_ROW_VAL_CFA;
	row->nr++;
	return true;
}

void pd__row_parse(Dwarf_Frame *frame, unsigned int nregs, unsigned int ra_col,
		   struct pd_row *row)
{
	Dwarf_Op ops_mem[3], *ops;
	size_t nops;
	bool signal = false;
	unsigned int i;
	int ra;

	row->state = PD_ROW_LIBDW;
	row->nr = 0;
	row->same = 0;
	row->signal = false;
	row->ra_rule = false;
	row->cfa_reg_ok = false;
	row->nr_regs = (uint8_t)nregs;
	row->fde = frame != NULL;
	row->ra_undef = !frame;
	if (!frame)
		return;
	nops = 1;
	if (!dwarf_frame_register(frame, (int)ra_col, ops_mem, &ops, &nops) &&
	    !nops && ops == ops_mem)
		row->ra_undef = true;
	if (!nregs || nregs > PD_ROW_MAX_REGS)
		return;
	ra = dwarf_frame_info(frame, NULL, NULL, &signal);
	if (ra < 0 || (unsigned int)ra >= nregs)
		return;
	row->ra = (uint8_t)ra;
	row->ra_rule = true;
	row->signal = signal;
	if (dwarf_frame_cfa(frame, &ops, &nops) || nops != 1 ||
	    !(ops[0].atom == DW_OP_bregx ||
	      (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31)) ||
	    !reg_op(&ops[0], nregs, &row->cfa_reg, &row->cfa_off))
		return;
	row->cfa_reg_ok = true;
	for (i = 0; i < nregs; i++)
		if (!parse_rule(frame, i, i == (unsigned int)ra, row))
			return;
	row->state = PD_ROW_PLAIN;
}

/* a word as perf_access_mem() reads it, the stack copy's directly */
static int mem_read(const struct pd_row_mem *mem, uint64_t addr, uint64_t *val)
{
	if (mem->data && addr >= mem->lo && addr + 8 > addr &&
	    addr + 8 < mem->hi) {
		memcpy(val, mem->data + (addr - mem->lo), sizeof(*val));
		return 0;
	}
	return mem->read(mem->ctx, addr, val);
}

enum pd_row_step pd__row_step(const struct pd_row *row, const uint64_t *regs,
			      uint64_t set, const struct pd_row_mem *mem,
			      uint64_t *new_regs, uint64_t *new_set,
			      uint64_t *pc)
{
	uint64_t cfa, v, nset;
	unsigned int i;

	if (row->state != PD_ROW_PLAIN || !(set >> row->cfa_reg & 1))
		return PD_ROW_ASK_LIBDW;
	cfa = regs[row->cfa_reg] + (uint64_t)(int64_t)row->cfa_off;
	/* "the same": what is known stays, unknown stays unknown */
	memcpy(new_regs, regs, row->nr_regs * sizeof(*regs));
	nset = set & row->same;
	for (i = 0; i < row->nr; i++) {
		const struct pd_row_rule *r = &row->rule[i];
		uint64_t off = (uint64_t)(int64_t)r->off;

		switch (r->kind) {
		case PD_ROW_REG:
			if (!(set >> r->src & 1))
				continue;
			v = regs[r->src] + off;
			break;
		case PD_ROW_VAL_CFA:
			v = cfa + off;
			break;
		case PD_ROW_AT_CFA:
			if (mem_read(mem, cfa + off, &v) < 0)
				return PD_ROW_ASK_LIBDW;
			break;
		default:
			return PD_ROW_ASK_LIBDW;
		}
		new_regs[r->regno] = v;
		nset |= 1ULL << r->regno;
	}
	if (!row->ra_rule)
		return PD_ROW_END;
	if (!(nset >> row->ra & 1))
		return PD_ROW_ASK_LIBDW;
	if (!new_regs[row->ra])
		return PD_ROW_END;
	*new_set = nset;
	*pc = new_regs[row->ra];
	return PD_ROW_CALLER;
}

struct pd_row *pd__row_slot(struct pd_row_cache *rc, size_t size,
			    const void *file, uint64_t addr)
{
	uint64_t h = addr ^ ((uint64_t)(uintptr_t)file >> 4);

	struct pd_row *row;

	if (!rc->v) {
		rc->v = calloc(size, sizeof(*rc->v));
		if (!rc->v)
			return NULL;
		rc->size = size;
		rc->gen = 1;
	}
	row = &rc->v[((h * 0x9e3779b97f4a7c15ULL) >> 32) & (rc->size - 1)];
	if (row->gen != rc->gen) {
		row->state = PD_ROW_EMPTY;
		row->gen = rc->gen;
	}
	return row;
}

void pd__row_cache_clear(struct pd_row_cache *rc)
{
	size_t i;

	if (++rc->gen)
		return;
	/* (once in 2^32 clears) */
	for (i = 0; rc->v && i < rc->size; i++)
		rc->v[i].gen = 0;
	rc->gen = 1;
}

void pd__row_cache_free(struct pd_row_cache *rc)
{
	free(rc->v);
	rc->v = NULL;
}
