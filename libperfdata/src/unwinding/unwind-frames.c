// SPDX-License-Identifier: MIT
/*
 * What the caller is given of a sample (pd_unwinder__sample_frames()):
 * its frames as perf script resolves them, the callchain's and then the
 * unwound user stack's, each user frame after its inlined ones; and, for
 * a frame-pointer callchain of the arm64 perf, the leaf function's caller
 * that perf takes from the link register, found by libunwind's first
 * step. Above the unwinder's own entry points, which it only uses.
 */
#include <stdlib.h>
#include <string.h>

#include <perfdata/format.h>
#include <perfdata/unwind.h>

#include "unwind-arm64.h"
#include "unwind-core.h"
#include "unwind-elf.h"
#include "unwind-space.h"
#include "unwind-step.h"
#include "unwind-tables.h"

#define MAX_INLINE		64

/* One user frame and, unless no_inline, its inlined frames first. */
static int add_user_frame(struct pd_unwinder *u, struct pd_thread *t,
			  uint64_t ip, struct pd_frame *frames, int n, int max)
{
	struct pd_inline_frame inl[MAX_INLINE];
	struct pd_frame f;
	int k, i;

	pd_session__resolve(u->s, t, PD_MISC_USER, ip, &f);
	k = 0;
	/* perf's append_inlines(): a frame with a map and a symbol */
	if (!u->o.no_inline && f.has_map && f.sym && f.dso)
		k = pd_dso__inline_frames(f.dso, f.addr, inl, MAX_INLINE);
	if (k <= 0) {
		if (n < max)
			frames[n++] = f;
		return n;
	}
	for (i = 0; i < k && n < max; i++) {
		const char *name = inl[i].perf_name ? inl[i].perf_name : "??";

		frames[n] = f;
		if (strcmp(name, f.sym->name))
			frames[n].inline_name = name;
		n++;
	}
	return n;
}

/*
 * The arm64 perf's leaf caller of a frame-pointer sample
 * (get_leaf_frame_caller_aarch64(), perf 6.1): libunwind's first step
 * from the registers the sample has (the link register at least; the pc,
 * when not recorded, is the callchain's first user entry, chain_pc; the
 * stack pointer, when not recorded, 0), reading memory as access_mem()
 * does without a stack copy. The caller as perf prints it (decremented
 * unless it is a signal trampoline, as get_entries() does), 0 for none.
 */
static uint64_t fp_leaf_caller(struct pd_unwinder *u, struct pd_thread *t,
			       const struct pd_sample *smp, uint64_t chain_pc)
{
	const struct pd_unwind_arch *a = u->arch.a;
	struct pd_cfi_regs r = { .set = 0 };
	struct uw_ctx c = { 0 };
	Dwarf_Frame *frame = NULL;
	struct uw_mod *m;
	uint64_t val, pc, lr, caller = 0;
	unsigned int i;
	int step;

	/* unwind__get_entries(): no unwinder registered, no caller */
	if (!pd__thread_maps(t)->perf_unwinds)
		return 0;
	for (i = 0; i < a->nr_dwarf; i++) {
		if (a->perf_reg[i] < 0)
			continue;
		if (!pd__unwind_reg(&smp->user_regs, a->perf_reg[i], &val)) {
			r.val[i] = val;
			r.set |= 1ULL << i;
		} else if (a->perf_reg[i] == a->perf_sp) {
			r.val[i] = 0;
			r.set |= 1ULL << i;
		}
	}
	if (pd__unwind_reg(&smp->user_regs, a->perf_ip, &pc))
		pc = chain_pc;
	lr = r.val[a->dwarf_ra];
	c.u = u;
	c.a = a;
	c.smp = smp;
	for (i = 0; i < a->nr_dwarf; i++)
		if (a->perf_reg[i] == a->perf_sp)
			c.stack_lo = r.val[i];
	/* perf's stack copy is the sample's, which has none */
	c.stack_hi = c.stack_lo;
	c.sp = pd__uw_space_get(u, pd__thread_maps(t), &u->arch);
	if (!c.sp)
		return 0;
	c.sp->cur = &c;
	/*
	 * unw_step(): the code at pc tells a signal trampoline, whose
	 * frame is read from the stack (not copied: no caller); a pc that
	 * does not read is taken to be the link register
	 */
	if (perf_access_mem(&c, pc, &val) < 0)
		pc = lr;
	else if (pd__uw_is_sigreturn(&c, pc))
		goto out;
	m = space_module(&c, pc);
	/* (a failed lookup falls back to the link register too) */
	if (m && m->has_tables &&
	    pd__uw_step_lookup(&c, m, pc, pc) == UW_LOOKUP_FOUND) {
		frame = pd__uw_cfi_frame(c.sp, pc);
	} else if (!m) {
		struct pd_map *map = NULL;
		struct uw_stray *st = pd__uw_stray_at(&c, pc, &map);
		uint64_t bias;

		if (st && st->cfi && pd__uw_map_bias(a, st->elf, map, &bias) &&
		    dwarf_cfi_addrframe(st->cfi, pc - bias, &frame))
			frame = NULL;
	}
	step = pd__unwind_cfi_caller(frame, &r, guess_read, &c, &caller);
	free(frame);
	if (step == PD_CFI_FALLBACK)
		caller = lr;
	else if (step == PD_CFI_FAIL)
		caller = 0;
	if (caller) {
		caller = pd__uw_strip_pac(&c, caller);
		if (!pd__uw_is_sigreturn(&c, caller)) {
			/*
			 * get_entries() steps once more from the caller
			 * before its loop sees its 2 frames: that lookup
			 * goes to libunwind's cache as well
			 */
			m = space_module(&c, caller - 1);
			if (m && m->has_tables)
				pd__uw_step_lookup(&c, m, caller, caller - 1);
			caller--;
		}
	}
out:
	c.sp->cur = NULL;
	return caller;
}

