// SPDX-License-Identifier: MIT
/*
 * Feature sections between byte orders, one function per layout, each
 * following the layout decisions of the parser in feat-parse.c.
 *
 * Numbers are swapped; string bytes and build-id bytes are not. A count
 * is only meaningful in host order, so it is read before its own swap
 * when going to the foreign order and after it when coming from there.
 * Every access is checked against the section's end. A section is first
 * walked without writing (dry run) and converted only if that walk
 * succeeded, so a malformed section is left exactly as it was.
 *
 * Where the parser tolerates bytes after the last field it reads, so do
 * we: they are left as they are (their layout is unknown).
 */
#include <stdint.h>
#include <string.h>

#include "attr.h"
#include "feat-swap.h"
#include "base/internal.h"

struct sw {
	uint8_t *p, *end;
	bool out;	/* host -> foreign: read values before swapping */
	bool dry;	/* validate only, write nothing */
	bool bad;	/* malformed: a read went past the end, or a bad value */
};

typedef void (*sw_fn)(struct sw *s);

static size_t left(const struct sw *s)
{
	return (size_t)(s->end - s->p);
}

static bool room(struct sw *s, uint64_t n)
{
	if (s->bad || n > left(s)) {
		s->bad = true;
		return false;
	}
	return true;
}

/* A word at q in host order, whichever side of the conversion we are. */
static uint32_t peek32(const struct sw *s, const uint8_t *q)
{
	return pd_get32(q, !s->out);
}

static uint32_t u32(struct sw *s)
{
	uint32_t v;

	if (!room(s, 4))
		return 0;
	v = peek32(s, s->p);
	if (!s->dry)
		pd_swap32_at(s->p);
	s->p += 4;
	return v;
}

static uint64_t u64(struct sw *s)
{
	uint64_t v;

	if (!room(s, 8))
		return 0;
	v = pd_get64(s->p, !s->out);
	if (!s->dry)
		pd_swap64_at(s->p);
	s->p += 8;
	return v;
}

/* n words of one size; n is checked against the section first. */
static void u32s(struct sw *s, uint64_t n)
{
	if (!room(s, n > UINT64_MAX / 4 ? UINT64_MAX : n * 4))
		return;
	while (n--)
		u32(s);
}

static void u64s(struct sw *s, uint64_t n)
{
	if (!room(s, n > UINT64_MAX / 8 ? UINT64_MAX : n * 8))
		return;
	while (n--)
		u64(s);
}

static void skip(struct sw *s, uint64_t n)
{
	if (room(s, n))
		s->p += n;
}

/* perf_header_string: u32 length, then that many bytes (kept). */
static void str(struct sw *s)
{
	uint32_t len = u32(s);

	skip(s, len);
}

/* u32 nr, then nr strings. */
static void str_list(struct sw *s)
{
	uint32_t i, nr = u32(s);

	for (i = 0; i < nr && !s->bad; i++)
		str(s);
}

/* Layouts without numbers to swap (BRANCH_STACK and STAT are empty). */
static void sw_none(struct sw *s)
{
}

/* HOSTNAME, OSRELEASE, VERSION, ARCH, CPUDESC, CPUID: one string. */
static void sw_string(struct sw *s)
{
	str(s);
}

/* NRCPUS (avail, online), E_MACHINE (machine, flags): two u32. */
static void sw_two_u32(struct sw *s)
{
	u32s(s, 2);
}

/* TOTAL_MEM, CLOCKID, DIR_FORMAT: one u64. */
static void sw_one_u64(struct sw *s)
{
	u64s(s, 1);
}

/* SAMPLE_TIME: u64 first, u64 last. */
static void sw_two_u64(struct sw *s)
{
	u64s(s, 2);
}

/* CMDLINE: a string list. */
static void sw_cmdline(struct sw *s)
{
	str_list(s);
}

/*
 * EVENT_DESC: u32 nr, u32 attr_size, then per event an attr of attr_size
 * bytes (fields swapped one by one, the flag bitfield mirrored, by the
 * attr helpers; words past our struct swapped as u64, as for attr
 * records), u32 nr_ids, the name, nr_ids u64 ids.
 */
