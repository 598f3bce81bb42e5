/* SPDX-License-Identifier: MIT */
/*
 * pd-convert --to=FORMAT: a perf.data file written in another tool's
 * format. The formats are named in export.c's table (export-format.h says
 * what a format is), so pd-convert only parses options and dispatches.
 */
#ifndef PD_TOOLS_EXPORT_H
#define PD_TOOLS_EXPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "export-format.h"

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
 * --to, --symfs, --root, --kallsyms and --vmlinux are pd-convert's own
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

#endif /* PD_TOOLS_EXPORT_H */
