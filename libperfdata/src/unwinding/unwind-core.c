// SPDX-License-Identifier: MIT
/*
 * The unwinder without its helper thread: the object (options, lifecycle,
 * the samples' architecture) and the unwinding of one sample, first what
 * perf leaves out, then the chain, pass after pass. The public entry
 * points (unwind.c) add the helper that unwinds ahead (unwind-ahead.c),
 * which unwinds with an unwinder of this file's own: both are above it.
 */
#include <elf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <perfdata/features.h>
#include <perfdata/format.h>
#include <perfdata/unwind.h>

#include "base/internal.h"
#include "session/session-internal.h"
#include "unwind-arch.h"
#include "unwind-core.h"
#include "unwind-dwfl.h"
#include "unwind-elf.h"
#include "unwind-space.h"
#include "unwind-step.h"
#include "unwind-tables.h"
#include "unwind-row.h"

#define DEFAULT_MAX_STACK	127	/* perf's PERF_MAX_STACK_DEPTH */
#define DEFAULT_MAX_CACHED	16

static const char *host_arch(struct pd_unwinder *u)
{
	struct utsname uts;

	if (uname(&uts))
		return NULL;
	snprintf(u->machine, sizeof(u->machine), "%s", uts.machine);
	return u->machine;
}

/* libdw's backend is chosen by an ELF header's machine and class */
static bool arch_init(struct uw_arch *ua, const struct pd_unwind_arch *a)
{
	ua->a = a;
	if (!a)
		return false;
	if (a->elf_class == ELFCLASS64) {
		Elf64_Ehdr *h = (Elf64_Ehdr *)ua->ehdr;

		memcpy(h->e_ident, ELFMAG, SELFMAG);
		h->e_ident[EI_CLASS] = ELFCLASS64;
		h->e_ident[EI_DATA] = a->big_endian ? ELFDATA2MSB : ELFDATA2LSB;
		h->e_ident[EI_VERSION] = EV_CURRENT;
		h->e_type = ET_EXEC;
		h->e_machine = a->e_machine;
		h->e_version = EV_CURRENT;
		h->e_ehsize = sizeof(*h);
	} else {
		Elf32_Ehdr *h = (Elf32_Ehdr *)ua->ehdr;

		memcpy(h->e_ident, ELFMAG, SELFMAG);
		h->e_ident[EI_CLASS] = ELFCLASS32;
		h->e_ident[EI_DATA] = a->big_endian ? ELFDATA2MSB : ELFDATA2LSB;
		h->e_ident[EI_VERSION] = EV_CURRENT;
		h->e_type = ET_EXEC;
		h->e_machine = a->e_machine;
		h->e_version = EV_CURRENT;
		h->e_ehsize = sizeof(*h);
	}
	elf_version(EV_CURRENT);
	ua->elf = elf_memory((char *)ua->ehdr, a->elf_class == ELFCLASS64 ?
				sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr));
	if (!ua->elf)
		ua->a = NULL;
	return ua->a != NULL;
}

/*
 * The samples' architecture: the ARCH feature, else the host's, as
 * perf_env__arch() falls back to uname(). Looked up at the first sample,
 * since a pipe delivers the feature as a record. NULL: not unwound.
 */
const struct pd_unwind_arch *pd__uw_unwind_arch(struct pd_unwinder *u)
{
	const struct pd_features *f;
	const char *name = NULL;

	if (u->arch_known)
		return u->arch.a;
	u->arch_known = true;
	f = u->r ? pd_reader__features(u->r) : NULL;
	if (f && pd_features__has(f, PD_FEAT_ARCH) && f->arch)
		name = f->arch;
	else
		name = host_arch(u);
	u->arch_name = name;
	if (!arch_init(&u->arch, pd__unwind_arch(name)))
		return NULL;
	if (u->arch.a->compat)
		arch_init(&u->arch32, pd__unwind_arch(u->arch.a->compat));
	return u->arch.a;
}

