// SPDX-License-Identifier: MIT
/*
 * Layouts of the header feature sections (see docs/perf-data-format.md,
 * section 6), one parser per feature; the tracing data's is in
 * feat-tracing.c.
 *
 * Counts come from the file and are not trusted: before an array is
 * allocated its count is checked against the bytes left in the section,
 * using the smallest size one element can have, so a hostile count can
 * never make us allocate more than a small multiple of the section.
 */
#include <stdlib.h>
#include <string.h>

#include "attr.h"
#include "feat-parse.h"
#include "feat-tracing.h"

/* Smallest perf_header_string: the u32 length with an empty string. */
#define MIN_STR 4

static bool count_fits(struct pd_feat_ctx *x, uint64_t nr, size_t min_elem)
{
	uint64_t need;

	if (pd_mul_overflows(nr, min_elem, &need) ||
	    need > pd_cursor_left(&x->c)) {
		x->why = "element count larger than the section";
		return false;
	}
	return true;
}

#define NEW_ARRAY(x, nr, type) \
	((type *)pd_arena_array((x)->arena, (nr), sizeof(type)))

#define OOM(x) ((x)->why = "out of memory", -1)

const char *pd__feat_string(struct pd_feat_ctx *x)
{
	uint32_t len = pd_cursor_u32(&x->c);
	const char *s;
	char *copy;

	if (x->c.overrun)
		return NULL;
	if (len > pd_cursor_left(&x->c)) {
		x->c.overrun = true;
		return NULL;
	}
	s = pd_cursor_bytes(&x->c, len);
	copy = pd_arena_strndup(x->arena, s ? s : "", len);
	if (!copy) {
		x->c.overrun = true;
		x->why = "out of memory";
	}
	return copy;
}

/* u32 nr, then nr strings. */
static const char *const *string_list(struct pd_feat_ctx *x, uint32_t *nr)
{
	const char **v;
	uint32_t i, n = pd_cursor_u32(&x->c);

	*nr = 0;
	if (x->c.overrun || !count_fits(x, n, MIN_STR))
		return NULL;
	v = NEW_ARRAY(x, n, const char *);
	if (!v) {
		x->why = "out of memory";
		return NULL;
	}
	for (i = 0; i < n; i++) {
		v[i] = pd__feat_string(x);
		if (!v[i])
			return NULL;
	}
	*nr = n;
	return v;
}

static int done(struct pd_feat_ctx *x)
{
	return x->c.overrun || x->why ? -1 : 0;
}

/* Features that are a single string. */
static int parse_str_into(struct pd_feat_ctx *x, const char **dst)
{
	const char *s = pd__feat_string(x);

	if (!s)
		return -1;
	*dst = s;
	return 0;
}

static int parse_hostname(struct pd_feat_ctx *x)
{
	return parse_str_into(x, &x->f->hostname);
}

static int parse_osrelease(struct pd_feat_ctx *x)
{
	return parse_str_into(x, &x->f->osrelease);
}

static int parse_version(struct pd_feat_ctx *x)
{
	return parse_str_into(x, &x->f->version);
}

static int parse_arch(struct pd_feat_ctx *x)
{
	return parse_str_into(x, &x->f->arch);
}

static int parse_cpudesc(struct pd_feat_ctx *x)
{
	return parse_str_into(x, &x->f->cpudesc);
}

static int parse_cpuid(struct pd_feat_ctx *x)
{
	return parse_str_into(x, &x->f->cpuid);
}

static int parse_nrcpus(struct pd_feat_ctx *x)
{
	uint32_t avail = pd_cursor_u32(&x->c);
	uint32_t online = pd_cursor_u32(&x->c);

	if (done(x))
		return -1;
	x->f->nrcpus.avail = avail;
	x->f->nrcpus.online = online;
	return 0;
}

static int parse_total_mem(struct pd_feat_ctx *x)
{
	uint64_t v = pd_cursor_u64(&x->c);

	if (done(x))
		return -1;
	x->f->total_mem = v;
	return 0;
}

