/* SPDX-License-Identifier: MIT */
/*
 * The folding options every tool that folds perf.data takes (pd-fold,
 * pd-diff), named and parsed once, so a stack is folded the same way
 * whichever tool folds it: stackcollapse-perf.pl's options, the
 * selections and weights, and where symbols come from.
 *
 *	static const struct option longopts[] = {
 *		{ "output", required_argument, NULL, 'o' },
 *		FOLD_CLI_LONGOPTS,
 *		{ NULL, 0, NULL, 0 },
 *	};
 *	...
 *	if (!fold_cli__option(opt, optarg, &fo, &data))
 *		(the tool's own options)
 */
#ifndef PD_TOOLS_FOLD_CLI_H
#define PD_TOOLS_FOLD_CLI_H

#include <getopt.h>
#include <stdbool.h>

#include "fold.h"
#include "fold-data.h"

/* past the tools' own option codes (256 and up) */
enum fold_cli_opt {
	FOLD_OPT_PID = 512, FOLD_OPT_TID, FOLD_OPT_KERNEL, FOLD_OPT_JIT,
	FOLD_OPT_ALL, FOLD_OPT_ADDRS, FOLD_OPT_INLINE, FOLD_OPT_NO_INLINE,
	FOLD_OPT_EVENT, FOLD_OPT_WEIGHT, FOLD_OPT_CAPTURE, FOLD_OPT_COMM,
	FOLD_OPT_CPU, FOLD_OPT_TIME, FOLD_OPT_SYMFS, FOLD_OPT_KALLSYMS,
	FOLD_OPT_VMLINUX, FOLD_OPT_JOBS, FOLD_OPT_NO_DEBUGINFOD, FOLD_OPT_ROOT,
	FOLD_OPT_STITCH,
};

#define FOLD_CLI_LONGOPTS \
	{ "pid", no_argument, NULL, FOLD_OPT_PID }, \
	{ "tid", no_argument, NULL, FOLD_OPT_TID }, \
	{ "kernel", no_argument, NULL, FOLD_OPT_KERNEL }, \
	{ "jit", no_argument, NULL, FOLD_OPT_JIT }, \
	{ "all", no_argument, NULL, FOLD_OPT_ALL }, \
	{ "addrs", no_argument, NULL, FOLD_OPT_ADDRS }, \
	{ "inline", no_argument, NULL, FOLD_OPT_INLINE }, \
	{ "no-inline", no_argument, NULL, FOLD_OPT_NO_INLINE }, \
	{ "event-filter", required_argument, NULL, FOLD_OPT_EVENT }, \
	{ "weight", required_argument, NULL, FOLD_OPT_WEIGHT }, \
	{ "capture", required_argument, NULL, FOLD_OPT_CAPTURE }, \
	{ "comm", required_argument, NULL, FOLD_OPT_COMM }, \
	{ "cpu", required_argument, NULL, FOLD_OPT_CPU }, \
	{ "time", required_argument, NULL, FOLD_OPT_TIME }, \
	{ "symfs", required_argument, NULL, FOLD_OPT_SYMFS }, \
	{ "root", required_argument, NULL, FOLD_OPT_ROOT }, \
	{ "kallsyms", required_argument, NULL, FOLD_OPT_KALLSYMS }, \
	{ "vmlinux", required_argument, NULL, FOLD_OPT_VMLINUX }, \
	{ "jobs", required_argument, NULL, FOLD_OPT_JOBS }, \
	{ "no-debuginfod", no_argument, NULL, FOLD_OPT_NO_DEBUGINFOD }, \
	{ "stitch", no_argument, NULL, FOLD_OPT_STITCH }

/*
 * Applies opt (with its argument) to fo and data when it is one of
 * FOLD_CLI_LONGOPTS; false for any other option. A bad argument is a
 * usage error (exit 2).
 */
bool fold_cli__option(int opt, const char *arg, struct fold_opts *fo,
		      struct fold_data_opts *data);

#endif /* PD_TOOLS_FOLD_CLI_H */
