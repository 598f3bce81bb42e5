// SPDX-License-Identifier: MIT
/*
 * pd-fold: folded stacks for flame graphs, in place of
 * `perf script | stackcollapse-perf.pl`.
 *
 *   pd-fold [OPTIONS] [FILE|-]                  perf.data (default perf.data)
 *   pd-fold --input=script [OPTIONS] [FILE|-]   perf script text (default stdin)
 *   pd-fold --merge [FILE...]                   sum folded files
 *   pd-fold --symbolize [FILE...]               name --raw frames
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cli.h"
#include "common/cli-main.h"
#include "fold.h"
#include "fold-cli.h"
#include "fold-data.h"
#include "fold-inline.h"
#include "fold-merge.h"
#include "fold-script.h"
#include "fold-sort.h"
#include "fold-symbolize.h"
#include "flame/flame-cli.h"
#include "flame/flame-out.h"

static void usage(FILE *f)
{
	fprintf(f,
"Usage: %s [OPTIONS] [FILE|-]...\n"
"       %s --merge [FILE|-]...\n"
"       %s --symbolize [FILE|-]...\n"
"Fold the callchains of a perf.data file (or of 'perf script' text) into\n"
"one line per distinct stack, \"comm;root;...;leaf COUNT\", sorted, for\n"
"flamegraph.pl; the output of 'perf script | stackcollapse-perf.pl'.\n"
"FILE defaults to perf.data (standard input with --input=script); '-'\n"
"reads standard input. Several perf.data files fold together: their\n"
"stacks add up, each file's first event chosen in it.\n"
"\n"
"Input and output:\n"
"  -i FILE                the input file (same as the FILE argument)\n"
"      --input=FORMAT     'data' (perf.data, the default) or 'script'\n"
"                         (perf script text)\n"
"  -o, --output=FILE      write to FILE ('-': standard output, the default)\n"
"      --merge            add up folded files (FILE... or standard input)\n"
"                         in one pass with bounded memory: sorted files\n"
"                         are merged as they are, others sorted once\n"
"  -S, --buffer-size=SIZE --merge, --symbolize: stacks held in memory\n"
"                         before they go to a temporary file in $TMPDIR\n"
"                         (bytes, or with K, M, G; default 16M)\n"
"      --symbol-memory=SIZE  --symbolize, --inline: symbols and debug\n"
"                         info of files held in memory, the least\n"
"                         recently used released beyond it (default\n"
"                         256M, or $PD_SYMBOL_MEMORY)\n"
"      --raw              user frames as BUILDID+0xOFFSET@PATH (without a\n"
"                         build id: PATH+0xOFFSET), reading no symbol table\n"
"                         or debug info: named later by --symbolize;\n"
"                         kernel frames are named here (but --raw-kernel)\n"
"      --raw-kernel       with --raw: frames of the kernel proper too, as\n"
"                         KBUILDID+0xOFFSET@[kernel.kallsyms]_text (the\n"
"                         offset from _text, whatever the KASLR slide),\n"
"                         where the recording names the kernel's build\n"
"                         id; modules are named here\n"
"      --symbolize        name the raw frames of folded files (FILE... or\n"
"                         standard input) from the build-id cache,\n"
"                         --archive, --symfs, --root, the files at their\n"
"                         paths and debuginfod (raw kernel frames: from\n"
"                         --kallsyms, --vmlinux, --archive's kernel of\n"
"                         their build id, the build-id cache), and add up\n"
"                         the lines that become equal; give it --raw's\n"
"                         folding options\n"
"      --archive=FILE     --symbolize: a profile archive (pd-convert\n"
"                         --to=archive) whose files name frames too\n"
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
"      --stitch           complete DWARF callchains cut where the stack\n"
"                         copy ended from the same thread's earlier ones\n"
"                         (beyond what perf shows; see pd-unwind(1))\n"
"      --jobs=N           threads unwinding DWARF callchains (default 1;\n"
"                         1 keeps pd-fold to one thread: without it, a\n"
"                         CPU to spare reads the input, or folds)\n"
"      --script           print the samples as 'perf script' text (what is\n"
"                         folded) instead of folding them\n"
"\n"
"  -q, --quiet            no warnings, no progress\n"
"  -v, --verbose          more messages (repeat for debug)\n"
"  -h, --help             this help\n"
"\n"
"Exit status: 0 success, 1 unreadable or corrupt input, 2 bad usage.\n",
		pd_prog, pd_prog, pd_prog);
}

/* what the symbols of the files named hold at most, by default */
#define DEFAULT_SYMBOL_MEMORY	((size_t)256 << 20)

