// SPDX-License-Identifier: MIT
/*
 * pd-flame: folded stacks (or pd-diff's differential lines) to an
 * interactive flame graph SVG, in place of flamegraph.pl.
 *
 *   pd-flame [OPTIONS] [FILE|-]... > out.svg
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "flame-cli.h"
#include "flame-out.h"

static void usage(FILE *f)
{
	fprintf(f,
"Usage: %s [OPTIONS] [FILE|-]...\n"
"Draw a flame graph: read folded stacks (\"root;...;leaf COUNT\", as pd-fold\n"
"or stackcollapse-*.pl print them; counts may have a fraction) or\n"
"differential lines (\"STACK COUNT_A COUNT_B\", as pd-diff prints them:\n"
"widths from B, red where B grew, blue where it shrank) and write one\n"
"self-contained SVG: hover for a frame's count and share, click to zoom,\n"
"Search (Ctrl-F) to highlight frames matching a regular expression and\n"
"see the share they hold. The frames are laid out as flamegraph.pl lays\n"
"them out, and the same input always gives the same bytes.\n"
"Several files add up; none or '-' reads standard input. Lines that are\n"
"not stacks are skipped with one warning.\n"
"\n"
"  -o, --output=FILE      write to FILE ('-': standard output, the default)\n"
"\n"
"As flamegraph.pl:\n",
		pd_prog);
	flame_cli__usage(f);
	fputs(
"\n"
"  -q, --quiet            no warnings\n"
"  -h, --help             this help\n"
"\n"
"Exit status: 0 success, 1 unreadable input or no stack counts in it (an\n"
"SVG saying so is still written), 2 bad usage.\n", f);
}

static const struct option longopts[] = {
	{ "output", required_argument, NULL, 'o' },
	FLAME_CLI_LONGOPTS,
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int read_inputs(struct flame *fl, int argc, char **argv)
{
	const char *path;
	FILE *in;
	int i, ret;

	if (optind == argc)
		return flame__read(fl, stdin, "<stdin>") ? PD_EXIT_DATA : PD_EXIT_OK;
	for (i = optind; i < argc; i++) {
		path = argv[i];
		if (!strcmp(path, "-")) {
			ret = flame__read(fl, stdin, "<stdin>");
		} else {
			in = fopen(path, "r");
			if (!in) {
				pd_err("%s: %s", path, strerror(errno));
				return PD_EXIT_DATA;
			}
			ret = flame__read(fl, in, path);
			fclose(in);
		}
		if (ret)
			return PD_EXIT_DATA;
	}
	return PD_EXIT_OK;
}

int main(int argc, char **argv)
{
	struct flame_cli fc;
	const char *output = NULL;
	struct flame *fl;
	int opt, ret, i;

	pd_cli_init_prog(argv[0]);
	flame_cli__init(&fc);
	while ((opt = getopt_long(argc, argv, "o:qh", longopts, NULL)) != -1) {
		if (flame_cli__option(opt, optarg, &fc))
			continue;
		switch (opt) {
		case 'o':
			output = optarg;
			break;
		case 'q':
			pd_quiet = true;
			break;
		case 'h':
			usage(stdout);
			return pd_cli_close_output(stdout, "<stdout>");
		default:
			pd_usage_error("unknown option");
		}
	}
	for (i = optind; output && i < argc; i++)
		if (pd_cli_same_file(argv[i], output))
			pd_usage_error("the output %s is an input", output);
	fl = flame__new(&fc.o);
	if (!fl) {
		pd_err("out of memory");
		return PD_EXIT_DATA;
	}
	ret = read_inputs(fl, argc, argv);
	if (ret == PD_EXIT_OK)
		ret = flame_out__write(fl, output);
	flame__free(fl);
	return ret;
}
