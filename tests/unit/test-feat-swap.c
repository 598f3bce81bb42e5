// SPDX-License-Identifier: MIT
/*
 * Feature sections converted between byte orders: every layout built in
 * host order and converted equals the same section built in the other
 * order, decodes (as a foreign file's section) to the values of the
 * original, and converts back to the original bytes. Hostile sections
 * (cut short, counts and sizes overwritten, random damage) are refused
 * exactly when the parser refuses them, left untouched when refused,
 * and never read or written out of bounds (the buffers are allocated to
 * the section's size, for ASan).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <perfdata/features.h>

#include "header/feat-swap.h"
#include "header/features-internal.h"
#include "sec.h"
#include "tap.h"

static void quiet(enum pd_log_level level, const char *msg, void *ctx)
{
}

static struct pd_logger logger = { .fn = quiet, .name = "test" };

static int host_be(void)
{
	const uint16_t one = 1;

	return *(const uint8_t *)&one == 0;
}

/* A big-endian writer's bitfield: bit n is bit (width - 1 - n). */
static uint64_t mirror(uint64_t v, int width)
{
	uint64_t r = 0;
	int i;

	for (i = 0; i < width; i++)
		if (v & (1ULL << i))
			r |= 1ULL << (width - 1 - i);
	return r;
}

/* An attr of size bytes with every field set that fits. */
static void attr(struct sec *s, uint32_t size, int k)
{
	struct sec a = { .be = s->be };
	uint64_t flags = PD_ATTR_DISABLED | PD_ATTR_INHERIT | PD_ATTR_FREQ |
			 PD_ATTR_SAMPLE_ID_ALL | PD_ATTR_MMAP2 | PD_ATTR_CGROUP |
			 (2ULL << PD_ATTR_PRECISE_IP_SHIFT) | PD_ATTR_DEFER_OUTPUT;
	uint32_t aux_action = 0x5;

	u32(&a, k ? 1 : 4);			/* type */
	u32(&a, size);
	u64(&a, 0x1234 + (uint64_t)k);		/* config */
	u64(&a, 4000);				/* sample_freq */
	u64(&a, 0x10087);			/* sample_type */
	u64(&a, 0x14);				/* read_format */
	u64(&a, s->be ? mirror(flags, 64) : flags);
	u32(&a, 1);				/* wakeup_events */
	u32(&a, 0);				/* bp_type */
	u64(&a, 0xdeadbeef00ULL);		/* config1 */
	u64(&a, 0x42);				/* config2 */
	u64(&a, 0x8001);			/* branch_sample_type */
	u64(&a, 0xff0fff);			/* sample_regs_user */
	u32(&a, 8192);				/* sample_stack_user */
	u32(&a, 1);				/* clockid */
	u64(&a, 0x3);				/* sample_regs_intr */
	u32(&a, 4096);				/* aux_watermark */
	u16(&a, 127);				/* sample_max_stack */
	u16(&a, 0);
	u32(&a, 65536);				/* aux_sample_size */
	u32(&a, s->be ? (uint32_t)mirror(aux_action, 32) : aux_action);
	u64(&a, 0x5151);			/* sig_data */
	u64(&a, 0xc3);				/* config3 */
	u64(&a, 0xc4);				/* config4 */
	while (a.n < 256)			/* fields we do not know */
		u64(&a, 0x0102030405060708ULL + a.n);
	bytes(s, a.b, size);
}

static void build_id(struct sec *s, int32_t pid, uint8_t fill,
		     const char *name, bool with_size)
{
	size_t namelen = (strlen(name) + 1 + 7) / 8 * 8;
	uint8_t id[20];

	memset(id, fill, sizeof(id));
	u32(s, 0);
	u16(s, (uint16_t)(2 | (with_size ? 0x8000 : 0)));
	u16(s, (uint16_t)(36 + namelen));
	u32(s, (uint32_t)pid);
	bytes(s, id, 20);
	u8(s, with_size ? 8 : 0);
	u8(s, 0); u16(s, 0);
	memset(s->b + s->n, 0, namelen);
	memcpy(s->b + s->n, name, strlen(name));
	s->n += namelen;
}

/* CPU_TOPOLOGY variants: revision, cpus, sockets, dies per socket. */
static const struct topo {
	int rev;
	uint32_t cpus, sockets, dies;
} topos[] = {
	{ 1, 8, 1, 1 }, { 2, 8, 1, 1 }, { 3, 8, 1, 1 }, { 3, 16, 2, 2 },
	{ 2, 1, 1, 1 }, { 3, 1, 1, 1 }, { 3, 96, 2, 1 }, { 2, 96, 2, 1 },
};

