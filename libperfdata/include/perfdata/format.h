/* SPDX-License-Identifier: MIT */
/*
 * On-disk constants of the perf.data format: record types, sample_type and
 * read_format bits, header feature ids, and the perf_event_attr layout.
 *
 * Values are facts of the format (see docs/perf-data-format.md of the
 * project); the names carry a PD_ prefix so this header can be included next
 * to <linux/perf_event.h> without clashes. The project never includes that
 * header: the kernel interfaces beyond the file's own layout are in
 * kernel-abi.h.
 */
#ifndef PERFDATA_FORMAT_H
#define PERFDATA_FORMAT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Magics, compared as little-endian u64 values read from byte 0. */
#define PD_MAGIC_PERFILE2	0x32454c4946524550ULL	/* "PERFILE2" */
#define PD_MAGIC_PERFILE2_SW	0x50455246494c4532ULL	/* "2ELIFREP" */
#define PD_MAGIC_PERFFILE	0x454c494646524550ULL	/* "PERFFILE" (v1) */

#define PD_FILE_HEADER_SIZE	104
#define PD_FILE_HEADER_SIZE_V0	72	/* no feature bitmap */
#define PD_PIPE_HEADER_SIZE	16

/* Kernel record types (enum perf_event_type). */
enum pd_record_type {
	PD_RECORD_MMAP			= 1,
	PD_RECORD_LOST			= 2,
	PD_RECORD_COMM			= 3,
	PD_RECORD_EXIT			= 4,
	PD_RECORD_THROTTLE		= 5,
	PD_RECORD_UNTHROTTLE		= 6,
	PD_RECORD_FORK			= 7,
	PD_RECORD_READ			= 8,
	PD_RECORD_SAMPLE		= 9,
	PD_RECORD_MMAP2			= 10,
	PD_RECORD_AUX			= 11,
	PD_RECORD_ITRACE_START		= 12,
	PD_RECORD_LOST_SAMPLES		= 13,
	PD_RECORD_SWITCH		= 14,
	PD_RECORD_SWITCH_CPU_WIDE	= 15,
	PD_RECORD_NAMESPACES		= 16,
	PD_RECORD_KSYMBOL		= 17,
	PD_RECORD_BPF_EVENT		= 18,
	PD_RECORD_CGROUP		= 19,
	PD_RECORD_TEXT_POKE		= 20,
	PD_RECORD_AUX_OUTPUT_HW_ID	= 21,
	PD_RECORD_CALLCHAIN_DEFERRED	= 22,
	PD_RECORD_KERNEL_MAX,

	/* perf-tool ("user") records */
	PD_RECORD_HEADER_ATTR		= 64,
	PD_RECORD_HEADER_EVENT_TYPE	= 65,
	PD_RECORD_HEADER_TRACING_DATA	= 66,
	PD_RECORD_HEADER_BUILD_ID	= 67,
	PD_RECORD_FINISHED_ROUND	= 68,
	PD_RECORD_ID_INDEX		= 69,
	PD_RECORD_AUXTRACE_INFO		= 70,
	PD_RECORD_AUXTRACE		= 71,
	PD_RECORD_AUXTRACE_ERROR	= 72,
	PD_RECORD_THREAD_MAP		= 73,
	PD_RECORD_CPU_MAP		= 74,
	PD_RECORD_STAT_CONFIG		= 75,
	PD_RECORD_STAT			= 76,
	PD_RECORD_STAT_ROUND		= 77,
	PD_RECORD_EVENT_UPDATE		= 78,
	PD_RECORD_TIME_CONV		= 79,
	PD_RECORD_HEADER_FEATURE	= 80,
	PD_RECORD_COMPRESSED		= 81,
	PD_RECORD_FINISHED_INIT		= 82,
	PD_RECORD_COMPRESSED2		= 83,
	PD_RECORD_BPF_METADATA		= 84,
	PD_RECORD_SCHEDSTAT_CPU		= 85,
	PD_RECORD_SCHEDSTAT_DOMAIN	= 86,
	PD_RECORD_USER_MAX,
};

