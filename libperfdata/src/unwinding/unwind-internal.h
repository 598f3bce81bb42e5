/* SPDX-License-Identifier: MIT */
/*
 * What the files of the DWARF unwinder (unwind*.c) share: the unwinder
 * object, a process's address space as libdwfl sees it (its Dwfl and the
 * files reported to it), the state of one sample's unwinding, and the
 * few functions one file gives another. Internal to unwinding/; the
 * public interface is <perfdata/unwind.h>.
 */
#ifndef PD_UNWIND_INTERNAL_H
#define PD_UNWIND_INTERNAL_H

#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <perfdata/unwind.h>

#include "base/internal.h"
#include "session/session-internal.h"
#include "symbols/sym-internal.h"
#include "unwind-arch.h"
#include "unwind-row.h"

#define MAX_STRAYS		8
/* reads this far above the stack pointer are stack reads (8 MiB: the
 * default stack size limit) */
#define STACK_SLACK		(8ULL << 20)
/* the pid libdw is told: threads are told apart by us, not by libdw */
#define UW_TID			1

/* A file reported to a space's Dwfl. */
struct uw_mod {
	struct pd_dso *dso;
	uint64_t low, high;	/* addresses the module covers */
	uint64_t bias;
	uint64_t dw_bias;	/* libdw's, which its CFI lookups take off */
	bool has_tables;	/* .eh_frame_hdr or .debug_frame */
	uint64_t elf_base;	/* first PT_LOAD's page (elf_base_address()) */
	const char *path;	/* the map's file name, interned */
	uint64_t perf_base;	/* where perf thinks the file is, at gen */
	uint64_t perf_base_gen;
	const uint8_t *raw;	/* the file's bytes (libelf's mapping) */
	size_t raw_size;
};

struct uw_ctx;

/*
 * A file libdwfl cannot take: its map lies in the span of another
 * module, between that one's segments (on arm64, with segments aligned to
 * 64 KiB, the kernel puts the vdso in ld.so's gap). libdwfl finds the
 * other module at its addresses, so it is read here, as perf's
 * access_dso_mem() reads any mapped file.
 */
struct uw_stray {
	struct pd_dso *dso;
	int fd;
	Elf *elf;
	const uint8_t *raw;
	size_t raw_size;
	Dwarf_CFI *cfi;		/* its .eh_frame's, or NULL */
};

/*
 * What pd__uw_map_bias() reads of a file, read once per file: reporting
 * a file to each process's Dwfl mapped and unmapped it for that every
 * time (and unmapping in a process with two threads interrupts the
 * other).
 */
#define UW_MAX_LOADS	16

struct uw_layout {
	struct pd_dso *dso;
	bool elf;		/* an ELF file, else pd__uw_map_bias() fails */
	bool many;		/* more PT_LOADs: pd__uw_map_bias() of
				 * the file */
	uint16_t machine, type;
	uint8_t class;
	unsigned int nr_loads;
	struct {
		uint64_t offset, filesz, vaddr;
	} loads[UW_MAX_LOADS];
};

/* An architecture's registers and the ELF header libdw picks it by. */
struct uw_arch {
	const struct pd_unwind_arch *a;
	Elf *elf;
	unsigned char ehdr[sizeof(Elf64_Ehdr)];
};

/*
 * The CFI rows of pcs (unwind-row.c), kept per space by pc and per file
 * by file-relative pc: a file's rows are the same in every process that
 * maps it, and most of the pcs of a new process's frames (gcc's cc1, run
 * once per compilation) are ones that an earlier process had.
 */
#define UW_ROWS		2048
#define UW_FILE_ROWS	16384

/*
 * Whether the code at a pc is a signal trampoline, read from the mapped
 * files (pd__uw_is_sigreturn()) and kept per space while its maps and
 * reported files stay as they were.
 */
struct uw_sig {
	uint64_t pc;
	uint32_t epoch;		/* the space's sigs_epoch when found */
	uint8_t state;		/* UW_SIG_* */
};

#define UW_SIG_NO	1
#define UW_SIG_YES	2
#define UW_SIG_FAILED	3	/* a read failed: not one */
#define UW_SIGS		1024

