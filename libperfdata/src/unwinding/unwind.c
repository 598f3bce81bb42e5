// SPDX-License-Identifier: MIT
/*
 * DWARF unwinding of REGS_USER + STACK_USER samples with libdw's unwinder
 * (libdwfl), keeping the rules of the unwinder Debian's perf 6.1 really
 * uses: libunwind (`perf version --build-options` lists both, but perf's
 * Makefile.config turns libdw unwinding off when libunwind is found, and
 * the binary imports no dwfl_getthread_frames). From perf's
 * util/unwind-libunwind-local.c, util/machine.c and util/evsel.c:
 * - the first frame is the sampled ip register itself (get_entries());
 *   each caller's pc is decremented unless unw_is_signal_frame() says
 *   yes, which it does for the frame a signal interrupted (its registers
 *   come from the signal context), not for the trampoline; that
 *   decremented address is the one looked up and printed; zero addresses are skipped; at most max_stack
 *   frames;
 * - stack memory is what perf copied: [sp, sp + dyn_size), except that a
 *   word ending exactly at the end is not read from it (access_mem()'s
 *   `addr + 8 >= end`); other addresses are read from the mapped file
 *   of the map that holds them (access_dso_mem()), or fail;
 * - a frame is stepped from only with the unwind tables of the file
 *   mapped at its (decremented) pc: .eh_frame_hdr or .debug_frame
 *   (find_proc_info()); a pc with no map, no file or neither table ends
 *   the chain after that frame;
 * - no registers (abi 0) or an empty stack copy: no user frames
 *   (thread__resolve_callchain_unwind()); registers without the ip or
 *   the stack pointer: the whole callchain is dropped (get_entries()
 *   and unw_init_remote() fail, perf script prints the sample alone).
 *
 * Every architecture with a register table is unwound on any host: the
 * recording machine's perf is the one to agree with (Debian's arm64 perf
 * 6.1 links libunwind-aarch64; perf on x86_64 says "unwind: target
 * platform=arm64 is not supported" and prints no user frames). Its
 * architecture's own rules are in unwind-arch.c and, for aarch64,
 * unwind-arm64.c: libunwind's link register fallback, the leaf caller
 * the arm64 perf adds to frame-pointer callchains, and return addresses
 * signed by pointer authentication, which are stripped (beyond perf 6.1,
 * whose chains end there).
 *
 * One Dwfl per address space (a process's maps), kept in a small LRU
 * cache; files are reported lazily as unwinding reaches them, and a
 * space whose reported files a later mmap overlaps is rebuilt. Where the
 * architecture allows (x86_64), a pass's steps are taken here by the CFI
 * rows libdw describes once per pc (unwind-row.c, pd__uw_run_pass()), as
 * libdw would take them; libdw goes on from the first frame whose row or
 * step is anything but plain.
 */
#include <elf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
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
#include "unwind-ahead.h"
#include "unwind-arch.h"
#include "unwind-internal.h"
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

PD_EXPORT struct pd_unwinder *pd_unwinder__new(struct pd_session *s,
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
	if (!u->spaces || !u->ips) {
		free(u->spaces);
		free(u->ips);
		free(u);
		errno = ENOMEM;
		return NULL;
	}
	return u;
}

PD_EXPORT void pd_unwinder__free(struct pd_unwinder *u)
{
	unsigned int i;

	if (!u)
		return;
	pd__uw_ahead_stop(u->ahead);
	for (i = 0; i < u->nr_spaces; i++)
		pd__uw_space_clear(&u->spaces[i]);
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
	free(u->chain);
	pd__row_cache_free(&u->file_rows);
	free(u->layouts);
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

/* The frames of the helper's unwinding of ev, as ours would be; 0 when
 * it has none. */
static int from_helper(struct pd_unwinder *u, const struct pd_event *ev,
		       struct pd_unwind_ip *ips, int max)
{
	struct pd__uw_ahead_res res;

	if (!pd__uw_ahead_take(u->ahead, ev, max, &res) || res.n <= 0 ||
	    res.n > max)
		return 0;
	if (res.warned_frame_reg)
		pd__uw_warn_frame_reg(u);
	memcpy(ips, res.ips, (size_t)res.n * sizeof(*ips));
	u->last_stop = res.stop;
	u->last_dso = res.dso ? pd__session_intern(u->s, res.dso) : NULL;
	return res.n;
}

PD_EXPORT int pd_unwinder__user_stack(struct pd_unwinder *u,
				      struct pd_thread *t,
				      const struct pd_event *ev,
				      struct pd_unwind_ip *ips, int max)
{
	const struct pd_sample *smp = &ev->u.sample;
	const struct pd_unwind_arch *a;
	const struct uw_arch *ua;
	struct uw_ctx c = { 0 };
	uint64_t ip, sp;

	u->last_stop = PD_UNWIND_STOP_NONE;
	u->last_dso = NULL;
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
	if (pd__unwind_reg(&smp->user_regs, a->perf_ip, &ip) ||
	    pd__unwind_reg(&smp->user_regs, a->perf_sp, &sp)) {
		if (!u->warned_regs)
			pd__warn(&u->log, "user registers without the ip or stack pointer: callchains dropped, as perf does");
		u->warned_regs = true;
		u->last_stop = PD_UNWIND_STOP_REGS;
		return -ENODATA;
	}
	if (!u->ahead_tried) {
		u->ahead_tried = true;
		u->ahead = pd__uw_ahead_start(u->s, u->r, &u->o);
	}
	if (u->ahead) {
		int n = from_helper(u, ev, ips, max);

		if (n > 0)
			return n;
	}
	c.u = u;
	c.a = a;
	c.stop = PD_UNWIND_STOP_NONE;
	c.smp = smp;
	c.stack_lo = sp;
	c.stack_hi = sp + smp->user_stack.dyn_size;
	if (c.stack_hi < c.stack_lo)
		c.stack_hi = UINT64_MAX;	/* every read goes to files */
	c.ips = ips;
	c.max = max;
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
		ips[0].pc = ip;
		ips[0].activation = true;
		c.n = 1;
	}
	return c.n;
}
