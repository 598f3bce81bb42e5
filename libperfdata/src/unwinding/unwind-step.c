// SPDX-License-Identifier: MIT
/*
 * Stepping one chain, as perf's libunwind would: a pass of libdw's
 * unwinding, its steps taken here by the CFI rows while they are plain
 * (pd__uw_run_pass()); each frame it reaches (frame_visit(): what the chain
 * records, and whether a step may follow); libunwind's own steps where
 * the tables give none (the guessed step, a signal frame, a return
 * address stripped of its authentication code), from which a new pass
 * resumes; and why the chain ended.
 */
#include <string.h>

#include "unwind-dwfl.h"
#include "unwind-space.h"
#include "unwind-step.h"
#include "unwind-tables.h"

void pd__uw_warn_frame_reg(struct pd_unwinder *u)
{
	if (!u->warned_frame_reg)
		pd__warn(&u->log, "DWARF unwinding: elfutils older than 0.188 does not give a frame's registers, so a chain ends at a frame without unwind tables that is not its first (perf's libunwind guesses on): user stacks may be shorter than perf's");
	u->warned_frame_reg = true;
}

/*
 * The registers libdw knows at a frame, into g. dwfl_frame_reg() came
 * with elfutils 0.188; before it, libdw tells the registers of no frame,
 * and those known are the ones the current pass started from (the
 * sample's, or a guessed frame's), for its first frame only. A later
 * frame then has none, and libunwind's guess cannot step from it: the
 * chain ends there, where perf's goes on (said once).
 */
static void frame_regs(struct uw_ctx *c, const struct uw_frame *f)
{
	unsigned int i;

#ifdef HAVE_DWFL_FRAME_REG
	for (i = 0; i < c->a->nr_dwarf; i++) {
		Dwarf_Word w;

		if (!f->state) {
			if (f->set & (1ULL << i)) {
				c->g.regs[i] = f->regs[i];
				c->g.regs_set |= 1ULL << i;
			}
		} else if (!dwfl_frame_reg(f->state, i, &w)) {
			c->g.regs[i] = w;
			c->g.regs_set |= 1ULL << i;
		}
	}
#else
	(void)f;
	if (c->pass_n == 1) {
		for (i = 0; i < c->a->nr_dwarf; i++)
			c->g.regs[i] = c->first_regs[i];
		c->g.regs_set = c->first_regs_set;
		return;
	}
	pd__uw_warn_frame_reg(c->u);
#endif
}

/* libunwind's step without tables, from the frame at pc */
static void guess_step(struct uw_ctx *c, const struct uw_frame *f,
		       uint64_t pc)
{
	const struct pd_unwind_arch *a = c->a;

	if (!a->guess)
		return;
	memset(&c->g, 0, sizeof(c->g));
	c->g.pc = pc;
	c->g.read = guess_read;
	c->g.ctx = c;
	c->g.first = c->n == 1;
	frame_regs(c, f);
	c->guessed = a->guess(&c->g);
	c->resume_ret = c->g.new_pc_is_return;
	c->resume_exact = c->g.new_pc_exact;
}

/* libunwind's step from a signal trampoline's frame at pc (arch->sigframe) */
static void sigframe_step(struct uw_ctx *c, const struct uw_frame *f,
			  uint64_t pc)
{
	memset(&c->g, 0, sizeof(c->g));
	c->g.pc = pc;
	c->g.read = guess_read;
	c->g.ctx = c;
	frame_regs(c, f);
	c->guessed = c->a->sigframe(&c->g);
	c->resume_ret = false;
	c->resume_exact = c->g.new_pc_exact;
	if (!c->guessed)
		c->stop = PD_UNWIND_STOP_MEMORY;
}

/*
 * A return address signed by pointer authentication, without its code:
 * the address below the user space VA size (48 bits), or 52 for a
 * process that asked for larger addresses, where a map holds it; pc
 * itself otherwise (unsigned, or nothing there either way).
 */
uint64_t pd__uw_strip_pac(struct uw_ctx *c, uint64_t pc)
{
	unsigned int bits = c->a->pac_va_bits;
	uint64_t s;

	if (!bits || !(pc >> bits))
		return pc;
	s = pd__unwind_strip_pac(pc, bits);
	if (pd__maps_find(c->sp->maps, s))
		return s;
	s = pd__unwind_strip_pac(pc, 52);
	if (s != pc && pd__maps_find(c->sp->maps, s))
		return s;
	return pc;
}

/*
 * libdw's frame at state came with a signed return address: go on from
 * the same frame, its registers as libdw has them, at the address
 * stripped (libdw cannot be told a frame's pc).
 */