static int parse_cmdline(struct pd_feat_ctx *x)
{
	uint32_t nr;
	const char *const *v = string_list(x, &nr);

	if (!v || done(x))
		return -1;
	x->f->cmdline.argc = nr;
	x->f->cmdline.argv = v;
	return 0;
}

static int parse_event_desc(struct pd_feat_ctx *x)
{
	uint32_t nr = pd_cursor_u32(&x->c);
	uint32_t attr_size = pd_cursor_u32(&x->c);
	struct pd_event_desc *ev;
	uint32_t i, j;

	if (done(x))
		return -1;
	if (attr_size < PD_ATTR_SIZE_VER0 || attr_size > 4096) {
		x->why = "attr size out of range";
		return -1;
	}
	if (!count_fits(x, nr, attr_size + 4 + MIN_STR))
		return -1;
	ev = NEW_ARRAY(x, nr, struct pd_event_desc);
	if (!ev)
		return OOM(x);
	for (i = 0; i < nr; i++) {
		const void *a = pd_cursor_bytes(&x->c, attr_size);
		uint64_t *ids;

		if (!a)
			return -1;
		pd__attr_from_disk(&ev[i].attr, a, attr_size, x->c.swap);
		ev[i].attr_size = attr_size;
		ev[i].nr_ids = pd_cursor_u32(&x->c);
		ev[i].name = pd__feat_string(x);
		if (!ev[i].name || !count_fits(x, ev[i].nr_ids, 8))
			return -1;
		ids = NEW_ARRAY(x, ev[i].nr_ids, uint64_t);
		if (!ids)
			return OOM(x);
		for (j = 0; j < ev[i].nr_ids; j++)
			ids[j] = pd_cursor_u64(&x->c);
		ev[i].ids = ids;
	}
	if (done(x))
		return -1;
	x->f->event_desc.nr = nr;
	x->f->event_desc.events = ev;
	return 0;
}

/*
 * Three revisions, told apart by what is left of the section: sibling
 * lists only; then per-cpu core and socket ids (as many as NRCPUS says
 * are available); then die lists and per-cpu die ids.
 */
static int parse_cpu_topology(struct pd_feat_ctx *x)
{
	struct pd_cpu_topology t = { 0 };
	struct pd_cpu_topo_cpu *cpus = NULL;
	uint32_t i, nr_cpus = x->f->nrcpus.avail;

	t.sockets = string_list(x, &t.nr_sockets);
	if (!t.sockets)
		return -1;
	t.threads = string_list(x, &t.nr_threads);
	if (!t.threads)
		return -1;
	if (pd_cursor_left(&x->c) && nr_cpus) {
		if (!count_fits(x, nr_cpus, 8))
			return -1;
		cpus = NEW_ARRAY(x, nr_cpus, struct pd_cpu_topo_cpu);
		if (!cpus)
			return OOM(x);
		for (i = 0; i < nr_cpus; i++) {
			cpus[i].core_id = (int32_t)pd_cursor_u32(&x->c);
			cpus[i].socket_id = (int32_t)pd_cursor_u32(&x->c);
			cpus[i].die_id = -1;
		}
		t.cpus = cpus;
		t.nr_cpus = nr_cpus;
		if (pd_cursor_left(&x->c)) {
			t.dies = string_list(x, &t.nr_dies);
			if (!t.dies || !count_fits(x, nr_cpus, 4))
				return -1;
			for (i = 0; i < nr_cpus; i++)
				cpus[i].die_id = (int32_t)pd_cursor_u32(&x->c);
			t.has_dies = true;
		}
	}
	if (done(x))
		return -1;
	x->f->cpu_topology = t;
	return 0;
}

