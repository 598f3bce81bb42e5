/* SPDX-License-Identifier: MIT */
/*
 * Decoded records.
 *
 * Ownership: a struct pd_event and everything it points to are borrowed
 * from the reader and stay valid until the next pd_reader__next() or
 * pd_reader__close() on that reader. All numbers are in host byte order,
 * whatever the byte order of the file. Pointers to arrays (callchain ips,
 * registers, ...) point into the record's host-order copy and may be
 * unaligned only where the format itself is unaligned (documented below).
 */
#ifndef PERFDATA_EVENT_H
#define PERFDATA_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <perfdata/format.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pd_evsel;

/* The sample_id trailer of non-sample records (sample_id_all). */
struct pd_sample_id {
	uint64_t present;	/* PD_SAMPLE_* bits that were decoded */
	uint32_t pid, tid;
	uint64_t time;
	uint64_t id;
	uint64_t stream_id;
	uint32_t cpu, cpu_res;
};

struct pd_read_value {
	uint64_t value;
	uint64_t id;
	uint64_t lost;
};

/* read_format block (SAMPLE's READ field and the READ record) */
struct pd_read {
	uint64_t time_enabled;
	uint64_t time_running;
	uint64_t nr;			/* 1 unless PD_FORMAT_GROUP */
	const struct pd_read_value *values;	/* nr entries */
};

struct pd_branch_entry {
	uint64_t from;
	uint64_t to;
	uint64_t flags;	/* bit 0 mispred, 1 predicted, 2 in_tx, 3 abort,
			 * 4-19 cycles, 20-23 type, 24-25 spec, 26-29 new_type,
			 * 30-32 priv (little-endian bit numbering) */
};

struct pd_regs {
	uint64_t abi;		/* 0 none, 1 32-bit, 2 64-bit */
	uint64_t mask;		/* from the attr */
	uint32_t nr;		/* popcount(mask) when abi != 0, else 0 */
	const uint64_t *regs;	/* nr values in increasing bit order */
};

struct pd_sample {
	uint64_t sample_type;	/* layout the sample was decoded with */
	uint64_t id;		/* from IDENTIFIER or ID */
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;
	uint64_t addr;
	uint64_t stream_id;
	uint32_t cpu, cpu_res;
	uint64_t period;
	struct pd_read read;
	struct {
		uint64_t nr;
		const uint64_t *ips;
	} callchain;
	struct {
		uint32_t size;
		const void *data;	/* 4-byte aligned only */
	} raw;
	struct {
		uint64_t nr;
		bool has_hw_idx;
		uint64_t hw_idx;
		const struct pd_branch_entry *entries;
		const uint64_t *counters;	/* NULL unless PD_BRANCH_COUNTERS */
	} branch_stack;
	struct pd_regs user_regs;
	struct {
		uint64_t size;
		const void *data;
		uint64_t dyn_size;
	} user_stack;
	uint64_t weight;	/* WEIGHT, or WEIGHT_STRUCT's raw u64 */
	uint64_t data_src;
	uint64_t transaction;
	struct pd_regs intr_regs;
	uint64_t phys_addr;
	uint64_t cgroup;
	uint64_t data_page_size;
	uint64_t code_page_size;
	struct {
		uint64_t size;
		const void *data;
	} aux;
};

/* WEIGHT_STRUCT halves: var1_dw is the latency weight perf reports. */
static inline uint32_t pd_weight_var1(uint64_t w) { return (uint32_t)w; }
static inline uint16_t pd_weight_var2(uint64_t w) { return (uint16_t)(w >> 32); }
static inline uint16_t pd_weight_var3(uint64_t w) { return (uint16_t)(w >> 48); }

struct pd_mmap_event {
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	/* MMAP2 only: */
	bool has_build_id;		/* MMAP2 with PD_MISC_MMAP_BUILD_ID */
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	uint8_t build_id_size;
	uint8_t build_id[20];
	uint32_t prot, flags;
	const char *filename;		/* NUL-terminated within the record */
};