static void sw_event_desc(struct sw *s)
{
	uint32_t i, nr_ids, nr = u32(s), size = u32(s);
	size_t known, off;
	struct pd_attr a;

	if (s->bad)
		return;
	if (size < PD_ATTR_SIZE_VER0 || size > 4096) {
		s->bad = true;
		return;
	}
	/* whole 8-byte groups of fields; an odd tail is left as it is */
	known = (size < sizeof(a) ? size : sizeof(a)) & ~(size_t)7;
	for (i = 0; i < nr && room(s, size); i++) {
		if (!s->dry) {
			pd__attr_from_disk(&a, s->p, size, !s->out);
			pd__attr_to_disk(s->p, &a, known, s->out);
			for (off = known; off + 8 <= size; off += 8)
				pd_swap64_at(s->p + off);
		}
		s->p += size;
		nr_ids = u32(s);
		str(s);
		u64s(s, nr_ids);
	}
}

/*
 * The die part fits the section's tail if n cpus are assumed: a die list
 * of 1..n strings ending exactly where n die ids fill the section. Only
 * whole words are looked at, at offsets that stay aligned (perf pads its
 * strings to 64 bytes), so the answer is the same on both sides of the
 * conversion when no die part is found and every word is swapped.
 */
static bool topo_dies_fit(const struct sw *s, uint64_t n)
{
	size_t end = left(s), off = 8 * n, stop, len;
	uint32_t i, nr;

	if (12 * n + 4 > end)
		return false;
	stop = end - 4 * n;
	nr = peek32(s, s->p + off);
	off += 4;
	if (nr == 0 || nr > n)
		return false;
	for (i = 0; i < nr; i++) {
		if (stop - off < 4)
			return false;
		len = peek32(s, s->p + off);
		off += 4;
		if (len == 0 || len % 4 || len > stop - off)
			return false;
		off += len;
	}
	return off == stop;
}

/*
 * The parser takes the cpu count from NRCPUS, which this function does
 * not have: the count is inferred. If some count makes the tail a die
 * revision (the smallest is taken), that is the answer; else the tail
 * must be whole core and socket id pairs. Counts past any real machine
 * are not tried, which also bounds the time hostile input can cost.
 * For sections perf writes this finds NRCPUS' count; a section made to
 * fit two readings can be read differently than the parser would.
 */
#define TOPO_MAX_CPUS 8192

static uint64_t topo_guess_cpus(struct sw *s)
{
	uint64_t n;

	for (n = 1; n <= TOPO_MAX_CPUS && 12 * n + 4 <= left(s); n++)
		if (topo_dies_fit(s, n))
			return n;
	if (left(s) % 8)
		s->bad = true;
	return left(s) / 8;
}

/*
 * CPU_TOPOLOGY: package and core sibling lists; then, if bytes are left
 * and there are cpus, nr_cpus x {u32 core_id, u32 socket_id}; then, if
 * bytes are still left, a die sibling list and nr_cpus x u32 die_id.
 * nr_cpus is NRCPUS' avail count, or inferred when negative.
 */
static void topology(struct sw *s, int64_t nr_cpus)
{
	uint64_t n;

	str_list(s);
	str_list(s);
	if (s->bad || !left(s))
		return;
	n = nr_cpus < 0 ? topo_guess_cpus(s) : (uint64_t)nr_cpus;
	if (s->bad || !n)
		return;
	u32s(s, 2 * n);
	if (s->bad || !left(s))
		return;
	str_list(s);
	u32s(s, n);
}

static void sw_cpu_topology(struct sw *s)
{
	topology(s, -1);
}

/* NUMA_TOPOLOGY: u32 nr; nr x {u32 node, u64 total, u64 free, cpu list}. */
static void sw_numa(struct sw *s)
{
	uint32_t i, nr = u32(s);

	for (i = 0; i < nr && !s->bad; i++) {
		u32(s);
		u64s(s, 2);
		str(s);
	}
}

/* PMU_MAPPINGS: u32 nr; nr x {u32 type, name}. */
static void sw_pmu_mappings(struct sw *s)
{
	uint32_t i, nr = u32(s);

	for (i = 0; i < nr && !s->bad; i++) {
		u32(s);
		str(s);
	}
}

/* GROUP_DESC: u32 nr; nr x {name, u32 leader_idx, u32 nr_members}. */
static void sw_group_desc(struct sw *s)
{
	uint32_t i, nr = u32(s);

	for (i = 0; i < nr && !s->bad; i++) {
		str(s);
		u32s(s, 2);
	}
}

/* AUXTRACE: u64 nr; nr x {u64 file_offset, u64 size}. */
static void sw_auxtrace(struct sw *s)
{
	uint64_t nr = u64(s);

	if (nr > UINT64_MAX / 2) {
		s->bad = true;
		return;
	}
	u64s(s, 2 * nr);
}

