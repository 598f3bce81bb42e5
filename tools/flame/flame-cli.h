/* SPDX-License-Identifier: MIT */
/*
 * pd-flame's options, named as flamegraph.pl's, parsed once for every
 * tool that draws (pd-flame, and pd-fold --svg, pd-diff --svg):
 *
 *	static const struct option longopts[] = {
 *		FLAME_CLI_LONGOPTS,
 *		...
 *	};
 *	...
 *	if (flame_cli__option(opt, optarg, &fc))
 *		(done)
 */
#ifndef PD_TOOLS_FLAME_CLI_H
#define PD_TOOLS_FLAME_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "flame.h"

struct flame_cli {
	struct flame_opts o;
	const char *first;	/* the first flame option given, for messages */
};

/* past the tools' own codes (256 up) and fold-cli.h's (512 up) */
enum flame_cli_opt {
	FLAME_OPT_TITLE = 768, FLAME_OPT_SUBTITLE, FLAME_OPT_WIDTH,
	FLAME_OPT_HEIGHT, FLAME_OPT_MINWIDTH, FLAME_OPT_FONTTYPE,
	FLAME_OPT_FONTSIZE, FLAME_OPT_FONTWIDTH, FLAME_OPT_COUNTNAME,
	FLAME_OPT_NAMETYPE, FLAME_OPT_COLORS, FLAME_OPT_BGCOLORS,
	FLAME_OPT_HASH, FLAME_OPT_REVERSE, FLAME_OPT_INVERTED,
	FLAME_OPT_FLAMECHART, FLAME_OPT_NEGATE, FLAME_OPT_NOTES,
	FLAME_OPT_TOTAL,
};

#define FLAME_CLI_LONGOPTS \
	{ "title", required_argument, NULL, FLAME_OPT_TITLE }, \
	{ "subtitle", required_argument, NULL, FLAME_OPT_SUBTITLE }, \
	{ "width", required_argument, NULL, FLAME_OPT_WIDTH }, \
	{ "height", required_argument, NULL, FLAME_OPT_HEIGHT }, \
	{ "minwidth", required_argument, NULL, FLAME_OPT_MINWIDTH }, \
	{ "fonttype", required_argument, NULL, FLAME_OPT_FONTTYPE }, \
	{ "fontsize", required_argument, NULL, FLAME_OPT_FONTSIZE }, \
	{ "fontwidth", required_argument, NULL, FLAME_OPT_FONTWIDTH }, \
	{ "countname", required_argument, NULL, FLAME_OPT_COUNTNAME }, \
	{ "nametype", required_argument, NULL, FLAME_OPT_NAMETYPE }, \
	{ "colors", required_argument, NULL, FLAME_OPT_COLORS }, \
	{ "bgcolors", required_argument, NULL, FLAME_OPT_BGCOLORS }, \
	{ "hash", no_argument, NULL, FLAME_OPT_HASH }, \
	{ "reverse", no_argument, NULL, FLAME_OPT_REVERSE }, \
	{ "inverted", no_argument, NULL, FLAME_OPT_INVERTED }, \
	{ "flamechart", no_argument, NULL, FLAME_OPT_FLAMECHART }, \
	{ "negate", no_argument, NULL, FLAME_OPT_NEGATE }, \
	{ "notes", required_argument, NULL, FLAME_OPT_NOTES }, \
	{ "total", required_argument, NULL, FLAME_OPT_TOTAL }

void flame_cli__init(struct flame_cli *fc);

/*
 * Applies opt when it is one of FLAME_CLI_LONGOPTS; false for any other.
 * A bad argument is a usage error (exit 2).
 */
bool flame_cli__option(int opt, const char *arg, struct flame_cli *fc);

/* The options' lines for --help. */
void flame_cli__usage(FILE *f);

#endif /* PD_TOOLS_FLAME_CLI_H */