struct pd_comm_event {
	uint32_t pid, tid;
	const char *comm;
};

struct pd_fork_event {			/* FORK and EXIT */
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;
};

struct pd_lost_event {
	uint64_t id, lost;
};

struct pd_throttle_event {
	uint64_t time, id, stream_id;
};

struct pd_read_event {
	uint32_t pid, tid;
	struct pd_read read;
};

struct pd_aux_event {
	uint64_t aux_offset, aux_size, flags;
};

struct pd_itrace_start_event {
	uint32_t pid, tid;
};

struct pd_lost_samples_event {
	uint64_t lost;
};

struct pd_switch_event {		/* SWITCH and SWITCH_CPU_WIDE */
	uint32_t next_prev_pid, next_prev_tid;	/* CPU_WIDE only */
};

struct pd_namespaces_event {
	uint32_t pid, tid;
	uint64_t nr;
	const uint64_t *link_info;	/* nr pairs {dev, ino} */
};

struct pd_ksymbol_event {
	uint64_t addr;
	uint32_t len;
	uint16_t ksym_type, flags;
	const char *name;
};

struct pd_bpf_event {
	uint16_t type, flags;
	uint32_t id;
	uint8_t tag[8];
};

struct pd_cgroup_event {
	uint64_t id;
	const char *path;
};

struct pd_text_poke_event {
	uint64_t addr;
	uint16_t old_len, new_len;
	const uint8_t *bytes;		/* old_len + new_len bytes */
};

struct pd_aux_output_hw_id_event {
	uint64_t hw_id;
};

struct pd_callchain_deferred_event {
	uint64_t cookie;
	uint64_t nr;
	const uint64_t *ips;
};

struct pd_attr_event {			/* HEADER_ATTR (pipe mode) */
	int evsel_idx;			/* index of the evsel it created */
	uint64_t nr_ids;
	const uint64_t *ids;
};

struct pd_tracing_data_event {
	uint32_t size;			/* blob bytes after the record */
	const void *data;		/* the blob, loaded by the reader */
};

struct pd_build_id_event {		/* HEADER_BUILD_ID */
	int32_t pid;
	uint8_t size;			/* 20 when the record has no size */
	uint8_t build_id[20];
	const char *filename;
};

struct pd_id_index_entry {
	uint64_t id, idx, cpu, tid;
};

struct pd_id_index_event {
	uint64_t nr;
	const struct pd_id_index_entry *entries;
	bool has_vcpu;			/* 6.0+ extension present */
	const uint64_t *machine_vcpu;	/* nr pairs {machine_pid, vcpu} */
};

struct pd_auxtrace_info_event {
	uint32_t type;
	uint32_t nr_priv;
	const uint64_t *priv;
};

struct pd_auxtrace_event {
	uint64_t size, offset, reference;
	uint32_t idx, tid, cpu;
	uint64_t data_offset;		/* file offset of the AUX data, or 0 */
	const void *data;		/* the AUX data (size bytes) when the
					 * reader loads it (load_aux), or NULL */
};

struct pd_auxtrace_error_event {
	uint32_t type, code, cpu, pid, tid, fmt;
	uint64_t ip, time;
	char msg[65];
	uint32_t machine_pid, vcpu;
};

struct pd_thread_map_entry {
	uint64_t pid;
	char comm[17];
};

struct pd_thread_map_event {
	uint64_t nr;
	const struct pd_thread_map_entry *entries;	/* decoded copy */
};

/* CPU_MAP and EVENT_UPDATE(CPUS): decoded into a sorted list of cpus. */
struct pd_cpu_map {
	uint16_t encoding;		/* 0 CPUS, 1 MASK, 2 RANGE_CPUS */
	bool any_cpu;			/* RANGE_CPUS: includes -1 */
	uint32_t nr;
	const int32_t *cpus;
};

struct pd_stat_config_event {
	uint64_t nr;
	const uint64_t *pairs;		/* nr pairs {tag, val} */
};