struct uw_space {
	struct pd_maps *maps;	/* a reference */
	const struct uw_arch *arch;	/* the registers it was made for */
	uint64_t gen;		/* maps->gen when last checked */
	Dwfl *dwfl;
	uint64_t used;		/* LRU tick */
	struct uw_mod *mods;
	size_t nr_mods, cap_mods;
	struct uw_ctx *cur;	/* the unwind under way */
	/* by pc; emptied when a module is reported (it may change which
	 * module holds a pc) */
	struct pd_row_cache rows;
	struct uw_sig *sigs;	/* UW_SIGS, valid in sigs_epoch, which */
	uint32_t sigs_epoch;	/* moves with a reported file, and when */
	uint64_t sigs_gen;	/* maps->gen moves from this */
	/*
	 * The last map looked up and the module found for it, while maps
	 * and modules stay as they were: reads and frames come in runs
	 * within one map.
	 */
	struct pd_map *hot_map;
	uint64_t hot_gen;
	size_t hot_nr_mods;
	long hot_mod;		/* index into mods, or -1 */
	bool mods_overlap;	/* two modules' ranges overlap */
};

struct uw_ctx {
	struct pd_unwinder *u;
	const struct pd_unwind_arch *a;	/* the sample's registers */
	struct uw_space *sp;
	const struct pd_sample *smp;
	uint64_t stack_lo, stack_hi;
	struct pd_unwind_ip *ips;
	int n, max;
	bool read_failed;	/* a read failed in the current step */
	bool after_sigreturn;	/* the last frame was a signal trampoline */
	bool read_beyond;	/* a read above the stack copy in this step */
	enum pd_unwind_stop stop;	/* why the chain ended */
	const char *stop_dso;	/* the file it needed, for some stops */
	/* libunwind's guessed step (arch->guess), or a return address
	 * stripped of its authentication code: resume libdw from it */
	bool guessed;		/* set by frame_cb() */
	bool resume;		/* read by set_initial_registers() */
	/*
	 * the resumed frame's pc is a return address: libdw, which takes
	 * a chain's first frame for an activation, is given pc - 1 so that
	 * it looks the tables up where it would for a caller
	 */
	bool resume_ret;
	/* ... or is looked up at pc itself, as libunwind would */
	bool resume_exact;
	struct pd_unwind_guess g;
	/* where the current pass of libdw started: its registers, and how
	 * many frames it has given (see frame_regs()) */
	uint64_t first_regs[PD_UNWIND_MAX_DWARF_REGS];
	uint64_t first_regs_set;
	int pass_n;
	/*
	 * A pass stepped here (pd__uw_run_pass()) that libdw goes on with: the
	 * frame's registers and the pc libdw looks it up at, given to it as
	 * its first frame, which frame_cb() has seen already (skip_first).
	 */
	bool handover;
	bool skip_first;
	uint64_t ho_pc;
	uint64_t ho_regs[PD_UNWIND_MAX_DWARF_REGS];
	uint64_t ho_set;
};

/* A frame as frame_visit() sees it: libdw's, or one stepped here. */
struct uw_frame {
	Dwfl_Frame *state;	/* NULL: */
	const uint64_t *regs;	/* DWARF numbers */
	uint64_t set;		/* bit i: regs[i] known */
};

struct pd_unwinder {
	struct pd_session *s;
	const struct pd_reader *r;
	struct pd_unwind_opts o;
	struct pd_logger log;
	/* the recording's, and its 32-bit processes' (i386 on x86_64) */
	struct uw_arch arch, arch32;
	bool arch_known;
	const char *arch_name;	/* the ARCH feature's, or machine */
	char machine[65];	/* uname -m */
	/* frame-pointer callchains with a leaf caller inserted */
	uint64_t *chain;
	size_t chain_cap;
	/* the sample types of the evsels, together (fp_mode()) */
	uint64_t combined_type;
	size_t nr_evsels;
	struct uw_stray strays[MAX_STRAYS];
	unsigned int nr_strays;
	struct pd_unwind_ip *ips;	/* max_stack entries */
	struct uw_space *spaces;
	unsigned int nr_spaces;
	struct pd_row_cache file_rows;	/* by file: UW_FILE_ROWS */
	struct uw_layout *layouts;
	size_t nr_layouts, cap_layouts;
	uint64_t tick;
	bool warned_arch, warned_abi, warned_regs, warned_stack;
	bool warned_frame_reg;
	enum pd_unwind_stop last_stop;	/* of the last user_stack() */
	const char *last_dso;
	/* a helper unwinding ahead (opts.jobs), started on the first
	 * stack to unwind */
	struct pd__uw_ahead *ahead;
	bool ahead_tried;
};