struct pd_unwinder *pd__unwinder_new(struct pd_session *s,
				     const struct pd_reader *r,
				     const struct pd_unwind_opts *opts)
{
	struct pd_unwinder *u;

	if (!s) {
		errno = EINVAL;
		return NULL;
	}
	u = calloc(1, sizeof(*u));
	if (!u)
		return NULL;
	u->s = s;
	u->r = r;
	if (opts)
		memcpy(&u->o, opts, opts->sz < sizeof(u->o) ? opts->sz : sizeof(u->o));
	u->o.sz = sizeof(u->o);
	if (u->o.max_stack <= 0)
		u->o.max_stack = DEFAULT_MAX_STACK;
	if (!u->o.max_cached)
		u->o.max_cached = DEFAULT_MAX_CACHED;
	u->log.fn = u->o.log;
	u->log.ctx = u->o.log_ctx;
	u->spaces = calloc(u->o.max_cached, sizeof(*u->spaces));
	u->ips = calloc(u->o.max_stack, sizeof(*u->ips));
	u->sps = calloc(u->o.max_stack, sizeof(*u->sps));
	if (!u->spaces || !u->ips || !u->sps) {
		free(u->spaces);
		free(u->ips);
		free(u->sps);
		free(u);
		errno = ENOMEM;
		return NULL;
	}
	return u;
}

void pd__unwinder_free(struct pd_unwinder *u)
{
	unsigned int i;

	if (!u)
		return;
	for (i = 0; i < u->nr_spaces; i++)
		pd__uw_space_free(&u->spaces[i]);
	for (i = 0; i < u->nr_strays; i++) {
		if (u->strays[i].cfi)
			dwarf_cfi_end(u->strays[i].cfi);
		if (u->strays[i].elf)
			elf_end(u->strays[i].elf);
		if (u->strays[i].fd >= 0)
			close(u->strays[i].fd);
	}
	free(u->spaces);
	free(u->ips);
	free(u->sps);
	free(u->rs_ops);
	free(u->chain);
	pd__row_cache_free(&u->file_rows);
	free(u->lookups);
	pd__uw_layouts_free(u);
	if (u->arch.elf)
		elf_end(u->arch.elf);
	if (u->arch32.elf)
		elf_end(u->arch32.elf);
	free(u);
}

bool pd__unwinder_warned_frame_reg(const struct pd_unwinder *u)
{
	return u->warned_frame_reg;
}

PD_EXPORT int pd_unwinder__stop(const struct pd_unwinder *u, const char **dso)
{
	if (dso)
		*dso = u->last_dso;
	return u->last_stop;
}

PD_EXPORT bool pd_unwinder__wants(const struct pd_event *ev)
{
	uint64_t need = PD_SAMPLE_REGS_USER | PD_SAMPLE_STACK_USER;

	return ev->type == PD_RECORD_SAMPLE &&
	       (ev->u.sample.sample_type & need) == need;
}

/*
 * Whether perf unwinds sample ev of thread t, with max frames at most:
 * 1, and what the unwinding starts from in *st; else what
 * pd_unwinder__user_stack() returns for it (0, or -ENODATA: no
 * callchain at all), u->last_stop saying why.
 */
int pd__unwinder_check(struct pd_unwinder *u, struct pd_thread *t,
		       const struct pd_event *ev, int max,
		       struct uw_start *st)
{
	const struct pd_sample *smp = &ev->u.sample;
	const struct pd_unwind_arch *a;
	const struct uw_arch *ua;
	struct pd_map *m;

