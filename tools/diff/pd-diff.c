// SPDX-License-Identifier: MIT
/*
 * pd-diff: compare two profiles.
 *
 *   pd-diff [OPTIONS] A B             differential folded stacks, as
 *                                     FlameGraph's difffolded.pl prints
 *   pd-diff --report [OPTIONS] A B    the functions whose share changed
 *
 * A and B are perf.data files (folded as pd-fold folds them, with its
 * options) or folded files, told apart by content; '-' is stdin.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "common/cli-main.h"
#include "diff-input.h"
#include "diff-report.h"
#include "diff-table.h"
#include "diff-write.h"
#include "fold/fold-cli.h"
#include "fold/fold-data.h"
#include "fold/fold-inline.h"
#include "fold/fold.h"
#include "flame/flame-cli.h"
#include "flame/flame-out.h"

#define MAX_BUILDID_WARNINGS	5

static void usage(FILE *f)
{
	fprintf(f,
"Usage: %s [OPTIONS] A B\n"
"       %s --report [OPTIONS] A B\n"
"Compare two profiles. A and B are perf.data files (folded as pd-fold\n"
"folds them, with the same options) or folded stack files (as pd-fold or\n"
"stackcollapse-*.pl print them), told apart by content; '-' reads\n"
"standard input.\n"
"\n"
"By default print \"STACK COUNT_A COUNT_B\" for every stack of either\n"
"input, sorted bytewise: the lines of FlameGraph's difffolded.pl, for\n"
"'flamegraph.pl' differential flame graphs (widths from B, red: grew).\n"
"  -n, --normalize        scale A's counts to B's total (truncated)\n"
"  -s, --strip-hex        replace hex numbers (0x1f...) by 0x...\n"
"  -o, --output=FILE      write to FILE ('-': standard output, the default)\n"
"      --svg              draw the differential flame graph (pd-flame's\n"
"                         SVG) instead of printing the lines; pd-flame's\n"
"                         options apply (--title, --width, --negate, ...,\n"
"                         see pd-flame --help)\n"
"\n"
"Report (like perf diff):\n"
"      --report           per function, the share of samples where it is\n"
"                         the leaf (self) and on the stack (total), in A and\n"
"                         in B, and the change in percentage points\n"
"      --sort=KEY         delta-self (default), delta-total, self, total,\n"
"                         name\n"
"      --limit=N          N rows at most (default 20; 0: all)\n"
"      --threshold=PP     hide functions whose self and total shares both\n"
"                         moved by less than PP points\n"
"      --format=FMT       'text' (default) or 'tsv' (a header line, then\n"
"                         tab-separated percentages)\n"
"      --all-frames       the stacks' first frame is a function too; by\n"
"                         default it is the command (as pd-fold and\n"
"                         stackcollapse-perf.pl write it) and not listed\n"
"\n"
"perf.data inputs (as pd-fold):\n"
"      --event=EV         only samples of event EV; needed when an input\n"
"                         has samples of several events (alias:\n"
"                         --event-filter)\n"
"      --pid, --tid, --kernel, --jit, --all, --addrs, --inline\n"
"      --weight=samples|period   --capture=user|kernel|both\n"
"      --comm=LIST  --cpu=LIST  --time=START,END\n"
"      --symfs=DIR  --kallsyms=FILE  --vmlinux=FILE  --no-inline\n"
"      --jobs=N\n"
"      --stitch           complete DWARF callchains cut where the stack\n"
"                         copy ended from the same thread's earlier ones\n"
"                         (beyond what perf shows; see pd-unwind(1))\n"
"      --root=DIR         also look for binaries in DIR (a container's or\n"
"                         image's root), used only with the recorded build\n"
"                         id; repeatable\n"
"      --no-debuginfod    fetch no binaries missing here from the servers\n"
"                         of $DEBUGINFOD_URLS (by default they are fetched)\n"
"\n"
"  -q, --quiet            no warnings, no progress\n"
"  -v, --verbose          more messages\n"
"  -h, --help             this help\n"
"\n"
"Exit status: 0 success, 1 unreadable or corrupt input, 2 bad usage\n"
"(mixed events without --event included).\n",
		pd_prog, pd_prog);
}

enum {
	OPT_REPORT = 256, OPT_SORT, OPT_LIMIT, OPT_THRESHOLD, OPT_FORMAT,
	OPT_ALL_FRAMES,
	OPT_SVG,
};

/* --report and its options */
#define REPORT_LONGOPTS \
	{ "report", no_argument, NULL, OPT_REPORT }, \
	{ "sort", required_argument, NULL, OPT_SORT }, \
	{ "limit", required_argument, NULL, OPT_LIMIT }, \
	{ "threshold", required_argument, NULL, OPT_THRESHOLD }, \
	{ "format", required_argument, NULL, OPT_FORMAT }, \
	{ "all-frames", no_argument, NULL, OPT_ALL_FRAMES }

