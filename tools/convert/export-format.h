/* SPDX-License-Identifier: MIT */
/*
 * What a format of pd-convert --to=FORMAT is given (export_opts) and what
 * it is (export_format): each format is one file, export-FORMAT.c, with
 * one entry function; the table in export.c names them. A format writes
 * through export-out.h.
 */
#ifndef PD_TOOLS_EXPORT_FORMAT_H
#define PD_TOOLS_EXPORT_FORMAT_H

#include <stdbool.h>

#include "fold/fold-data.h"
#include "common/sample-select.h"

enum export_weight {
	EXPORT_WEIGHT_DEFAULT,	/* the format's own choice */
	EXPORT_WEIGHT_SAMPLES,	/* 1 per sample */
	EXPORT_WEIGHT_TIME,	/* ns: the period of cpu-clock/task-clock */
	EXPORT_WEIGHT_PERIOD,	/* the period, whatever its unit */
};

struct export_opts {
	const struct export_format *format;	/* --to */
	bool others;		/* an option below was given */
	const char *input;	/* a file or "-" */
	/* several inputs (nr_inputs > 1): pprof's, merged into one profile */
	char *const *inputs;
	int nr_inputs;
	const char *output;	/* a file or "-" */
	/* where symbols come from, --no-inline (as pd-fold) */
	struct fold_data_opts data;
	enum export_weight weight;	/* --weight */
	bool per_process;		/* --per-process */
	/* --event-filter, --comm, --cpu, --time: as pd-fold's */
	struct sample_select_opts select;
};

struct export_format {
	const char *name;
	/* Returns a PD_EXIT_* code; errors printed. */
	int (*run)(const struct export_opts *o);
	bool binary;		/* refused to a terminal */
	const char *summary;	/* for --help */
};

/* The formats (export-*.c). */
int export_script(const struct export_opts *o);
int export_pprof(const struct export_opts *o);
int export_speedscope(const struct export_opts *o);
int export_json(const struct export_opts *o);

#endif /* PD_TOOLS_EXPORT_FORMAT_H */