/* unwind-elf.c: the mapped files, as the unwinder reads them itself */
struct uw_stray *pd__uw_stray_file(struct pd_unwinder *u, struct pd_dso *dso);
bool pd__uw_file_has_section(const char *path, const char *name);
bool pd__uw_map_bias(const struct pd_unwind_arch *a, Elf *elf,
		     const struct pd_map *map, uint64_t *bias);
bool pd__uw_dso_bias(struct pd_unwinder *u, const struct pd_unwind_arch *a,
		     struct pd_dso *dso, const struct pd_map *map,
		     uint64_t *bias);
uint64_t pd__uw_first_load_page(Elf *elf);

/* unwind-space.c: a process's address space and the files reported to it */
void pd__uw_space_clear(struct uw_space *sp);
bool pd__uw_space_current(struct pd_unwinder *u, struct uw_space *sp);
struct uw_mod *pd__uw_report_module(struct uw_ctx *c, struct pd_map *map,
				    uint64_t addr);
struct uw_stray *pd__uw_stray_at(struct uw_ctx *c, uint64_t addr,
				 struct pd_map **mapp);
int pd__uw_file_read(struct uw_ctx *c, uint64_t addr, uint64_t *val);

/*
 * The module at an address, asked for every frame and many reads: kept
 * inline, as they were in one file with their callers.
 */
static inline struct uw_mod *mod_of(struct uw_space *sp, Dwfl_Module *mod)
{
	void **userdata;

	if (!dwfl_module_info(mod, &userdata, NULL, NULL, NULL, NULL, NULL,
			      NULL))
		return NULL;
	/* an index + 1 into sp->mods: the array moves as it grows */
	return *userdata ? &sp->mods[(uintptr_t)*userdata - 1] : NULL;
}

/* The map holding addr, or NULL. */
static inline struct pd_map *space_map(struct uw_space *sp, uint64_t addr)
{
	struct pd_map *map = sp->hot_map;

	if (map && sp->hot_gen == sp->maps->gen && addr >= map->start &&
	    addr < map->end)
		return map;
	map = pd__maps_find(sp->maps, addr);
	if (map) {
		sp->hot_map = map;
		sp->hot_gen = sp->maps->gen;
		sp->hot_mod = -1;
	}
	return map;
}

/*
 * map_module()'s answer again, for addr in the hot map: the module it
 * found there last, when no module was reported since and none overlaps
 * another (then the Dwfl finds that one for every address in its range).
 */
static inline struct uw_mod *hot_module(struct uw_space *sp,
					struct pd_map *map, uint64_t addr)
{
	struct uw_mod *m;

	if (map != sp->hot_map || sp->hot_gen != sp->maps->gen ||
	    sp->hot_mod < 0 || sp->hot_nr_mods != sp->nr_mods ||
	    sp->mods_overlap)
		return NULL;
	m = &sp->mods[sp->hot_mod];
	return addr >= m->low && addr < m->high ? m : NULL;
}

/*
 * The reported file holding addr (in map), reported now if needed; NULL
 * when the map has no file, or the file no usable ELF image.
 */
static inline struct uw_mod *map_module(struct uw_ctx *c,
					struct pd_map *map, uint64_t addr)
{
	struct uw_mod *m = hot_module(c->sp, map, addr);

	if (m)
		return m;
	m = pd__uw_report_module(c, map, addr);
	if (m && map == c->sp->hot_map && c->sp->hot_gen == c->sp->maps->gen) {
		c->sp->hot_mod = m - c->sp->mods;
		c->sp->hot_nr_mods = c->sp->nr_mods;
	}
	return m;
}

/* As map_module(), for the map holding addr; NULL too without one. */
static inline struct uw_mod *space_module(struct uw_ctx *c, uint64_t addr)
{
	struct pd_map *map = space_map(c->sp, addr);

	return map ? map_module(c, map, addr) : NULL;
}

/* unwind-dwfl.c: what libdwfl is told of a sample, and a space's Dwfl */
bool pd__uw_memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result,
			void *arg);
bool pd__uw_pass_start(struct uw_ctx *c, uint64_t *regs, uint64_t *set,
		       uint64_t *pc);