static const struct option longopts[] = {
	{ "normalize", no_argument, NULL, 'n' },
	{ "strip-hex", no_argument, NULL, 's' },
	REPORT_LONGOPTS,
	{ "event", required_argument, NULL, FOLD_OPT_EVENT },
	FOLD_CLI_LONGOPTS,
	{ "svg", no_argument, NULL, OPT_SVG },
	FLAME_CLI_LONGOPTS,
	{ NULL, 0, NULL, 0 },
};

struct cli {
	struct fold_opts fo;
	struct fold_data_opts data;
	struct diff_report_opts rep;
	struct flame_cli flame;
	bool normalize, strip_hex, report, svg;
	bool fold_opts_given;	/* options that only perf.data inputs use */
};

static void parse_report_option(struct cli *c, int opt, const char *arg)
{
	static const char *const sorts[] = {
		[DIFF_SORT_DELTA_SELF] = "delta-self",
		[DIFF_SORT_DELTA_TOTAL] = "delta-total",
		[DIFF_SORT_SELF] = "self",
		[DIFF_SORT_TOTAL] = "total",
		[DIFF_SORT_NAME] = "name", NULL,
	};
	static const char *const formats[] = { "text", "tsv", NULL };
	char *end;

	switch (opt) {
	case OPT_SORT:
		c->rep.sort = pd_cli_choose(sorts, arg,
					    "--sort takes delta-self, delta-total, self, total or name, not '%s'",
					    arg);
		break;
	case OPT_LIMIT:
		errno = 0;
		c->rep.limit = strtoul(arg, &end, 10);
		if (errno || end == arg || *end || arg[0] == '-')
			pd_usage_error("--limit takes a number of rows (0: all), not '%s'", arg);
		break;
	case OPT_THRESHOLD:
		c->rep.threshold = strtod(arg, &end);
		if (end == arg || *end || !(c->rep.threshold >= 0) ||
		    c->rep.threshold > 100)
			pd_usage_error("--threshold takes percentage points (0 to 100), not '%s'", arg);
		break;
	case OPT_FORMAT:
		c->rep.tsv = pd_cli_choose(formats, arg,
					   "--format takes 'text' or 'tsv', not '%s'",
					   arg) == 1;
		break;
	}
}

static void option(struct pd_cli_main *m, int opt, const char *arg)
{
	struct cli *c = m->tool;

	/* pd-fold's options, with pd-fold's meanings: only perf.data
	 * inputs use them */
	if (fold_cli__option(opt, arg, &c->fo, &c->data)) {
		c->fold_opts_given = true;
		return;
	}
	/* the others are --report's */
	if (!flame_cli__option(opt, arg, &c->flame))
		parse_report_option(c, opt, arg);
}

/*
 * Events: counts of different events do not compare, and a file whose
 * samples come from several events is ambiguous; --event settles both.
 */
static int check_events(const struct cli *c, const struct diff_input in[2])
{
	const char *ev[2];
	int i;

	for (i = 0; i < 2; i++) {
		if (!in[i].is_data)
			continue;
		if (!c->fo.sel.event_filter && in[i].nr_other_event) {
			pd_err("%s: samples of more than one event (%s and others): pick one with --event=EV",
			       in[i].name, in[i].event);
			return PD_EXIT_USAGE;
		}
		/* the folder reports the filter as its event: look at counts */
		if (c->fo.sel.event_filter && pnum_is_zero(in[i].total))
			pd_warn("%s: no samples of event %s", in[i].name,
				c->fo.sel.event_filter);
	}
	ev[0] = in[0].event ? in[0].event : in[0].header_event;
	ev[1] = in[1].event ? in[1].event : in[1].header_event;
	if (in[0].is_data && in[1].is_data && ev[0] && ev[1] &&
	    strcmp(ev[0], ev[1])) {
		pd_err("%s has samples of event %s, %s of event %s: counts of different events do not compare",
		       in[0].name, ev[0], in[1].name, ev[1]);
		return PD_EXIT_DATA;
	}
	return PD_EXIT_OK;
}

/* Same binary path, different build ids: another build ran. */
static void check_buildids(const struct diff_input in[2])
{
	size_t i, j, n = 0;

	for (i = 0; i < in[0].nr_ids; i++) {
		for (j = 0; j < in[1].nr_ids; j++) {
			if (strcmp(in[0].ids[i].file, in[1].ids[j].file) ||
			    !strcmp(in[0].ids[i].hex, in[1].ids[j].hex))
				continue;
			if (n++ < MAX_BUILDID_WARNINGS)
				pd_warn("%s: build id %s in %s, %s in %s: different binaries, compared by function name",
					in[0].ids[i].file, in[0].ids[i].hex,
					in[0].name, in[1].ids[j].hex, in[1].name);
			break;
		}
	}
	if (n > MAX_BUILDID_WARNINGS)
		pd_warn("%zu more binaries with different build ids",
			n - MAX_BUILDID_WARNINGS);
}

struct svg_source {
	const struct cli *c;
	const struct diff_table *t;
	const struct diff_input *in;
};