static void cpu_topology(struct sec *s, const struct topo *t)
{
	uint32_t per_socket = t->cpus / t->sockets, cores = (per_socket + 1) / 2;
	uint32_t per_die = per_socket / t->dies;
	char buf[64];
	uint32_t i;

	u32(s, t->sockets);
	for (i = 0; i < t->sockets; i++) {
		snprintf(buf, sizeof(buf), "%u-%u", i * per_socket, (i + 1) * per_socket - 1);
		str(s, buf);
	}
	u32(s, t->cpus > 1 ? t->cpus / 2 : 1);
	for (i = 0; i < (t->cpus > 1 ? t->cpus / 2 : 1); i++) {
		if (t->cpus > 1)
			snprintf(buf, sizeof(buf), "%u,%u", i, i + t->cpus / 2);
		else
			snprintf(buf, sizeof(buf), "0");
		str(s, buf);
	}
	if (t->rev < 2)
		return;
	for (i = 0; i < t->cpus; i++) {
		u32(s, i % per_socket % cores);
		u32(s, i / per_socket);
	}
	if (t->rev < 3)
		return;
	u32(s, t->sockets * t->dies);
	for (i = 0; i < t->sockets * t->dies; i++) {
		snprintf(buf, sizeof(buf), "%u-%u", i * per_die, (i + 1) * per_die - 1);
		str(s, buf);
	}
	for (i = 0; i < t->cpus; i++)
		u32(s, i % per_socket / per_die);
}

static const uint32_t attr_sizes[] = { 64, 136, 144, 160 };

/* How many variants a feature has here; 0: no builder. */
static int nr_variants(unsigned int id)
{
	switch (id) {
	case PD_FEAT_EVENT_DESC:
		return (int)PD_ARRAY_SIZE(attr_sizes);
	case PD_FEAT_CPU_TOPOLOGY:
		return (int)PD_ARRAY_SIZE(topos);
	case PD_FEAT_BUILD_ID:
	case PD_FEAT_CPU_DOMAIN_INFO:
	case PD_FEAT_CLN_SIZE:
		return 2;
	case PD_FEAT_BPF_PROG_INFO:
	case PD_FEAT_BPF_BTF:
	case PD_FEAT_TRACING_DATA:
		return 0;
	default:
		return id < PD_FEAT_KNOWN_MAX && id > 0;
	}
}

static uint32_t nrcpus_of(unsigned int id, int v)
{
	return id == PD_FEAT_CPU_TOPOLOGY ? topos[v].cpus : 8;
}