/*
 * CACHE: u32 version (1, the only layout known), u32 nr;
 * nr x {u32 level, line_size, sets, ways; type, size, map strings}.
 */
static void sw_cache(struct sw *s)
{
	uint32_t i, version = u32(s), nr = u32(s);

	if (!s->bad && version != 1)
		s->bad = true;
	for (i = 0; i < nr && !s->bad; i++) {
		u32s(s, 4);
		str(s);
		str(s);
		str(s);
	}
}

/*
 * MEM_TOPOLOGY: u64 version (1), u64 block_size, u64 nr;
 * nr x {u64 node, u64 size, u64 nbits, bitmap of (nbits + 63) / 64 u64}.
 */
static void sw_mem_topology(struct sw *s)
{
	uint64_t i, nbits, version = u64(s), nr;

	u64(s);
	nr = u64(s);
	if (!s->bad && version != 1)
		s->bad = true;
	for (i = 0; i < nr && !s->bad; i++) {
		u64s(s, 2);
		nbits = u64(s);
		u64s(s, nbits / 64 + (nbits % 64 != 0));
	}
}

/*
 * BPF_PROG_INFO and BPF_BTF: their payloads are kernel structs (struct
 * bpf_prog_info and the arrays it points into, raw BTF) which perf
 * itself never swaps; we cannot convert them either, so they are
 * refused (no entry in the table below) and the writer drops them.
 */

/* COMPRESSED: u32 version, type, level, ratio, mmap_len. */
static void sw_compressed(struct sw *s)
{
	u32s(s, 5);
}

/* u32 nr; nr x {name, value}: CPU_PMU_CAPS, and each PMU of PMU_CAPS. */
static void caps(struct sw *s)
{
	uint32_t i, nr = u32(s);

	for (i = 0; i < nr && !s->bad; i++) {
		str(s);
		str(s);
	}
}

static void sw_cpu_pmu_caps(struct sw *s)
{
	caps(s);
}

/* CLOCK_DATA: u32 version (1), u32 clockid, u64 tod_ns, u64 clockid_ns. */
static void sw_clock_data(struct sw *s)
{
	uint32_t version = u32(s);

	u32(s);
	u64s(s, 2);
	if (!s->bad && version != 1)
		s->bad = true;
}

/* HYBRID_TOPOLOGY: u32 nr; nr x {pmu name, cpu list}. */
static void sw_hybrid_topology(struct sw *s)
{
	uint32_t i, nr = u32(s);

	for (i = 0; i < nr && !s->bad; i++) {
		str(s);
		str(s);
	}
}

/* PMU_CAPS: u32 nr; nr x {caps as above, pmu name}. */
static void sw_pmu_caps(struct sw *s)
{
	uint32_t i, nr = u32(s);

	for (i = 0; i < nr && !s->bad; i++) {
		caps(s);
		str(s);
	}
}

/*
 * CPU_DOMAIN_INFO: u32 schedstat version, u32 max domains; then up to
 * the section's end: u32 cpu, u32 nr (at most max, when max is set);
 * nr x {u32 domain, name (version 17 on), cpumask, cpulist}.
 */
static void sw_cpu_domain_info(struct sw *s)
{
	uint32_t i, nr, version = u32(s), max = u32(s);

	while (!s->bad && left(s)) {
		u32(s);
		nr = u32(s);
		if (max && nr > max)
			s->bad = true;
		for (i = 0; i < nr && !s->bad; i++) {
			u32(s);
			if (version >= 17)
				str(s);
			str(s);
			str(s);
		}
	}
}

/* CLN_SIZE: its writer is unverified; the parser takes a u32 or a u64. */
static void sw_cln_size(struct sw *s)
{
	if (left(s) == 4)
		u32(s);
	else if (left(s) == 8)
		u64(s);
	else
		s->bad = true;
}

/*
 * BUILD_ID: records of {u32 type, u16 misc, u16 size, s32 pid, u8 id[20],
 * u8 id size, 3 reserved, file name}; only the numbers of the header and
 * the pid are swapped. Before 2.6.36 there was no pid: detected, as the
 * parser does, by "[kernel.kallsyms]" starting 4 bytes early.
 */
#define BID_HDR		36
#define BID_HDR_OLD	32