#define PD_RECORD_USER_MIN	64

/* header.misc */
#define PD_MISC_CPUMODE_MASK		0x7
#define PD_MISC_CPUMODE_UNKNOWN		0
#define PD_MISC_KERNEL			1
#define PD_MISC_USER			2
#define PD_MISC_HYPERVISOR		3
#define PD_MISC_GUEST_KERNEL		4
#define PD_MISC_GUEST_USER		5
#define PD_MISC_PROC_MAP_PARSE_TIMEOUT	(1 << 12)
#define PD_MISC_MMAP_DATA		(1 << 13)
#define PD_MISC_COMM_EXEC		(1 << 13)
#define PD_MISC_SWITCH_OUT		(1 << 13)
#define PD_MISC_EXACT_IP		(1 << 14)
#define PD_MISC_SWITCH_OUT_PREEMPT	(1 << 14)
#define PD_MISC_MMAP_BUILD_ID		(1 << 14)
#define PD_MISC_EXT_RESERVED		(1 << 15)
#define PD_MISC_BUILD_ID_SIZE		(1 << 15)

/* attr.sample_type */
enum pd_sample_bit {
	PD_SAMPLE_IP			= 1ULL << 0,
	PD_SAMPLE_TID			= 1ULL << 1,
	PD_SAMPLE_TIME			= 1ULL << 2,
	PD_SAMPLE_ADDR			= 1ULL << 3,
	PD_SAMPLE_READ			= 1ULL << 4,
	PD_SAMPLE_CALLCHAIN		= 1ULL << 5,
	PD_SAMPLE_ID			= 1ULL << 6,
	PD_SAMPLE_CPU			= 1ULL << 7,
	PD_SAMPLE_PERIOD		= 1ULL << 8,
	PD_SAMPLE_STREAM_ID		= 1ULL << 9,
	PD_SAMPLE_RAW			= 1ULL << 10,
	PD_SAMPLE_BRANCH_STACK		= 1ULL << 11,
	PD_SAMPLE_REGS_USER		= 1ULL << 12,
	PD_SAMPLE_STACK_USER		= 1ULL << 13,
	PD_SAMPLE_WEIGHT		= 1ULL << 14,
	PD_SAMPLE_DATA_SRC		= 1ULL << 15,
	PD_SAMPLE_IDENTIFIER		= 1ULL << 16,
	PD_SAMPLE_TRANSACTION		= 1ULL << 17,
	PD_SAMPLE_REGS_INTR		= 1ULL << 18,
	PD_SAMPLE_PHYS_ADDR		= 1ULL << 19,
	PD_SAMPLE_AUX			= 1ULL << 20,
	PD_SAMPLE_CGROUP		= 1ULL << 21,
	PD_SAMPLE_DATA_PAGE_SIZE	= 1ULL << 22,
	PD_SAMPLE_CODE_PAGE_SIZE	= 1ULL << 23,
	PD_SAMPLE_WEIGHT_STRUCT		= 1ULL << 24,
};
#define PD_SAMPLE_KNOWN_MASK	((1ULL << 25) - 1)
#define PD_SAMPLE_WEIGHT_TYPE	(PD_SAMPLE_WEIGHT | PD_SAMPLE_WEIGHT_STRUCT)

/* attr.read_format */
enum pd_read_format_bit {
	PD_FORMAT_TOTAL_TIME_ENABLED	= 1ULL << 0,
	PD_FORMAT_TOTAL_TIME_RUNNING	= 1ULL << 1,
	PD_FORMAT_ID			= 1ULL << 2,
	PD_FORMAT_GROUP			= 1ULL << 3,
	PD_FORMAT_LOST			= 1ULL << 4,
};