/* A realistic section of feature id, variant v, in s's byte order. */
static void build(unsigned int id, int v, struct sec *s)
{
	uint32_t i;
	int k;

	switch (id) {
	case PD_FEAT_BUILD_ID:
		if (v == 0) {
			build_id(s, -1, 0xab, "/usr/lib/x86_64-linux-gnu/libc.so.6", false);
			build_id(s, -1, 0xcd, "[kernel.kallsyms]", true);
			build_id(s, 4242, 0x11, "/usr/bin/qemu-guest-thing", true);
		} else {	/* before 2.6.36: no pid */
			u32(s, 0); u16(s, 1); u16(s, 32 + 24);
			memset(s->b + s->n, 0x77, 24);
			s->n += 24;
			memset(s->b + s->n, 0, 24);
			memcpy(s->b + s->n, "[kernel.kallsyms]", 17);
			s->n += 24;
			u32(s, 0); u16(s, 2); u16(s, 32 + 16);
			memset(s->b + s->n, 0x88, 24);
			s->n += 24;
			memset(s->b + s->n, 0, 16);
			memcpy(s->b + s->n, "/bin/true", 9);
			s->n += 16;
		}
		break;
	case PD_FEAT_HOSTNAME:
		str(s, "buildhost.example.org");
		break;
	case PD_FEAT_OSRELEASE:
		str(s, "6.1.0-18-amd64");
		break;
	case PD_FEAT_VERSION:
		str(s, "6.1.76");
		break;
	case PD_FEAT_ARCH:
		str(s, "x86_64");
		break;
	case PD_FEAT_NRCPUS:
		u32(s, 8);
		u32(s, 6);
		break;
	case PD_FEAT_CPUDESC:
		str(s, "Intel(R) Core(TM) i7-8650U CPU @ 1.90GHz");
		break;
	case PD_FEAT_CPUID:
		str(s, "GenuineIntel,6,142,10");
		break;
	case PD_FEAT_TOTAL_MEM:
		u64(s, 16318464);
		break;
	case PD_FEAT_CMDLINE:
		u32(s, 5);
		str(s, "/usr/bin/perf");
		str(s, "record");
		str(s, "-g");
		str(s, "--");
		str(s, "./a.out");
		break;
	case PD_FEAT_EVENT_DESC:
		u32(s, 3);
		u32(s, attr_sizes[v]);
		for (k = 0; k < 3; k++) {
			attr(s, attr_sizes[v], k);
			u32(s, (uint32_t)k + 1);
			str(s, k == 0 ? "cycles:P" : k == 1 ? "task-clock" : "dummy:u");
			for (i = 0; i <= (uint32_t)k; i++)
				u64(s, 0x1000 + 16 * (uint64_t)k + i);
		}
		break;
	case PD_FEAT_CPU_TOPOLOGY:
		cpu_topology(s, &topos[v]);
		break;
	case PD_FEAT_NUMA_TOPOLOGY:
		u32(s, 2);
		u32(s, 0); u64(s, 32768000); u64(s, 1234567); str(s, "0-3");
		u32(s, 1); u64(s, 32768004); u64(s, 7654321); str(s, "4-7");
		break;
	case PD_FEAT_BRANCH_STACK:
	case PD_FEAT_STAT:
		break;
	case PD_FEAT_PMU_MAPPINGS:
		u32(s, 4);
		u32(s, 4); str(s, "cpu");
		u32(s, 2); str(s, "tracepoint");
		u32(s, 1); str(s, "software");
		u32(s, 10); str(s, "intel_pt");
		break;
	case PD_FEAT_GROUP_DESC:
		u32(s, 2);
		str(s, "{cycles,instructions}"); u32(s, 0); u32(s, 2);
		str(s, "mygroup"); u32(s, 2); u32(s, 3);
		break;
	case PD_FEAT_AUXTRACE:
		u64(s, 2);
		u64(s, 0x1000); u64(s, 0x200000);
		u64(s, 0x201000); u64(s, 0x30);
		break;
	case PD_FEAT_CACHE:
		u32(s, 1);
		u32(s, 3);
		u32(s, 1); u32(s, 64); u32(s, 64); u32(s, 8);
		str(s, "Data"); str(s, "32K"); str(s, "0,4");
		u32(s, 2); u32(s, 64); u32(s, 1024); u32(s, 4);
		str(s, "Unified"); str(s, "256K"); str(s, "0,4");
		u32(s, 3); u32(s, 64); u32(s, 8192); u32(s, 16);
		str(s, "Unified"); str(s, "8192K"); str(s, "0-7");
		break;
	case PD_FEAT_SAMPLE_TIME:
		u64(s, 405068949598ULL);
		u64(s, 405168949598ULL);
		break;
	case PD_FEAT_MEM_TOPOLOGY:
		u64(s, 1);
		u64(s, 0x8000000);
		u64(s, 2);
		u64(s, 0); u64(s, 70ULL << 27); u64(s, 70);
		u64(s, ~0ULL); u64(s, 0x3f);
		u64(s, 1); u64(s, 3ULL << 27); u64(s, 64);
		u64(s, 0x7000000000000000ULL);
		break;
	case PD_FEAT_CLOCKID:
		u64(s, 1);
		break;
	case PD_FEAT_DIR_FORMAT:
		u64(s, 1);
		break;
	case PD_FEAT_COMPRESSED:
		u32(s, 0); u32(s, 1); u32(s, 1); u32(s, 3); u32(s, 528384);
		break;
	case PD_FEAT_CPU_PMU_CAPS:
		u32(s, 3);
		str(s, "branches"); str(s, "32");
		str(s, "max_precise"); str(s, "3");
		str(s, "pmu_name"); str(s, "skylake");
		break;
	case PD_FEAT_CLOCK_DATA:
		u32(s, 1);
		u32(s, 1);
		u64(s, 1767545218014657000ULL);
		u64(s, 405068949598ULL);
		break;
	case PD_FEAT_HYBRID_TOPOLOGY:
		u32(s, 2);
		str(s, "cpu_core"); str(s, "0-15");
		str(s, "cpu_atom"); str(s, "16-23");
		break;
	case PD_FEAT_PMU_CAPS:
		u32(s, 2);
		u32(s, 2);
		str(s, "branches"); str(s, "32");
		str(s, "max_precise"); str(s, "3");
		str(s, "cpu_core");
		u32(s, 1);
		str(s, "branches"); str(s, "16");
		str(s, "cpu_atom");
		break;
	case PD_FEAT_CPU_DOMAIN_INFO:
		u32(s, v ? 16 : 17);
		u32(s, 2);
		u32(s, 0); u32(s, 1);
		u32(s, 0);
		if (!v)
			str(s, "SMT");
		str(s, "3"); str(s, "0-1");
		u32(s, 1); u32(s, 2);
		u32(s, 0);
		if (!v)
			str(s, "SMT");
		str(s, "3"); str(s, "0-1");
		u32(s, 1);
		if (!v)
			str(s, "MC");
		str(s, "f"); str(s, "0-3");
		break;
	case PD_FEAT_E_MACHINE:
		u32(s, 62);
		u32(s, 0);
		break;
	case PD_FEAT_CLN_SIZE:
		if (v)
			u64(s, 64);
		else
			u32(s, 64);
		break;
	}
}

/* Parse a section with the library's parser; NRCPUS first for topology. */
static struct pd_features *parse(unsigned int id, const void *data, size_t n,
				 bool foreign, uint32_t nrcpus, int *ret)
{
	struct pd_features *f = pd_features__new();
	struct sec c = { .be = host_be() ^ foreign };

	u32(&c, nrcpus);
	u32(&c, nrcpus);
	pd_features__add(f, PD_FEAT_NRCPUS, c.b, c.n, foreign, &logger);
	*ret = pd_features__add(f, id, data, n, foreign, &logger);
	return f;
}

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static bool same_strs(const char *const *a, const char *const *b, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (!same_str(a[i], b[i]))
			return false;
	return true;
}