	u->last_stop = PD_UNWIND_STOP_NONE;
	u->last_dso = NULL;
	u->nr_rs_ops = 0;
	if (max > u->o.max_stack)
		max = u->o.max_stack;
	if (max <= 0 || !t || !pd_unwinder__wants(ev))
		return 0;
	/* perf: nothing captured, nothing unwound */
	if (!smp->user_regs.abi || !smp->user_regs.regs)
		return 0;
	u->last_stop = PD_UNWIND_STOP_STACK;
	if (!smp->user_stack.dyn_size)
		return 0;
	if (smp->user_stack.dyn_size > smp->user_stack.size ||
	    !smp->user_stack.data) {
		if (!u->warned_stack)
			pd__warn(&u->log, "user stack copy larger than the sample holds: not unwound");
		u->warned_stack = true;
		return 0;
	}
	/*
	 * perf registered no unwinder for the process (no file it reads as
	 * ELF is mapped: struct pd_maps): unwind__get_entries() gives
	 * nothing, not even the sampled ip
	 */
	u->last_stop = PD_UNWIND_STOP_NO_ELF;
	if (!pd__thread_maps(t)->perf_unwinds) {
		/* the summary names the sampled file, which is missing */
		m = pd__maps_find(pd__thread_maps(t), smp->ip);
		u->last_dso = m && m->path ? m->name : NULL;
		return 0;
	}
	u->last_stop = PD_UNWIND_STOP_ARCH;
	a = pd__uw_unwind_arch(u);
	if (!a) {
		if (!u->warned_arch)
			pd__warn(&u->log, "DWARF unwinding of %s samples is not supported: user stacks left out",
				 u->arch_name ? u->arch_name : "unknown-architecture");
		u->warned_arch = true;
		return 0;
	}
	ua = &u->arch;
	if (smp->user_regs.abi != a->abi && u->arch32.a &&
	    smp->user_regs.abi == u->arch32.a->abi)
		ua = &u->arch32;	/* a 32-bit process */
	a = ua->a;
	if (smp->user_regs.abi != a->abi) {
		if (!u->warned_abi)
			pd__warn(&u->log, "DWARF unwinding of processes with register ABI %llu in a %s recording is not supported: user stacks left out",
				 (unsigned long long)smp->user_regs.abi, u->arch.a->name);
		u->warned_abi = true;
		return 0;
	}
	if (pd__unwind_reg(&smp->user_regs, a->perf_ip, &st->ip) ||
	    pd__unwind_reg(&smp->user_regs, a->perf_sp, &st->sp)) {
		if (!u->warned_regs)
			pd__warn(&u->log, "user registers without the ip or stack pointer: callchains dropped, as perf does");
		u->warned_regs = true;
		u->last_stop = PD_UNWIND_STOP_REGS;
		return -ENODATA;
	}
	st->ua = ua;
	st->max = max;
	return 1;
}

/* The DWARF number of the stack pointer of a's registers, or -1. */
static int sp_dwarf_reg(const struct pd_unwind_arch *a)
{
	unsigned int i;

	for (i = 0; i < a->nr_dwarf; i++)
		if (a->perf_reg[i] == a->perf_sp)
			return (int)i;
	return -1;
}

const uint64_t *pd__unwinder_sps(const struct pd_unwinder *u)
{
	return u->sps;
}

/*
 * The user stack of sample ev of thread t into ips, from what
 * pd__unwinder_check() found: what pd_unwinder__user_stack() returns.
 */
int pd__unwinder_unwind(struct pd_unwinder *u, struct pd_thread *t,
			const struct pd_event *ev, const struct uw_start *st,
			struct pd_unwind_ip *ips)
{
	const struct pd_sample *smp = &ev->u.sample;
	const struct uw_arch *ua = st->ua;
	struct uw_ctx c = { 0 };