/* attr.branch_sample_type bits that change the sample layout */
#define PD_BRANCH_HW_INDEX	(1ULL << 17)
#define PD_BRANCH_COUNTERS	(1ULL << 19)

/* attr flag bits (the bitfield at offset 40, little-endian bit numbering) */
enum pd_attr_flag {
	PD_ATTR_DISABLED		= 1ULL << 0,
	PD_ATTR_INHERIT			= 1ULL << 1,
	PD_ATTR_PINNED			= 1ULL << 2,
	PD_ATTR_EXCLUSIVE		= 1ULL << 3,
	PD_ATTR_EXCLUDE_USER		= 1ULL << 4,
	PD_ATTR_EXCLUDE_KERNEL		= 1ULL << 5,
	PD_ATTR_EXCLUDE_HV		= 1ULL << 6,
	PD_ATTR_EXCLUDE_IDLE		= 1ULL << 7,
	PD_ATTR_MMAP			= 1ULL << 8,
	PD_ATTR_COMM			= 1ULL << 9,
	PD_ATTR_FREQ			= 1ULL << 10,
	PD_ATTR_INHERIT_STAT		= 1ULL << 11,
	PD_ATTR_ENABLE_ON_EXEC		= 1ULL << 12,
	PD_ATTR_TASK			= 1ULL << 13,
	PD_ATTR_WATERMARK		= 1ULL << 14,
	PD_ATTR_PRECISE_IP_MASK		= 3ULL << 15,
	PD_ATTR_MMAP_DATA		= 1ULL << 17,
	PD_ATTR_SAMPLE_ID_ALL		= 1ULL << 18,
	PD_ATTR_EXCLUDE_HOST		= 1ULL << 19,
	PD_ATTR_EXCLUDE_GUEST		= 1ULL << 20,
	PD_ATTR_EXCLUDE_CALLCHAIN_KERNEL = 1ULL << 21,
	PD_ATTR_EXCLUDE_CALLCHAIN_USER	= 1ULL << 22,
	PD_ATTR_MMAP2			= 1ULL << 23,
	PD_ATTR_COMM_EXEC		= 1ULL << 24,
	PD_ATTR_USE_CLOCKID		= 1ULL << 25,
	PD_ATTR_CONTEXT_SWITCH		= 1ULL << 26,
	PD_ATTR_WRITE_BACKWARD		= 1ULL << 27,
	PD_ATTR_NAMESPACES		= 1ULL << 28,
	PD_ATTR_KSYMBOL			= 1ULL << 29,
	PD_ATTR_BPF_EVENT		= 1ULL << 30,
	PD_ATTR_AUX_OUTPUT		= 1ULL << 31,
	PD_ATTR_CGROUP			= 1ULL << 32,
	PD_ATTR_TEXT_POKE		= 1ULL << 33,
	PD_ATTR_BUILD_ID		= 1ULL << 34,
	PD_ATTR_INHERIT_THREAD		= 1ULL << 35,
	PD_ATTR_REMOVE_ON_EXEC		= 1ULL << 36,
	PD_ATTR_SIGTRAP			= 1ULL << 37,
	PD_ATTR_DEFER_CALLCHAIN		= 1ULL << 38,
	PD_ATTR_DEFER_OUTPUT		= 1ULL << 39,
};
#define PD_ATTR_PRECISE_IP_SHIFT	15

/* perf_event_attr sizes by ABI revision */
#define PD_ATTR_SIZE_VER0	64
#define PD_ATTR_SIZE_VER1	72
#define PD_ATTR_SIZE_VER2	80
#define PD_ATTR_SIZE_VER3	96
#define PD_ATTR_SIZE_VER4	104
#define PD_ATTR_SIZE_VER5	112
#define PD_ATTR_SIZE_VER6	120
#define PD_ATTR_SIZE_VER7	128
#define PD_ATTR_SIZE_VER8	136
#define PD_ATTR_SIZE_VER9	144

