// SPDX-License-Identifier: MIT
/*
 * pd-info --stats: records per type, printed as perf report --stats does.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <perfdata/evsel.h>
#include <perfdata/features.h>

#include "info-stats.h"

/*
 * Samples that carry PERF_SAMPLE_READ count, like perf delivers them,
 * once for each counter value that moved since that counter's previous
 * sample: a group sample counts for each member event.
 */
struct last_values {
	uint64_t *ids, *vals;
	size_t cap, nr;
};

static uint64_t *last_value(struct last_values *m, uint64_t id)
{
	size_t i;

	if ((m->nr + 1) * 2 > m->cap) {
		struct last_values n = { .cap = m->cap ? m->cap * 2 : 64 };

		n.ids = malloc(n.cap * sizeof(*n.ids));
		n.vals = calloc(n.cap, sizeof(*n.vals));
		if (!n.ids || !n.vals) {
			free(n.ids);
			free(n.vals);
			return NULL;
		}
		memset(n.ids, 0xff, n.cap * sizeof(*n.ids));
		for (i = 0; i < m->cap; i++) {
			if (m->ids[i] != UINT64_MAX) {
				uint64_t *v = last_value(&n, m->ids[i]);

				*v = m->vals[i];
			}
		}
		free(m->ids);
		free(m->vals);
		*m = n;
	}
	for (i = (id * 0x9e3779b97f4a7c15ULL) >> 40 & (m->cap - 1);
	     m->ids[i] != UINT64_MAX && m->ids[i] != id;
	     i = (i + 1) & (m->cap - 1))
		;
	if (m->ids[i] == UINT64_MAX) {
		m->ids[i] = id;
		m->nr++;
	}
	return &m->vals[i];
}

static int count(uint64_t (**per_evsel)[2], size_t *cap, size_t idx, int lost,
		 uint64_t add)
{
	if (idx >= *cap) {
		size_t ncap = idx + 16;
		uint64_t (*n)[2] = realloc(*per_evsel, ncap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		memset(n + *cap, 0, (ncap - *cap) * sizeof(*n));
		*per_evsel = n;
		*cap = ncap;
	}
	(*per_evsel)[idx][lost] += add;
	return 0;
}

int pd_info_print_stats(FILE *out, struct pd_reader *r)
{
	struct last_values last = { 0 };
	const struct pd_reader_stats *st;
	const struct pd_event *ev;
	uint64_t (*per_evsel)[2] = NULL;
	size_t nr_evsels, i, cap = 0;
	bool has_aux = false;
	uint32_t t;
	int err;

	/* perf also counts samples and lost samples per event */
	while ((err = pd_reader__next(r, &ev)) > 0) {
		size_t idx;

		if ((ev->type != PD_RECORD_SAMPLE &&
		     ev->type != PD_RECORD_LOST_SAMPLES) || !ev->evsel)
			continue;
		idx = ev->evsel->idx;
		if (ev->type == PD_RECORD_SAMPLE &&
		    (ev->u.sample.sample_type & PD_SAMPLE_READ)) {
			const struct pd_read *rd = &ev->u.sample.read;
			uint64_t k;

			for (k = 0; k < rd->nr; k++) {
				const struct pd_evsel *m =
					pd_reader__evsel_by_id(r, rd->values[k].id);
				uint64_t *prev;

				if (!m)
					continue;
				prev = last_value(&last, rd->values[k].id);
				if (!prev) {
					err = -ENOMEM;
					goto out;
				}
				if (rd->values[k].value == *prev)
					continue;
				*prev = rd->values[k].value;
				err = count(&per_evsel, &cap, m->idx, 0, 1);
				if (err)
					goto out;
			}
			continue;
		}
		/*
		 * per event, perf adds up the samples each LOST_SAMPLES
		 * record says were lost (count_lost_samples_event(),
		 * builtin-report.c), in a u32
		 */
		if (ev->type == PD_RECORD_LOST_SAMPLES)
			err = count(&per_evsel, &cap, idx, 1,
				    (uint32_t)ev->u.lost_samples.lost);
		else
			err = count(&per_evsel, &cap, idx, 0, 1);
		if (err)
			goto out;
	}
	if (err < 0)
		goto out;
	st = pd_reader__stats(r);
	/* perf keys the note on the AUX index feature, not on the records */
	has_aux = pd_features__has(pd_reader__features(r), PD_FEAT_AUXTRACE);
	fprintf(out, "\nAggregated stats:%s\n", has_aux ?
		" (excludes AUX area (e.g. instruction trace) decoded / synthesized events)" : "");
	fprintf(out, "%16s events: %10" PRIu64 "\n", "TOTAL", st->nr_total);
	for (t = 1; t < PD_RECORD_USER_MAX; t++) {
		const char *name = pd_record_type_name(t);

		if (!st->nr_events[t] || !name)
			continue;
		fprintf(out, "%16s events: %10" PRIu64 "  (%4.1f%%)\n", name,
			st->nr_events[t],
			100.0 * st->nr_events[t] / st->nr_total);
	}
	nr_evsels = pd_reader__nr_evsels(r);
	for (i = 0; i < nr_evsels && i < cap; i++) {
		const struct pd_evsel *e = pd_reader__evsel(r, i);
		char name[256];

		if (!per_evsel[i][0] && !(uint32_t)per_evsel[i][1])
			continue;
		/*
		 * perf report --stats names pipe-mode events from their
		 * attrs: the names in EVENT_UPDATE and EVENT_DESC records
		 * arrive after it has named them (perf -D does use them).
		 */
		if (pd_reader__header(r)->mode == PD_MODE_PIPE)
			pd_attr__name(&e->attr, r, name, sizeof(name));
		else
			pd_evsel__name(e, r, name, sizeof(name));
		fprintf(out, "%s stats:\n", name);
		if (per_evsel[i][0])
			fprintf(out, "%16s events: %10" PRIu64 "\n", "SAMPLE",
				per_evsel[i][0]);
		if ((uint32_t)per_evsel[i][1])
			fprintf(out, "%16s events: %10" PRIu32 "\n",
				"LOST_SAMPLES", (uint32_t)per_evsel[i][1]);
	}
	err = 0;
out:
	free(last.ids);
	free(last.vals);
	free(per_evsel);
	return err;
}