static int parse_numa_topology(struct pd_feat_ctx *x)
{
	uint32_t i, nr = pd_cursor_u32(&x->c);
	struct pd_numa_node *n;

	if (done(x) || !count_fits(x, nr, 20 + MIN_STR))
		return -1;
	n = NEW_ARRAY(x, nr, struct pd_numa_node);
	if (!n)
		return OOM(x);
	for (i = 0; i < nr; i++) {
		n[i].node = pd_cursor_u32(&x->c);
		n[i].mem_total = pd_cursor_u64(&x->c);
		n[i].mem_free = pd_cursor_u64(&x->c);
		n[i].cpus = pd__feat_string(x);
	}
	if (done(x))
		return -1;
	x->f->numa.nr = nr;
	x->f->numa.nodes = n;
	return 0;
}

/* Features that are flags: their presence is the information. */
static int parse_empty(struct pd_feat_ctx *x)
{
	return 0;
}

static int parse_pmu_mappings(struct pd_feat_ctx *x)
{
	uint32_t i, nr = pd_cursor_u32(&x->c);
	struct pd_pmu_mapping *m;

	if (done(x) || !count_fits(x, nr, 4 + MIN_STR))
		return -1;
	m = NEW_ARRAY(x, nr, struct pd_pmu_mapping);
	if (!m)
		return OOM(x);
	for (i = 0; i < nr; i++) {
		m[i].type = pd_cursor_u32(&x->c);
		m[i].name = pd__feat_string(x);
	}
	if (done(x))
		return -1;
	x->f->pmu_mappings.nr = nr;
	x->f->pmu_mappings.pmus = m;
	return 0;
}

static int parse_group_desc(struct pd_feat_ctx *x)
{
	uint32_t i, nr = pd_cursor_u32(&x->c);
	struct pd_group_desc *g;

	if (done(x) || !count_fits(x, nr, MIN_STR + 8))
		return -1;
	g = NEW_ARRAY(x, nr, struct pd_group_desc);
	if (!g)
		return OOM(x);
	for (i = 0; i < nr; i++) {
		g[i].name = pd__feat_string(x);
		g[i].leader_idx = pd_cursor_u32(&x->c);
		g[i].nr_members = pd_cursor_u32(&x->c);
	}
	if (done(x))
		return -1;
	x->f->group_desc.nr = nr;
	x->f->group_desc.groups = g;
	return 0;
}

static int parse_auxtrace(struct pd_feat_ctx *x)
{
	uint64_t i, nr = pd_cursor_u64(&x->c);
	struct pd_auxtrace_index *e;

	if (done(x) || !count_fits(x, nr, 16))
		return -1;
	e = NEW_ARRAY(x, nr, struct pd_auxtrace_index);
	if (!e)
		return OOM(x);
	for (i = 0; i < nr; i++) {
		e[i].file_offset = pd_cursor_u64(&x->c);
		e[i].size = pd_cursor_u64(&x->c);
	}
	if (done(x))
		return -1;
	x->f->auxtrace.nr = nr;
	x->f->auxtrace.entries = e;
	return 0;
}

static int parse_cache(struct pd_feat_ctx *x)
{
	uint32_t version = pd_cursor_u32(&x->c);
	uint32_t i, nr = pd_cursor_u32(&x->c);
	struct pd_cache_level *l;

	if (done(x))
		return -1;
	if (version != 1) {
		x->why = "unknown version";
		return -1;
	}
	if (!count_fits(x, nr, 16 + 3 * MIN_STR))
		return -1;
	l = NEW_ARRAY(x, nr, struct pd_cache_level);
	if (!l)
		return OOM(x);
	for (i = 0; i < nr; i++) {
		l[i].level = pd_cursor_u32(&x->c);
		l[i].line_size = pd_cursor_u32(&x->c);
		l[i].sets = pd_cursor_u32(&x->c);
		l[i].ways = pd_cursor_u32(&x->c);
		l[i].type = pd__feat_string(x);
		l[i].size = pd__feat_string(x);
		l[i].map = pd__feat_string(x);
	}
	if (done(x))
		return -1;
	x->f->cache.version = version;
	x->f->cache.nr = nr;
	x->f->cache.levels = l;
	return 0;
}