enum {
	OPT_INPUT = 256, OPT_MERGE, OPT_CONTEXT, OPT_FILTER, OPT_FILTER_MARK,
	OPT_OFF_CPU, OPT_SCRIPT, OPT_CHRONOLOGICAL, OPT_SVG, OPT_RAW,
	OPT_SYMBOLIZE, OPT_ARCHIVE, OPT_SYMBOL_MEMORY, OPT_RAW_KERNEL,
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
	{ "raw", no_argument, NULL, OPT_RAW },
	{ "raw-kernel", no_argument, NULL, OPT_RAW_KERNEL },
	{ "symbolize", no_argument, NULL, OPT_SYMBOLIZE },
	{ "archive", required_argument, NULL, OPT_ARCHIVE },
	{ "buffer-size", required_argument, NULL, 'S' },
	{ "symbol-memory", required_argument, NULL, OPT_SYMBOL_MEMORY },
	FOLD_CLI_LONGOPTS,
	FLAME_CLI_LONGOPTS,
	{ NULL, 0, NULL, 0 },
};

struct cli {
	struct fold_opts fo;
	struct fold_data_opts data;
	struct flame_cli flame;
	bool script, merge, print_script, svg, symbolize;
	const char *archive;	/* --archive */
	size_t buffer_size;	/* -S */
};

/* -S SIZE: bytes, or with a K, M or G suffix, as sort(1) takes it */
static size_t parse_size(const char *what, const char *arg)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (end == arg || errno || *arg == '-')
		goto bad;
	switch (*end) {
	case 'k': case 'K': v <<= 10; end++; break;
	case 'm': case 'M': v <<= 20; end++; break;
	case 'g': case 'G': v <<= 30; end++; break;
	}
	if (*end || !v || v > (1ULL << 40))
		goto bad;
	return (size_t)v;
bad:
	pd_usage_error("%s takes a size (4096, 64K, 16M, 1G), not '%s'",
		       what, arg);
	return 0;
}

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
		break;
	case OPT_SYMBOLIZE:
		c->symbolize = true;
		break;
	case OPT_RAW:
		c->data.raw = true;
		break;
	case OPT_RAW_KERNEL:
		c->data.raw_kernel = true;
		break;
	case OPT_ARCHIVE:
		c->archive = arg;
		break;
	case 'S':
		c->buffer_size = parse_size("--buffer-size", arg);
		break;
	case OPT_SYMBOL_MEMORY:
		c->data.symbol_memory = parse_size("--symbol-memory", arg);
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

static int symbolize_one(struct fold_symbolize *sy, const char *path)
{
	FILE *in = open_input(path);
	int ret;

	if (!in)
		return PD_EXIT_DATA;
	ret = fold_symbolize__file(sy, in, in == stdin ? "<stdin>" : path);
	close_input(in);
	return ret ? PD_EXIT_DATA : PD_EXIT_OK;
}

/* The inputs of --merge or --symbolize (FILE..., one -i FILE, or "-"). */
static int each_input(const struct pd_cli_main *m,
		      int (*fn)(void *arg, const char *path), void *arg)
{
	int i, ret;

	if (m->input)
		return fn(arg, m->input);
	if (!m->nr_args)
		return fn(arg, "-");
	for (i = 0; i < m->nr_args; i++) {
		ret = fn(arg, m->args[i]);
		if (ret)
			return ret;
	}
	return PD_EXIT_OK;
}

static int merge_input(void *arg, const char *path)
{
	return fold_merge__input(arg, path) ? PD_EXIT_DATA : PD_EXIT_OK;
}

static int symbolize_input(void *arg, const char *path)
{
	return symbolize_one(arg, path);
}