/*
 * perf_event_attr in host byte order, laid out as on disk up to config4 (the
 * largest size this library knows). The flag bitfield is kept as one u64 so
 * that it can be tested with PD_ATTR_* masks whatever the host's bitfield
 * allocation.
 */
struct pd_attr {
	uint32_t type;
	uint32_t size;
	uint64_t config;
	uint64_t sample_period;	/* or sample_freq when PD_ATTR_FREQ */
	uint64_t sample_type;
	uint64_t read_format;
	uint64_t flags;
	uint32_t wakeup_events;	/* or wakeup_watermark */
	uint32_t bp_type;
	uint64_t config1;	/* or bp_addr, kprobe_func, uprobe_path */
	uint64_t config2;	/* or bp_len, kprobe_addr, probe_offset */
	uint64_t branch_sample_type;
	uint64_t sample_regs_user;
	uint32_t sample_stack_user;
	int32_t clockid;
	uint64_t sample_regs_intr;
	uint32_t aux_watermark;
	uint16_t sample_max_stack;
	uint16_t reserved_2;
	uint32_t aux_sample_size;
	uint32_t aux_action;
	uint64_t sig_data;
	uint64_t config3;
	uint64_t config4;
};

/* perf_event_attr.type */
enum pd_attr_type {
	PD_TYPE_HARDWARE	= 0,
	PD_TYPE_SOFTWARE	= 1,
	PD_TYPE_TRACEPOINT	= 2,
	PD_TYPE_HW_CACHE	= 3,
	PD_TYPE_RAW		= 4,
	PD_TYPE_BREAKPOINT	= 5,
};

/* perf_event_attr.config of PD_TYPE_HARDWARE events */
enum pd_hw_id {
	PD_HW_CPU_CYCLES		= 0,	/* 2.6.31 */
	PD_HW_INSTRUCTIONS		= 1,	/* 2.6.31 */
	PD_HW_CACHE_REFERENCES		= 2,	/* 2.6.31 */
	PD_HW_CACHE_MISSES		= 3,	/* 2.6.31 */
	PD_HW_BRANCH_INSTRUCTIONS	= 4,	/* 2.6.31 */
	PD_HW_BRANCH_MISSES		= 5,	/* 2.6.31 */
	PD_HW_BUS_CYCLES		= 6,	/* 2.6.31 */
	PD_HW_STALLED_CYCLES_FRONTEND	= 7,	/* 3.0 */
	PD_HW_STALLED_CYCLES_BACKEND	= 8,	/* 3.0 */
	PD_HW_REF_CPU_CYCLES		= 9,	/* 3.3 */
};

/* perf_event_attr.config of PD_TYPE_SOFTWARE events */
enum pd_sw_id {
	PD_SW_CPU_CLOCK			= 0,	/* 2.6.31 */
	PD_SW_TASK_CLOCK		= 1,	/* 2.6.31 */
	PD_SW_PAGE_FAULTS		= 2,	/* 2.6.31 */
	PD_SW_CONTEXT_SWITCHES		= 3,	/* 2.6.31 */
	PD_SW_CPU_MIGRATIONS		= 4,	/* 2.6.31 */
	PD_SW_PAGE_FAULTS_MIN		= 5,	/* 2.6.31 */
	PD_SW_PAGE_FAULTS_MAJ		= 6,	/* 2.6.31 */
	PD_SW_ALIGNMENT_FAULTS		= 7,	/* 2.6.33 */
	PD_SW_EMULATION_FAULTS		= 8,	/* 2.6.33 */
	PD_SW_DUMMY			= 9,	/* 3.12 */
	PD_SW_BPF_OUTPUT		= 10,	/* 4.4 */
	PD_SW_CGROUP_SWITCHES		= 11,	/* 5.13 */
};

