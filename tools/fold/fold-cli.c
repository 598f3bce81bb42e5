// SPDX-License-Identifier: MIT
/* The shared folding options: see fold-cli.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "fold-cli.h"
#include "common/sample-select.h"

static int parse_jobs(const char *arg)
{
	char *end;
	long l;

	errno = 0;
	l = strtol(arg, &end, 10);
	if (errno || *end || end == arg || l < 1 || l > 64)
		pd_usage_error("--jobs must be 1..64");
	return (int)l;
}

bool fold_cli__option(int opt, const char *arg, struct fold_opts *fo,
		      struct fold_data_opts *data)
{
	switch (opt) {
	case FOLD_OPT_PID:
		fo->pid = true;
		break;
	case FOLD_OPT_TID:
		fo->tid = true;
		break;
	case FOLD_OPT_KERNEL:
		fo->annotate_kernel = true;
		break;
	case FOLD_OPT_JIT:
		fo->annotate_jit = true;
		break;
	case FOLD_OPT_ALL:
		fo->annotate_kernel = fo->annotate_jit = true;
		break;
	case FOLD_OPT_ADDRS:
		fo->addrs = true;
		break;
	case FOLD_OPT_INLINE:
		fo->inline_frames = data->inline_frames = true;
		break;
	case FOLD_OPT_NO_INLINE:
		data->no_inline = true;
		break;
	case FOLD_OPT_EVENT:
		sample_select_opts__set(&fo->sel, SELECT_OPT_EVENT, arg);
		break;
	case FOLD_OPT_WEIGHT:
		if (!strcmp(arg, "samples"))
			fo->weight = FOLD_WEIGHT_SAMPLES;
		else if (!strcmp(arg, "period"))
			fo->weight = FOLD_WEIGHT_PERIOD;
		else
			pd_usage_error("--weight takes 'samples' or 'period', not '%s'", arg);
		break;
	case FOLD_OPT_CAPTURE:
		if (!strcmp(arg, "user"))
			fo->capture = FOLD_CAPTURE_USER;
		else if (!strcmp(arg, "kernel"))
			fo->capture = FOLD_CAPTURE_KERNEL;
		else if (!strcmp(arg, "both"))
			fo->capture = FOLD_CAPTURE_BOTH;
		else
			pd_usage_error("--capture takes 'user', 'kernel' or 'both', not '%s'", arg);
		break;
	case FOLD_OPT_COMM:
		sample_select_opts__set(&fo->sel, SELECT_OPT_COMM, arg);
		break;
	case FOLD_OPT_CPU:
		sample_select_opts__set(&fo->sel, SELECT_OPT_CPU, arg);
		break;
	case FOLD_OPT_TIME:
		sample_select_opts__set(&fo->sel, SELECT_OPT_TIME, arg);
		break;
	case FOLD_OPT_SYMFS:
		data->symfs = arg;
		break;
	case FOLD_OPT_ROOT:
		pd_cli_add_root(&data->roots, arg);
		break;
	case FOLD_OPT_KALLSYMS:
		data->kallsyms = arg;
		break;
	case FOLD_OPT_VMLINUX:
		data->vmlinux = arg;
		break;
	case FOLD_OPT_JOBS:
		data->jobs = parse_jobs(arg);
		break;
	case FOLD_OPT_NO_DEBUGINFOD:
		data->no_debuginfod = true;
		break;
	case FOLD_OPT_STITCH:
		data->stitch = true;
		break;
	default:
		return false;
	}
	return true;
}