static int parse_sample_time(struct pd_feat_ctx *x)
{
	uint64_t first = pd_cursor_u64(&x->c);
	uint64_t last = pd_cursor_u64(&x->c);

	if (done(x))
		return -1;
	x->f->sample_time.first = first;
	x->f->sample_time.last = last;
	return 0;
}

static int parse_mem_topology(struct pd_feat_ctx *x)
{
	uint64_t version = pd_cursor_u64(&x->c);
	uint64_t block_size = pd_cursor_u64(&x->c);
	uint64_t i, j, nr = pd_cursor_u64(&x->c);
	struct pd_mem_node *n;

	if (done(x))
		return -1;
	if (version != 1) {
		x->why = "unknown version";
		return -1;
	}
	if (!count_fits(x, nr, 24))
		return -1;
	n = NEW_ARRAY(x, nr, struct pd_mem_node);
	if (!n)
		return OOM(x);
	for (i = 0; i < nr; i++) {
		uint64_t words, *bm;

		n[i].node = pd_cursor_u64(&x->c);
		n[i].size = pd_cursor_u64(&x->c);
		n[i].nbits = pd_cursor_u64(&x->c);
		words = n[i].nbits / 64 + (n[i].nbits % 64 != 0);
		if (done(x) || !count_fits(x, words, 8))
			return -1;
		bm = NEW_ARRAY(x, words, uint64_t);
		if (!bm)
			return OOM(x);
		for (j = 0; j < words; j++)
			bm[j] = pd_cursor_u64(&x->c);
		n[i].bitmap = bm;
	}
	if (done(x))
		return -1;
	x->f->mem_topology.version = version;
	x->f->mem_topology.block_size = block_size;
	x->f->mem_topology.nr = nr;
	x->f->mem_topology.nodes = n;
	return 0;
}

static int parse_clockid(struct pd_feat_ctx *x)
{
	uint64_t v = pd_cursor_u64(&x->c);

	if (done(x))
		return -1;
	x->f->clockid_res_ns = v;
	return 0;
}

static int parse_dir_format(struct pd_feat_ctx *x)
{
	uint64_t v = pd_cursor_u64(&x->c);

	if (done(x))
		return -1;
	x->f->dir_format_version = v;
	return 0;
}

static int parse_bpf_prog_info(struct pd_feat_ctx *x)
{
	uint32_t i, nr = pd_cursor_u32(&x->c);
	struct pd_bpf_prog *b;

	if (done(x) || !count_fits(x, nr, 16))
		return -1;
	b = NEW_ARRAY(x, nr, struct pd_bpf_prog);
	if (!b)
		return OOM(x);
	for (i = 0; i < nr; i++) {
		b[i].info_len = pd_cursor_u32(&x->c);
		b[i].data_len = pd_cursor_u32(&x->c);
		pd_cursor_u64(&x->c);	/* which arrays follow: in data */
		b[i].info = pd_cursor_bytes(&x->c, b[i].info_len);
		b[i].data = pd_cursor_bytes(&x->c, b[i].data_len);
		if (done(x))
			return -1;
	}
	x->f->bpf_prog_info.nr = nr;
	x->f->bpf_prog_info.progs = b;
	return 0;
}

static int parse_bpf_btf(struct pd_feat_ctx *x)
{
	uint32_t i, nr = pd_cursor_u32(&x->c);
	struct pd_bpf_btf *b;

	if (done(x) || !count_fits(x, nr, 8))
		return -1;
	b = NEW_ARRAY(x, nr, struct pd_bpf_btf);
	if (!b)
		return OOM(x);
	for (i = 0; i < nr; i++) {
		b[i].id = pd_cursor_u32(&x->c);
		b[i].size = pd_cursor_u32(&x->c);
		b[i].data = pd_cursor_bytes(&x->c, b[i].size);
		if (done(x))
			return -1;
	}
	x->f->bpf_btf.nr = nr;
	x->f->bpf_btf.btfs = b;
	return 0;
}