static int resume_stripped(struct uw_ctx *c, const struct uw_frame *f,
			   uint64_t pc)
{
	unsigned int i;

	memset(&c->g, 0, sizeof(c->g));
	frame_regs(c, f);
	for (i = 0; i < c->a->nr_dwarf; i++)
		c->g.new_regs[i] = c->g.regs[i];
	c->g.new_regs_set = c->g.regs_set;
	c->g.new_pc = pc;
	c->guessed = true;
	c->resume_ret = true;
	c->resume_exact = false;
	return DWARF_CB_ABORT;
}

/* Why a frame at addr cannot be stepped from: its map, file or tables. */
static void no_tables(struct uw_ctx *c, uint64_t addr, const struct uw_mod *m)
{
	struct pd_map *map = pd__maps_find(c->sp->maps, addr);
	struct pd_dso *dso;

	c->stop_dso = NULL;
	if (m) {
		c->stop = PD_UNWIND_STOP_NO_CFI;
		c->stop_dso = m->dso && m->path ? m->path : NULL;
		return;
	}
	if (!map) {
		c->stop = PD_UNWIND_STOP_NO_MAP;
		return;
	}
	c->stop_dso = map->name;
	if (map->identity || !map->path) {
		/* anonymous or JIT code: no file to read tables from */
		c->stop = PD_UNWIND_STOP_NO_FILE;
		return;
	}
	dso = pd__session_map_dso(c->u->s, map);
	if (!dso || dso->kind != PD_DSO_ELF || !dso->runtime)
		c->stop = PD_UNWIND_STOP_NO_ELF;
	else
		c->stop = PD_UNWIND_STOP_NO_CFI;	/* unreadable, other machine */
}

/*
 * libunwind's find_reg_state() before a step from the frame at pc with
 * tables (its file's, looked up at 'at'): the register state its cache of
 * the process keeps for pc (struct pd_rs_cache: the last 128 pcs stepped
 * from with tables), else the table lookup (pd__uw_perf_lookup()), whose
 * entry then goes into the cache. A pc found there is stepped from by
 * its tables even where the lookup would no longer find them: the maps
 * changed since (a lower map of the file, after which perf reads the
 * tables at a wrong base). Only what perf unwinds comes here, so the
 * cache sees what perf's does. A helper's unwinder (rs_trace) looks up
 * pcs the cache has too, and notes what it did (struct uw_rs_op).
 */
enum uw_lookup_res pd__uw_step_lookup(struct uw_ctx *c, struct uw_mod *m,
				      uint64_t pc, uint64_t at)
{
	struct pd_unwinder *u = c->u;
	struct pd_maps *maps = c->sp->maps;
	bool cached = pd__maps_rs_cached(maps, pc);
	enum uw_lookup_res res;

	if (cached && !u->rs_trace)
		return UW_LOOKUP_FOUND;
	res = pd__uw_perf_lookup(c, m, at);
	if (!cached && res == UW_LOOKUP_FOUND)
		pd__maps_rs_add(maps, pc);
	if (u->rs_trace && u->nr_rs_ops >= 0) {
		struct uw_rs_op *op = &u->rs_ops[u->nr_rs_ops];

		if (u->nr_rs_ops > u->o.max_stack) {
			u->nr_rs_ops = -1;	/* the helper's answer is lost */
		} else {
			op->pc = pc;
			op->kind = res == UW_LOOKUP_FOUND ? UW_RS_ADD :
				   cached ? UW_RS_PRESENT : UW_RS_ABSENT;
			u->nr_rs_ops++;
		}
	}
	return cached ? UW_LOOKUP_FOUND : res;
}

/*
 * Whether libunwind can compute the CFA of the frame at 'at': its
 * dwarf_step() fails (-UNW_EBADREG, no frame more) when the register
 * the CFA is computed from has no location, as after a guessed step
 * every register but the frame and stack pointers and the pc.
 */
static bool cfa_reg_known(struct uw_ctx *c, const struct uw_frame *f,
			  uint64_t at)
{
	uint64_t all = (1ULL << c->a->nr_dwarf) - 1;
	const struct pd_row *row;
	struct pd_row tmp;

	/* (as it is until a guess) */
	if ((c->lu_regs & all) == all)
		return true;
	row = pd__uw_space_row(c->u, c->sp, at, &tmp);
	if (!row->cfa_reg_ok || (c->lu_regs >> row->cfa_reg & 1))
		return true;
	if (!f->state)
		return false;
#ifdef HAVE_DWFL_FRAME_REG
	{
		Dwarf_Word w;

		/* one libdw knows, libunwind knows too */
		if (dwfl_frame_reg(f->state, row->cfa_reg, &w))
			return false;
		c->lu_regs |= 1ULL << row->cfa_reg;
	}
#endif
	return true;
}

