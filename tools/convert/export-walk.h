/* SPDX-License-Identifier: MIT */
/*
 * The samples of a perf.data file with their frames, for the exporters
 * that aggregate stacks (pprof, speedscope): read in time order, threads
 * and maps rebuilt, every frame symbolized and DWARF stacks unwound as
 * for pd-fold and perf script. Each sample is handed over with the
 * frames perf script would print (leaf first; an inlined frame,
 * inline_name set, precedes the frame it was inlined into); a sample
 * perf prints without a callchain has its ip alone. A sample with
 * counter values (PERF_SAMPLE_READ) comes once per value that grew, as
 * perf delivers it. Only the samples the selections keep (--event-filter,
 * --comm, --cpu, --time: sample-select.h) are handed over.
 */
#ifndef PD_TOOLS_EXPORT_WALK_H
#define PD_TOOLS_EXPORT_WALK_H

#include <perfdata/reader.h>
#include <perfdata/session.h>

#include "export-format.h"

struct export_sample {
	const struct pd_event *ev;	/* its evsel and period as delivered */
	struct pd_thread *thread;
	const struct pd_frame *frames;
	int nr_frames;
};

struct export_walk_ops {
	/* each sample: 0 or a negative errno (which stops the walk) */
	int (*sample)(void *ctx, struct pd_reader *r,
		      const struct export_sample *s);
	/*
	 * After the last record, the reader still open (event names):
	 * a PD_EXIT_* code, errors printed. Not called after an error.
	 */
	int (*done)(void *ctx, struct pd_reader *r);
};

/* Returns a PD_EXIT_* code, errors printed. */
int export_walk(const struct export_opts *o, const struct export_walk_ops *ops,
		void *ctx);

#endif /* PD_TOOLS_EXPORT_WALK_H */
