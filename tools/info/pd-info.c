// SPDX-License-Identifier: MIT
/*
 * pd-info: what a perf.data file holds.
 *
 *   pd-info [FILE]           header and features (perf report --header-only -I)
 *   pd-info --stats [FILE]   records per type (perf report --stats)
 *   pd-info --dump [FILE]    one line per record (perf report -D)
 */
#include <perfdata/reader.h>

#include "common/cli.h"
#include "common/cli-main.h"
#include "info-dump.h"
#include "info-header.h"
#include "info-stats.h"

static void usage(FILE *f)
{
	fprintf(f,
"Usage: %s [OPTIONS] [FILE|-]\n"
"Show what a perf.data file (file or pipe mode, any perf version) holds.\n"
"FILE defaults to perf.data; '-' reads standard input.\n"
"\n"
"  -i, --input=FILE   input file (same as the FILE argument)\n"
"      --header       the header and every feature (default), as\n"
"                     'perf report --header-only -I' prints them\n"
"      --brief        with --header: summaries only, like perf without -I\n"
"      --stats        records per type, as 'perf report --stats'\n"
"  -D, --dump         one line per record with its decoded fields, like\n"
"                     'perf report -D'\n"
"      --ordered      with --dump: records in time order\n"
"  -q, --quiet        no warnings, no progress\n"
"  -v, --verbose      more messages (repeat for debug)\n"
"  -h, --help         this help\n"
"\n"
"Exit status: 0 success, 1 unreadable or corrupt input, 2 bad usage.\n",
		pd_prog);
}

enum { OPT_HEADER = 256, OPT_BRIEF, OPT_STATS, OPT_ORDERED };

static const struct option longopts[] = {
	{ "header", no_argument, NULL, OPT_HEADER },
	{ "brief", no_argument, NULL, OPT_BRIEF },
	{ "stats", no_argument, NULL, OPT_STATS },
	{ "dump", no_argument, NULL, 'D' },
	{ "ordered", no_argument, NULL, OPT_ORDERED },
	{ NULL, 0, NULL, 0 },
};

struct cli {
	enum { MODE_HEADER, MODE_STATS, MODE_DUMP } mode;
	struct pd_reader_opts opts;
	bool brief;
};

static void option(struct pd_cli_main *m, int opt, const char *arg)
{
	struct cli *c = m->tool;

	switch (opt) {
	case OPT_HEADER:
		c->mode = MODE_HEADER;
		break;
	case OPT_STATS:
		c->mode = MODE_STATS;
		/* counts records: user stack bytes unread */
		c->opts.stack_unread = true;
		break;
	case 'D':
		c->mode = MODE_DUMP;
		break;
	case OPT_ORDERED:
		c->opts.order = PD_ORDER_TIME;
		break;
	}
}

static int run(struct pd_cli_main *m)
{
	struct cli *c = m->tool;
	struct pd_reader *r;
	int ret, err;

	if (c->mode == MODE_DUMP)
		c->opts.show_compressed = true;
	r = pd_cli_open(m->input, &c->opts);
	if (!r)
		return PD_EXIT_DATA;
	switch (c->mode) {
	case MODE_HEADER:
		ret = pd_info_print_header(stdout, r, m->input,
					   c->brief ? 0 : PD_INFO_HEADER_FULL);
		break;
	case MODE_STATS:
		ret = pd_info_print_stats(stdout, r);
		break;
	default:
		ret = pd_info_print_dump(stdout, r);
		break;
	}
	if (ret < 0)
		pd_err("%s", pd_reader__errmsg(r));
	pd_reader__close(r);
	err = pd_cli_close_output(stdout, "<stdout>");
	return ret < 0 ? PD_EXIT_DATA : err;
}

int main(int argc, char **argv)
{
	struct cli c = { .opts.sz = sizeof(c.opts) };
	const struct pd_cli_bool bools[] = { { OPT_BRIEF, &c.brief }, { 0 } };
	struct pd_cli_main m = {
		.init = pd_cli_init, .usage = usage, .run = run, .tool = &c,
		.longopts = longopts, .shortopts = "D", .bools = bools,
		.option = option, .flags = PD_CLI_INPUT | PD_CLI_VERBOSE,
		.default_input = "perf.data", .extra_arg = "one input file only",
	};

	return pd_cli_main(argc, argv, &m);
}