static int fold_input(const struct pd_cli_main *m, struct folder *f)
{
	struct cli *c = m->tool;
	const char *path = m->input;
	FILE *in;
	int ret;

	int i;

	if (!c->script && m->nr_args > 1) {
		/* several recordings: their stacks add up in one table */
		for (i = 0; i < m->nr_args; i++) {
			folder__next_input(f);
			ret = fold_perf_data(m->args[i], &c->data, f);
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

/*
 * The output: written to a temporary file beside path, renamed over it
 * when complete, so that a failed run leaves no file and a reader never
 * sees half of one (a device or FIFO is written in place).
 */
static int write_output(int (*write)(FILE *out, void *arg), void *arg,
			const char *path)
{
	char *tmp = NULL;
	mode_t mask;
	FILE *out;
	int fd, ret;

	if (!path || !strcmp(path, "-")) {
		ret = write(stdout, arg);
		if (ret) {
			fflush(stdout);
			return ret;
		}
		return pd_cli_close_output(stdout, "<stdout>");
	}
	/* a device or FIFO (-o /dev/null) is written where it is */
	if (pd_cli_output_in_place(path)) {
		out = fopen(path, "w");
		if (!out) {
			pd_err("%s: %s", path, strerror(errno));
			return PD_EXIT_DATA;
		}
		ret = write(out, arg);
		if (ret) {
			fclose(out);
			return ret;
		}
		return pd_cli_close_output(out, path);
	}
	if (asprintf(&tmp, "%s.XXXXXX", path) < 0) {
		pd_err("%s", strerror(ENOMEM));
		return PD_EXIT_DATA;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		pd_err("%s: %s", path, strerror(errno));
		free(tmp);
		return PD_EXIT_DATA;
	}
	/* mkstemp makes it 0600: as a file created the usual way instead */
	mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	out = fdopen(fd, "w");
	if (!out) {
		pd_err("%s: %s", path, strerror(errno));
		close(fd);
		ret = PD_EXIT_DATA;
	} else {
		ret = write(out, arg);
		if (ret)
			fclose(out);
		else
			ret = pd_cli_close_output(out, path);
	}
	if (!ret && rename(tmp, path)) {
		pd_err("%s: %s", path, strerror(errno));
		ret = PD_EXIT_DATA;
	}
	if (ret)
		unlink(tmp);
	free(tmp);
	return ret;
}

static int write_folded(FILE *out, void *arg)
{
	if (folder__write(arg, out) == -ENOMEM) {
		pd_err("out of memory");
		return PD_EXIT_DATA;
	}
	return PD_EXIT_OK;
}

static int write_sorted(FILE *out, void *arg)
{
	return fold_sort__write(arg, out) ? PD_EXIT_DATA : PD_EXIT_OK;
}

/* --svg: the folded stacks drawn in-process, as pd-flame draws them */
static int write_svg(struct cli *c, int (*write)(FILE *out, void *arg),
		     void *arg, const char *output)
{
	struct flame_opts o = c->flame.o;

	/* stacks in time order make a flame chart */
	if (c->fo.chronological)
		o.flamechart = true;
	return flame_out__draw(&o, write, arg, output);
}

static int sort_sink(void *ctx, const char *key, size_t len, uint64_t count)
{
	return fold_sort__add(ctx, key, len, count);
}

/*
 * --merge and --symbolize: every stack through a fold_sort, added up
 * with bounded memory; --symbolize names them first, with a folder
 * whose stacks go to the sort.
 */
static int run_merge(struct pd_cli_main *m)
{
	struct cli *c = m->tool;
	struct fold_symbolize *sy = NULL;
	struct folder *f = NULL;
	struct fold_sort *sort;
	int ret = PD_EXIT_DATA;

	sort = fold_sort__new(c->buffer_size);
	if (!sort) {
		pd_err("%s", strerror(ENOMEM));
		return PD_EXIT_DATA;
	}
	if (c->merge) {
		ret = each_input(m, merge_input, sort);
		goto write;
	}
	/* a line's count is its weight; the host chose which samples */
	c->fo.weight = FOLD_WEIGHT_PERIOD;
	c->fo.sink = sort_sink;
	c->fo.sink_ctx = sort;
	f = folder__new(&c->fo);
	if (!f) {
		if (errno == ENOMEM)
			pd_err("out of memory");
		else
			ret = PD_EXIT_USAGE;
		goto out;
	}
	sy = fold_symbolize__new(f, &c->data, c->archive);
	if (!sy)
		goto out;
	ret = each_input(m, symbolize_input, sy);
	if (!ret && folder__write(f, NULL)) {
		pd_err("out of memory");
		ret = PD_EXIT_DATA;
	}
write:
	if (!ret)
		ret = c->svg ? write_svg(c, write_sorted, sort, m->output) :
		      write_output(write_sorted, sort, m->output);
out:
	fold_symbolize__free(sy);
	folder__free(f);
	fold_sort__free(sort);
	return ret;
}

/* What --raw, --merge and --symbolize do not go with. */
static void check_modes(const struct cli *c)
{
	if (c->merge && c->symbolize)
		pd_usage_error("--merge adds up folded files, --symbolize names raw ones (and adds them up): one of them");
	if ((c->merge || c->symbolize) &&
	    (c->script || c->print_script || c->fo.chronological ||
	     c->data.off_cpu || c->data.raw))
		pd_usage_error("--%s reads folded files: not with --input=script, --script, --chronological, --off-cpu or --raw",
			       c->merge ? "merge" : "symbolize");
	if (c->data.raw_kernel && !c->data.raw)
		pd_usage_error("--raw-kernel keeps kernel frames raw too: it needs --raw");
	if (c->archive && !c->symbolize)
		pd_usage_error("--archive gives --symbolize files (a perf.data input names its archive itself)");
	if (c->buffer_size && !c->merge && !c->symbolize)
		pd_usage_error("--buffer-size is --merge's and --symbolize's");
	if (c->data.raw &&
	    (c->script || c->print_script || c->data.off_cpu || c->svg ||
	     c->fo.inline_frames || c->fo.filter_allow || c->fo.filter_deny))
		pd_usage_error("--raw folds perf.data for --symbolize, which names the frames: not with --input=script, --script, --off-cpu, --svg, --inline or --filter (give those to --symbolize)");
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

	/* one input: as -i FILE names it, or the default */
	if (!m->input && m->nr_args == 1)
		m->input = m->args[0];
	if (!m->input && !m->nr_args && !c->merge && !c->symbolize)
		m->input = m->default_input;
	if (m->nr_args > 1 && !c->merge && !c->symbolize &&
	    (c->script || c->print_script))
		pd_usage_error("--input=script and --script take one input (several perf.data files fold together)");
	if (c->flame.first && !c->svg)
		pd_usage_error("--%s is an option of the flame graph: it needs --svg",
			       c->flame.first);
	if (c->svg && c->print_script)
		pd_usage_error("--svg draws folded stacks, --script prints samples: one of them");
	if (c->fo.context && !c->fo.inline_frames)
		pd_usage_error("--context needs --inline");
	check_modes(c);
	if (c->fo.inline_frames) {
		c->fo.inliner = fold_inline__new(c->data.symfs, c->data.no_debuginfod,
					 c->data.symbol_memory);
		if (!c->fo.inliner) {
			pd_err("--inline: %s", strerror(errno));
			return PD_EXIT_DATA;
		}
	}
	if (c->merge || c->symbolize) {
		ret = run_merge(m);
		fold_inline__free(c->fo.inliner);
		return ret;
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
		if (c->script)
			pd_usage_error("--script prints perf.data samples (not with --input=script)");
		ret = print_script(m, f);
	} else {
		ret = fold_input(m, f);
		if (ret == PD_EXIT_OK)
			ret = c->svg ? write_svg(c, write_folded, f, m->output) :
			      write_output(write_folded, f, m->output);
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
		.longopts = longopts, .shortopts = "S:", .bools = bools,
		.option = option,
		.flags = PD_CLI_INPUT | PD_CLI_OUTPUT | PD_CLI_NOT_INPUT |
			 PD_CLI_VERBOSE,
		.takes = PD_CLI_INPUTS,
		.default_input = "perf.data",
		.extra_arg = "the files as arguments or one -i FILE, not both",
	};

	flame_cli__init(&c.flame);
	/* --symbol-memory's default, which the option overrides */
	c.data.symbol_memory = DEFAULT_SYMBOL_MEMORY;
	if (getenv("PD_SYMBOL_MEMORY"))
		c.data.symbol_memory = parse_size("PD_SYMBOL_MEMORY",
						  getenv("PD_SYMBOL_MEMORY"));
	return pd_cli_main(argc, argv, &m);
}
