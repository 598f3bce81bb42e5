// SPDX-License-Identifier: MIT
/*
 * pd-unwind: the user stacks of a `perf record --call-graph dwarf` file
 * unwound once, offline, into ordinary callchains that every perf
 * version and every other tool reads.
 *
 *   pd-unwind perf.data -o unwound.data
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <perfdata/compat.h>
#include <perfdata/reader.h>
#include <perfdata/unwind.h>
#include <perfdata/writer.h>

#include "common/cli.h"
#include "unwind-summary.h"

static void usage(FILE *f)
{
	fprintf(f,
"Usage: %s [OPTIONS] [IN|-] -o OUT|-\n"
"Unwind the user stacks of a 'perf record --call-graph dwarf' file\n"
"(REGS_USER and STACK_USER samples) into callchains: OUT has the kernel\n"
"entries of each sample, then the unwound user frames, and no stack\n"
"copies, so any perf version (and any tool reading callchains) shows the\n"
"stacks. IN defaults to perf.data; '-' reads standard input or writes\n"
"standard output (pipe mode unless it is a regular file).\n"
"\n"
"  -i, --input=IN          input file (same as the IN argument)\n"
"  -o, --output=OUT        output file; replaced only when complete\n"
"      --keep-stack        keep REGS_USER and STACK_USER in the samples\n"
"      --max-stack=N       unwind at most N user frames (default 127)\n"
"      --symfs=DIR         look for the profiled binaries under DIR\n"
"  -j, --jobs=N            threads unwinding (default: 2 on inputs of 4 MiB\n"
"                          or more when there are 2 CPUs; the output is the\n"
"                          same)\n"
"      --pipe | --file     output mode (default: the input's)\n"
"      --compress[=LEVEL]  zstd-compress the records (perf 5.2 and later\n"
"                          read them)\n"
"  -q, --quiet             no warnings and no summary\n"
"  -v, --verbose           more messages\n"
"  -h, --help              this help\n"
"\n"
"A summary goes to standard error: samples unwound fully (to the\n"
"outermost frame), partly (with the reason) and not at all, and the\n"
"binaries that were not found.\n"
"\n"
"Exit status: 0 success, 1 unreadable input or failed write, 2 bad usage.\n",
		pd_prog);
}

static int parse_int(const char *s, const char *what, int lo, int hi)
{
	char *end;
	long l;

	errno = 0;
	l = strtol(s, &end, 10);
	if (errno || *end || end == s || l < lo || l > hi)
		pd_usage_error("%s must be %d..%d", what, lo, hi);
	return (int)l;
}

enum {
	OPT_KEEP = 256, OPT_MAX_STACK, OPT_SYMFS, OPT_PIPE, OPT_FILE,
	OPT_COMPRESS,
};

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "output", required_argument, NULL, 'o' },
		{ "keep-stack", no_argument, NULL, OPT_KEEP },
		{ "max-stack", required_argument, NULL, OPT_MAX_STACK },
		{ "symfs", required_argument, NULL, OPT_SYMFS },
		{ "jobs", required_argument, NULL, 'j' },
		{ "pipe", no_argument, NULL, OPT_PIPE },
		{ "file", no_argument, NULL, OPT_FILE },
		{ "compress", optional_argument, NULL, OPT_COMPRESS },
		{ "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct pd_convert_opts co = { .sz = sizeof(co), .mode = -1 };
	struct pd_reader_opts ro = {
		.sz = sizeof(ro),
		.order = PD_ORDER_TIME,
		.strict = true,
	};
	struct pd_unwind_rewrite_opts uo = { .sz = sizeof(uo) };
	const char *input = NULL, *output = NULL;
	struct pd_unwind_rewriter *rw = NULL;
	struct pd_reader *r;
	char errmsg[512];
	int c, err, ret = PD_EXIT_DATA;

	pd_cli_init(argv[0]);
	while ((c = getopt_long(argc, argv, "i:o:j:qvh", longopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			input = optarg;
			break;
		case 'o':
			output = optarg;
			break;
		case OPT_KEEP:
			uo.keep_stack = true;
			break;
		case OPT_MAX_STACK:
			uo.max_stack = parse_int(optarg, "--max-stack", 1, 1024);
			break;
		case OPT_SYMFS:
			uo.symfs = optarg;
			break;
		case 'j':
			uo.jobs = parse_int(optarg, "--jobs", 1, 64);
			break;
		case OPT_PIPE:
			co.mode = PD_MODE_PIPE;
			break;
		case OPT_FILE:
			co.mode = PD_MODE_FILE;
			break;
		case OPT_COMPRESS:
			co.compress = 1;
			if (optarg)
				co.compress_level = parse_int(optarg, "compression level", 1, 22);
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
	if (optind < argc && !input)
		input = argv[optind++];
	if (optind < argc)
		pd_usage_error("unexpected argument '%s'", argv[optind]);
	if (!input)
		input = "perf.data";
	if (!output)
		pd_usage_error("no output given (-o FILE, or -o - for standard output)");
	if (!strcmp(output, "-") && pd_cli_refuse_tty(stdout))
		return PD_EXIT_USAGE;
	if (pd_cli_same_file(input, output))
		pd_usage_error("the output would overwrite the input '%s'", input);
	if (!strcmp(output, "-") && co.mode < 0) {
		struct stat st;

		/* a stream can only take pipe mode */
		if (fstat(STDOUT_FILENO, &st) || !S_ISREG(st.st_mode))
			co.mode = PD_MODE_PIPE;
	}

	r = pd_cli_open(input, &ro);
	if (!r)
		return PD_EXIT_DATA;
	uo.path = strcmp(input, "-") ? input : NULL;
	rw = pd_unwind_rewriter__new(r, &uo);
	if (!rw) {
		pd_err("%s: %s", input, strerror(errno));
		goto out;
	}
	co.shims_add = 1ULL << PD_SHIM_UNWIND;
	co.unwind = rw;
	err = pd_convert(r, output, &co, NULL, errmsg, sizeof(errmsg));
	if (err) {
		pd_err("%s", errmsg[0] ? errmsg : pd_strerror(err));
		goto out;
	}
	if (!pd_quiet)
		unwind_summary__print(stderr, strcmp(input, "-") ? input : "<stdin>",
				      pd_unwind_rewriter__summary(rw));
	ret = PD_EXIT_OK;
out:
	pd_unwind_rewriter__free(rw);
	pd_reader__close(r);
	return ret;
}
