// SPDX-License-Identifier: MIT
/*
 * pd-info: what a perf.data file holds.
 *
 *   pd-info [FILE]           header and features (perf report --header-only -I)
 *   pd-info --stats [FILE]   records per type (perf report --stats)
 *   pd-info --dump [FILE]    one line per record (perf report -D)
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <perfdata/reader.h>

#include "common/cli.h"
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
"  -q, --quiet        no warnings\n"
"  -v, --verbose      more messages (repeat for debug)\n"
"  -h, --help         this help\n"
"\n"
"Exit status: 0 success, 1 unreadable or corrupt input, 2 bad usage.\n",
		pd_prog);
}

enum { OPT_HEADER = 256, OPT_BRIEF, OPT_STATS, OPT_ORDERED };

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "header", no_argument, NULL, OPT_HEADER },
		{ "brief", no_argument, NULL, OPT_BRIEF },
		{ "stats", no_argument, NULL, OPT_STATS },
		{ "dump", no_argument, NULL, 'D' },
		{ "ordered", no_argument, NULL, OPT_ORDERED },
		{ "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	enum { MODE_HEADER, MODE_STATS, MODE_DUMP } mode = MODE_HEADER;
	struct pd_reader_opts opts = { .sz = sizeof(opts) };
	const char *input = NULL;
	struct pd_reader *r;
	bool brief = false;
	int c, ret;

	pd_cli_init(argv[0]);
	while ((c = getopt_long(argc, argv, "i:Dqvh", longopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			input = optarg;
			break;
		case OPT_HEADER:
			mode = MODE_HEADER;
			break;
		case OPT_BRIEF:
			brief = true;
			break;
		case OPT_STATS:
			mode = MODE_STATS;
			break;
		case 'D':
			mode = MODE_DUMP;
			break;
		case OPT_ORDERED:
			opts.order = PD_ORDER_TIME;
			break;
		case 'q':
			pd_quiet = true;
			break;
		case 'v':
			pd_verbose++;
			break;
		case 'h':
			usage(stdout);
			return pd_cli_close_output(stdout, "<stdout>");
		default:
			pd_usage_error("unknown option");
		}
	}
	if (optind < argc) {
		if (input || optind + 1 < argc)
			pd_usage_error("one input file only");
		input = argv[optind];
	}
	if (!input)
		input = "perf.data";
	if (mode == MODE_DUMP)
		opts.show_compressed = true;
	r = pd_cli_open(input, &opts);
	if (!r)
		return PD_EXIT_DATA;
	switch (mode) {
	case MODE_HEADER:
		ret = pd_info_print_header(stdout, r, input,
					   brief ? 0 : PD_INFO_HEADER_FULL);
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
	c = pd_cli_close_output(stdout, "<stdout>");
	return ret < 0 ? PD_EXIT_DATA : c;
}