/*
 * Whether the table entry a step from the frame at 'at' takes is a
 * signal frame's (its CIE's 'S'): libdw's row there, the entry perf's
 * lookup finds too.
 */
static bool step_is_signal(struct uw_ctx *c, uint64_t at)
{
	struct pd_row tmp;

	return pd__uw_space_row(c->u, c->sp, at, &tmp)->signal;
}

/*
 * The stack pointer of frame f (the sampled one's, else its caller's
 * CFA, as the step to it set it), 0 where it is not known.
 */
static uint64_t frame_sp(const struct uw_ctx *c, const struct uw_frame *f)
{
	if (c->n == 0)
		return c->stack_lo;
	if (c->sp_reg < 0)
		return 0;
	if (!f->state)
		return f->set >> c->sp_reg & 1 ? f->regs[c->sp_reg] : 0;
#ifdef HAVE_DWFL_FRAME_REG
	{
		Dwarf_Word w;

		if (!dwfl_frame_reg(f->state, (unsigned int)c->sp_reg, &w))
			return w;
	}
#endif
	return 0;
}

/*
 * One frame of a pass at pc (as libdw has it): into c->ips, and whether
 * the pass may step from it (DWARF_CB_OK) or ends here.
 */
static int frame_visit(struct uw_ctx *c, const struct uw_frame *f,
		       uint64_t pc)
{
	struct pd_unwind_ip *ip;
	struct uw_mod *m;
	uint64_t at;
	bool sig;

	c->pass_n++;
	if (c->pass_n == 1 && c->resume_ret)
		pc++;	/* given to libdw as pc - 1 */
	else if (c->pass_n > 1 && pd__uw_strip_pac(c, pc) != pc)
		return resume_stripped(c, f, pd__uw_strip_pac(c, pc));
	ip = &c->ips[c->n];
	ip->pc = pc;
	c->sps[c->n] = frame_sp(c, f);
	/* registers the steps gave values: libunwind has them too */
	if (!f->state)
		c->lu_regs |= f->set;
	/*
	 * perf asks unw_is_signal_frame() of each frame after stepping to
	 * it, and libunwind answers yes for the frame whose registers came
	 * from a signal context: the one the signal interrupted, an exact
	 * pc; the trampoline itself is decremented like a return address.
	 * By the code at the trampoline's pc, or (signal_by_cie) by the
	 * table entry it is stepped from by, below.
	 */
	sig = !c->a->signal_by_cie && pd__uw_frame_is_sigreturn(c, pc);
	ip->activation = c->n == 0 || (c->a->sigframe ? sig : c->after_sigreturn);
	c->after_sigreturn = sig;
	c->n++;
	/* where libunwind looks the frame's tables up (as libdw does) */
	at = ip->activation || (c->pass_n == 1 && c->resume_exact) ? pc : pc - 1;
	if (c->n >= c->max) {
		/*
		 * get_entries() steps once more before its loop sees
		 * max_stack reached: a step from this frame, whose lookup
		 * libunwind's cache keeps as any other
		 */
		if (!(sig && c->a->sigframe)) {
			m = space_module(c, at);
			if (m && m->has_tables)
				pd__uw_step_lookup(c, m, pc, at);
		}
		c->stop = PD_UNWIND_STOP_MAX;
		return DWARF_CB_ABORT;
	}
	if (sig && c->a->sigframe) {
		sigframe_step(c, f, pc);
		return DWARF_CB_ABORT;
	}
	/* the next step needs this frame's unwind tables (find_proc_info) */
	m = space_module(c, at);
	if (!m || !m->has_tables) {
		no_tables(c, at, m);
		/*
		 * libunwind on aarch64 falls back to the link register
		 * whatever failed (on x86_64 only a missing table entry
		 * does); a pc outside every map it first replaces with
		 * the link register, then steps: not reproduced
		 */
		if (c->a->guess_any_failure && c->stop != PD_UNWIND_STOP_NO_MAP)
			guess_step(c, f, pc);
		return DWARF_CB_ABORT;
	}
	c->read_failed = false;
	c->read_beyond = false;
	c->stop = PD_UNWIND_STOP_NO_CFI;	/* unless libdw steps on */
	switch (pd__uw_step_lookup(c, m, pc, at)) {
	case UW_LOOKUP_NONE:
		/*
		 * Tables perf misreads, or without an entry for pc:
		 * libunwind guesses the caller from the frame pointer, and
		 * so do we, then resume with libdw from the guessed frame.
		 */
		guess_step(c, f, pc);
		return DWARF_CB_ABORT;
	case UW_LOOKUP_FAIL:
		/* a read of the tables failed: the step fails */
		c->stop = PD_UNWIND_STOP_MEMORY;
		if (c->a->guess_any_failure)
			guess_step(c, f, pc);
		return DWARF_CB_ABORT;
	case UW_LOOKUP_FOUND:
		break;
	}
	if (!cfa_reg_known(c, f, at)) {
		c->stop = PD_UNWIND_STOP_REGS;
		if (c->a->guess_any_failure)
			guess_step(c, f, pc);
		return DWARF_CB_ABORT;
	}
	if (c->a->signal_by_cie)
		c->after_sigreturn = step_is_signal(c, at);
	return DWARF_CB_OK;
}

