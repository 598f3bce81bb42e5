// SPDX-License-Identifier: MIT
/*
 * pd-info --stats: records per type, printed as perf report --stats does.
 */
#include <inttypes.h>
#include <stdlib.h>

#include <perfdata/evsel.h>

#include "info-stats.h"

int pd_info_print_stats(FILE *out, struct pd_reader *r)
{
	const struct pd_reader_stats *st;
	const struct pd_event *ev;
	uint64_t *per_evsel = NULL;
	size_t nr_evsels, i;
	uint32_t t;
	int err;

	while ((err = pd_reader__next(r, &ev)) > 0) {
		if (ev->type != PD_RECORD_SAMPLE || !ev->evsel)
			continue;
		nr_evsels = pd_reader__nr_evsels(r);
		if (!per_evsel)
			per_evsel = calloc(nr_evsels + 64, sizeof(*per_evsel));
		if (per_evsel && (size_t)ev->evsel->idx < nr_evsels + 64)
			per_evsel[ev->evsel->idx]++;
	}
	if (err < 0)
		goto out;
	st = pd_reader__stats(r);
	fprintf(out, "\nAggregated stats:\n");
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
	for (i = 0; i < nr_evsels && per_evsel; i++) {
		const struct pd_evsel *e = pd_reader__evsel(r, i);
		char name[256];

		if (!per_evsel[i])
			continue;
		pd_evsel__name(e, r, name, sizeof(name));
		fprintf(out, "%s stats:\n", name);
		fprintf(out, "%16s events: %10" PRIu64 "\n", "SAMPLE",
			per_evsel[i]);
	}
	err = 0;
out:
	free(per_evsel);
	return err;
}