static bool same_caps(const struct pd_pmu_caps *a, const struct pd_pmu_caps *b)
{
	uint32_t i;

	if (!same_str(a->pmu_name, b->pmu_name) || a->nr_caps != b->nr_caps)
		return false;
	for (i = 0; i < a->nr_caps; i++)
		if (!same_str(a->caps[i].name, b->caps[i].name) ||
		    !same_str(a->caps[i].value, b->caps[i].value))
			return false;
	return true;
}

/* The decoded values of feature id are the same in a and b. */
static bool same(unsigned int id, const struct pd_features *a,
		 const struct pd_features *b)
{
	uint32_t i, j;

	if (!pd_features__has(a, id) || !pd_features__has(b, id))
		return false;
	switch (id) {
	case PD_FEAT_BUILD_ID:
		if (a->build_ids.nr != b->build_ids.nr)
			return false;
		for (i = 0; i < a->build_ids.nr; i++) {
			const struct pd_build_id *x = &a->build_ids.ids[i];
			const struct pd_build_id *y = &b->build_ids.ids[i];

			if (x->pid != y->pid || x->misc != y->misc || x->size != y->size ||
			    memcmp(x->id, y->id, 20) || !same_str(x->filename, y->filename))
				return false;
		}
		return true;
	case PD_FEAT_HOSTNAME:
		return same_str(a->hostname, b->hostname);
	case PD_FEAT_OSRELEASE:
		return same_str(a->osrelease, b->osrelease);
	case PD_FEAT_VERSION:
		return same_str(a->version, b->version);
	case PD_FEAT_ARCH:
		return same_str(a->arch, b->arch);
	case PD_FEAT_NRCPUS:
		return a->nrcpus.avail == b->nrcpus.avail && a->nrcpus.online == b->nrcpus.online;
	case PD_FEAT_CPUDESC:
		return same_str(a->cpudesc, b->cpudesc);
	case PD_FEAT_CPUID:
		return same_str(a->cpuid, b->cpuid);
	case PD_FEAT_TOTAL_MEM:
		return a->total_mem == b->total_mem;
	case PD_FEAT_CMDLINE:
		return a->cmdline.argc == b->cmdline.argc &&
		       same_strs(a->cmdline.argv, b->cmdline.argv, a->cmdline.argc);
	case PD_FEAT_EVENT_DESC:
		if (a->event_desc.nr != b->event_desc.nr)
			return false;
		for (i = 0; i < a->event_desc.nr; i++) {
			const struct pd_event_desc *x = &a->event_desc.events[i];
			const struct pd_event_desc *y = &b->event_desc.events[i];

			if (memcmp(&x->attr, &y->attr, sizeof(x->attr)) ||
			    x->attr_size != y->attr_size || !same_str(x->name, y->name) ||
			    x->nr_ids != y->nr_ids ||
			    memcmp(x->ids, y->ids, 8 * (size_t)x->nr_ids))
				return false;
		}
		return true;
	case PD_FEAT_CPU_TOPOLOGY: {
		const struct pd_cpu_topology *x = &a->cpu_topology, *y = &b->cpu_topology;

		if (x->nr_sockets != y->nr_sockets || x->nr_threads != y->nr_threads ||
		    x->nr_dies != y->nr_dies || x->nr_cpus != y->nr_cpus ||
		    x->has_dies != y->has_dies ||
		    !same_strs(x->sockets, y->sockets, x->nr_sockets) ||
		    !same_strs(x->threads, y->threads, x->nr_threads) ||
		    !same_strs(x->dies, y->dies, x->nr_dies))
			return false;
		for (i = 0; i < x->nr_cpus; i++)
			if (x->cpus[i].core_id != y->cpus[i].core_id ||
			    x->cpus[i].socket_id != y->cpus[i].socket_id ||
			    x->cpus[i].die_id != y->cpus[i].die_id)
				return false;
		return true;
	}
	case PD_FEAT_NUMA_TOPOLOGY:
		if (a->numa.nr != b->numa.nr)
			return false;
		for (i = 0; i < a->numa.nr; i++)
			if (a->numa.nodes[i].node != b->numa.nodes[i].node ||
			    a->numa.nodes[i].mem_total != b->numa.nodes[i].mem_total ||
			    a->numa.nodes[i].mem_free != b->numa.nodes[i].mem_free ||
			    !same_str(a->numa.nodes[i].cpus, b->numa.nodes[i].cpus))
				return false;
		return true;
	case PD_FEAT_BRANCH_STACK:
	case PD_FEAT_STAT:
		return true;
	case PD_FEAT_PMU_MAPPINGS:
		if (a->pmu_mappings.nr != b->pmu_mappings.nr)
			return false;
		for (i = 0; i < a->pmu_mappings.nr; i++)
			if (a->pmu_mappings.pmus[i].type != b->pmu_mappings.pmus[i].type ||
			    !same_str(a->pmu_mappings.pmus[i].name, b->pmu_mappings.pmus[i].name))
				return false;
		return true;
	case PD_FEAT_GROUP_DESC:
		if (a->group_desc.nr != b->group_desc.nr)
			return false;
		for (i = 0; i < a->group_desc.nr; i++)
			if (!same_str(a->group_desc.groups[i].name, b->group_desc.groups[i].name) ||
			    a->group_desc.groups[i].leader_idx != b->group_desc.groups[i].leader_idx ||
			    a->group_desc.groups[i].nr_members != b->group_desc.groups[i].nr_members)
				return false;
		return true;
	case PD_FEAT_AUXTRACE:
		return a->auxtrace.nr == b->auxtrace.nr &&
		       !memcmp(a->auxtrace.entries, b->auxtrace.entries,
			       a->auxtrace.nr * sizeof(*a->auxtrace.entries));
	case PD_FEAT_CACHE:
		if (a->cache.version != b->cache.version || a->cache.nr != b->cache.nr)
			return false;
		for (i = 0; i < a->cache.nr; i++) {
			const struct pd_cache_level *x = &a->cache.levels[i];
			const struct pd_cache_level *y = &b->cache.levels[i];

			if (x->level != y->level || x->line_size != y->line_size ||
			    x->sets != y->sets || x->ways != y->ways ||
			    !same_str(x->type, y->type) || !same_str(x->size, y->size) ||
			    !same_str(x->map, y->map))
				return false;
		}
		return true;
	case PD_FEAT_SAMPLE_TIME:
		return a->sample_time.first == b->sample_time.first &&
		       a->sample_time.last == b->sample_time.last;
	case PD_FEAT_MEM_TOPOLOGY:
		if (a->mem_topology.version != b->mem_topology.version ||
		    a->mem_topology.block_size != b->mem_topology.block_size ||
		    a->mem_topology.nr != b->mem_topology.nr)
			return false;
		for (i = 0; i < a->mem_topology.nr; i++) {
			const struct pd_mem_node *x = &a->mem_topology.nodes[i];
			const struct pd_mem_node *y = &b->mem_topology.nodes[i];

			if (x->node != y->node || x->size != y->size || x->nbits != y->nbits ||
			    memcmp(x->bitmap, y->bitmap, 8 * ((x->nbits + 63) / 64)))
				return false;
		}
		return true;
	case PD_FEAT_CLOCKID:
		return a->clockid_res_ns == b->clockid_res_ns;
	case PD_FEAT_DIR_FORMAT:
		return a->dir_format_version == b->dir_format_version;
	case PD_FEAT_COMPRESSED:
		return !memcmp(&a->compressed, &b->compressed, sizeof(a->compressed));
	case PD_FEAT_CPU_PMU_CAPS:
		return same_caps(&a->cpu_pmu_caps, &b->cpu_pmu_caps);
	case PD_FEAT_CLOCK_DATA:
		return a->clock_data.version == b->clock_data.version &&
		       a->clock_data.clockid == b->clock_data.clockid &&
		       a->clock_data.tod_ns == b->clock_data.tod_ns &&
		       a->clock_data.clockid_ns == b->clock_data.clockid_ns;
	case PD_FEAT_HYBRID_TOPOLOGY:
		if (a->hybrid_topology.nr != b->hybrid_topology.nr)
			return false;
		for (i = 0; i < a->hybrid_topology.nr; i++)
			if (!same_str(a->hybrid_topology.pmus[i].pmu_name,
				      b->hybrid_topology.pmus[i].pmu_name) ||
			    !same_str(a->hybrid_topology.pmus[i].cpus,
				      b->hybrid_topology.pmus[i].cpus))
				return false;
		return true;
	case PD_FEAT_PMU_CAPS:
		if (a->pmu_caps.nr != b->pmu_caps.nr)
			return false;
		for (i = 0; i < a->pmu_caps.nr; i++)
			if (!same_caps(&a->pmu_caps.pmus[i], &b->pmu_caps.pmus[i]))
				return false;
		return true;
	case PD_FEAT_CPU_DOMAIN_INFO:
		if (a->cpu_domain_info.schedstat_version != b->cpu_domain_info.schedstat_version ||
		    a->cpu_domain_info.max_sched_domains != b->cpu_domain_info.max_sched_domains ||
		    a->cpu_domain_info.nr != b->cpu_domain_info.nr)
			return false;
		for (i = 0; i < a->cpu_domain_info.nr; i++) {
			const struct pd_cpu_domains *x = &a->cpu_domain_info.cpus[i];
			const struct pd_cpu_domains *y = &b->cpu_domain_info.cpus[i];

			if (x->cpu != y->cpu || x->nr_domains != y->nr_domains)
				return false;
			for (j = 0; j < x->nr_domains; j++)
				if (x->domains[j].domain != y->domains[j].domain ||
				    !same_str(x->domains[j].name, y->domains[j].name) ||
				    !same_str(x->domains[j].cpumask, y->domains[j].cpumask) ||
				    !same_str(x->domains[j].cpulist, y->domains[j].cpulist))
					return false;
		}
		return true;
	case PD_FEAT_E_MACHINE:
		return a->e_machine.machine == b->e_machine.machine &&
		       a->e_machine.flags == b->e_machine.flags;
	case PD_FEAT_CLN_SIZE:
		return a->cln_size == b->cln_size;
	}
	return false;
}