static int parse_compressed(struct pd_feat_ctx *x)
{
	uint32_t v[5];
	int i;

	for (i = 0; i < 5; i++)
		v[i] = pd_cursor_u32(&x->c);
	if (done(x))
		return -1;
	x->f->compressed.version = v[0];
	x->f->compressed.type = v[1];
	x->f->compressed.level = v[2];
	x->f->compressed.ratio = v[3];
	x->f->compressed.mmap_len = v[4];
	return 0;
}

/* u32 nr_caps, nr_caps x {name, value} */
static int pmu_caps(struct pd_feat_ctx *x, struct pd_pmu_caps *out)
{
	uint32_t i, nr = pd_cursor_u32(&x->c);
	struct pd_cap *caps;

	if (done(x) || !count_fits(x, nr, 2 * MIN_STR))
		return -1;
	caps = NEW_ARRAY(x, nr, struct pd_cap);
	if (!caps)
		return OOM(x);
	for (i = 0; i < nr; i++) {
		caps[i].name = pd__feat_string(x);
		caps[i].value = pd__feat_string(x);
	}
	out->nr_caps = nr;
	out->caps = caps;
	return done(x);
}

static int parse_cpu_pmu_caps(struct pd_feat_ctx *x)
{
	struct pd_pmu_caps c = { .pmu_name = "cpu" };

	if (pmu_caps(x, &c))
		return -1;
	x->f->cpu_pmu_caps = c;
	return 0;
}

static int parse_clock_data(struct pd_feat_ctx *x)
{
	uint32_t version = pd_cursor_u32(&x->c);
	uint32_t clockid = pd_cursor_u32(&x->c);
	uint64_t tod = pd_cursor_u64(&x->c);
	uint64_t clk = pd_cursor_u64(&x->c);

	if (done(x))
		return -1;
	if (version != 1) {
		x->why = "unknown version";
		return -1;
	}
	x->f->clock_data.version = version;
	x->f->clock_data.clockid = (int32_t)clockid;
	x->f->clock_data.tod_ns = tod;
	x->f->clock_data.clockid_ns = clk;
	return 0;
}

static int parse_hybrid_topology(struct pd_feat_ctx *x)
{
	uint32_t i, nr = pd_cursor_u32(&x->c);
	struct pd_hybrid_pmu *h;

	if (done(x) || !count_fits(x, nr, 2 * MIN_STR))
		return -1;
	h = NEW_ARRAY(x, nr, struct pd_hybrid_pmu);
	if (!h)
		return OOM(x);
	for (i = 0; i < nr; i++) {
		h[i].pmu_name = pd__feat_string(x);
		h[i].cpus = pd__feat_string(x);
	}
	if (done(x))
		return -1;
	x->f->hybrid_topology.nr = nr;
	x->f->hybrid_topology.pmus = h;
	return 0;
}

static int parse_pmu_caps(struct pd_feat_ctx *x)
{
	uint32_t i, nr = pd_cursor_u32(&x->c);
	struct pd_pmu_caps *p;

	if (done(x) || !count_fits(x, nr, 4 + MIN_STR))
		return -1;
	p = NEW_ARRAY(x, nr, struct pd_pmu_caps);
	if (!p)
		return OOM(x);
	for (i = 0; i < nr; i++) {
		if (pmu_caps(x, &p[i]))
			return -1;
		p[i].pmu_name = pd__feat_string(x);
		if (done(x))
			return -1;
	}
	x->f->pmu_caps.nr = nr;
	x->f->pmu_caps.pmus = p;
	return 0;
}

/*
 * Schedstat version 17 added domain names. The per-cpu entries run to
 * the end of the section; count them first so the array is exact.
 */
static int cpu_domains(struct pd_feat_ctx *x, uint32_t version,
		       struct pd_cpu_domains *out, uint32_t max_nr)
{
	uint32_t j, cpu = pd_cursor_u32(&x->c);
	uint32_t nr = pd_cursor_u32(&x->c);
	struct pd_sched_domain *d;

