// SPDX-License-Identifier: MIT
/*
 * pd-fold: folded stacks for flame graphs, in place of
 * `perf script | stackcollapse-perf.pl`.
 *
 *   pd-fold [OPTIONS] [FILE|-]                  perf.data (default perf.data)
 *   pd-fold --input=script [OPTIONS] [FILE|-]   perf script text (default stdin)
 *   pd-fold --merge [FILE...]                   sum folded files
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "common/progress.h"
#include "common/cli-main.h"
#include "fold.h"
#include "fold-cli.h"
#include "fold-data.h"
#include "fold-inline.h"
#include "fold-script.h"
#include "flame/flame-cli.h"
#include "flame/flame-out.h"

static void usage(FILE *f)
{
	fprintf(f,
"Usage: %s [OPTIONS] [FILE|-]\n"
"       %s --merge [FILE|-]...\n"
"Fold the callchains of a perf.data file (or of 'perf script' text) into\n"
"one line per distinct stack, \"comm;root;...;leaf COUNT\", sorted, for\n"
"flamegraph.pl; the output of 'perf script | stackcollapse-perf.pl'.\n"
"FILE defaults to perf.data (standard input with --input=script); '-'\n"
"reads standard input.\n"
"\n"
"Input and output:\n"
"  -i FILE                the input file (same as the FILE argument)\n"
"      --input=FORMAT     'data' (perf.data, the default) or 'script'\n"
"                         (perf script text)\n"
"  -o, --output=FILE      write to FILE ('-': standard output, the default)\n"
"      --merge            add up folded files (FILE... or standard input)\n"
"      --chronological    the stacks in sample (time) order, consecutive\n"
"                         samples with the same stack merged, not sorted:\n"
"                         for pd-flame --flamechart\n"
"      --svg              draw the flame graph (pd-flame's SVG) instead of\n"
"                         printing the folded stacks; pd-flame's options\n"
"                         apply (--title, --width, --colors, --hash, ...,\n"
"                         see pd-flame --help); with --chronological: a\n"
"                         flame chart\n"
"\n"
"As stackcollapse-perf.pl:\n"
"      --pid              comm-PID as the first frame\n"
"      --tid              comm-PID/TID as the first frame\n"
"      --kernel           annotate kernel frames with _[k]\n"
"      --jit              annotate JIT frames (/tmp/perf-PID.map) with _[j]\n"
"      --all              --kernel and --jit\n"
"      --addrs            [module <address>] for frames without a symbol\n"
"      --inline           inlined functions as frames\n"
"      --context          with --inline: source file and line per function\n"
"      --event-filter=EV  only samples of event EV (default: the first\n"
"                         event seen)\n"
"\n"
"Selections and weights:\n"
"      --weight=W         'samples' (1 per sample) or 'period'; default: the\n"
"                         period when the input shows one, else 1\n"
"      --capture=WHICH    'user', 'kernel' or 'both' (default) frames\n"
"      --comm=LIST        only these commands (comma-separated)\n"
"      --cpu=LIST         only samples on these CPUs (e.g. 0-3,7)\n"
"      --time=START,END   only samples in this range, in seconds (either\n"
"                         end may be empty)\n"
"      --filter=allow:FILE  keep only frames matching FILE's rules\n"
"      --filter=deny:FILE   drop frames matching FILE's rules\n"
"      --filter-mark      leave a (cut) frame where frames were dropped\n"
"\n"
"perf.data input:\n"
"      --symfs=DIR        look for binaries under DIR\n"
"      --root=DIR         also look for them in DIR, a container's or image's\n"
"                         root (DIR + recorded path, its /usr/lib/debug),\n"
"                         used only with the recorded build id; repeatable\n"
"      --kallsyms=FILE    kernel symbols (default /proc/kallsyms)\n"
"      --vmlinux=FILE     kernel image for kernel symbols\n"
"      --no-debuginfod    fetch no binaries missing here from the servers of\n"
"                         $DEBUGINFOD_URLS (by default they are fetched)\n"
"      --off-cpu          weight by time off CPU\n"
"      --no-inline        no inlined frames in DWARF callchains (as perf\n"
"                         script --no-inline)\n"
"      --jobs=N           threads unwinding DWARF callchains (default 1;\n"
"                         frame-pointer input: 1 keeps pd-fold to one)\n"
"      --script           print the samples as 'perf script' text (what is\n"
"                         folded) instead of folding them\n"
"\n"
"  -q, --quiet            no warnings, no progress\n"
"  -v, --verbose          more messages (repeat for debug)\n"
"  -h, --help             this help\n"
"\n"
"Exit status: 0 success, 1 unreadable or corrupt input, 2 bad usage.\n",
		pd_prog, pd_prog);
}

enum {
	OPT_INPUT = 256, OPT_MERGE, OPT_CONTEXT, OPT_FILTER, OPT_FILTER_MARK,
	OPT_OFF_CPU, OPT_SCRIPT, OPT_CHRONOLOGICAL, OPT_SVG,
};

static const struct option longopts[] = {
	/* the format; -i FILE is the file */
	{ "input", required_argument, NULL, OPT_INPUT },
	{ "merge", no_argument, NULL, OPT_MERGE },
	{ "context", no_argument, NULL, OPT_CONTEXT },
	{ "filter", required_argument, NULL, OPT_FILTER },
	{ "filter-mark", no_argument, NULL, OPT_FILTER_MARK },
	{ "off-cpu", no_argument, NULL, OPT_OFF_CPU },
	{ "script", no_argument, NULL, OPT_SCRIPT },
	{ "chronological", no_argument, NULL, OPT_CHRONOLOGICAL },
	{ "svg", no_argument, NULL, OPT_SVG },
	FOLD_CLI_LONGOPTS,
	FLAME_CLI_LONGOPTS,
	{ NULL, 0, NULL, 0 },
};

