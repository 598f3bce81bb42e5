// SPDX-License-Identifier: MIT
/*
 * The header view. Lines and their order follow what perf 6.1's
 * 'perf report --header-only -I' prints, so that users can compare the
 * two and our tests can use perf as the oracle; features perf does not
 * print (build-ids, newer ones) get lines in the same style.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <perfdata/evsel.h>
#include <perfdata/features.h>

#include "info-attr.h"
#include "info-bpf.h"
#include "info-header.h"

/* Features whose lines perf prints only with -I. */
static bool full_only(unsigned int id)
{
	switch (id) {
	case PD_FEAT_CPU_TOPOLOGY:
	case PD_FEAT_NUMA_TOPOLOGY:
	case PD_FEAT_CACHE:
	case PD_FEAT_MEM_TOPOLOGY:
	case PD_FEAT_HYBRID_TOPOLOGY:
	case PD_FEAT_CPU_DOMAIN_INFO:
		return true;
	default:
		return false;
	}
}

/* A cpu list ("0-3,5") as ranges, as perf reprints the lists it parses. */
static void print_cpu_list(FILE *out, const char *list)
{
	fprintf(out, "%s\n", list ? list : "");
}

static void print_event_desc(FILE *out, const struct pd_features *f)
{
	uint32_t i, j;

	for (i = 0; i < f->event_desc.nr; i++) {
		const struct pd_event_desc *d = &f->event_desc.events[i];

		fprintf(out, "# event : name = %s, ", d->name ? d->name : "");
		if (d->nr_ids) {
			fprintf(out, ", id = {");
			for (j = 0; j < d->nr_ids; j++)
				fprintf(out, "%s %" PRIu64, j ? "," : "",
					d->ids[j]);
			fprintf(out, " }");
		}
		pd_info_print_attr(out, &d->attr);
		fputc('\n', out);
	}
}

static void print_cpu_topology(FILE *out, const struct pd_features *f)
{
	const struct pd_cpu_topology *t = &f->cpu_topology;
	uint32_t i;

	for (i = 0; i < t->nr_sockets; i++)
		fprintf(out, "# sibling sockets : %s\n", t->sockets[i]);
	for (i = 0; i < t->nr_dies; i++)
		fprintf(out, "# sibling dies    : %s\n", t->dies[i]);
	for (i = 0; i < t->nr_threads; i++)
		fprintf(out, "# sibling threads : %s\n", t->threads[i]);
	if (t->nr_dies) {
		if (!t->nr_cpus)
			fprintf(out, "# Core ID, Die ID and Socket ID information is not available\n");
		for (i = 0; i < t->nr_cpus; i++)
			fprintf(out, "# CPU %u: Core ID %d, Die ID %d, Socket ID %d\n",
				i, t->cpus[i].core_id, t->cpus[i].die_id,
				t->cpus[i].socket_id);
	} else {
		if (!t->nr_cpus)
			fprintf(out, "# Core ID and Socket ID information is not available\n");
		for (i = 0; i < t->nr_cpus; i++)
			fprintf(out, "# CPU %u: Core ID %d, Socket ID %d\n", i,
				t->cpus[i].core_id, t->cpus[i].socket_id);
	}
}

static void print_numa(FILE *out, const struct pd_features *f)
{
	uint32_t i;

	for (i = 0; i < f->numa.nr; i++) {
		const struct pd_numa_node *n = &f->numa.nodes[i];

		fprintf(out, "# node%u meminfo  : total = %" PRIu64 " kB, free = %" PRIu64 " kB\n",
			n->node, n->mem_total, n->mem_free);
		fprintf(out, "# node%u cpu list : ", n->node);
		print_cpu_list(out, n->cpus);
	}
}

static void print_pmu_mappings(FILE *out, const struct pd_features *f)
{
	uint32_t i;

	fprintf(out, "# pmu mappings: ");
	if (!f->pmu_mappings.nr)
		fprintf(out, "not available");
	for (i = 0; i < f->pmu_mappings.nr; i++)
		fprintf(out, "%s%s = %" PRIu32, i ? ", " : "",
			f->pmu_mappings.pmus[i].name,
			f->pmu_mappings.pmus[i].type);
	fputc('\n', out);
}

/* Groups are printed from the evsels, named as perf names them. */
static void print_group_desc(FILE *out, const struct pd_features *f,
			     const struct pd_reader *r)
{
	uint32_t g, k;
	char buf[256];

	for (g = 0; g < f->group_desc.nr; g++) {
		const struct pd_group_desc *d = &f->group_desc.groups[g];
		const char *gname = d->name;

		if (d->nr_members <= 1)
			continue;
		if (gname && !strcmp(gname, "{anon_group}"))
			gname = NULL;
		fprintf(out, "# group: %s{", gname ? gname : "");
		for (k = 0; k < d->nr_members; k++) {
			const struct pd_evsel *e =
				pd_reader__evsel(r, (int)(d->leader_idx + k));

			fprintf(out, "%s%s", k ? "," : "",
				e ? pd_evsel__name(e, r, buf, sizeof(buf)) : "?");
		}
		fprintf(out, "}\n");
	}
}