struct uw_space *pd__uw_space_get(struct pd_unwinder *u, struct pd_maps *maps,
				  const struct uw_arch *arch);

/* perf's access_mem(): the stack copy, else the mapped files */
static inline int perf_access_mem(struct uw_ctx *c, uint64_t addr,
				  uint64_t *val)
{
	if (addr + sizeof(*val) < addr)
		return -1;
	if (addr < c->stack_lo || addr + sizeof(*val) >= c->stack_hi) {
		/* the caller's frame lies past what perf copied */
		if (addr >= c->stack_lo && addr - c->stack_lo < STACK_SLACK)
			c->read_beyond = true;
		return pd__uw_file_read(c, addr, val);
	}
	memcpy(val, (const uint8_t *)c->smp->user_stack.data +
		    (addr - c->stack_lo), sizeof(*val));
	return 0;
}

/* unwind-tables.c: what a frame's pc says before a step from it */
bool pd__uw_is_sigreturn(struct uw_ctx *c, uint64_t pc);
bool pd__uw_frame_is_sigreturn(struct uw_ctx *c, uint64_t pc);
bool pd__uw_perf_finds_tables(struct uw_space *sp, struct uw_mod *m);
Dwarf_Frame *pd__uw_cfi_frame(struct uw_space *sp, uint64_t addr);
const struct pd_row *pd__uw_space_row(struct pd_unwinder *u,
				      struct uw_space *sp, uint64_t addr,
				      struct pd_row *tmp);

/*
 * Whether an FDE covers addr, and whether the frame at addr ends the
 * chain by its tables: its return address column says "undefined"
 * (glibc's _start, clone3) or there is no FDE. libdw also ends a chain
 * at a return address that reads as 0; libunwind does not, it gives that
 * frame (printed as ffffffffffffffff) and stops after it. Both are asked
 * of every frame: the answers come with the rows.
 */
static inline bool has_fde(struct pd_unwinder *u, struct uw_space *sp,
			   uint64_t addr)
{
	struct pd_row tmp;

	return pd__uw_space_row(u, sp, addr, &tmp)->fde;
}

static inline bool ra_undefined(struct pd_unwinder *u, struct uw_space *sp,
				uint64_t addr)
{
	struct pd_row tmp;

	return pd__uw_space_row(u, sp, addr, &tmp)->ra_undef;
}

/* unwind-step.c: stepping one chain */
void pd__uw_warn_frame_reg(struct pd_unwinder *u);
uint64_t pd__uw_strip_pac(struct uw_ctx *c, uint64_t pc);
int pd__uw_run_pass(struct uw_ctx *c);
enum pd_unwind_stop pd__uw_stop_reason(const struct uw_ctx *c, int ret);

/* perf_access_mem() as the steps without libdw read (pd_unwind_guess,
 * pd_row_mem) */
static inline int guess_read(void *ctx, uint64_t addr, uint64_t *val)
{
	return perf_access_mem(ctx, addr, val);
}

/*
 * unwind-core.c: the unwinder without its helper, which the public entry
 * points (unwind.c) and the helper (unwind-ahead.c) both use
 */
struct pd_unwinder *pd__unwinder_new(struct pd_session *s,
				     const struct pd_reader *r,
				     const struct pd_unwind_opts *opts);
void pd__unwinder_free(struct pd_unwinder *u);
const struct pd_unwind_arch *pd__uw_unwind_arch(struct pd_unwinder *u);
/* whether u said that elfutils gives no frame registers */
bool pd__unwinder_warned_frame_reg(const struct pd_unwinder *u);

/* What a sample's unwinding starts from. */
struct uw_start {
	const struct uw_arch *ua;	/* the registers of its process */
	uint64_t ip, sp;		/* its ip and stack pointer */
	int max;			/* frames at most */
};

int pd__unwinder_check(struct pd_unwinder *u, struct pd_thread *t,
		       const struct pd_event *ev, int max,
		       struct uw_start *st);
int pd__unwinder_unwind(struct pd_unwinder *u, struct pd_thread *t,
			const struct pd_event *ev, const struct uw_start *st,
			struct pd_unwind_ip *ips);
int pd__unwinder_user_stack(struct pd_unwinder *u, struct pd_thread *t,
			    const struct pd_event *ev,
			    struct pd_unwind_ip *ips, int max);

#endif /* PD_UNWIND_INTERNAL_H */