	c.u = u;
	c.a = ua->a;
	c.stop = PD_UNWIND_STOP_NONE;
	c.smp = smp;
	c.stack_lo = st->sp;
	c.stack_hi = st->sp + smp->user_stack.dyn_size;
	if (c.stack_hi < c.stack_lo)
		c.stack_hi = UINT64_MAX;	/* every read goes to files */
	c.ips = ips;
	c.sps = u->sps;
	c.sp_reg = sp_dwarf_reg(ua->a);
	c.max = st->max;
	c.sp = pd__uw_space_get(u, pd__thread_maps(t), ua);
	if (c.sp) {
		int ret;

		c.sp->cur = &c;
		for (;;) {
			c.guessed = false;
			c.pass_n = 0;
			ret = pd__uw_run_pass(&c);
			if (!c.guessed || c.n >= c.max)
				break;
			/*
			 * A guessed return address of 0 (read from a map
			 * without data) is a frame to libunwind, and the
			 * last: nothing maps the address below it.
			 */
			if (!c.g.new_pc) {
				ips[c.n].pc = 0;
				ips[c.n].activation = false;
				u->sps[c.n] = 0;
				c.n++;
				ret = 1;
				break;
			}
			c.resume = true;
		}
		c.sp->cur = NULL;
		/* libdw also ends a chain where a read failed: not a 0 */
		if (!ret && c.n && c.n < c.max && !c.read_failed &&
		    !ra_undefined(u, c.sp, ips[c.n - 1].activation ?
					   ips[c.n - 1].pc : ips[c.n - 1].pc - 1)) {
			ips[c.n].pc = 0;
			ips[c.n].activation = false;
			u->sps[c.n] = 0;
			c.n++;
		}
		if (c.n >= c.max)
			c.stop = PD_UNWIND_STOP_MAX;
		else if (ret <= 0 || (c.guessed && !c.g.new_pc))
			c.stop = pd__uw_stop_reason(&c, ret);
	}
	u->last_stop = c.stop;
	u->last_dso = c.stop_dso;
	if (!c.n) {
		/* perf has the ip whatever the unwinder makes of it */
		ips[0].pc = st->ip;
		ips[0].activation = true;
		u->sps[0] = st->sp;
		c.n = 1;
	}
	return c.n;
}

/* pd_unwinder__user_stack() without a helper */
int pd__unwinder_user_stack(struct pd_unwinder *u, struct pd_thread *t,
			    const struct pd_event *ev,
			    struct pd_unwind_ip *ips, int max)
{
	struct uw_start st;
	int ret = pd__unwinder_check(u, t, ev, max, &st);

	if (ret <= 0)
		return ret;
	return pd__unwinder_unwind(u, t, ev, &st, ips);
}

int pd__unwinder_trace_rs(struct pd_unwinder *u)
{
	/* a lookup per frame, and one from the last */
	u->rs_ops = calloc((size_t)u->o.max_stack + 1, sizeof(*u->rs_ops));
	if (!u->rs_ops)
		return -ENOMEM;
	u->rs_trace = true;
	return 0;
}

int pd__unwinder_rs_ops(const struct pd_unwinder *u,
			const struct uw_rs_op **ops)
{
	*ops = u->rs_ops;
	return u->rs_trace ? u->nr_rs_ops : -1;
}

/*
 * What a helper's unwinding of a sample of thread t did with libunwind's
 * cache (ops, n of them), done to the cache of t's process here: true
 * when this cache gives each answer the helper's gave (a pc stepped by
 * the cache is in it, one the tables did not step is not) and takes the
 * pcs found by the lookups in the same order, as if the sample had been
 * unwound here. False, with the cache as it was, when it would have
 * answered otherwise: the helper's cache misses the samples unwound
 * here, so the sample is to be unwound here.
 */
bool pd__unwinder_rs_replay(struct pd_thread *t, const struct uw_rs_op *ops,
			    int n)
{
	struct pd_maps *maps = pd__thread_maps(t);
	struct pd_rs_cache save;
	bool had = maps->rs_cache;
	int i;

	if (n < 0)
		return false;
	if (had)
		save = *maps->rs_cache;
	for (i = 0; i < n; i++) {
		bool in = pd__maps_rs_cached(maps, ops[i].pc);

		if (ops[i].kind == UW_RS_ADD) {
			if (!in && pd__maps_rs_add(maps, ops[i].pc))
				break;
		} else if (in != (ops[i].kind == UW_RS_PRESENT)) {
			break;
		}
	}
	if (i == n)
		return true;
	if (had)
		*maps->rs_cache = save;
	else
		pd__maps_rs_flush(maps);
	return false;
}
