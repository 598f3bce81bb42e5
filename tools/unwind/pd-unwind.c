// SPDX-License-Identifier: MIT
/*
 * pd-unwind: the user stacks of a `perf record --call-graph dwarf` file
 * unwound once, offline, into ordinary callchains that every perf
 * version and every other tool reads.
 *
 *   pd-unwind perf.data -o unwound.data
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <perfdata/compat.h>
#include <perfdata/reader.h>
#include <perfdata/unwind.h>
#include <perfdata/writer.h>

#include "common/cli.h"
#include "common/cli-main.h"
#include "common/cli-write.h"
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
"      --stitch            complete the chains cut where the stack copy\n"
"                          ended from the same thread's earlier chains\n"
"                          (a frame at the same stack address with the\n"
"                          same return address; same exec, no map changed\n"
"                          under the frames taken): beyond what perf shows\n"
"      --symfs=DIR         look for the profiled binaries under DIR\n"
"      --root=DIR          also look for them in DIR, a container's or\n"
"                          image's root (DIR + recorded path, its\n"
"                          /usr/lib/debug), used only with the recorded\n"
"                          build id; repeatable\n"
"      --no-debuginfod     fetch no binaries missing here from the servers\n"
"                          of $DEBUGINFOD_URLS (by default they are fetched)\n"
"  -j, --jobs=N            threads unwinding (default 1: a second one reads\n"
"                          the input again, which costs about what it\n"
"                          saves on 2 CPUs; the output is the same).\n"
"                          Without it, with a CPU to spare, a second\n"
"                          thread reads the input while one unwinds\n"
"      --pipe | --file     output mode (default: the input's)\n"
"      --compress[=LEVEL]  zstd-compress the records (perf 5.2 and later\n"
"                          read them)\n"
"  -q, --quiet             no warnings, no progress, no summary\n"
"  -v, --verbose           more messages\n"
"  -h, --help              this help\n"
"\n"
"A summary goes to standard error: samples unwound fully (to the\n"
"outermost frame), partly (with the reason) and not at all, those\n"
"stitched (--stitch), and the binaries that were not found.\n"
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
	OPT_KEEP = 256, OPT_MAX_STACK, OPT_SYMFS, OPT_NO_DEBUGINFOD, OPT_ROOT,
	OPT_STITCH,
};

static const struct option longopts[] = {
	{ "keep-stack", no_argument, NULL, OPT_KEEP },
	{ "stitch", no_argument, NULL, OPT_STITCH },
	{ "max-stack", required_argument, NULL, OPT_MAX_STACK },
	{ "symfs", required_argument, NULL, OPT_SYMFS },
	{ "root", required_argument, NULL, OPT_ROOT },
	{ "no-debuginfod", no_argument, NULL, OPT_NO_DEBUGINFOD },
	{ "jobs", required_argument, NULL, 'j' },
	CLI_WRITE_LONGOPTS,
	{ NULL, 0, NULL, 0 },
};

struct cli {
	struct pd_convert_opts co;
	struct pd_unwind_rewrite_opts uo;
};

static void option(struct pd_cli_main *m, int opt, const char *arg)
{
	struct cli *c = m->tool;

	if (cli_write__option(opt, arg, &c->co))
		return;
	switch (opt) {
	case OPT_MAX_STACK:
		c->uo.max_stack = parse_int(arg, "--max-stack", 1, 1024);
		break;
	case OPT_SYMFS:
		c->uo.symfs = arg;
		break;
	case OPT_ROOT:
		pd_cli_add_root(&c->uo.roots, arg);
		break;
	case OPT_NO_DEBUGINFOD:
		c->uo.no_debuginfod = true;
		break;
	case 'j':
		c->uo.jobs = parse_int(arg, "--jobs", 1, 64);
		break;
	}
}

static int run(struct pd_cli_main *m)
{
	struct cli *c = m->tool;
	struct pd_reader_opts ro = {
		.sz = sizeof(ro),
		.order = PD_ORDER_TIME,
		.strict = true,
	};
	struct pd_unwind_rewriter *rw = NULL;
	const char *input = m->input;
	struct pd_reader *r;
	char errmsg[512];
	int err, ret = PD_EXIT_DATA;

	cli_write__stdout_mode(&c->co, m->output);
	/* the stack copies are unwound and dropped, not written */
	ro.stack_used_only = !c->uo.keep_stack;
	r = pd_cli_open(input, &ro);
	if (!r)
		return PD_EXIT_DATA;
	c->uo.path = strcmp(input, "-") ? input : NULL;
	rw = pd_unwind_rewriter__new(r, &c->uo);
	if (!rw) {
		pd_err("%s: %s", input, strerror(errno));
		goto out;
	}
	c->co.shims_add = 1ULL << PD_SHIM_UNWIND;
	c->co.unwind = rw;
	/*
	 * With a CPU to spare, the input is read (about half the time: the
	 * stack copies come from the page cache) and put in time order on
	 * it, while this thread unwinds; not with --jobs, whose helpers
	 * read the input themselves. The output is the same.
	 */
	if (!c->uo.jobs && pd_cli_cpu_to_spare("PD_UNWIND_THREADS"))
		pd_reader__read_ahead(r);
	err = pd_convert(r, m->output, &c->co, NULL, errmsg, sizeof(errmsg));
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

int main(int argc, char **argv)
{
	struct cli c = {
		.co = { .sz = sizeof(c.co), .mode = -1 },
		.uo = { .sz = sizeof(c.uo) },
	};
	const struct pd_cli_bool bools[] = {
		{ OPT_KEEP, &c.uo.keep_stack }, { OPT_STITCH, &c.uo.stitch },
		{ 0 },
	};
	struct pd_cli_main m = {
		.init = pd_cli_init, .usage = usage, .run = run, .tool = &c,
		.longopts = longopts, .shortopts = "j:", .bools = bools,
		.option = option,
		.flags = PD_CLI_INPUT | PD_CLI_OUTPUT | PD_CLI_VERBOSE |
			 PD_CLI_NEED_OUTPUT | PD_CLI_BINARY_OUTPUT |
			 PD_CLI_NOT_INPUT,
		.default_input = "perf.data",
	};

	return pd_cli_main(argc, argv, &m);
}