	if (done(x))
		return -1;
	if (nr > max_nr && max_nr) {
		x->why = "more domains than the stated maximum";
		return -1;
	}
	if (!count_fits(x, nr, 4 + 2 * MIN_STR))
		return -1;
	d = out ? NEW_ARRAY(x, nr, struct pd_sched_domain) : NULL;
	if (out && !d)
		return OOM(x);
	for (j = 0; j < nr; j++) {
		uint32_t domain = pd_cursor_u32(&x->c);
		const char *name = version >= 17 ? pd__feat_string(x) : NULL;
		const char *mask = pd__feat_string(x);
		const char *list = pd__feat_string(x);

		if (d) {
			d[j].domain = domain;
			d[j].name = name;
			d[j].cpumask = mask;
			d[j].cpulist = list;
		}
	}
	if (out) {
		out->cpu = cpu;
		out->nr_domains = nr;
		out->domains = d;
	}
	return done(x);
}

static int parse_cpu_domain_info(struct pd_feat_ctx *x)
{
	uint32_t version = pd_cursor_u32(&x->c);
	uint32_t max = pd_cursor_u32(&x->c);
	struct pd_cursor start = x->c;
	struct pd_cpu_domains *cpus;
	uint32_t i, nr = 0;

	if (done(x))
		return -1;
	while (pd_cursor_left(&x->c)) {
		if (cpu_domains(x, version, NULL, max))
			return -1;
		nr++;
	}
	x->c = start;
	cpus = NEW_ARRAY(x, nr, struct pd_cpu_domains);
	if (!cpus)
		return OOM(x);
	for (i = 0; i < nr; i++)
		if (cpu_domains(x, version, &cpus[i], max))
			return -1;
	x->f->cpu_domain_info.schedstat_version = version;
	x->f->cpu_domain_info.max_sched_domains = max;
	x->f->cpu_domain_info.nr = nr;
	x->f->cpu_domain_info.cpus = cpus;
	return 0;
}

static int parse_e_machine(struct pd_feat_ctx *x)
{
	uint32_t machine = pd_cursor_u32(&x->c);
	uint32_t flags = pd_cursor_u32(&x->c);

	if (done(x))
		return -1;
	x->f->e_machine.machine = machine;
	x->f->e_machine.flags = flags;
	return 0;
}

/* Layout not verified against a writer: accept one u32 or one u64. */
static int parse_cln_size(struct pd_feat_ctx *x)
{
	size_t left = pd_cursor_left(&x->c);

	if (left == 4)
		x->f->cln_size = pd_cursor_u32(&x->c);
	else if (left == 8)
		x->f->cln_size = (uint32_t)pd_cursor_u64(&x->c);
	else
		x->why = "unexpected size";
	return done(x);
}

static const pd_feat_parse_fn parsers[PD_FEAT_KNOWN_MAX] = {
	[PD_FEAT_TRACING_DATA]	= pd__feat_parse_tracing,
	[PD_FEAT_HOSTNAME]	= parse_hostname,
	[PD_FEAT_OSRELEASE]	= parse_osrelease,
	[PD_FEAT_VERSION]	= parse_version,
	[PD_FEAT_ARCH]		= parse_arch,
	[PD_FEAT_NRCPUS]	= parse_nrcpus,
	[PD_FEAT_CPUDESC]	= parse_cpudesc,
	[PD_FEAT_CPUID]		= parse_cpuid,
	[PD_FEAT_TOTAL_MEM]	= parse_total_mem,
	[PD_FEAT_CMDLINE]	= parse_cmdline,
	[PD_FEAT_EVENT_DESC]	= parse_event_desc,
	[PD_FEAT_CPU_TOPOLOGY]	= parse_cpu_topology,
	[PD_FEAT_NUMA_TOPOLOGY]	= parse_numa_topology,
	[PD_FEAT_BRANCH_STACK]	= parse_empty,
	[PD_FEAT_PMU_MAPPINGS]	= parse_pmu_mappings,
	[PD_FEAT_GROUP_DESC]	= parse_group_desc,
	[PD_FEAT_AUXTRACE]	= parse_auxtrace,
	[PD_FEAT_STAT]		= parse_empty,
	[PD_FEAT_CACHE]		= parse_cache,
	[PD_FEAT_SAMPLE_TIME]	= parse_sample_time,
	[PD_FEAT_MEM_TOPOLOGY]	= parse_mem_topology,
	[PD_FEAT_CLOCKID]	= parse_clockid,
	[PD_FEAT_DIR_FORMAT]	= parse_dir_format,
	[PD_FEAT_BPF_PROG_INFO]	= parse_bpf_prog_info,
	[PD_FEAT_BPF_BTF]	= parse_bpf_btf,
	[PD_FEAT_COMPRESSED]	= parse_compressed,
	[PD_FEAT_CPU_PMU_CAPS]	= parse_cpu_pmu_caps,
	[PD_FEAT_CLOCK_DATA]	= parse_clock_data,
	[PD_FEAT_HYBRID_TOPOLOGY] = parse_hybrid_topology,
	[PD_FEAT_PMU_CAPS]	= parse_pmu_caps,
	[PD_FEAT_CPU_DOMAIN_INFO] = parse_cpu_domain_info,
	[PD_FEAT_E_MACHINE]	= parse_e_machine,
	[PD_FEAT_CLN_SIZE]	= parse_cln_size,
};

