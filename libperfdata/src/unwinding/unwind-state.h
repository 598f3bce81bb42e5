/* SPDX-License-Identifier: MIT */
/*
 * What the files of the DWARF unwinder (unwind*.c) share: the unwinder
 * object, a process's address space as libdwfl sees it (its Dwfl and the
 * files reported to it) and the state of one sample's unwinding: types
 * only. What one file gives the files above it is in that file's header
 * (unwind-elf.h, unwind-space.h, unwind-dwfl.h, unwind-tables.h,
 * unwind-step.h, unwind-core.h, from the bottom up). Internal to
 * unwinding/; the public interface is <perfdata/unwind.h>.
 */
#ifndef PD_UNWIND_STATE_H
#define PD_UNWIND_STATE_H

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

/*
 * What perf reads of a file's .eh_frame_hdr (read_unwind_spec_eh_frame()
 * and unwind_spec_ehframe() in util/unwind-libunwind-local.c), read once
 * when the file is reported: where its search table lies, and .eh_frame,
 * whose entries the table points to.
 */
struct uw_eh_hdr {
	bool present;		/* the file has the section */
	bool bad;		/* ... which perf fails to decode (-EINVAL) */
	uint64_t addr, off, size;	/* address, file offset, size */
	uint64_t table_off;	/* the search table's offset in it */
	uint64_t fde_count;	/* its entries */
	uint64_t ehf_addr, ehf_off, ehf_size;	/* .eh_frame's */
};

/* A file reported to a space's Dwfl. */
struct uw_mod {
	struct pd_dso *dso;
	uint64_t low, high;	/* addresses the module covers */
	uint64_t bias;
	uint64_t dw_bias;	/* libdw's, which its CFI lookups take off */
	bool has_tables;	/* .eh_frame_hdr or .debug_frame */
	uint64_t elf_base;	/* first PT_LOAD's page (elf_base_address()) */
	const char *path;	/* the map's file name, interned */
	struct uw_eh_hdr eh;
	/*
	 * Where perf thinks the file is when it looks up a pc in map
	 * perf_map (pd__uw_perf_lookup()), worked out at the maps'
	 * perf_gen: its base, and whether its tables are read there, in
	 * maps of this file at their own places (perf_right).
	 */
	const struct pd_map *perf_map;
	uint64_t perf_gen;
	uint64_t perf_base;
	bool perf_right;
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
	/*
	 * What a reported module reads of the file's sections
	 * (pd__uw_file_tables()), once: tables_read says it is there
	 */
	bool tables_read;
	bool has_tables;
	uint64_t elf_base;
	struct uw_eh_hdr eh;
	/*
	 * The file's bytes mapped once for all the processes whose table
	 * lookups are read as perf's libunwind reads them
	 * (pd__uw_file_bytes()), not through each report's own mapping
	 */
	const uint8_t *raw;
	size_t raw_size;
	bool raw_tried;
	bool raw_shared;	/* raw is shared's (libelf's mapping) */
	/*
	 * The file opened once for every process's Dwfl, which takes a
	 * reference to it (pd__uw_shared_elf()), and where libdwfl puts a
	 * report of it, less the load bias
	 */
	Elf *shared;
	uint64_t dw_lo, dw_hi;
	bool shared_tried;
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

/*
 * A table lookup perf's libunwind makes where the tables are not read
 * where they are (pd__uw_perf_lookup()), kept by pc and the maps' gen
 * (which no two versions of any maps share): the reads give the files'
 * bytes, whatever modules a space reported.
 */
struct uw_lookup {
	uint64_t at;
	uint64_t gen;
	uint8_t res;		/* enum uw_lookup_res + 1; 0: free */
};

#define UW_LOOKUPS	256

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

/*
 * What one unwinding did with libunwind's cache of the process (struct
 * pd_rs_cache), in order, for a helper's result (unwind-ahead.c,
 * unwind-jobs.c): the one who takes it does the same to its own cache
 * and checks that its cache would have given the same answers.
 */
enum uw_rs_kind {
	UW_RS_ADD = 1,		/* the tables have pc: into the cache unless
				 * it is there */
	UW_RS_PRESENT,		/* stepped by the cache: pc must be there */
	UW_RS_ABSENT,		/* not stepped by the tables: pc must not be
				 * there */
};

struct uw_rs_op {
	uint64_t pc;
	uint8_t kind;		/* enum uw_rs_kind */
};

struct uw_ctx {
	struct pd_unwinder *u;
	const struct pd_unwind_arch *a;	/* the sample's registers */
	struct uw_space *sp;
	const struct pd_sample *smp;
	uint64_t stack_lo, stack_hi;
	struct pd_unwind_ip *ips;
	/*
	 * each frame's stack pointer (its caller's CFA), 0 where not
	 * known: what stitching (unwind-stitch.c) tells frames apart by
	 */
	uint64_t *sps;
	int sp_reg;		/* the stack pointer's DWARF number, or -1 */
	int n, max;
	bool read_failed;	/* a read failed in the current step */
	bool after_sigreturn;	/* the next frame's registers come from a
				 * signal context: the last frame was a
				 * signal trampoline, or (signal_by_cie)
				 * its step took a signal frame's entry */
	bool read_beyond;	/* a read above the stack copy in this step */
	/*
	 * Registers libunwind has a location for: the sample's, or those a
	 * guessed step left (it forgets the others), and those the steps
	 * since gave values (a register without a rule keeps its place)
	 */
	uint64_t lu_regs;
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
	/* the last unwinding's frames' stack pointers (max_stack) */
	uint64_t *sps;
	struct uw_space *spaces;
	unsigned int nr_spaces;
	struct pd_row_cache file_rows;	/* by file: UW_FILE_ROWS */
	struct uw_lookup *lookups;	/* UW_LOOKUPS, or NULL */
	struct uw_layout *layouts;
	size_t nr_layouts, cap_layouts;
	size_t last_layout;	/* the last one looked up */
	uint64_t tick;
	bool warned_arch, warned_abi, warned_regs, warned_stack;
	bool warned_frame_reg;
	enum pd_unwind_stop last_stop;	/* of the last user_stack() */
	const char *last_dso;
	/* what the last unwinding did with libunwind's cache, kept when
	 * rs_trace (a helper's unwinder): max_stack + 1 entries */
	bool rs_trace;
	struct uw_rs_op *rs_ops;
	int nr_rs_ops;
	/*
	 * Stitching (opts.stitch, unwind.c): its memory, made with the
	 * first stack, and the chain it works on (max_stack frames)
	 */
	struct pd__uw_stitch *stitch;
	uint64_t *st_pcs;
	bool *st_act;
	/* the samples after the one unwound (unwind-window.c), for
	 * stitching from later chains: NULL for a pipe */
	struct pd__uw_window *window;
	bool window_tried;
	/* a helper unwinding ahead (opts.jobs), started on the first
	 * stack to unwind */
	struct pd__uw_ahead *ahead;
	bool ahead_tried;
};

#endif /* PD_UNWIND_STATE_H */