/* KSYMBOL's ksym_type */
#define PD_KSYMBOL_TYPE_UNKNOWN		0	/* 5.1 */
#define PD_KSYMBOL_TYPE_BPF		1	/* 5.1 */
#define PD_KSYMBOL_TYPE_OOL		2	/* 5.9: out-of-line code */
/* KSYMBOL's flags */
#define PD_KSYMBOL_FLAG_UNREGISTER	(1U << 0)	/* 5.1 */

/* BPF_EVENT's type */
#define PD_BPF_EVENT_UNKNOWN		0	/* 5.1 */
#define PD_BPF_EVENT_PROG_LOAD		1	/* 5.1 */
#define PD_BPF_EVENT_PROG_UNLOAD	2	/* 5.1 */

/* Header features: bit numbers in the file header's feature bitmap. */
enum pd_feature {
	PD_FEAT_RESERVED	= 0,
	PD_FEAT_TRACING_DATA	= 1,
	PD_FEAT_BUILD_ID	= 2,
	PD_FEAT_HOSTNAME	= 3,
	PD_FEAT_OSRELEASE	= 4,
	PD_FEAT_VERSION		= 5,
	PD_FEAT_ARCH		= 6,
	PD_FEAT_NRCPUS		= 7,
	PD_FEAT_CPUDESC		= 8,
	PD_FEAT_CPUID		= 9,
	PD_FEAT_TOTAL_MEM	= 10,
	PD_FEAT_CMDLINE		= 11,
	PD_FEAT_EVENT_DESC	= 12,
	PD_FEAT_CPU_TOPOLOGY	= 13,
	PD_FEAT_NUMA_TOPOLOGY	= 14,
	PD_FEAT_BRANCH_STACK	= 15,
	PD_FEAT_PMU_MAPPINGS	= 16,
	PD_FEAT_GROUP_DESC	= 17,
	PD_FEAT_AUXTRACE	= 18,
	PD_FEAT_STAT		= 19,
	PD_FEAT_CACHE		= 20,
	PD_FEAT_SAMPLE_TIME	= 21,
	PD_FEAT_MEM_TOPOLOGY	= 22,
	PD_FEAT_CLOCKID		= 23,
	PD_FEAT_DIR_FORMAT	= 24,
	PD_FEAT_BPF_PROG_INFO	= 25,
	PD_FEAT_BPF_BTF		= 26,
	PD_FEAT_COMPRESSED	= 27,
	PD_FEAT_CPU_PMU_CAPS	= 28,
	PD_FEAT_CLOCK_DATA	= 29,
	PD_FEAT_HYBRID_TOPOLOGY	= 30,
	PD_FEAT_PMU_CAPS	= 31,
	PD_FEAT_CPU_DOMAIN_INFO	= 32,
	PD_FEAT_E_MACHINE	= 33,
	PD_FEAT_CLN_SIZE	= 34,
	PD_FEAT_KNOWN_MAX,
	PD_FEAT_BITS		= 256,
};

/* Callchain context markers */
#define PD_CONTEXT_HV			((uint64_t)-32)
#define PD_CONTEXT_KERNEL		((uint64_t)-128)
#define PD_CONTEXT_USER			((uint64_t)-512)
#define PD_CONTEXT_USER_DEFERRED	((uint64_t)-640)
#define PD_CONTEXT_GUEST		((uint64_t)-2048)
#define PD_CONTEXT_GUEST_KERNEL		((uint64_t)-2176)
#define PD_CONTEXT_GUEST_USER		((uint64_t)-2560)
#define PD_CONTEXT_MAX			((uint64_t)-4095)

/*
 * Names as perf prints them (e.g. "MMAP2", "FINISHED_ROUND"); NULL for a
 * type or feature this library does not know.
 */
const char *pd_record_type_name(uint32_t type);
const char *pd_feature_name(unsigned int feat);

#ifdef __cplusplus
}
#endif
#endif /* PERFDATA_FORMAT_H */