static void print_cache(FILE *out, const struct pd_features *f)
{
	uint32_t i;

	fprintf(out, "# CPU cache info:\n");
	for (i = 0; i < f->cache.nr; i++) {
		const struct pd_cache_level *c = &f->cache.levels[i];

		fprintf(out, "#  L%u %-15s %8s [%s]\n", c->level, c->type,
			c->size, c->map);
	}
}

static void print_usec(FILE *out, const char *label, uint64_t ns)
{
	fprintf(out, "# %s : %" PRIu64 ".%06" PRIu64 "\n", label,
		ns / 1000000000, ns % 1000000000 / 1000);
}

static void print_sample_time(FILE *out, const struct pd_features *f)
{
	uint64_t first = f->sample_time.first, last = f->sample_time.last;

	print_usec(out, "time of first sample", first);
	print_usec(out, "time of last sample", last);
	fprintf(out, "# sample duration : %10.3f ms\n",
		(double)(last - first) / 1e6);
}

/* "0-23,32-199" from a bitmap of nbits bits */
static void print_bitmap_ranges(FILE *out, const uint64_t *bm, uint64_t nbits)
{
	uint64_t i = 0, start;
	bool first = true;

	while (i < nbits) {
		if (!(bm[i / 64] & (1ULL << (i % 64)))) {
			i++;
			continue;
		}
		start = i;
		while (i + 1 < nbits && (bm[(i + 1) / 64] & (1ULL << ((i + 1) % 64))))
			i++;
		fprintf(out, "%s%" PRIu64, first ? "" : ",", start);
		if (i > start)
			fprintf(out, "-%" PRIu64, i);
		first = false;
		i++;
	}
}

static void print_mem_topology(FILE *out, const struct pd_features *f)
{
	static const char units[] = "BKMG";
	uint64_t i;

	fprintf(out, "# memory nodes (nr %" PRIu64 ", block size %#" PRIx64 "):\n",
		f->mem_topology.nr, f->mem_topology.block_size);
	for (i = 0; i < f->mem_topology.nr; i++) {
		const struct pd_mem_node *n = &f->mem_topology.nodes[i];
		uint64_t w, blocks = 0, size;
		int u = 0;

		/* online blocks, not the bitmap's length */
		for (w = 0; w < n->nbits / 64 + (n->nbits % 64 != 0); w++)
			blocks += (uint64_t)__builtin_popcountll(n->bitmap[w]);
		size = blocks * f->mem_topology.block_size;

		/*
		 * perf divides while more than one whole unit is left and
		 * stops at G: exactly 1 GiB prints as 1024M
		 */
		while (size / 1024 > 1 && units[u + 1]) {
			size /= 1024;
			u++;
		}
		fprintf(out, "#  %3" PRIu64 " [%" PRIu64 "%c]: ", n->node, size,
			units[u]);
		print_bitmap_ranges(out, n->bitmap, n->nbits);
		fputc('\n', out);
	}
}

static void print_caps(FILE *out, const struct pd_pmu_caps *p)
{
	uint32_t i;

	if (!p->nr_caps) {
		fprintf(out, "# %s pmu capabilities: not available\n",
			p->pmu_name);
		return;
	}
	fprintf(out, "# %s pmu capabilities: ", p->pmu_name);
	for (i = 0; i < p->nr_caps; i++)
		fprintf(out, "%s%s=%s", i ? ", " : "", p->caps[i].name,
			p->caps[i].value);
	fputc('\n', out);
}

/* clock names as perf record's -k option spells them */
static const char *clockid_name(int32_t id)
{
	switch (id) {
	case 0: return "realtime";
	case 1: return "monotonic";
	case 4: return "monotonic_raw";
	case 7: return "boottime";
	case 11: return "tai";
	default: return "(not found)";
	}
}

static void print_clock_data(FILE *out, const struct pd_features *f)
{
	uint64_t tod = f->clock_data.tod_ns, clk = f->clock_data.clockid_ns;
	time_t sec = (time_t)(tod / 1000000000);
	const char *name = clockid_name(f->clock_data.clockid);
	struct tm tm;
	char date[64] = "";

	fprintf(out, "# clockid: %s (%d)\n", name, f->clock_data.clockid);
	if (localtime_r(&sec, &tm))
		strftime(date, sizeof(date), "%F %T", &tm);
	fprintf(out, "# reference time: %s.%06" PRIu64 " = %" PRIu64 ".%06" PRIu64 " (TOD) = %" PRIu64 ".%09" PRIu64 " (%s)\n",
		date, tod % 1000000000 / 1000, tod / 1000000000,
		tod % 1000000000 / 1000, clk / 1000000000, clk % 1000000000,
		name);
}