/* Convert a copy of exactly n bytes (so ASan sees any overrun). */
static int convert(unsigned int id, const uint8_t *in, size_t n, bool to_foreign,
		   int64_t nrcpus, uint8_t *out)
{
	uint8_t *b = malloc(n ? n : 1);
	int ret;

	memcpy(b, in, n);
	if (nrcpus >= 0)
		ret = pd__feat_swap_cpu_topology(b, n, to_foreign, (uint32_t)nrcpus);
	else
		ret = pd__feat_swap(id, b, n, to_foreign);
	memcpy(out, b, n);
	free(b);
	return ret;
}

/* The way round trip of one well-formed section. */
static void test_layout(unsigned int id, int v)
{
	struct sec h = { .be = host_be() }, o = { .be = !host_be() };
	static uint8_t conv[8192], back[8192];
	struct pd_features *f0, *f1;
	const char *name = pd_feature_name(id);
	uint32_t nrcpus = nrcpus_of(id, v);
	int r, r0, r1;

	build(id, v, &h);
	build(id, v, &o);
	r = convert(id, h.b, h.n, true, -1, conv);
	CHECK(r == 0 && h.n == o.n && !memcmp(conv, o.b, h.n),
	      "%s #%d (%zu bytes): converted = built in the other byte order (%d)",
	      name, v, h.n, r);
	CHECK(h.n == 0 ||
	      memcmp(conv, h.b, h.n), "%s #%d: the conversion changed numbers", name, v);

	f0 = parse(id, h.b, h.n, false, nrcpus, &r0);
	f1 = parse(id, conv, h.n, true, nrcpus, &r1);
	CHECK(r0 == 0 && r1 == 0 && same(id, f0, f1),
	      "%s #%d: parsed as a foreign section, same values as the original", name, v);
	pd_features__free(f0);
	pd_features__free(f1);

	r = convert(id, conv, h.n, false, -1, back);
	CHECK(r == 0 && !memcmp(back, h.b, h.n),
	      "%s #%d: converted back to host order, same bytes", name, v);

	if (id == PD_FEAT_CPU_TOPOLOGY) {
		r = convert(id, h.b, h.n, true, nrcpus, conv);
		r1 = convert(id, o.b, o.n, false, nrcpus, back);
		CHECK(!r && !r1 && !memcmp(conv, o.b, h.n) && !memcmp(back, h.b, h.n),
		      "%s #%d: with NRCPUS known, both ways", name, v);
	}
}

