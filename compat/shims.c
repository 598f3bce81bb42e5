// SPDX-License-Identifier: MIT
/*
 * The shims by name, in the order the converter applies them. What each
 * does is in docs/compat.md; compat/convert.c implements them.
 */
#include <string.h>

#include <perfdata/compat.h>

#include "base/internal.h"

static const struct pd_shim_info shims[] = {
	{ PD_SHIM_UNWIND, "unwind",
	  "unwind DWARF samples (REGS_USER + STACK_USER) into callchains, for perf before 4.3 or any reader without a DWARF unwinder (reads the input in time order)" },
	{ PD_SHIM_DECOMPRESS, "decompress",
	  "write the records uncompressed (target reads no COMPRESSED records)" },
	{ PD_SHIM_COMPRESSED2, "compressed2",
	  "compress into COMPRESSED (81) records, not COMPRESSED2 (83)" },
	{ PD_SHIM_ATTR_SIZE, "attr-size",
	  "write perf_event_attr at the size the target accepts (fields dropped must be zero or not matter)" },
	{ PD_SHIM_SAMPLE_TYPE, "sample-type",
	  "remove sample_type, read_format and branch bits the target does not decode, rewriting every sample; for a target without IDENTIFIER (3.10), one sample_type for every event" },
	{ PD_SHIM_ATTR_BITS, "attr-bits",
	  "clear attr flag, read_format, branch filter and reserved bits the target does not know (perf 5.10+ warns \"Reserved bits are set unexpectedly\"); READ records follow read_format" },
	{ PD_SHIM_MMAP2_BUILD_ID, "mmap2-build-id",
	  "MMAP2 records with a build id to the dev/inode form, build ids into the BUILD_ID feature" },
	{ PD_SHIM_MMAP2_TO_MMAP, "mmap2-to-mmap",
	  "MMAP2 records to MMAP records" },
	{ PD_SHIM_KERNEL_MMAP2, "kernel-mmap2",
	  "the kernel's and modules' MMAP2 records to MMAP records (perf before 5.11 makes no kernel map from an MMAP2; user-space MMAP2s stay)" },
	{ PD_SHIM_CPU_MAP_RANGE, "cpu-map-range",
	  "CPU maps in the RANGE encoding to a list of CPUs" },
	{ PD_SHIM_STAT_CPU, "stat-cpu",
	  "STAT records name their CPU as the target reads it: by position in the event's CPU map (before 5.19) or by number (perf stat record wrote numbers from 5.17)" },
	{ PD_SHIM_CLOCK_UNIT, "clock-unit",
	  "drop the msec unit and 1e-6 scale of cpu-clock and task-clock (EVENT_UPDATE) from perf stat record's files: perf before 4.19 converts their nanoseconds itself, and would scale them twice" },
	{ PD_SHIM_FINISHED_INIT, "finished-init",
	  "drop FINISHED_INIT records" },
	{ PD_SHIM_DROP_RECORDS, "drop-records",
	  "drop records of types the target does not know" },
	{ PD_SHIM_BUILD_ID_PID, "build-id-pid",
	  "BUILD_ID entries of host DSOs under the host's pid (-1), not a process's, which older perfs take for a guest machine's" },
	{ PD_SHIM_FEATURES, "features",
	  "drop header features the target does not know" },
	{ PD_SHIM_FEATURE_LAYOUT, "feature-layout",
	  "drop or reshape features whose layout changed since the target (31: HYBRID_CPU_PMU_CAPS before 6.0; BPF_PROG_INFO entries cut to its struct bpf_prog_info)" },
	{ PD_SHIM_PIPE_MARKER, "pipe-marker",
	  "pipe mode: drop the input's end-of-features marker, write the target's" },
};

PD_EXPORT const struct pd_shim_info *pd_shims(size_t *nr)
{
	*nr = PD_ARRAY_SIZE(shims);
	return shims;
}

PD_EXPORT const struct pd_shim_info *pd_shim__find(const char *name)
{
	size_t i;

	for (i = 0; i < PD_ARRAY_SIZE(shims); i++)
		if (!strcmp(shims[i].name, name))
			return &shims[i];
	return NULL;
}