/*
 * Whether perf script takes the callchains for frame-pointer ones: by
 * the sample types of all the events together (callchain_param_setup()),
 * DWARF when they have user registers and stack, LBR with branch stacks.
 */
static bool fp_mode(struct pd_unwinder *u, const struct pd_sample *smp)
{
	uint64_t dwarf = PD_SAMPLE_REGS_USER | PD_SAMPLE_STACK_USER;
	size_t i, n = u->r ? pd_reader__nr_evsels(u->r) : 0;
	uint64_t st;

	if (n != u->nr_evsels) {
		u->combined_type = 0;
		for (i = 0; i < n; i++) {
			const struct pd_evsel *e = pd_reader__evsel(u->r, i);

			if (e)
				u->combined_type |= e->attr.sample_type;
		}
		u->nr_evsels = n;
	}
	st = u->combined_type | smp->sample_type;
	return (st & dwarf) != dwarf && !(st & PD_SAMPLE_BRANCH_STACK);
}

/*
 * The callchain of a frame-pointer sample as the arm64 perf resolves it
 * (thread__resolve_callchain_sample(), perf 6.1): before each entry that
 * follows PERF_CONTEXT_USER and the sampled pc, the leaf function's
 * caller from the link register (fp_leaf_caller()), unless it is 0 or
 * that entry itself, and unless max_stack entries came before; the
 * kernel's frame-pointer walk misses that caller while the leaf has not
 * yet pushed its frame record. The sample's own registers must hold the
 * link register (perf record adds it to -g on arm64). Returns ev, or
 * copy with its callchain in u->chain; *added: the entries inserted.
 */
static const struct pd_event *with_leaf_caller(struct pd_unwinder *u,
					       struct pd_thread *t,
					       const struct pd_event *ev,
					       struct pd_event *copy, int lim,
					       int *added)
{
	const struct pd_sample *smp = &ev->u.sample;
	const uint64_t *ips = smp->callchain.ips;
	uint64_t nr = smp->callchain.nr, j, k = 0, val;
	const struct pd_unwind_arch *a;
	int entries = 0;

	*added = 0;
	if (!(smp->sample_type & PD_SAMPLE_CALLCHAIN) || nr < 3 || !ips)
		return ev;
	a = pd__uw_unwind_arch(u);
	if (!a || !a->fp_leaf_caller || smp->user_regs.abi != a->abi ||
	    pd__unwind_reg(&smp->user_regs, a->perf_reg[a->dwarf_ra], &val) ||
	    !fp_mode(u, smp))
		return ev;
	/* at most one entry inserted per entry */
	if (2 * nr > u->chain_cap) {
		size_t cap = 2 * nr;
		uint64_t *v = realloc(u->chain, cap * sizeof(*v));

		if (!v)
			return ev;
		u->chain = v;
		u->chain_cap = cap;
	}
	for (j = 0; j < nr; j++) {
		if (j >= 2 && ips[j - 2] == PD_CONTEXT_USER && entries < lim) {
			uint64_t caller = fp_leaf_caller(u, t, smp, ips[j - 1]);

			if (caller && caller != ips[j]) {
				u->chain[k++] = caller;
				(*added)++;
			}
		}
		if (ips[j] < PD_CONTEXT_MAX)
			entries++;
		u->chain[k++] = ips[j];
	}
	if (!*added)
		return ev;
	*copy = *ev;
	copy->u.sample.callchain.ips = u->chain;
	copy->u.sample.callchain.nr = k;
	return copy;
}

PD_EXPORT int pd_unwinder__sample_frames(struct pd_unwinder *u,
					 struct pd_thread *t,
					 const struct pd_event *ev,
					 struct pd_frame *frames, int max)
{
	struct pd_unwind_ip *ips = u->ips;
	struct pd_event copy;
	const struct pd_event *chain_ev;
	int n, k, i, lim, added;

	lim = max < u->o.max_stack ? max : u->o.max_stack;
	chain_ev = with_leaf_caller(u, t, ev, &copy, lim, &added);
	/* perf's max_stack counts the callchain's own entries */
	n = pd_session__sample_frames(u->s, t, chain_ev, frames,
				      lim + added < max ? lim + added : max);
	/* perf unwinds only samples it resolves a callchain for */
	if (n < 0 || n >= max || !pd_unwinder__wants(ev) ||
	    !(ev->u.sample.sample_type & PD_SAMPLE_CALLCHAIN))
		return n;
	k = pd_unwinder__user_stack(u, t, ev, ips, u->o.max_stack);
	for (i = 0; i < k && n < max; i++) {
		uint64_t ip = ips[i].activation ? ips[i].pc : ips[i].pc - 1;

		/* get_entries(): zero entries are skipped */
		if (ip)
			n = add_user_frame(u, t, ip, frames, n, max);
	}
	return k < 0 ? k : n;
}