static uint64_t rnd_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

/*
 * A possibly malformed section, in host order (!foreign) or in the other
 * order: the conversion succeeds exactly when the parser accepts it (for
 * CPU_TOPOLOGY when NRCPUS is given: without it the count is inferred),
 * leaves it untouched when it fails, and can be undone when it succeeds.
 */
static bool consistent(unsigned int id, const uint8_t *in, size_t n, bool foreign,
		       int64_t nrcpus)
{
	static uint8_t out[8192], back[8192];
	struct pd_features *f;
	bool ok = true;
	int r, p;

	r = convert(id, in, n, !foreign, nrcpus, out);
	if (r && (r != -PD_ERR_BAD_FEATURE || memcmp(out, in, n)))
		return false;
	if (!r && (convert(id, out, n, foreign, nrcpus, back) || memcmp(back, in, n)))
		return false;
	if (id == PD_FEAT_CPU_TOPOLOGY && nrcpus < 0)
		return true;
	f = parse(id, in, n, foreign, nrcpus < 0 ? 8 : (uint32_t)nrcpus, &p);
	pd_features__free(f);
	if ((r == 0) != (p == 0))
		ok = false;
	return ok;
}

static void put32(uint8_t *p, uint32_t v, int be)
{
	int i;

	for (i = 0; i < 4; i++)
		p[be ? 3 - i : i] = (uint8_t)(v >> (8 * i));
}