static void sw_build_id(struct sw *s)
{
	size_t hdr = BID_HDR;
	uint16_t size;

	if (left(s) >= BID_HDR + 13 && !memcmp(s->p + BID_HDR, "nel.kallsyms]", 13))
		hdr = BID_HDR_OLD;
	while (!s->bad && left(s)) {
		uint8_t *rec = s->p;

		if (!room(s, 8))
			return;
		size = (uint16_t)pd_get16(rec + 6, !s->out);
		if (size < hdr || size > left(s)) {
			s->bad = true;
			return;
		}
		if (!s->dry) {
			pd_swap32_at(rec);		/* type */
			pd_swap16_at(rec + 4);		/* misc */
			pd_swap16_at(rec + 6);		/* size */
			if (hdr == BID_HDR)
				pd_swap32_at(rec + 8);	/* pid */
		}
		s->p += size;
	}
}

static const sw_fn layouts[PD_FEAT_KNOWN_MAX] = {
	/*
	 * The tracing data carries its own endianness flag and is read
	 * by libtraceevent in the recording host's order: left as is.
	 */
	[PD_FEAT_TRACING_DATA]	= sw_none,
	[PD_FEAT_BUILD_ID]	= sw_build_id,
	[PD_FEAT_HOSTNAME]	= sw_string,
	[PD_FEAT_OSRELEASE]	= sw_string,
	[PD_FEAT_VERSION]	= sw_string,
	[PD_FEAT_ARCH]		= sw_string,
	[PD_FEAT_NRCPUS]	= sw_two_u32,
	[PD_FEAT_CPUDESC]	= sw_string,
	[PD_FEAT_CPUID]		= sw_string,
	[PD_FEAT_TOTAL_MEM]	= sw_one_u64,
	[PD_FEAT_CMDLINE]	= sw_cmdline,
	[PD_FEAT_EVENT_DESC]	= sw_event_desc,
	[PD_FEAT_CPU_TOPOLOGY]	= sw_cpu_topology,
	[PD_FEAT_NUMA_TOPOLOGY]	= sw_numa,
	[PD_FEAT_BRANCH_STACK]	= sw_none,
	[PD_FEAT_PMU_MAPPINGS]	= sw_pmu_mappings,
	[PD_FEAT_GROUP_DESC]	= sw_group_desc,
	[PD_FEAT_AUXTRACE]	= sw_auxtrace,
	[PD_FEAT_STAT]		= sw_none,
	[PD_FEAT_CACHE]		= sw_cache,
	[PD_FEAT_SAMPLE_TIME]	= sw_two_u64,
	[PD_FEAT_MEM_TOPOLOGY]	= sw_mem_topology,
	[PD_FEAT_CLOCKID]	= sw_one_u64,
	[PD_FEAT_DIR_FORMAT]	= sw_one_u64,
	[PD_FEAT_COMPRESSED]	= sw_compressed,
	[PD_FEAT_CPU_PMU_CAPS]	= sw_cpu_pmu_caps,
	[PD_FEAT_CLOCK_DATA]	= sw_clock_data,
	[PD_FEAT_HYBRID_TOPOLOGY] = sw_hybrid_topology,
	[PD_FEAT_PMU_CAPS]	= sw_pmu_caps,
	[PD_FEAT_CPU_DOMAIN_INFO] = sw_cpu_domain_info,
	[PD_FEAT_E_MACHINE]	= sw_two_u32,
	[PD_FEAT_CLN_SIZE]	= sw_cln_size,
};

/* A dry run first, so that a malformed section is not half converted. */
static int run(sw_fn fn, int64_t nr_cpus, void *data, size_t size,
	       bool to_foreign)
{
	struct sw s = {
		.p = data,
		.end = (uint8_t *)data + size,
		.out = to_foreign,
		.dry = true,
	};

	if (fn)
		fn(&s);
	else
		topology(&s, nr_cpus);
	if (s.bad)
		return -PD_ERR_BAD_FEATURE;
	s.p = data;
	s.dry = false;
	if (fn)
		fn(&s);
	else
		topology(&s, nr_cpus);
	return s.bad ? -PD_ERR_BAD_FEATURE : 0;
}

int pd__feat_swap(unsigned int feat, void *data, size_t size, bool to_foreign)
{
	if (feat >= PD_ARRAY_SIZE(layouts) || !layouts[feat])
		return -PD_ERR_BAD_FEATURE;
	return run(layouts[feat], 0, data, size, to_foreign);
}

int pd__feat_swap_cpu_topology(void *data, size_t size, bool to_foreign,
			       uint32_t nr_cpus_avail)
{
	return run(NULL, nr_cpus_avail, data, size, to_foreign);
}
