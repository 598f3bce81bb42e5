/* SPDX-License-Identifier: MIT */
/*
 * One CFI row's rules as libdw's unwinder applies them (unwind-row.c):
 * read once from libdw (dwarf_frame_cfa(), dwarf_frame_register()) for a
 * pc, kept, and applied to each frame at that pc without asking libdw
 * again. Only rows whose every rule is plain (the CFA a register plus an
 * offset; each register undefined, the same, another register, or at or
 * next to the CFA) can be kept; anything else stays libdw's.
 */
#ifndef PD_UNWIND_ROW_H
#define PD_UNWIND_ROW_H

#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stdint.h>

#define PD_ROW_MAX_REGS		17	/* frame registers at most (x86_64's) */

enum pd_row_kind {
	PD_ROW_SAME = 1,	/* the register as it is, when known */
	PD_ROW_REG,		/* another register's value plus off */
	PD_ROW_AT_CFA,		/* the word at CFA + off */
	PD_ROW_VAL_CFA,		/* CFA + off itself */
};

struct pd_row_rule {
	uint8_t regno;
	uint8_t kind;		/* enum pd_row_kind */
	uint8_t src;		/* PD_ROW_REG's register */
	int32_t off;
};

enum pd_row_state {
	PD_ROW_EMPTY,		/* a free cache slot */
	PD_ROW_PLAIN,		/* the rules below step a frame */
	PD_ROW_LIBDW,		/* no row, or one only libdw can apply */
};

struct pd_row {
	uint64_t addr;		/* the pc looked up (relative to file) */
	const void *file;	/* what addr is relative to, or NULL */
	uint8_t state;		/* enum pd_row_state */
	uint32_t gen;		/* its cache's gen when filled */
	bool fde;		/* an FDE covers addr */
	bool ra_undef;		/* ... and leaves the architecture's return
				 * address column undefined, or none does */
	bool signal;		/* the CIE's 'S': the caller is looked up
				 * at its own pc, not pc - 1 */
	uint8_t ra;		/* the return address register */
	bool ra_rule;		/* ... has a rule (else the chain ends) */
	bool cfa_reg_ok;	/* the CFA is cfa_reg plus cfa_off (also
				 * in a row only libdw applies) */
	uint8_t cfa_reg;
	uint8_t nr;		/* rules; registers without one are
				 * undefined in the caller */
	uint8_t nr_regs;	/* libdw's frame registers */
	int32_t cfa_off;
	uint32_t same;		/* registers whose rule is "the same" */
	struct pd_row_rule rule[PD_ROW_MAX_REGS];	/* the others' */
};

/*
 * What frame (a row from dwarf_cfi_addrframe(), NULL: none) says into
 * *row: whether it is an FDE's that leaves column ra_col undefined, and
 * its rules for registers 0..nregs-1 (nregs 0: none wanted); the row's
 * state says whether they are plain.
 */
void pd__row_parse(Dwarf_Frame *frame, unsigned int nregs, unsigned int ra_col,
		   struct pd_row *row);

enum pd_row_step {
	PD_ROW_CALLER,		/* a caller, with a nonzero pc */
	PD_ROW_END,		/* libdw ends the chain: the return address
				 * undefined, or 0 */
	PD_ROW_ASK_LIBDW,	/* anything else: libdw decides */
};

/*
 * The memory a step reads: words of [lo, hi) with 8 bytes to spare at hi
 * from data (the sample's stack copy; NULL: none), others through read,
 * perf's access_mem() (below 0: failure).
 */
struct pd_row_mem {
	const uint8_t *data;
	uint64_t lo, hi;
	int (*read)(void *ctx, uint64_t addr, uint64_t *val);
	void *ctx;
};

/*
 * libdw's step by a plain row from the frame whose registers are
 * regs/set (bit i: regs[i] known): the caller's registers into
 * new_regs/new_set (registers not in it hold anything), its pc (the
 * return address register) into *pc. Every rule is applied, as libdw
 * does, before the return address decides. A step with a register the
 * CFA needs unknown, a read failing or a return address whose rule gives
 * nothing is libdw's (the caller's registers unspecified).
 */
enum pd_row_step pd__row_step(const struct pd_row *row, const uint64_t *regs,
			      uint64_t set, const struct pd_row_mem *mem,
			      uint64_t *new_regs, uint64_t *new_set,
			      uint64_t *pc);

/* A direct-mapped cache of rows by file and pc. */
struct pd_row_cache {
	struct pd_row *v;	/* size slots, or NULL */
	size_t size;		/* a power of 2 */
	uint32_t gen;		/* slots of another gen are free */
};

/*
 * The slot for (file, addr) in a cache of size slots (allocated on first
 * use); NULL without memory. A slot holds that row when its state is not
 * PD_ROW_EMPTY and its file and addr are those; whoever fills it sets
 * its gen to the cache's.
 */
struct pd_row *pd__row_slot(struct pd_row_cache *rc, size_t size,
			    const void *file, uint64_t addr);
/* Every slot free again (what a pc's row is may have changed), at once
 * (the cache's gen moves); their rules stay as they were until a slot
 * is filled again. */
void pd__row_cache_clear(struct pd_row_cache *rc);
void pd__row_cache_free(struct pd_row_cache *rc);

#endif /* PD_UNWIND_ROW_H */