struct pd_stat_event {
	uint64_t id;
	uint32_t cpu, thread;
	uint64_t val, ena, run;
};

struct pd_stat_round_event {
	uint64_t type, time;
};

struct pd_event_update_event {
	uint64_t type;			/* 0 UNIT, 1 SCALE, 2 NAME, 3 CPUS */
	uint64_t id;
	const char *str;		/* UNIT, NAME */
	double scale;			/* SCALE */
	struct pd_cpu_map cpus;		/* CPUS */
};

struct pd_time_conv_event {
	uint64_t time_shift, time_mult, time_zero;
	bool extended;			/* fields below present */
	uint64_t time_cycles, time_mask;
	uint8_t cap_user_time_zero, cap_user_time_short;
};

struct pd_feature_event {		/* HEADER_FEATURE (pipe mode) */
	uint64_t feat_id;
	uint64_t size;
	const void *data;
};

struct pd_compressed_event {		/* COMPRESSED and COMPRESSED2 */
	uint64_t data_size;
	const void *data;
};

struct pd_bpf_metadata_event {
	const char *prog_name;
	uint64_t nr_entries;
	const char *entries;		/* nr_entries x {char key[64]; char value[256]} */
};

/* Record flags (struct pd_event.flags) */
#define PD_EVENT_DECOMPRESSED	(1U << 0)	/* came out of COMPRESSED/2 */
#define PD_EVENT_UNKNOWN	(1U << 1)	/* type not decoded, raw only */
#define PD_EVENT_SYNTH_SWAPPED	(1U << 2)	/* reserved */

struct pd_event {
	uint32_t type;
	uint16_t misc;
	uint16_t size;		/* header.size: bytes at raw */
	uint32_t flags;
	/*
	 * Offset of the record in the input. For records that came out of a
	 * COMPRESSED record it is the offset of that compressed record, and
	 * inner_offset is the offset in the decompressed stream.
	 */
	uint64_t offset;
	uint64_t inner_offset;
	const void *raw;	/* whole record, host byte order */
	/*
	 * The evsel (attr) the record belongs to: for samples from their id
	 * (or the only attr), for other kernel records from their sample_id
	 * trailer; NULL where it cannot be told.
	 */
	const struct pd_evsel *evsel;
	struct pd_sample_id sid;
	union {
		struct pd_sample sample;
		struct pd_mmap_event mmap;	/* MMAP and MMAP2 */
		struct pd_comm_event comm;
		struct pd_fork_event fork;	/* FORK and EXIT */
		struct pd_lost_event lost;
		struct pd_throttle_event throttle;
		struct pd_read_event read;
		struct pd_aux_event aux;
		struct pd_itrace_start_event itrace_start;
		struct pd_lost_samples_event lost_samples;
		struct pd_switch_event context_switch;
		struct pd_namespaces_event namespaces;
		struct pd_ksymbol_event ksymbol;
		struct pd_bpf_event bpf;
		struct pd_cgroup_event cgroup;
		struct pd_text_poke_event text_poke;
		struct pd_aux_output_hw_id_event aux_output_hw_id;
		struct pd_callchain_deferred_event callchain_deferred;
		struct pd_attr_event attr;
		struct pd_tracing_data_event tracing_data;
		struct pd_build_id_event build_id;
		struct pd_id_index_event id_index;
		struct pd_auxtrace_info_event auxtrace_info;
		struct pd_auxtrace_event auxtrace;
		struct pd_auxtrace_error_event auxtrace_error;
		struct pd_thread_map_event thread_map;
		struct pd_cpu_map cpu_map;
		struct pd_stat_config_event stat_config;
		struct pd_stat_event stat;
		struct pd_stat_round_event stat_round;
		struct pd_event_update_event event_update;
		struct pd_time_conv_event time_conv;
		struct pd_feature_event feature;
		struct pd_compressed_event compressed;
		struct pd_bpf_metadata_event bpf_metadata;
	} u;
};

#ifdef __cplusplus
}
#endif
#endif /* PERFDATA_EVENT_H */