static int frame_cb(Dwfl_Frame *state, void *arg)
{
	struct uw_ctx *c = arg;
	struct uw_frame f = { .state = state };
	Dwarf_Addr pc;

	/* a handed over pass starts at a frame pd__uw_run_pass() has seen */
	if (c->skip_first) {
		c->skip_first = false;
		return DWARF_CB_OK;
	}
	if (!dwfl_frame_pc(state, &pc, NULL))
		return DWARF_CB_ABORT;
	return frame_visit(c, &f, pc);
}

/*
 * One pass of libdw's unwinding (what dwfl_getthread_frames() returns),
 * its steps taken here by the CFI rows libdw gives (unwind-row.c) while
 * they are plain; at the first step they cannot take, libdw goes on from
 * that frame as if it had stepped to it.
 */
int pd__uw_run_pass(struct uw_ctx *c)
{
	uint64_t regs[2][PD_UNWIND_MAX_DWARF_REGS] = { { 0 } };
	uint64_t set, pc, at;
	bool initial = true, signal = false;
	struct pd_row_mem mem = {
		.data = c->smp->user_stack.data,
		.lo = c->stack_lo,
		.hi = c->stack_hi,
		.read = guess_read,
		.ctx = c,
	};
	unsigned int cur = 0;
	int ret;

	if (!c->a->cfi_rows)
		return dwfl_getthread_frames(c->sp->dwfl, UW_TID, frame_cb, c);
	if (!pd__uw_pass_start(c, regs[0], &set, &pc))
		return -1;
	for (;;) {
		struct uw_frame f = { .regs = regs[cur], .set = set };
		const struct pd_row *row;
		struct pd_row tmp;
		enum pd_row_step step;
		uint64_t new_set;

		ret = frame_visit(c, &f, pc);
		if (ret != DWARF_CB_OK)
			return ret;
		/* libdw's lookup: a caller's pc less one */
		at = initial || signal ? pc : pc - 1;
		row = pd__uw_space_row(c->u, c->sp, at, &tmp);
		if (row->state != PD_ROW_PLAIN)
			break;
		/*
		 * The step's reads may report a file, which marks the
		 * space's rows empty but leaves their rules: row stays good
		 */
		signal = row->signal;
		step = pd__row_step(row, regs[cur], set, &mem, regs[!cur],
				    &new_set, &pc);
		if (step == PD_ROW_END)
			return 0;
		if (step != PD_ROW_CALLER) {
			c->read_failed = false;
			c->read_beyond = false;
			break;
		}
		cur = !cur;
		set = new_set;
		initial = false;
	}
	/* libdw steps from this frame */
	memcpy(c->ho_regs, regs[cur], sizeof(c->ho_regs));
	c->ho_set = set;
	c->ho_pc = at;
	c->handover = true;
	c->skip_first = true;
	ret = dwfl_getthread_frames(c->sp->dwfl, UW_TID, frame_cb, c);
	c->handover = false;
	c->skip_first = false;
	return ret;
}

/*
 * Why a chain ended where libdw stopped (ret 0: no caller, or a zero
 * return address; -1: a step failed).
 */
enum pd_unwind_stop pd__uw_stop_reason(const struct uw_ctx *c, int ret)
{
	if (c->read_beyond)
		return PD_UNWIND_STOP_STACK;
	if (ret == 0 || (c->guessed && !c->g.new_pc))
		return PD_UNWIND_STOP_ROOT;
	if (c->read_failed)
		return PD_UNWIND_STOP_MEMORY;
	/* a rule needing a register the sample does not have, or worse */
	return PD_UNWIND_STOP_REGS;
}
