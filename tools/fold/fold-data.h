/* SPDX-License-Identifier: MIT */
/*
 * pd-fold's perf.data input: read a file or pipe with libperfdata, rebuild
 * threads and maps, symbolize every callchain frame as `perf script` would
 * print it, and feed the folder.
 */
#ifndef PD_TOOLS_FOLD_DATA_H
#define PD_TOOLS_FOLD_DATA_H

#include <stdbool.h>
#include <stdio.h>

struct folder;
struct sample_select_opts;

struct fold_data_opts {
	const char *symfs;	/* --symfs */
	const char *const *roots;	/* --root DIRs, NULL-terminated */
	const char *kallsyms;	/* --kallsyms (default /proc/kallsyms) */
	const char *vmlinux;	/* --vmlinux */
	bool no_debuginfod;	/* --no-debuginfod: nothing fetched */
	/*
	 * --symbol-memory: the budget of the symbolizer's ELF files
	 * (pd_symbolizer__trim()), applied by --symbolize between lines and
	 * by --inline after each lookup, where no name of theirs is held;
	 * 0: never trimmed. Not yet applied to perf.data input, whose
	 * frames reach the unwinder, the memo and the folding thread.
	 */
	size_t symbol_memory;
	bool inline_frames;	/* --inline: inline frames from DWARF */
	bool off_cpu;		/* --off-cpu: weight by time off CPU */
	bool no_inline;		/* --no-inline: DWARF callchains without
				 * inlined frames */
	int jobs;		/* --jobs: threads unwinding (0: auto) */
	bool stitch;		/* --stitch: cut DWARF chains completed from
				 * the thread's earlier ones */
	FILE *script_out;	/* --script: print perf script text instead */
	bool script_all;	/* with script_out: the samples without a
				 * callchain too, on one line each, as perf
				 * script prints them (pd-convert --to=script) */
	/*
	 * --raw: user frames in mapped files as raw frames (fold-raw.h),
	 * named by no symbol table or debug info (none is read)
	 */
	bool raw;
	/*
	 * --raw-kernel (with raw): frames of the kernel proper too, where
	 * the recording names the kernel's build id
	 */
	bool raw_kernel;
	/* with script_out: only the samples selected (sample-select.h) */
	const struct sample_select_opts *select;
};

/* path: a file or "-". Returns a PD_EXIT_* code (errors printed). */
int fold_perf_data(const char *path, const struct fold_data_opts *o,
		   struct folder *f);

#endif /* PD_TOOLS_FOLD_DATA_H */
