/* SPDX-License-Identifier: MIT */
/*
 * pd-convert --to=FORMAT: a perf.data file written in another tool's
 * format. Each format is one file (export-FORMAT.c) with one entry
 * function; the table in export.c names them, so pd-convert only parses
 * options and dispatches.
 *
 * Output: export_out__open() gives the stream to write (standard output
 * for "-", else a temporary file next to the output), export_out__close()
 * renames it over the output when the run succeeded and removes it
 * otherwise, so a failed run leaves no file.
 */
#ifndef PD_TOOLS_EXPORT_H
#define PD_TOOLS_EXPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "fold/fold-data.h"
#include "common/sample-select.h"

enum export_weight {
	EXPORT_WEIGHT_DEFAULT,	/* the format's own choice */
	EXPORT_WEIGHT_SAMPLES,	/* 1 per sample */
	EXPORT_WEIGHT_TIME,	/* ns: the period of cpu-clock/task-clock */
	EXPORT_WEIGHT_PERIOD,	/* the period, whatever its unit */
};

struct export_format;

struct export_opts {
	const struct export_format *format;	/* --to */
	bool others;		/* an option below was given */
	const char *input;	/* a file or "-" */
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

/*
 * The options of --to, for pd-convert's option table, and their parser:
 * true when opt was one of them (applied to o), false otherwise. A bad
 * argument is a usage error (exit 2).
 */
enum export_cli_opt {
	EXPORT_OPT_TO = 768, EXPORT_OPT_SYMFS, EXPORT_OPT_KALLSYMS,
	EXPORT_OPT_VMLINUX, EXPORT_OPT_NO_INLINE, EXPORT_OPT_WEIGHT,
	EXPORT_OPT_PER_PROCESS, EXPORT_OPT_EVENT, EXPORT_OPT_COMM,
	EXPORT_OPT_CPU, EXPORT_OPT_TIME,
};

/*
 * --to, --symfs, --kallsyms and --vmlinux are pd-convert's own
 * (--to=archive takes them too): it passes EXPORT_OPT_TO for the formats
 * below and sets data's paths itself.
 */
#define EXPORT_CLI_LONGOPTS \
	{ "no-inline", no_argument, NULL, EXPORT_OPT_NO_INLINE }, \
	{ "weight", required_argument, NULL, EXPORT_OPT_WEIGHT }, \
	{ "per-process", no_argument, NULL, EXPORT_OPT_PER_PROCESS }, \
	{ "event-filter", required_argument, NULL, EXPORT_OPT_EVENT }, \
	{ "comm", required_argument, NULL, EXPORT_OPT_COMM }, \
	{ "cpu", required_argument, NULL, EXPORT_OPT_CPU }, \
	{ "time", required_argument, NULL, EXPORT_OPT_TIME }

/* o->format is set by --to; the other options need it. */
bool export_cli__option(int opt, const char *arg, struct export_opts *o);
/*
 * Checks the options against the format and runs it: a PD_EXIT_* code.
 */
int export_cli__run(struct export_opts *o);

/* The help text of the options above. */
void export_cli__usage(FILE *f);

/* The format named name, or NULL. */
const struct export_format *export_format__find(const char *name);
/* All formats, ending with a NULL name. */
const struct export_format *export_formats(void);

struct export_out {
	FILE *f;
	const char *name;	/* for messages: the output or "<stdout>" */
	char *tmp;		/* the temporary file, or NULL for stdout */
	const char *path;
};

/* 0, or PD_EXIT_DATA (printed). */
int export_out__open(struct export_out *out, const char *path);
/*
 * ok: keep the output (flushed and renamed into place); else remove it.
 * Returns PD_EXIT_OK or PD_EXIT_DATA (a write error, printed).
 */
int export_out__close(struct export_out *out, bool ok);

/* The formats (export-*.c). */
int export_script(const struct export_opts *o);
int export_pprof(const struct export_opts *o);
int export_speedscope(const struct export_opts *o);
int export_json(const struct export_opts *o);

#endif /* PD_TOOLS_EXPORT_H */