struct cli {
	struct fold_opts fo;
	struct fold_data_opts data;
	struct flame_cli flame;
	bool script, merge, print_script, svg;
};

static void parse_filter(struct fold_opts *fo, const char *arg)
{
	if (!strncmp(arg, "allow:", 6) && arg[6]) {
		if (fo->filter_allow)
			pd_usage_error("--filter=allow: given twice");
		fo->filter_allow = arg + 6;
	} else if (!strncmp(arg, "deny:", 5) && arg[5]) {
		if (fo->filter_deny)
			pd_usage_error("--filter=deny: given twice");
		fo->filter_deny = arg + 5;
	} else {
		pd_usage_error("--filter takes allow:FILE or deny:FILE, not '%s'", arg);
	}
}

static void option(struct pd_cli_main *m, int opt, const char *arg)
{
	static const char *const formats[] = { "data", "script", NULL };
	struct cli *c = m->tool;
	struct fold_opts *fo = &c->fo;

	if (fold_cli__option(opt, arg, fo, &c->data) ||
	    flame_cli__option(opt, arg, &c->flame))
		return;
	switch (opt) {
	case OPT_INPUT:
		c->script = pd_cli_choose(formats, arg,
					  "--input takes 'data' or 'script', not '%s' (the file is -i FILE or an argument)",
					  arg) == 1;
		/* perf script text is piped in, a perf.data is in a file */
		m->default_input = c->script ? "-" : "perf.data";
		break;
	case OPT_MERGE:
		c->merge = true;
		m->takes = PD_CLI_INPUTS;
		m->extra_arg = "--merge: the files as arguments or one -i FILE, not both";
		break;
	case OPT_FILTER:
		parse_filter(fo, arg);
		break;
	}
}

/* FILE or "-" opened for reading; NULL (printed) on failure. */
static FILE *open_input(const char *path)
{
	FILE *in;

	if (!strcmp(path, "-"))
		return stdin;
	in = fopen(path, "r");
	if (!in)
		pd_err("%s: %s", path, strerror(errno));
	return in;
}

static void close_input(FILE *in)
{
	if (in != stdin)
		fclose(in);
}

/* --merge: every folded line of every file into the table. */
static int merge_one(struct folder *f, const char *path)
{
	unsigned long lineno = 0;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int ret = PD_EXIT_OK;
	FILE *in = open_input(path);
	struct pd_text_progress *prog;

	if (!in)
		return PD_EXIT_DATA;
	prog = pd_progress_text(in, !strcmp(path, "-") ? "<stdin>" : path);
	while ((n = getline(&line, &cap, in)) >= 0) {
		lineno++;
		pd_progress_text__read(prog, n);
		if (n == 0 || line[0] == '\n')
			continue;
		if (!folder__add_folded(f, line, n)) {
			pd_err("%s:%lu: not a folded stack line (\"STACK COUNT\")",
			       path, lineno);
			ret = PD_EXIT_DATA;
			break;
		}
	}
	pd_progress_text__done(prog);
	if (ret == PD_EXIT_OK && ferror(in)) {
		pd_err("%s: read error: %s", path, strerror(errno));
		ret = PD_EXIT_DATA;
	}
	free(line);
	close_input(in);
	return ret;
}

static int fold_input(const struct pd_cli_main *m, struct folder *f)
{
	struct cli *c = m->tool;
	const char *path = m->input;
	FILE *in;
	int i, ret;

	if (c->merge) {
		if (m->input)
			return merge_one(f, m->input);
		if (!m->nr_args)
			return merge_one(f, "-");
		for (i = 0; i < m->nr_args; i++) {
			ret = merge_one(f, m->args[i]);
			if (ret)
				return ret;
		}
		return PD_EXIT_OK;
	}
	if (!c->script)
		return fold_perf_data(path, &c->data, f);
	in = open_input(path);
	if (!in)
		return PD_EXIT_DATA;
	ret = fold_script(in, strcmp(path, "-") ? path : "<stdin>", f);
	close_input(in);
	return ret;
}

