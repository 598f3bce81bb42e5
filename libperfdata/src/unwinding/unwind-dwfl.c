// SPDX-License-Identifier: MIT
/*
 * What libdwfl is told of a sample: the process/thread callbacks of a
 * space's Dwfl, which give libdw the registers a pass starts from (the
 * sample's, or a frame's stepped or guessed here) and read memory as
 * perf's access_mem() does (the stack copy, else the mapped files); the
 * callbacks that keep libdwfl from looking for files itself; and the
 * Dwfl of each space, kept in a small LRU cache of spaces.
 */
#include <string.h>

#include "unwind-dwfl.h"
#include "unwind-space.h"

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	if (*thread_argp)
		return 0;
	*thread_argp = arg;
	return UW_TID;
}

static bool get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
	*thread_argp = arg;
	return tid == UW_TID;
}

bool pd__uw_memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result,
			void *arg)
{
	struct uw_space *sp = arg;
	uint64_t val;

	if (perf_access_mem(sp->cur, addr, &val) < 0) {
		sp->cur->read_failed = true;
		return false;
	}
	*result = val;
	return true;
}

/*
 * The registers and pc a pass starts from: a handed over frame's, a
 * guessed frame's, or the sample's. Only the registers the sample has:
 * libdw fails a frame that needs another one, as libunwind's access_reg()
 * does. False when the sample has no ip.
 */
bool pd__uw_pass_start(struct uw_ctx *c, uint64_t *regs, uint64_t *set,
		       uint64_t *pc)
{
	const struct pd_unwind_arch *a = c->a;
	uint64_t val;
	unsigned int i;

	*set = 0;
	if (c->handover) {
		memcpy(regs, c->ho_regs, sizeof(c->ho_regs));
		*set = c->ho_set;
		*pc = c->ho_pc;
		return true;
	}
	c->first_regs_set = 0;
	for (i = 0; i < a->nr_dwarf; i++) {
		if (c->resume) {
			if (!(c->g.new_regs_set & (1ULL << i)))
				continue;
			val = c->g.new_regs[i];
		} else if (a->perf_reg[i] < 0 ||
			   pd__unwind_reg(&c->smp->user_regs, a->perf_reg[i],
					  &val)) {
			continue;
		}
		regs[i] = val;
		*set |= 1ULL << i;
		c->first_regs[i] = val;
	}
	c->first_regs_set = *set;
	/* what libunwind knows: the sample's, or what a guess left */
	c->lu_regs = *set;
	if (c->resume) {
		*pc = c->resume_ret ? c->g.new_pc - 1 : c->g.new_pc;
		return true;
	}
	return !pd__unwind_reg(&c->smp->user_regs, a->perf_ip, pc);
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct uw_space *sp = arg;
	struct uw_ctx *c = sp->cur;
	uint64_t regs[PD_UNWIND_MAX_DWARF_REGS], set, pc;
	unsigned int i;

	if (!pd__uw_pass_start(c, regs, &set, &pc))
		return false;
	for (i = 0; i < c->a->nr_dwarf; i++) {
		Dwarf_Word w = regs[i];

		if ((set & (1ULL << i)) &&
		    !dwfl_thread_state_registers(thread, (int)i, 1, &w))
			return false;
	}
	dwfl_thread_state_register_pc(thread, pc);
	return true;
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.get_thread = get_thread,
	.memory_read = pd__uw_memory_read,
	.set_initial_registers = set_initial_registers,
};

/* CFI only from the files themselves, as perf's libunwind reads it */
static int no_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
			Dwarf_Addr base, const char *file_name,
			const char *debuglink_file, GElf_Word debuglink_crc,
			char **debuginfo_file_name)
{
	return -1;
}

/*
 * Every file is reported with the file the symbolizer found, handed over
 * (unwind-space.c: a reference to the unwinder's one opening of it) or
 * by its descriptor, so libdwfl never looks for one: not by build id,
 * and not through its own debuginfod client, which would fetch behind
 * --no-debuginfod's back (debuginfod.c is the one place that fetches).
 */
static int find_elf(Dwfl_Module *mod, void **userdata, const char *modname,
		    Dwarf_Addr base, char **file_name, Elf **elfp)
{
	Elf *shared = pd__uw_handed_elf();

	/* a reference: the module's end ends only it */
	if (shared)
		*elfp = elf_begin(-1, ELF_C_READ_MMAP, shared);
	return -1;
}

static const Dwfl_Callbacks dwfl_callbacks = {
	.find_elf = find_elf,
	.find_debuginfo = no_debuginfo,
};

struct uw_space *pd__uw_space_get(struct pd_unwinder *u, struct pd_maps *maps,
				  const struct uw_arch *arch)
{
	struct uw_space *sp = NULL;
	unsigned int i;

	for (i = 0; i < u->nr_spaces; i++)
		if (u->spaces[i].maps == maps && u->spaces[i].arch == arch) {
			sp = &u->spaces[i];
			break;
		}
	if (sp && !pd__uw_space_current(u, sp))
		pd__uw_space_clear(sp);
	else if (sp)
		goto out;
	if (!sp && u->nr_spaces < u->o.max_cached) {
		sp = &u->spaces[u->nr_spaces++];
	} else if (!sp) {
		sp = &u->spaces[0];
		for (i = 1; i < u->nr_spaces; i++)
			if (u->spaces[i].used < sp->used)
				sp = &u->spaces[i];
		pd__uw_space_clear(sp);
	}
	sp->dwfl = dwfl_begin(&dwfl_callbacks);
	if (!sp->dwfl)
		return NULL;
	if (!dwfl_attach_state(sp->dwfl, arch->elf, UW_TID, &thread_callbacks,
			       sp)) {
		dwfl_end(sp->dwfl);
		sp->dwfl = NULL;
		return NULL;
	}
	sp->maps = pd__maps_get(maps);
	sp->arch = arch;
	sp->gen = maps->gen;
out:
	sp->used = ++u->tick;
	return sp;
}