static void test_hostile(unsigned int id, int v)
{
	static const uint32_t vals[] = {
		0, 1, 3, 0x40, 0xffff, 0x7fffffff, 0x80000000, 0xffffffff,
	};
	const char *name = pd_feature_name(id);
	static uint8_t m[8192];
	int foreign;

	for (foreign = 0; foreign <= 1; foreign++) {
		struct sec s = { .be = host_be() ^ foreign };
		int64_t nrcpus = id == PD_FEAT_CPU_TOPOLOGY ? (int64_t)nrcpus_of(id, v) : -1;
		const char *o = foreign ? "other order" : "host order";
		size_t len, off, bad_cut = 0, bad_mut = 0, bad_rnd = 0, refused = 0;
		size_t i, k, step;

		build(id, v, &s);
		for (len = 0; len < s.n; len++) {
			if (!consistent(id, s.b, len, foreign, nrcpus) ||
			    (nrcpus >= 0 && !consistent(id, s.b, len, foreign, -1)))
				bad_cut++;
			refused += convert(id, s.b, len, !foreign, nrcpus, m) != 0;
		}
		CHECK(!bad_cut && (s.n == 0 || refused),
		      "%s #%d, %s: every cut of the section (%zu, %zu refused) as the parser decides",
		      name, v, o, s.n, refused);

		/* counts, sizes and versions overwritten, word by word */
		step = id == PD_FEAT_BUILD_ID ? 2 : 4;
		refused = 0;
		for (off = 0; off + 4 <= s.n; off += step) {
			for (k = 0; k < PD_ARRAY_SIZE(vals) + 2; k++) {
				uint32_t val = k < PD_ARRAY_SIZE(vals) ? vals[k] :
					       (uint32_t)(s.n - off + k - PD_ARRAY_SIZE(vals));

				memcpy(m, s.b, s.n);
				put32(m + off, val, s.be);
				if (!consistent(id, m, s.n, foreign, nrcpus) ||
				    (nrcpus >= 0 && !consistent(id, m, s.n, foreign, -1))) {
					bad_mut++;
					if (getenv("DBG"))
						printf("# off %zu val %#x exact %d guess %d\n", off, val,
						       consistent(id, m, s.n, foreign, nrcpus),
						       consistent(id, m, s.n, foreign, -1));
				}
				refused += convert(id, m, s.n, !foreign, nrcpus, m) != 0;
			}
		}
		CHECK(!bad_mut, "%s #%d, %s: counts and sizes overwritten (%zu refused) as the parser decides",
		      name, v, o, refused);

		/* random damage, and random tails */
		for (i = 0; i < 300; i++) {
			size_t n = s.n;

			memcpy(m, s.b, s.n);
			for (k = 0; n && k < 1 + rnd() % 3; k++)
				m[rnd() % n] = (uint8_t)rnd();
			if (i % 3 == 0) {
				size_t extra = rnd() % 40;

				for (k = 0; k < extra; k++)
					m[n + k] = (uint8_t)rnd();
				n += extra;
			}
			if (!consistent(id, m, n, foreign, nrcpus) ||
			    (nrcpus >= 0 && !consistent(id, m, n, foreign, -1)))
				bad_rnd++;
		}
		CHECK(!bad_rnd, "%s #%d, %s: random damage as the parser decides", name, v, o);
	}
}

/* Ids without a layout we convert, and the tracing blob (kept as is). */
static void test_refused(void)
{
	static const unsigned int ids[] = {
		0, PD_FEAT_BPF_PROG_INFO, PD_FEAT_BPF_BTF, PD_FEAT_KNOWN_MAX, 100, 255, 256, ~0u,
	};
	uint8_t sec[64], copy[64];
	size_t i;
	int dir;

	for (i = 0; i < sizeof(sec); i++)
		sec[i] = (uint8_t)(i * 7 + 1);
	/* BPF_PROG_INFO and BTF shaped as they are: one entry each */
	put32(sec, 1, host_be());
	put32(sec + 4, 8, host_be());
	put32(sec + 8, 8, host_be());
	for (i = 0; i < PD_ARRAY_SIZE(ids); i++) {
		for (dir = 0; dir <= 1; dir++) {
			memcpy(copy, sec, sizeof(sec));
			CHECK(pd__feat_swap(ids[i], copy, sizeof(copy), dir) == -PD_ERR_BAD_FEATURE &&
			      !memcmp(copy, sec, sizeof(sec)),
			      "feature id %u %s: refused, untouched", ids[i],
			      dir ? "to the other order" : "to host order");
		}
	}
	for (dir = 0; dir <= 1; dir++) {
		size_t len;
		bool ok = true;

		for (len = 0; len <= sizeof(sec); len++) {
			uint8_t *b = malloc(len ? len : 1);

			memcpy(b, sec, len);
			ok &= pd__feat_swap(PD_FEAT_TRACING_DATA, b, len, dir) == 0 &&
			      !memcmp(b, sec, len);
			free(b);
		}
		CHECK(ok, "TRACING_DATA %s: kept as is, its blob states its byte order",
		      dir ? "to the other order" : "to host order");
	}
}

