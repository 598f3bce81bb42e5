// SPDX-License-Identifier: MIT
/*
 * check-target TARGET FILE: does FILE keep the rules the compat table
 * states for perf TARGET? Prints one line per violation, exits 1 if any.
 *
 * Rules: every attr no larger than the target accepts (and, in pipe mode
 * for readers that place HEADER_ATTR ids by their own struct size,
 * exactly that size); sample_type, read_format and layout-changing
 * branch bits within what it decodes; every record type known to it;
 * every feature known to it; MMAP2 build-id and CPU-map RANGE forms and
 * kernel MMAP2s only for readers that know them; no attr flag, read_format, branch filter,
 * aux_action or reserved bit it does not know; BUILD_ID entries of host
 * DSOs under the host's pid (-1); no compressed records for a perf built
 * without zstd; STAT records' cpu a position in the CPU map for readers
 * before 5.19, a CPU of the map from 5.19 (events with a CPU map of their
 * own are not checked). TARGET is anything --target-perf takes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfdata/compat.h>
#include <perfdata/features.h>
#include <perfdata/reader.h>

static int bad;

/* the CPU_MAP record's CPUs, and the ids of events with a map of their own */
static int32_t map[4096];
static uint32_t map_nr;
static uint64_t own_ids[64];
static size_t nr_own;

static void check_stat(const struct pd_perf_target *t, const struct pd_event *ev)
{
	int32_t v = (int32_t)ev->u.stat.cpu;
	uint32_t i;
	size_t k;

	for (k = 0; k < nr_own; k++)
		if (own_ids[k] == ev->u.stat.id)
			return;
	if (t->flags & PD_TGT_STAT_CPU_NUMBER) {
		for (i = 0; i < map_nr; i++)
			if (map[i] == v)
				return;
	} else if (v >= 0 && (uint32_t)v < map_nr) {
		return;
	}
	printf("offset 0x%llx: STAT cpu %d is not a %s of the CPU map\n",
	       (unsigned long long)ev->offset, v,
	       t->flags & PD_TGT_STAT_CPU_NUMBER ? "CPU" : "position");
	bad++;
}

#define VIOLATION(...) do { printf(__VA_ARGS__); putchar('\n'); bad++; } while (0)

