/* SPDX-License-Identifier: MIT */
/*
 * Header features: the metadata sections perf writes after the records
 * (file mode) or as HEADER_FEATURE records (pipe mode), decoded into
 * typed data.
 *
 * Everything here belongs to the reader it came from and lives until
 * pd_reader__close(). All numbers are in host byte order; strings are
 * NUL-terminated (a string that was not terminated in the file is cut at
 * its section's end). A feature is usable only if pd_features__has() says
 * so: a section that was present but malformed is reported as a warning
 * and left out, its raw bytes still kept.
 */
#ifndef PERFDATA_FEATURES_H
#define PERFDATA_FEATURES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <perfdata/format.h>

#ifdef __cplusplus
extern "C" {
#endif

struct tep_handle;

/* One entry of BUILD_ID (or of a pipe-mode HEADER_BUILD_ID record). */
struct pd_build_id {
	int32_t pid;		/* -1: host; else the guest machine's pid */
	uint16_t misc;		/* cpumode (PD_MISC_*) of the DSO */
	uint8_t size;		/* bytes of id used: 20 (SHA-1) unless stated */
	uint8_t id[20];
	const char *filename;
};

/* One event of EVENT_DESC: an attr, its name and its sample ids. */
struct pd_event_desc {
	struct pd_attr attr;
	uint32_t attr_size;	/* as written in the section */
	const char *name;
	uint32_t nr_ids;
	const uint64_t *ids;
};

/* One event format of the tracing data (a tracepoint). */
struct pd_trace_event {
	uint64_t id;		/* attr.config of tracepoint evsels */
	const char *system;	/* "sched" */
	const char *event;	/* "sched_switch" */
	const char *name;	/* "sched:sched_switch" */
	const char *format;	/* the format file's text */
	size_t format_len;
};

struct pd_tracing {
	const char *version;	/* "0.5", "0.6" */
	bool big_endian;
	uint8_t long_size;
	uint32_t page_size;
	uint32_t nr_ftrace;	/* ftrace-internal formats (not listed) */
	uint32_t nr_events;
	const struct pd_trace_event *events;
	size_t kallsyms_size;
	const char *printk;	/* printk_formats text, may be empty */
	size_t printk_size;
	const char *saved_cmdlines;	/* v0.6, may be empty */
	size_t saved_cmdlines_size;
	size_t size;		/* of the whole blob */
};

struct pd_cpu_topo_cpu {
	int32_t core_id;	/* -1: not recorded */
	int32_t socket_id;
	int32_t die_id;
};

struct pd_cpu_topology {
	uint32_t nr_sockets;		/* "package siblings" cpu lists */
	const char *const *sockets;
	uint32_t nr_dies;		/* 0 before the die revision */
	const char *const *dies;
	uint32_t nr_threads;		/* "core siblings" cpu lists */
	const char *const *threads;
	uint32_t nr_cpus;		/* 0 in the first revision */
	const struct pd_cpu_topo_cpu *cpus;
	bool has_dies;
};

struct pd_numa_node {
	uint32_t node;
	uint64_t mem_total;	/* kB */
	uint64_t mem_free;	/* kB */
	const char *cpus;
};

struct pd_pmu_mapping {
	uint32_t type;
	const char *name;
};

struct pd_group_desc {
	const char *name;	/* NULL for perf's "{anon_group}" */
	uint32_t leader_idx;
	uint32_t nr_members;
};

struct pd_auxtrace_index {
	uint64_t file_offset;
	uint64_t size;
};

struct pd_cache_level {
	uint32_t level;
	uint32_t line_size;
	uint32_t sets;
	uint32_t ways;
	const char *type;
	const char *size;
	const char *map;	/* shared cpu list */
};

struct pd_mem_node {
	uint64_t node;
	uint64_t size;		/* bytes */
	uint64_t nbits;		/* memory blocks in the bitmap */
	const uint64_t *bitmap;	/* (nbits + 63) / 64 words */
};

/* BPF_PROG_INFO: kept as written (perf never swaps it). */
struct pd_bpf_prog {
	uint32_t info_len;
	uint32_t data_len;
	const uint8_t *info;	/* struct bpf_prog_info */
	const uint8_t *data;	/* jited/xlated arrays it points into */
};

struct pd_bpf_btf {
	uint32_t id;
	uint32_t size;
	const uint8_t *data;
};

struct pd_cap {
	const char *name;
	const char *value;
};

struct pd_pmu_caps {
	const char *pmu_name;	/* "cpu" for CPU_PMU_CAPS */
	uint32_t nr_caps;
	const struct pd_cap *caps;
};

struct pd_hybrid_pmu {
	const char *pmu_name;
	const char *cpus;
};

struct pd_sched_domain {
	uint32_t domain;
	const char *name;	/* NULL before schedstat version 17 */
	const char *cpumask;
	const char *cpulist;
};

struct pd_cpu_domains {
	uint32_t cpu;
	uint32_t nr_domains;
	const struct pd_sched_domain *domains;
};

/* A section as it was in the file, in the file's byte order. */
struct pd_feature_raw {
	const void *data;
	size_t size;
};

struct pd_features {
	/* set bits: present and decoded (or opaque, for unknown ids) */
	uint64_t have[PD_FEAT_BITS / 64];
	/* set bits: present in the input, decoded or not */
	uint64_t seen[PD_FEAT_BITS / 64];
	struct pd_feature_raw raw[PD_FEAT_BITS];
	bool swapped;		/* raw bytes are in the other byte order */

	struct pd_tracing tracing;
	struct {
		uint32_t nr;
		const struct pd_build_id *ids;
	} build_ids;
	const char *hostname;
	const char *osrelease;
	const char *version;
	const char *arch;
	struct {
		uint32_t avail;
		uint32_t online;
	} nrcpus;
	const char *cpudesc;
	const char *cpuid;
	uint64_t total_mem;		/* kB */
	struct {
		uint32_t argc;		/* argv[0] is perf's own path */
		const char *const *argv;
	} cmdline;
	struct {
		uint32_t nr;
		const struct pd_event_desc *events;
	} event_desc;
	struct pd_cpu_topology cpu_topology;
	struct {
		uint32_t nr;
		const struct pd_numa_node *nodes;
	} numa;
	struct {
		uint32_t nr;
		const struct pd_pmu_mapping *pmus;
	} pmu_mappings;
	struct {
		uint32_t nr;
		const struct pd_group_desc *groups;
	} group_desc;
	struct {
		uint64_t nr;
		const struct pd_auxtrace_index *entries;
	} auxtrace;
	struct {
		uint32_t version;
		uint32_t nr;
		const struct pd_cache_level *levels;
	} cache;
	struct {
		uint64_t first;		/* ns, perf clock */
		uint64_t last;
	} sample_time;
	struct {
		uint64_t version;
		uint64_t block_size;
		uint64_t nr;
		const struct pd_mem_node *nodes;
	} mem_topology;
	uint64_t clockid_res_ns;
	uint64_t dir_format_version;
	struct {
		uint32_t nr;
		const struct pd_bpf_prog *progs;
	} bpf_prog_info;
	struct {
		uint32_t nr;
		const struct pd_bpf_btf *btfs;
	} bpf_btf;
	struct {
		uint32_t version;
		uint32_t type;		/* 1: zstd */
		uint32_t level;
		uint32_t ratio;
		uint32_t mmap_len;
	} compressed;
	struct pd_pmu_caps cpu_pmu_caps;
	struct {
		uint32_t version;
		int32_t clockid;
		uint64_t tod_ns;	/* wall-clock time at the reference point */
		uint64_t clockid_ns;	/* the session clock at the same point */
	} clock_data;
	struct {
		uint32_t nr;
		const struct pd_hybrid_pmu *pmus;
	} hybrid_topology;
	struct {
		uint32_t nr;
		const struct pd_pmu_caps *pmus;
	} pmu_caps;
	struct {
		uint32_t schedstat_version;
		uint32_t max_sched_domains;
		uint32_t nr;
		const struct pd_cpu_domains *cpus;
	} cpu_domain_info;
	struct {
		uint32_t machine;	/* ELF e_machine */
		uint32_t flags;		/* ELF e_flags */
	} e_machine;
	uint32_t cln_size;
};

/* Present and decoded (unknown ids: present, kept raw). */
bool pd_features__has(const struct pd_features *f, unsigned int id);
/* Present in the input, whether or not it could be decoded. */
bool pd_features__seen(const struct pd_features *f, unsigned int id);

/*
 * The tracing data parsed by libtraceevent, for decoding tracepoint RAW
 * samples (tep_find_event(), tep_print_event()); NULL without tracing
 * data, when libtraceevent refused it, or when libperfdata was built
 * without libtraceevent (the tracepoints' names and ids in
 * pd_features.tracing then come from their formats' own lines).
 */
struct tep_handle *pd_features__tep(const struct pd_features *f);

#ifdef __cplusplus
}
#endif

#endif /* PERFDATA_FEATURES_H */