/* The output is opened last, so that a failed run leaves no file. */
static int write_output(struct folder *f, const char *path)
{
	const char *name = path && strcmp(path, "-") ? path : "<stdout>";
	FILE *out = stdout;
	int err;

	if (path && strcmp(path, "-")) {
		out = fopen(path, "w");
		if (!out) {
			pd_err("%s: %s", path, strerror(errno));
			return PD_EXIT_DATA;
		}
	}
	err = folder__write(f, out);
	if (err == -ENOMEM) {
		pd_err("out of memory");
		fclose(out);
		return PD_EXIT_DATA;
	}
	/* write errors surface here, with the stream's errno */
	return pd_cli_close_output(out, name);
}

static int write_folded(FILE *out, void *arg)
{
	if (folder__write(arg, out) == -ENOMEM) {
		pd_err("out of memory");
		return PD_EXIT_DATA;
	}
	return PD_EXIT_OK;
}

/* --svg: the folded stacks drawn in-process, as pd-flame draws them */
static int write_svg(struct cli *c, struct folder *f, const char *output)
{
	struct flame_opts o = c->flame.o;

	/* stacks in time order make a flame chart */
	if (c->fo.chronological)
		o.flamechart = true;
	return flame_out__draw(&o, write_folded, f, output);
}

/* --script: the perf script text the data input folds, as it goes. */
static int print_script(const struct pd_cli_main *m, struct folder *f)
{
	const char *output = m->output;
	const char *path = output && strcmp(output, "-") ? output : NULL;
	struct cli *c = m->tool;
	FILE *out = stdout;
	int ret, ret2;

	if (path) {
		out = fopen(path, "w");
		if (!out) {
			pd_err("%s: %s", path, strerror(errno));
			return PD_EXIT_DATA;
		}
	}
	c->data.script_out = out;
	/* the samples printed are those folding would take (--comm, --cpu,
	 * --time, --event-filter), as --to=script prints them */
	c->data.select = &c->fo.sel;
	ret = fold_perf_data(m->input, &c->data, f);
	ret2 = pd_cli_close_output(out, path ? path : "<stdout>");
	return ret ? ret : ret2;
}

static int run(struct pd_cli_main *m)
{
	struct cli *c = m->tool;
	struct folder *f;
	int ret;

	if (c->flame.first && !c->svg)
		pd_usage_error("--%s is an option of the flame graph: it needs --svg",
			       c->flame.first);
	if (c->svg && c->print_script)
		pd_usage_error("--svg draws folded stacks, --script prints samples: one of them");
	if (c->fo.context && !c->fo.inline_frames)
		pd_usage_error("--context needs --inline");
	if (c->fo.inline_frames) {
		c->fo.inliner = fold_inline__new(c->data.symfs, c->data.no_debuginfod);
		if (!c->fo.inliner) {
			pd_err("--inline: %s", strerror(errno));
			return PD_EXIT_DATA;
		}
	}
	f = folder__new(&c->fo);
	if (!f) {
		fold_inline__free(c->fo.inliner);
		/* the folder said why: a bad filter file or list is bad usage */
		if (errno == ENOMEM) {
			pd_err("out of memory");
			return PD_EXIT_DATA;
		}
		fprintf(stderr, "Try '%s --help' for more information.\n", pd_prog);
		return PD_EXIT_USAGE;
	}
	if (c->print_script) {
		if (c->script || c->merge)
			pd_usage_error("--script prints perf.data samples (not with --input=script or --merge)");
		ret = print_script(m, f);
	} else {
		ret = fold_input(m, f);
		if (ret == PD_EXIT_OK)
			ret = c->svg ? write_svg(c, f, m->output) :
			      write_output(f, m->output);
	}
	folder__free(f);
	fold_inline__free(c->fo.inliner);
	return ret;
}

int main(int argc, char **argv)
{
	struct cli c = { .data.inline_frames = false };
	const struct pd_cli_bool bools[] = {
		{ OPT_CONTEXT, &c.fo.context },
		{ OPT_FILTER_MARK, &c.fo.filter_mark },
		{ OPT_OFF_CPU, &c.data.off_cpu },
		{ OPT_SCRIPT, &c.print_script },
		{ OPT_CHRONOLOGICAL, &c.fo.chronological },
		{ OPT_SVG, &c.svg }, { 0 },
	};
	struct pd_cli_main m = {
		.init = pd_cli_init, .usage = usage, .run = run, .tool = &c,
		.longopts = longopts, .bools = bools, .option = option,
		.flags = PD_CLI_INPUT | PD_CLI_OUTPUT | PD_CLI_NOT_INPUT |
			 PD_CLI_VERBOSE,
		.default_input = "perf.data",
		.extra_arg = "one input file only (or --merge FILE...)",
	};

	flame_cli__init(&c.flame);
	return pd_cli_main(argc, argv, &m);
}