int main(int argc, char **argv)
{
	struct pd_perf_resolved res = { .sz = sizeof(res) };
	const struct pd_perf_target *t;
	const struct pd_header_info *h;
	const struct pd_features *f;
	const struct pd_event *ev;
	struct pd_reader *r;
	unsigned int feat;
	size_t i;
	int err;

	if (argc != 3) {
		fprintf(stderr, "usage: check-target TARGET FILE\n");
		return 2;
	}
	if (pd_perf_target__resolve(argv[1], &res)) {
		fprintf(stderr, "%s\n", res.note);
		return 2;
	}
	t = &res.target;
	r = pd_reader__open(argv[2], NULL);
	if (!r) {
		fprintf(stderr, "%s\n", pd_reader__open_errmsg());
		return 2;
	}
	pd_reader__read_header(r);
	h = pd_reader__header(r);
	for (i = 0; i < pd_reader__nr_evsels(r); i++) {
		const struct pd_evsel *e = pd_reader__evsel(r, i);
		const struct pd_attr *a = &e->attr;
		uint64_t bst = a->branch_sample_type &
			       (PD_BRANCH_HW_INDEX | PD_BRANCH_COUNTERS);

		if (e->attr_size_on_disk > t->attr_size_max)
			VIOLATION("attr %zu: size %u > %u", i,
				  e->attr_size_on_disk, t->attr_size_max);
		if (h->mode == PD_MODE_PIPE &&
		    !(t->flags & PD_TGT_PIPE_ATTR_BY_SIZE) &&
		    e->attr_size_on_disk != t->attr_size)
			VIOLATION("attr %zu: pipe-mode size %u != %u", i,
				  e->attr_size_on_disk, t->attr_size);
		if (a->sample_type & ~t->sample_type)
			VIOLATION("attr %zu: sample_type bits 0x%llx unknown", i,
				  (unsigned long long)(a->sample_type & ~t->sample_type));
		if ((a->sample_type & PD_SAMPLE_READ) &&
		    (a->read_format & ~t->read_format))
			VIOLATION("attr %zu: read_format bits 0x%llx unknown", i,
				  (unsigned long long)(a->read_format & ~t->read_format));
		if ((a->sample_type & PD_SAMPLE_BRANCH_STACK) &&
		    (bst & ~t->branch_sample_type))
			VIOLATION("attr %zu: branch_sample_type bits 0x%llx unknown",
				  i, (unsigned long long)(bst & ~t->branch_sample_type));
		if (a->flags & ~t->attr_flags)
			VIOLATION("attr %zu: flag bits 0x%llx unknown", i,
				  (unsigned long long)(a->flags & ~t->attr_flags));
		if (a->read_format & PD_FORMAT_LOST &&
		    !(t->read_format & PD_FORMAT_LOST))
			VIOLATION("attr %zu: read_format LOST unknown", i);
		if (a->branch_sample_type & ~t->branch_filter)
			VIOLATION("attr %zu: branch filter bits 0x%llx unknown", i,
				  (unsigned long long)(a->branch_sample_type & ~t->branch_filter));
		if (a->reserved_2 || (a->aux_action & ~t->aux_action))
			VIOLATION("attr %zu: reserved bits set", i);
		/* without IDENTIFIER: upstream 3.10's "non matching
		 * sample_type" (perf_evlist__valid_sample_type()) */
		if (i && !(t->sample_type & PD_SAMPLE_IDENTIFIER) &&
		    a->sample_type != pd_reader__evsel(r, 0)->attr.sample_type)
			VIOLATION("attr %zu: sample_type 0x%llx is not attr 0's 0x%llx",
				  i, (unsigned long long)a->sample_type,
				  (unsigned long long)pd_reader__evsel(r, 0)->attr.sample_type);
	}
	f = pd_reader__features(r);
	for (i = 0; f && i < f->build_ids.nr; i++) {
		const struct pd_build_id *b = &f->build_ids.ids[i];
		uint16_t cpumode = b->misc & PD_MISC_CPUMODE_MASK;

		if ((cpumode == PD_MISC_USER || cpumode == PD_MISC_KERNEL) &&
		    b->pid != -1 && !(t->flags & PD_TGT_BUILD_ID_PROC_PID))
			VIOLATION("build id of %s: pid %d, not the host's",
				  b->filename, b->pid);
	}
	for (feat = 1; f && feat < PD_FEAT_BITS; feat++)
		if (pd_features__seen(f, feat) && f->raw[feat].size &&
		    !pd_perf_target__knows_feature(t, feat) &&
		    feat != h->pipe_feature_marker)
			VIOLATION("feature %u unknown", feat);
	while ((err = pd_reader__next(r, &ev)) > 0) {
		if (!pd_perf_target__knows_record(t, ev->type))
			VIOLATION("offset 0x%llx: record type %u unknown",
				  (unsigned long long)ev->offset, ev->type);
		if (ev->type == PD_RECORD_MMAP2 && ev->u.mmap.has_build_id &&
		    !(t->flags & PD_TGT_MMAP2_BUILD_ID))
			VIOLATION("offset 0x%llx: MMAP2 with a build id",
				  (unsigned long long)ev->offset);
		if (ev->type == PD_RECORD_MMAP2 &&
		    ((ev->misc & PD_MISC_CPUMODE_MASK) == PD_MISC_KERNEL ||
		     (ev->misc & PD_MISC_CPUMODE_MASK) == PD_MISC_GUEST_KERNEL) &&
		    !(t->flags & PD_TGT_KERNEL_MMAP2))
			VIOLATION("offset 0x%llx: a kernel MMAP2",
				  (unsigned long long)ev->offset);
		if (ev->type == PD_RECORD_CPU_MAP && ev->u.cpu_map.encoding == 2 &&
		    !(t->flags & PD_TGT_CPU_MAP_RANGE))
			VIOLATION("offset 0x%llx: CPU map in RANGE form",
				  (unsigned long long)ev->offset);
		if (ev->type == PD_RECORD_CPU_MAP && ev->u.cpu_map.cpus &&
		    ev->u.cpu_map.nr <= 4096) {
			map_nr = ev->u.cpu_map.nr;
			memcpy(map, ev->u.cpu_map.cpus, map_nr * sizeof(*map));
		}
		if (ev->type == PD_RECORD_EVENT_UPDATE &&
		    ev->u.event_update.type == 3 && nr_own < 64)
			own_ids[nr_own++] = ev->u.event_update.id;
		if (ev->type == PD_RECORD_STAT &&
		    pd_perf_target__knows_record(t, ev->type))
			check_stat(t, ev);
		if (bad > 20)
			break;
	}
	if (err < 0) {
		printf("%s\n", pd_reader__errmsg(r));
		bad++;
	}
	if (h->version == 2 && pd_reader__stats(r)->nr_events[PD_RECORD_COMPRESSED] &&
	    !pd_perf_target__knows_record(t, PD_RECORD_COMPRESSED))
		VIOLATION("compressed records");
	if (pd_reader__stats(r)->nr_events[PD_RECORD_COMPRESSED] +
	    pd_reader__stats(r)->nr_events[PD_RECORD_COMPRESSED2] &&
	    (t->flags & PD_TGT_NO_ZSTD))
		VIOLATION("compressed records for a perf built without zstd");
	pd_reader__close(r);
	return bad ? 1 : 0;
}