static void print_build_ids(FILE *out, const struct pd_features *f)
{
	uint32_t i;
	int j;

	for (i = 0; i < f->build_ids.nr; i++) {
		const struct pd_build_id *b = &f->build_ids.ids[i];

		fprintf(out, "# build id : ");
		for (j = 0; j < b->size; j++)
			fprintf(out, "%02x", b->id[j]);
		fprintf(out, " %s", b->filename);
		if (b->pid != -1)
			fprintf(out, " (machine pid %d)", b->pid);
		fputc('\n', out);
	}
}

static void print_tracing(FILE *out, const struct pd_features *f)
{
	uint32_t i;

	fprintf(out, "# tracing data : version %s, %s endian, long size %u, page size %u, %u events\n",
		f->tracing.version, f->tracing.big_endian ? "big" : "little",
		f->tracing.long_size, f->tracing.page_size,
		f->tracing.nr_events);
	for (i = 0; i < f->tracing.nr_events; i++)
		fprintf(out, "# tracepoint : %s (id %" PRIu64 ")\n",
			f->tracing.events[i].name, f->tracing.events[i].id);
}

static void print_cpu_domains(FILE *out, const struct pd_features *f)
{
	uint32_t i, j;

	fprintf(out, "# schedstat version : %u\n# maximum sched domains : %u\n",
		f->cpu_domain_info.schedstat_version,
		f->cpu_domain_info.max_sched_domains);
	for (i = 0; i < f->cpu_domain_info.nr; i++) {
		const struct pd_cpu_domains *c = &f->cpu_domain_info.cpus[i];

		for (j = 0; j < c->nr_domains; j++) {
			const struct pd_sched_domain *d = &c->domains[j];

			fprintf(out, "# cpu %u domain %u%s%s : %s (%s)\n",
				c->cpu, d->domain, d->name ? " " : "",
				d->name ? d->name : "", d->cpulist, d->cpumask);
		}
	}
}