/* Named hostile cases, on top of the sweeps. */
static void test_counts(void)
{
	struct sec s = { .be = host_be() };
	static uint8_t b[8192];
	int r;

	u32(&s, 0xffffffff);
	str(&s, "perf");
	CHECK(convert(PD_FEAT_CMDLINE, s.b, s.n, true, -1, b) == -PD_ERR_BAD_FEATURE,
	      "CMDLINE with 2^32-1 arguments refused");
	s.n = 0;
	u64(&s, 1ULL << 60);
	u64(&s, 0); u64(&s, 0);
	CHECK(convert(PD_FEAT_AUXTRACE, s.b, s.n, true, -1, b) == -PD_ERR_BAD_FEATURE,
	      "AUXTRACE with 2^60 entries refused");
	s.n = 0;
	u64(&s, 1); u64(&s, 1); u64(&s, 1);
	u64(&s, 0); u64(&s, 0); u64(&s, ~0ULL);
	CHECK(convert(PD_FEAT_MEM_TOPOLOGY, s.b, s.n, true, -1, b) == -PD_ERR_BAD_FEATURE,
	      "MEM_TOPOLOGY with a 2^64-1 bit bitmap refused");
	s.n = 0;
	u32(&s, 2); u32(&s, 64);
	CHECK(convert(PD_FEAT_EVENT_DESC, s.b, s.n, true, -1, b) == -PD_ERR_BAD_FEATURE,
	      "EVENT_DESC with events and no bytes refused");
	s.n = 0;
	u32(&s, 2); u32(&s, 1); u32(&s, 0); u32(&s, 3);
	CHECK(convert(PD_FEAT_CPU_DOMAIN_INFO, s.b, s.n, true, -1, b) == -PD_ERR_BAD_FEATURE,
	      "CPU_DOMAIN_INFO with more domains than its maximum refused");
	s.n = 0;
	u32(&s, 2); u32(&s, 0);
	CHECK(convert(PD_FEAT_CACHE, s.b, s.n, true, -1, b) == -PD_ERR_BAD_FEATURE,
	      "CACHE of an unknown version refused");
	s.n = 0;
	u64(&s, 1); u32(&s, 1);
	CHECK(convert(PD_FEAT_CLN_SIZE, s.b, s.n, true, -1, b) == -PD_ERR_BAD_FEATURE,
	      "CLN_SIZE of 12 bytes refused");

	/* attrs of a size no perf wrote: the bytes of a cut field are kept */
	{
		static const uint32_t odd[] = { 68, 148 };
		static uint8_t out[8192], back[8192];
		struct pd_features *f0, *f1;
		size_t i;
		int r0, r1;

		for (i = 0; i < PD_ARRAY_SIZE(odd); i++) {
			s.n = 0;
			u32(&s, 2);
			u32(&s, odd[i]);
			attr(&s, odd[i], 0);
			u32(&s, 1); str(&s, "cycles"); u64(&s, 7);
			attr(&s, odd[i], 1);
			u32(&s, 0); str(&s, "instructions");
			r = convert(PD_FEAT_EVENT_DESC, s.b, s.n, true, -1, out);
			r1 = convert(PD_FEAT_EVENT_DESC, out, s.n, false, -1, back);
			f0 = parse(PD_FEAT_EVENT_DESC, s.b, s.n, false, 8, &r0);
			f1 = parse(PD_FEAT_EVENT_DESC, out, s.n, true, 8, &r1);
			CHECK(!r && !memcmp(back, s.b, s.n) && !r0 && !r1 &&
			      same(PD_FEAT_EVENT_DESC, f0, f1),
			      "EVENT_DESC with %u-byte attrs: same values, same bytes back", odd[i]);
			pd_features__free(f0);
			pd_features__free(f1);
		}
	}

	/* topology: NRCPUS stating more cpus than the section holds */
	s.n = 0;
	cpu_topology(&s, &topos[1]);
	r = convert(PD_FEAT_CPU_TOPOLOGY, s.b, s.n, true, 0xffffffff, b);
	CHECK(r == -PD_ERR_BAD_FEATURE, "CPU_TOPOLOGY with 2^32-1 cpus refused");
	/* and NRCPUS of 0: only the sibling lists are read, as the parser does */
	{
		static uint8_t out[8192];
		struct sec o = { .be = !host_be() };

		cpu_topology(&o, &topos[1]);
		r = convert(PD_FEAT_CPU_TOPOLOGY, s.b, s.n, true, 0, out);
		CHECK(r == 0 && !memcmp(out, o.b, o.n - 8 * topos[1].cpus) &&
		      !memcmp(out + s.n - 8 * topos[1].cpus, s.b + s.n - 8 * topos[1].cpus,
			      8 * topos[1].cpus),
		      "CPU_TOPOLOGY with NRCPUS 0: lists converted, the rest left as is");
	}
}

int main(void)
{
	unsigned int id;
	int v;

	for (id = 0; id < PD_FEAT_KNOWN_MAX; id++)
		for (v = 0; v < nr_variants(id); v++)
			test_layout(id, v);
	test_refused();
	test_counts();
	for (id = 0; id < PD_FEAT_KNOWN_MAX; id++)
		for (v = 0; v < nr_variants(id); v++)
			test_hostile(id, v);
	return tap_done();
}