pd_feat_parse_fn pd__feat_parser(unsigned int id)
{
	return id < PD_ARRAY_SIZE(parsers) ? parsers[id] : NULL;
}

/*
 * A sequence of build_id records: header (type, misc, size), s32 pid,
 * 20 id bytes, u8 id size, 3 reserved, then the file name up to the
 * record's size. Files from before 2.6.36 had no pid: their first name
 * then appears 4 bytes early, which perf detects by the kernel's
 * "[kernel.kallsyms]" name starting at the pid-less offset.
 */
#define BUILD_ID_MISC_SIZE	0x8000
#define BID_HDR			36
#define BID_HDR_OLD		32

int pd__feat_parse_build_ids(struct pd_feat_ctx *x, struct pd_build_id **ids,
			     uint32_t *nr, size_t *cap)
{
	struct pd_cursor c = x->c;
	size_t hdr = BID_HDR;
	uint32_t n = 0;

	if (pd_cursor_left(&c) >= BID_HDR + 13 &&
	    !memcmp(c.p + BID_HDR, "nel.kallsyms]", 13))
		hdr = BID_HDR_OLD;
	while (pd_cursor_left(&c)) {
		const uint8_t *rec = c.p;
		uint16_t misc, size;
		struct pd_build_id *b;

		if (pd_cursor_left(&c) < 8) {
			x->why = "entry header cut short";
			return -1;
		}
		misc = pd_get16(rec + 4, c.swap);
		size = pd_get16(rec + 6, c.swap);
		if (size < hdr || size > pd_cursor_left(&c)) {
			x->why = "entry size out of range";
			return -1;
		}
		if (*nr + n >= *cap) {
			size_t ncap = *cap ? *cap * 2 : 16;
			struct pd_build_id *nids = realloc(*ids, ncap * sizeof(**ids));

			if (!nids)
				return OOM(x);
			*ids = nids;
			*cap = ncap;
		}
		b = &(*ids)[*nr + n];
		memset(b, 0, sizeof(*b));
		b->misc = misc & ~BUILD_ID_MISC_SIZE;
		if (hdr == BID_HDR) {
			b->pid = (int32_t)pd_get32(rec + 8, c.swap);
			memcpy(b->id, rec + 12, 20);
			b->size = (misc & BUILD_ID_MISC_SIZE) ? rec[32] : 20;
			if (b->size > 20)
				b->size = 20;
		} else {
			b->pid = -1;
			memcpy(b->id, rec + 8, 20);
			b->size = 20;
		}
		b->filename = pd_arena_strndup(x->arena,
					       (const char *)rec + hdr,
					       size - hdr);
		if (!b->filename)
			return OOM(x);
		pd_cursor_bytes(&c, size);
		n++;
	}
	*nr += n;
	x->c = c;
	return 0;
}
