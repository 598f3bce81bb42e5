// SPDX-License-Identifier: MIT
/*
 * pd-flame: folded stacks (or pd-diff's differential lines) to an
 * interactive flame graph SVG, in place of flamegraph.pl.
 *
 *   pd-flame [OPTIONS] [FILE|-]... > out.svg
 */
#include <errno.h>
#include <string.h>

#include "common/cli.h"
#include "common/cli-main.h"
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
	FLAME_CLI_LONGOPTS,
	{ NULL, 0, NULL, 0 },
};

/* every option of pd-flame's own is a flame option */
static void option(struct pd_cli_main *m, int opt, const char *arg)
{
	flame_cli__option(opt, arg, m->tool);
}

static int read_inputs(struct flame *fl, const struct pd_cli_main *m)
{
	const char *path;
	FILE *in;
	int i, ret;

	if (!m->nr_args)
		return flame__read(fl, stdin, "<stdin>") ? PD_EXIT_DATA : PD_EXIT_OK;
	for (i = 0; i < m->nr_args; i++) {
		path = m->args[i];
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

static int run(struct pd_cli_main *m)
{
	struct flame_cli *fc = m->tool;
	struct flame *fl;
	int ret;

	fl = flame__new(&fc->o);
	if (!fl) {
		pd_err("out of memory");
		return PD_EXIT_DATA;
	}
	ret = read_inputs(fl, m);
	if (ret == PD_EXIT_OK)
		ret = flame_out__write(fl, m->output);
	flame__free(fl);
	return ret;
}

int main(int argc, char **argv)
{
	struct flame_cli fc;
	struct pd_cli_main m = {
		.init = pd_cli_init_prog, .usage = usage, .run = run,
		.tool = &fc, .longopts = longopts, .option = option,
		.flags = PD_CLI_OUTPUT | PD_CLI_NOT_INPUT,
		.takes = PD_CLI_INPUTS,
	};

	flame_cli__init(&fc);
	return pd_cli_main(argc, argv, &m);
}