/* The lines of one present feature. */
static void print_feature(FILE *out, unsigned int id,
			  const struct pd_features *f,
			  const struct pd_reader *r, bool full)
{
	uint32_t i;

	if (!full && full_only(id)) {
		fprintf(out, "# %s info available, use -I to display\n",
			pd_feature_name(id));
		return;
	}
	switch (id) {
	case PD_FEAT_TRACING_DATA:
		print_tracing(out, f);
		break;
	case PD_FEAT_BUILD_ID:
		if (full)
			print_build_ids(out, f);
		break;
	case PD_FEAT_HOSTNAME:
		fprintf(out, "# hostname : %s\n", f->hostname);
		break;
	case PD_FEAT_OSRELEASE:
		fprintf(out, "# os release : %s\n", f->osrelease);
		break;
	case PD_FEAT_VERSION:
		fprintf(out, "# perf version : %s\n", f->version);
		break;
	case PD_FEAT_ARCH:
		fprintf(out, "# arch : %s\n", f->arch);
		break;
	case PD_FEAT_NRCPUS:
		fprintf(out, "# nrcpus online : %u\n# nrcpus avail : %u\n",
			f->nrcpus.online, f->nrcpus.avail);
		break;
	case PD_FEAT_CPUDESC:
		fprintf(out, "# cpudesc : %s\n", f->cpudesc);
		break;
	case PD_FEAT_CPUID:
		fprintf(out, "# cpuid : %s\n", f->cpuid);
		break;
	case PD_FEAT_TOTAL_MEM:
		fprintf(out, "# total memory : %" PRIu64 " kB\n", f->total_mem);
		break;
	case PD_FEAT_CMDLINE:
		fprintf(out, "# cmdline : ");
		for (i = 0; i < f->cmdline.argc; i++)
			fprintf(out, "%s ", f->cmdline.argv[i]);
		fputc('\n', out);
		break;
	case PD_FEAT_EVENT_DESC:
		print_event_desc(out, f);
		break;
	case PD_FEAT_CPU_TOPOLOGY:
		print_cpu_topology(out, f);
		break;
	case PD_FEAT_NUMA_TOPOLOGY:
		print_numa(out, f);
		break;
	case PD_FEAT_BRANCH_STACK:
		fprintf(out, "# contains samples with branch stack\n");
		break;
	case PD_FEAT_PMU_MAPPINGS:
		print_pmu_mappings(out, f);
		break;
	case PD_FEAT_GROUP_DESC:
		print_group_desc(out, f, r);
		break;
	case PD_FEAT_AUXTRACE:
		fprintf(out, "# contains AUX area data (e.g. instruction trace)\n");
		break;
	case PD_FEAT_STAT:
		fprintf(out, "# contains stat data\n");
		break;
	case PD_FEAT_CACHE:
		print_cache(out, f);
		break;
	case PD_FEAT_SAMPLE_TIME:
		print_sample_time(out, f);
		break;
	case PD_FEAT_MEM_TOPOLOGY:
		print_mem_topology(out, f);
		break;
	case PD_FEAT_CLOCKID:
		fprintf(out, "# clockid frequency: %" PRIu64 " MHz\n",
			f->clockid_res_ns * 1000);
		break;
	case PD_FEAT_DIR_FORMAT:
		fprintf(out, "# directory data version : %" PRIu64 "\n",
			f->dir_format_version);
		break;
	case PD_FEAT_BPF_PROG_INFO:
		pd_info_print_bpf_progs(out, f);
		break;
	case PD_FEAT_BPF_BTF:
		pd_info_print_bpf_btf(out, f);
		break;
	case PD_FEAT_COMPRESSED:
		fprintf(out, "# compressed : %s, level = %u, ratio = %u\n",
			f->compressed.type == 1 ? "Zstd" : "Unknown",
			f->compressed.level, f->compressed.ratio);
		break;
	case PD_FEAT_CPU_PMU_CAPS:
		print_caps(out, &f->cpu_pmu_caps);
		break;
	case PD_FEAT_CLOCK_DATA:
		print_clock_data(out, f);
		break;
	case PD_FEAT_HYBRID_TOPOLOGY:
		fprintf(out, "# hybrid cpu system:\n");
		for (i = 0; i < f->hybrid_topology.nr; i++)
			fprintf(out, "# %s cpu list : %s\n",
				f->hybrid_topology.pmus[i].pmu_name,
				f->hybrid_topology.pmus[i].cpus);
		break;
	case PD_FEAT_PMU_CAPS:
		for (i = 0; i < f->pmu_caps.nr; i++)
			print_caps(out, &f->pmu_caps.pmus[i]);
		break;
	case PD_FEAT_CPU_DOMAIN_INFO:
		print_cpu_domains(out, f);
		break;
	case PD_FEAT_E_MACHINE:
		fprintf(out, "# e_machine : %u, e_flags : %#x\n",
			f->e_machine.machine, f->e_machine.flags);
		break;
	case PD_FEAT_CLN_SIZE:
		fprintf(out, "# cache line size : %u\n", f->cln_size);
		break;
	default:
		fprintf(out, "# unknown feature %u : %zu bytes\n", id,
			f->raw[id].size);
		break;
	}
}

int pd_info_print_header(FILE *out, struct pd_reader *r, const char *path,
			 unsigned int flags)
{
	const struct pd_header_info *h;
	const struct pd_features *f;
	bool full = flags & PD_INFO_HEADER_FULL;
	struct stat st;
	unsigned int id;
	int err;

	err = pd_reader__read_header(r);
	if (err < 0)
		return err;
	h = pd_reader__header(r);
	f = pd_reader__features(r);

	fprintf(out, "# ========\n");
	if (strcmp(path, "-") ? stat(path, &st) == 0 : fstat(0, &st) == 0) {
		time_t t = st.st_mtime;
		char buf[64];

		fprintf(out, "# captured on    : %s", ctime_r(&t, buf));
	}
	/* a pipe has no such header: perf shows zeros */
	fprintf(out, "# header version : %d\n", h->version == 1 ? 0 : 1);
	fprintf(out, "# data offset    : %" PRIu64 "\n", h->data.offset);
	fprintf(out, "# data size      : %" PRIu64 "\n", h->data.size);
	fprintf(out, "# feat offset    : %" PRIu64 "\n", h->feat_offset);
	/* and its features come as records, after the header's end */
	if (h->mode == PD_MODE_PIPE)
		fprintf(out, "# ========\n#\n");
	for (id = 0; id < PD_FEAT_BITS; id++)
		if (pd_features__has(f, id) && id != PD_FEAT_RESERVED)
			print_feature(out, id, f, r, full);
		else if (pd_features__seen(f, id))
			fprintf(out, "# %s : malformed, not shown\n",
				pd_feature_name(id) ? pd_feature_name(id) : "feature");
	if (h->mode == PD_MODE_FILE) {
		fprintf(out, "# missing features: ");
		for (id = 1; id < PD_FEAT_KNOWN_MAX; id++)
			if (!pd_features__seen(f, id))
				fprintf(out, "%s ", pd_feature_name(id));
		fputc('\n', out);
		fprintf(out, "# ========\n#\n");
	}
	return 0;
}
