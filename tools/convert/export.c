// SPDX-License-Identifier: MIT
/* pd-convert --to: the formats and their output file (see export.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cli.h"
#include "export.h"

static const struct export_format formats[] = {
	{ "script", export_script, false,
	  "the text 'perf script' prints" },
	{ "pprof", export_pprof, true,
	  "gzipped profile.proto for 'go tool pprof'" },
	{ "speedscope", export_speedscope, false,
	  "speedscope's JSON file format" },
	{ "json", export_json, false,
	  "every record and feature as JSON Lines (docs/json-schema.md)" },
	{ NULL, NULL, false, NULL },
};

const struct export_format *export_formats(void)
{
	return formats;
}

const struct export_format *export_format__find(const char *name)
{
	const struct export_format *f;

	for (f = formats; f->name; f++)
		if (!strcmp(f->name, name))
			return f;
	return NULL;
}

bool export_cli__option(int opt, const char *arg, struct export_opts *o)
{
	switch (opt) {
	case EXPORT_OPT_TO:
		o->format = export_format__find(arg);
		if (!o->format)
			pd_usage_error("--to: unknown format '%s' (see --help)", arg);
		return true;
	case EXPORT_OPT_SYMFS:
		o->data.symfs = arg;
		break;
	case EXPORT_OPT_KALLSYMS:
		o->data.kallsyms = arg;
		break;
	case EXPORT_OPT_VMLINUX:
		o->data.vmlinux = arg;
		break;
	case EXPORT_OPT_NO_INLINE:
		o->data.no_inline = true;
		break;
	case EXPORT_OPT_WEIGHT:
		if (!strcmp(arg, "samples"))
			o->weight = EXPORT_WEIGHT_SAMPLES;
		else if (!strcmp(arg, "time"))
			o->weight = EXPORT_WEIGHT_TIME;
		else if (!strcmp(arg, "period"))
			o->weight = EXPORT_WEIGHT_PERIOD;
		else
			pd_usage_error("--weight takes 'samples', 'time' or 'period', not '%s'",
				       arg);
		break;
	case EXPORT_OPT_PER_PROCESS:
		o->per_process = true;
		break;
	case EXPORT_OPT_EVENT:
		sample_select_opts__set(&o->select, SELECT_OPT_EVENT, arg);
		break;
	case EXPORT_OPT_COMM:
		sample_select_opts__set(&o->select, SELECT_OPT_COMM, arg);
		break;
	case EXPORT_OPT_CPU:
		sample_select_opts__set(&o->select, SELECT_OPT_CPU, arg);
		break;
	case EXPORT_OPT_TIME:
		sample_select_opts__set(&o->select, SELECT_OPT_TIME, arg);
		break;
	default:
		return false;
	}
	o->others = true;
	return true;
}

void export_cli__usage(FILE *f)
{
	const struct export_format *x;

	fprintf(f,
"Other formats (--to):\n"
"      --to=FORMAT         write IN in another tool's format:\n");
	for (x = formats; x->name; x++)
		fprintf(f, "                            %-11s %s\n", x->name, x->summary);
	fprintf(f,
"      --symfs, --root, --kallsyms, --vmlinux as above\n"
"      --no-inline         no inlined frames in DWARF callchains\n"
"      --weight=W          speedscope: 'samples' (default), 'time' (ns:\n"
"                          the period of cpu-clock/task-clock) or 'period'\n"
"      --per-process       speedscope: a profile per process, not per thread\n"
"Selections, as pd-fold's (script, pprof, speedscope):\n"
"      --event-filter=EV   only samples of event EV (default: all)\n"
"      --comm=LIST         only these commands (comma-separated)\n"
"      --cpu=LIST          only samples on these CPUs (e.g. 0-3,7)\n"
"      --time=START,END    only samples in this range, in seconds (either\n"
"                          end may be empty)\n");
}

int export_cli__run(struct export_opts *o)
{
	if (!o->output)
		o->output = "-";
	if (o->format->binary && !strcmp(o->output, "-") &&
	    pd_cli_refuse_tty(stdout))
		return PD_EXIT_USAGE;
	if (!strcmp(o->format->name, "json") &&
	    (o->select.event_filter || o->select.comm_list ||
	     o->select.cpu_list || o->select.has_time))
		pd_usage_error("--to=json is the whole file, byte for byte: --event-filter, --comm, --cpu and --time do not apply");
	if (pd_cli_same_file(o->input, o->output))
		pd_usage_error("the output would overwrite the input '%s'", o->input);
	return o->format->run(o);
}