static int write_lines(FILE *out, void *arg)
{
	const struct svg_source *s = arg;
	int err = diff_write_folded(s->t, s->in[0].total, s->in[1].total,
				    s->c->normalize, out);

	if (err == -EDOM) {
		pd_err("%s: -n: the total count is 0, nothing to scale by",
		       s->in[0].name);
		return PD_EXIT_DATA;
	}
	if (err) {
		pd_err("out of memory");
		return PD_EXIT_DATA;
	}
	return PD_EXIT_OK;
}

static int write_output(const struct cli *c, const struct diff_table *t,
			const struct diff_input in[2], const char *output)
{
	const char *path = output && strcmp(output, "-") ? output : NULL;
	const char *name = path ? path : "<stdout>";
	FILE *out = stdout;
	int err;

	if (c->svg) {
		struct svg_source src = { .c = c, .t = t, .in = in };

		return flame_out__draw(&c->flame.o, write_lines, &src, output);
	}
	if (path) {
		out = fopen(path, "w");
		if (!out) {
			pd_err("%s: %s", path, strerror(errno));
			return PD_EXIT_DATA;
		}
	}
	if (c->report)
		err = diff_report(t, pnum_double(in[0].total),
				  pnum_double(in[1].total), &c->rep, out);
	else
		err = diff_write_folded(t, in[0].total, in[1].total,
					c->normalize, out);
	if (err == -EDOM) {
		/* difffolded.pl dies here: "Illegal division by zero" */
		pd_err("%s: -n: the total count is 0, nothing to scale by", in[0].name);
		fclose(out);
		return PD_EXIT_DATA;
	}
	if (err) {
		pd_err("out of memory");
		fclose(out);
		return PD_EXIT_DATA;
	}
	return pd_cli_close_output(out, name);
}

static int run(struct pd_cli_main *m)
{
	struct cli *c = m->tool;
	struct diff_input in[2] = { { 0 } };
	struct diff_read_opts ro;
	struct diff_table *t = NULL;
	int i, ret = PD_EXIT_DATA;

	if (c->flame.first && !c->svg)
		pd_usage_error("--%s is an option of the flame graph: it needs --svg",
			       c->flame.first);
	if (c->rep.all_frames && !c->report)
		pd_usage_error("--all-frames is an option of --report");
	if (c->svg && c->report)
		pd_usage_error("--svg draws the differential lines, --report lists functions: one of them");
	if (m->nr_args != 2)
		pd_usage_error("two inputs, A and B");
	in[0].path = m->args[0];
	in[1].path = m->args[1];
	if (!strcmp(in[0].path, "-") && !strcmp(in[1].path, "-"))
		pd_usage_error("standard input ('-') can be only one of the inputs");
	if (c->normalize && c->report)
		pd_usage_error("-n scales the folded lines; --report shows shares, which need no scaling");
	c->rep.name_a = in[0].path;
	c->rep.name_b = in[1].path;
	if (c->fo.inline_frames) {
		c->fo.inliner = fold_inline__new(c->data.symfs, c->data.no_debuginfod,
						 0);
		if (!c->fo.inliner) {
			pd_err("--inline: %s", strerror(errno));
			return PD_EXIT_DATA;
		}
	}
	ro = (struct diff_read_opts){
		.strip_hex = c->strip_hex, .fo = &c->fo, .data = &c->data,
	};
	t = diff_table__new();
	if (!t) {
		pd_err("out of memory");
		goto out;
	}
	for (i = 0; i < 2; i++) {
		ret = diff_input__read(&in[i], i, t, &ro);
		if (ret)
			goto out;
		if (in[i].empty)
			pd_warn("%s: empty input (0 bytes): no stacks", in[i].name);
		if (in[i].nr_malformed)
			pd_warn("%s: %llu lines without a count (\"STACK COUNT\"), counted as the empty stack with 0, as difffolded.pl does",
				in[i].name, (unsigned long long)in[i].nr_malformed);
	}
	ret = check_events(c, in);
	if (ret)
		goto out;
	if (c->fold_opts_given && !in[0].is_data && !in[1].is_data)
		pd_warn("both inputs are folded: the perf.data options change nothing");
	check_buildids(in);
	ret = write_output(c, t, in, m->output);
out:
	for (i = 0; i < 2; i++)
		diff_input__release(&in[i]);
	diff_table__free(t);
	fold_inline__free(c->fo.inliner);
	return ret;
}

/* A and B: the arguments, which pd-diff counts after its option checks */
int main(int argc, char **argv)
{
	struct cli c = { .rep.limit = 20 };
	const struct pd_cli_bool bools[] = {
		{ 'n', &c.normalize }, { 's', &c.strip_hex },
		{ OPT_REPORT, &c.report },
		{ OPT_ALL_FRAMES, &c.rep.all_frames },
		{ OPT_SVG, &c.svg }, { 0 },
	};
	struct pd_cli_main m = {
		.init = pd_cli_init, .usage = usage, .run = run, .tool = &c,
		.longopts = longopts, .shortopts = "ns", .bools = bools,
		.option = option,
		.flags = PD_CLI_OUTPUT | PD_CLI_NOT_INPUT | PD_CLI_VERBOSE,
		.takes = PD_CLI_INPUTS,
	};

	flame_cli__init(&c.flame);
	return pd_cli_main(argc, argv, &m);
}
