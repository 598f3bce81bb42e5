// SPDX-License-Identifier: MIT
/*
 * pd-convert: a perf.data rewritten for another perf version, another
 * byte order or another mode (file/pipe), compressed or not.
 *
 *   pd-convert --target-perf=4.18 perf.data -o old.data
 *   pd-convert --explain --target-perf=rhel8 perf.data
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <perfdata/compat.h>
#include <perfdata/reader.h>
#include <perfdata/unwind.h>
#include <perfdata/writer.h>

#include "archive-make.h"
#include "common/cli.h"
#include "common/cli-main.h"
#include "common/cli-write.h"
#include "export.h"
#include "target-cli.h"
#include "unwind/unwind-summary.h"

static void usage(FILE *f)
{
	fprintf(f,
"Usage: %s [OPTIONS] [IN|-] -o OUT|-\n"
"       %s --to=FORMAT [OPTIONS] [IN|-] [-o OUT|-]\n"
"       %s --to=pprof [OPTIONS] IN... [-o OUT|-]   one profile of them all,\n"
"                          as 'go tool pprof -proto' merges theirs\n"
"Rewrite a perf.data file so that a given perf version reads it, or in\n"
"another byte order, mode or compression. IN defaults to perf.data;\n"
"'-' reads standard input or writes standard output.\n"
"\n"
"  -i, --input=IN          input file (same as the IN argument)\n"
"  -o, --output=OUT        output file; replaced only when complete\n"
"      --target-perf=PERF  make OUT readable by that perf: a version (5.15,\n"
"                          5.10.223), what perf --version prints, or a\n"
"                          distribution (debian11, ubuntu22.04, rhel8...; see\n"
"                          --list-targets), or a perf binary to probe (auto,\n"
"                          or a path); OUT is then file mode unless it\n"
"                          is a pipe, uncompressed unless --compress.\n"
"                          Default: the newest format, records unchanged\n"
"      --shim=A[,B...]     switch shims on (see --list-shims)\n"
"      --no-shim=A[,B...]  switch shims off\n"
"      --pipe | --file     output mode (default: the input's; with a target,\n"
"                          file mode for a regular file)\n"
"      --compress[=LEVEL]  zstd-compress the records (COMPRESSED2, or\n"
"                          COMPRESSED for targets before 6.15)\n"
"      --decompress        write the records uncompressed\n"
"      --endian=ORDER      little, big or native (default: native)\n"
"      --to=archive        OUT (.tar.zst, .tar.gz, or - for tar.zst) holds the\n"
"                          profile and the binaries, debug info and kallsyms\n"
"                          that resolve its symbols (docs/archive.md); every\n"
"                          pd tool reads such an archive as its input\n"
"      --kallsyms=FILE     with --to: the recording kernel's kallsyms\n"
"      --vmlinux=FILE      with --to: the recording kernel's vmlinux\n"
"                          (stored when its build id is the recorded one)\n"
"      --symfs=DIR         with --to: look for the recorded files under DIR\n"
"                          (and JIT files: DIR/tmp/perf-PID.map, jitdumps)\n"
"      --root=DIR          with --to: also look for them in DIR, a\n"
"                          container's or image's root (DIR + recorded path,\n"
"                          its /usr/lib/debug), used only with the recorded\n"
"                          build id; repeatable\n"
"      --no-debuginfod     with --to and --shim=unwind: fetch no binaries\n"
"                          missing here from the servers of $DEBUGINFOD_URLS\n"
"                          (by default they are fetched, by build id)\n"
"      --from-archive      IN is an archive: write OUT/perf.data (records\n"
"                          decompressed unless --compress; for the target\n"
"                          of --target-perf if given), OUT/.build-id/\n"
"                          (perf's build-id cache layout: buildid.dir = OUT),\n"
"                          OUT/kallsyms and OUT/manifest\n"
"      --stack-size=N      cut each sample's user stack copy (--call-graph\n"
"                          dwarf) to its first N bytes (a multiple of 8,\n"
"                          at most 65528), as if recorded with dwarf,N;\n"
"                          filled: each to what the kernel filled of it,\n"
"                          all that perf or any unwinder reads (most of a\n"
"                          DWARF profile's bytes are the rest)\n"
"      --stitch            with --to and --shim=unwind: complete the DWARF\n"
"                          chains cut where the stack copy ended from the\n"
"                          same thread's earlier ones (see pd-unwind(1))\n"
"      --explain           write nothing; tell which shims apply to IN for\n"
"                          the target and what each changes, with counts\n"
"      --list-targets      the perf versions and distributions --target-perf\n"
"                          knows, and how each distribution builds its perf\n"
"      --list-shims        the shims and what each does\n"
"  -q, --quiet             no warnings, no progress\n"
"  -v, --verbose           more messages\n"
"  -h, --help              this help\n"
"\n", pd_prog, pd_prog, pd_prog);
	export_cli__usage(f);
	fprintf(f, "\n"
"Exit status: 0 success, 1 unreadable input or failed write, 2 bad usage.\n");
}

static void list_shims(void)
{
	const struct pd_shim_info *s;
	size_t i, n;

	s = pd_shims(&n);
	for (i = 0; i < n; i++)
		printf("%-16s %s\n", s[i].name, s[i].summary);
}

static uint64_t parse_shims(const char *list)
{
	char *copy = strdup(list), *tok, *save = NULL;
	uint64_t mask = 0;

	if (!copy)
		pd_usage_error("out of memory");
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		const struct pd_shim_info *s = pd_shim__find(tok);

		if (!s)
			pd_usage_error("unknown shim '%s' (see --list-shims)", tok);
		mask |= 1ULL << s->id;
	}
	free(copy);
	return mask;
}

static const char *const record_names[128] = {
	[1] = "MMAP", [2] = "LOST", [3] = "COMM", [4] = "EXIT",
	[5] = "THROTTLE", [6] = "UNTHROTTLE", [7] = "FORK", [8] = "READ",
	[9] = "SAMPLE", [10] = "MMAP2", [11] = "AUX", [12] = "ITRACE_START",
	[13] = "LOST_SAMPLES", [14] = "SWITCH", [15] = "SWITCH_CPU_WIDE",
	[16] = "NAMESPACES", [17] = "KSYMBOL", [18] = "BPF_EVENT",
	[19] = "CGROUP", [20] = "TEXT_POKE", [21] = "AUX_OUTPUT_HW_ID",
	[22] = "CALLCHAIN_DEFERRED", [64] = "HEADER_ATTR",
	[65] = "HEADER_EVENT_TYPE", [66] = "HEADER_TRACING_DATA",
	[67] = "HEADER_BUILD_ID", [68] = "FINISHED_ROUND", [69] = "ID_INDEX",
	[70] = "AUXTRACE_INFO", [71] = "AUXTRACE", [72] = "AUXTRACE_ERROR",
	[73] = "THREAD_MAP", [74] = "CPU_MAP", [75] = "STAT_CONFIG",
	[76] = "STAT", [77] = "STAT_ROUND", [78] = "EVENT_UPDATE",
	[79] = "TIME_CONV", [80] = "HEADER_FEATURE", [81] = "COMPRESSED",
	[82] = "FINISHED_INIT", [83] = "COMPRESSED2", [84] = "BPF_METADATA",
	[85] = "SCHEDSTAT_CPU", [86] = "SCHEDSTAT_DOMAIN",
};

static void print_bits_done(const char *what, const char *done,
			    uint64_t bits)
{
	int b;

	if (!bits)
		return;
	printf("    %s bits %s:", what, done);
	for (b = 0; b < 64; b++)
		if (bits & (1ULL << b))
			printf(" %d", b);
	printf("\n");
}

static void print_bits(const char *what, uint64_t bits)
{
	print_bits_done(what, "removed", bits);
}

static void explain(const char *in, const struct pd_perf_target *t,
		    const struct pd_convert_report *rep)
{
	const struct pd_shim_info *s;
	size_t i, n;
	int type;

	printf("input: %s\n", in);
	printf("target: %s\n", t ? t->description : "newest format, unchanged");
	printf("records: %llu in, %llu out; samples: %llu in, %llu out\n",
	       (unsigned long long)rep->records_in,
	       (unsigned long long)rep->records_out,
	       (unsigned long long)rep->samples_in,
	       (unsigned long long)rep->samples_out);
	s = pd_shims(&n);
	for (i = 0; i < n; i++) {
		uint64_t ch = rep->changed[s[i].id], dr = rep->dropped[s[i].id];

		if (!(rep->shims & (1ULL << s[i].id)))
			continue;
		printf("shim %-16s %s: %llu changed, %llu dropped\n", s[i].name,
		       ch || dr ? "applies" : "on, nothing to do",
		       (unsigned long long)ch, (unsigned long long)dr);
		if (s[i].id == PD_SHIM_ATTR_SIZE && ch)
			printf("    attr size %u -> %u\n", rep->attr_size_in,
			       rep->attr_size_out);
		if (s[i].id == PD_SHIM_SAMPLE_TYPE) {
			print_bits("sample_type", rep->sample_bits_removed);
			print_bits_done("sample_type", "added (filled in)",
					rep->sample_bits_added);
			print_bits("read_format", rep->read_format_removed);
			print_bits("branch_sample_type", rep->branch_bits_removed);
		}
		if (s[i].id == PD_SHIM_DROP_RECORDS || s[i].id == PD_SHIM_FINISHED_INIT)
			for (type = 0; type < 128; type++)
				if (rep->dropped_type[type] &&
				    (type == 82) == (s[i].id == PD_SHIM_FINISHED_INIT))
					printf("    %s (%d): %llu dropped\n",
					       record_names[type] ? record_names[type] : "unknown",
					       type, (unsigned long long)rep->dropped_type[type]);
		if (s[i].id == PD_SHIM_FEATURES || s[i].id == PD_SHIM_FEATURE_LAYOUT) {
			int f;

			for (f = 0; f < 256 && dr; f++)
				if (rep->features_dropped[f / 64] & (1ULL << (f % 64)))
					printf("    feature %d dropped\n", f);
		}
	}
}

enum {
	OPT_TARGET = 256, OPT_SHIM, OPT_NO_SHIM, OPT_DECOMPRESS, OPT_ENDIAN,
	OPT_EXPLAIN, OPT_LIST_TARGETS, OPT_LIST_SHIMS, OPT_TO,
	OPT_FROM_ARCHIVE, OPT_KALLSYMS, OPT_SYMFS, OPT_VMLINUX,
	OPT_NO_DEBUGINFOD, OPT_ROOT, OPT_STACK_SIZE, OPT_STITCH,
};

/* The options of the perf.data rewrite, which --to takes none of */
#define REWRITE_LONGOPTS \
	{ "target-perf", required_argument, NULL, OPT_TARGET }, \
	{ "shim", required_argument, NULL, OPT_SHIM }, \
	{ "no-shim", required_argument, NULL, OPT_NO_SHIM }, \
	CLI_WRITE_LONGOPTS, \
	{ "decompress", no_argument, NULL, OPT_DECOMPRESS }, \
	{ "endian", required_argument, NULL, OPT_ENDIAN }, \
	{ "explain", no_argument, NULL, OPT_EXPLAIN }, \
	{ "stack-size", required_argument, NULL, OPT_STACK_SIZE }

static const struct option longopts[] = {
	REWRITE_LONGOPTS,
	{ "list-targets", no_argument, NULL, OPT_LIST_TARGETS },
	{ "list-shims", no_argument, NULL, OPT_LIST_SHIMS },
	{ "to", required_argument, NULL, OPT_TO },
	/* the formats' own options, after --to */
	EXPORT_CLI_LONGOPTS,
	{ "from-archive", no_argument, NULL, OPT_FROM_ARCHIVE },
	{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },
	{ "symfs", required_argument, NULL, OPT_SYMFS },
	{ "root", required_argument, NULL, OPT_ROOT },
	{ "vmlinux", required_argument, NULL, OPT_VMLINUX },
	{ "no-debuginfod", no_argument, NULL, OPT_NO_DEBUGINFOD },
	{ "stitch", no_argument, NULL, OPT_STITCH },
	{ NULL, 0, NULL, 0 },
};

struct cli {
	struct export_opts xo;
	struct pd_convert_opts co;
	struct pd_reader_opts ro;
	struct pd_unwind_rewrite_opts uo;
	struct archive_make_opts ao;
	struct pd_perf_resolved target;	/* --target-perf's, co.target */
	bool rewrite_opts;	/* one of REWRITE_LONGOPTS was given */
	bool do_explain, to_archive, from_archive;
};

/*
 * --stack-size=N: bytes of each user stack copy kept, as perf's
 * --call-graph dwarf,N takes them (rounded up to a multiple of 8, at
 * most 65528); filled: each copy as far as the kernel filled it
 */
static uint64_t parse_stack_size(const char *arg)
{
	unsigned long long n;
	char *end;

	if (!strcmp(arg, "filled"))
		return PD_STACK_SIZE_FILLED;
	errno = 0;
	n = strtoull(arg, &end, 0);
	if (errno || *end || end == arg || arg[0] == '-' || !n || n > 65528)
		pd_usage_error("--stack-size must be 1..65528 bytes, or filled");
	return (n + 7) & ~7ULL;
}

/* Applies opt when it is one of REWRITE_LONGOPTS; false for any other. */
static bool rewrite_option(struct cli *c, int opt, const char *arg)
{
	static const char *const endians[] = {
		[PD_ENDIAN_NATIVE] = "native", [PD_ENDIAN_LITTLE] = "little",
		[PD_ENDIAN_BIG] = "big", NULL,
	};

	if (cli_write__option(opt, arg, &c->co))
		return true;
	switch (opt) {
	case OPT_TARGET:
		c->co.target = target_cli__parse(arg, &c->target);
		return true;
	case OPT_SHIM:
		c->co.shims_add |= parse_shims(arg);
		return true;
	case OPT_NO_SHIM:
		c->co.shims_remove |= parse_shims(arg);
		return true;
	case OPT_DECOMPRESS:
		c->co.compress = -1;
		return true;
	case OPT_ENDIAN:
		c->co.endian = pd_cli_choose(endians, arg,
					     "--endian takes little, big or native");
		return true;
	case OPT_EXPLAIN:
		c->do_explain = true;
		return true;
	case OPT_STACK_SIZE:
		c->co.stack_size = parse_stack_size(arg);
		return true;
	}
	return false;
}

static void option(struct pd_cli_main *m, int opt, const char *arg)
{
	struct cli *c = m->tool;

	if (export_cli__option(opt, arg, &c->xo))
		return;
	if (rewrite_option(c, opt, arg)) {
		c->rewrite_opts = true;
		return;
	}
	switch (opt) {
	case OPT_TO:
		/* the other formats: export.c's table */
		if (strcmp(arg, "archive"))
			export_cli__option(EXPORT_OPT_TO, arg, &c->xo);
		else
			c->to_archive = true;
		break;
	case OPT_FROM_ARCHIVE:
		c->from_archive = true;
		break;
	case OPT_KALLSYMS:
		c->ao.kallsyms = c->xo.data.kallsyms = arg;
		break;
	case OPT_SYMFS:
		c->ao.symfs = c->xo.data.symfs = arg;
		break;
	case OPT_ROOT:
		pd_cli_add_root(&c->xo.data.roots, arg);
		c->ao.roots = c->xo.data.roots;
		break;
	case OPT_VMLINUX:
		c->ao.vmlinux = c->xo.data.vmlinux = arg;
		break;
	case OPT_STITCH:
		/* --to's formats, and --shim=unwind */
		c->xo.data.stitch = c->uo.stitch = true;
		break;
	case OPT_NO_DEBUGINFOD:
		/* --to's formats and archive, and --shim=unwind */
		c->ao.no_debuginfod = c->xo.data.no_debuginfod = true;
		c->uo.no_debuginfod = true;
		break;
	case OPT_LIST_TARGETS:
		target_cli__list(stdout);
		exit(pd_cli_close_output(stdout, "<stdout>"));
	case OPT_LIST_SHIMS:
		list_shims();
		exit(pd_cli_close_output(stdout, "<stdout>"));
	}
}

/* The options that go together; -o's checks among them, in their place. */
static int check_options(struct pd_cli_main *m)
{
	struct cli *c = m->tool;
	const char *output = m->output;

	if (c->xo.others)
		pd_usage_error("--no-inline, --weight, --per-process, --event-filter, --comm, --cpu and --time go with --to");
	/* OUT is needed but for --explain: a usage error ends the tool */
	if (!c->do_explain)
		pd_cli_check_output(m, PD_CLI_NEED_OUTPUT);
	if ((c->to_archive || c->from_archive) && (c->do_explain || !output))
		pd_usage_error("--to=archive and --from-archive need -o and no --explain");
	if (c->to_archive && c->from_archive)
		pd_usage_error("--to=archive and --from-archive exclude each other");
	if (c->to_archive && !archive_name_ok(output))
		pd_usage_error("an archive's name ends in .tar.zst or .tar.gz (or is - for tar.zst)");
	if (c->from_archive && !strcmp(output, "-"))
		pd_usage_error("--from-archive writes a directory: -o DIR");
	if ((c->ao.kallsyms || c->ao.symfs || c->ao.vmlinux || c->ao.roots) &&
	    !c->to_archive)
		pd_usage_error("--kallsyms, --vmlinux, --symfs and --root go with --to");
	/* --explain writes text, and no OUT */
	return pd_cli_check_output(m, PD_CLI_NOT_INPUT |
				   (c->do_explain ? 0 : PD_CLI_BINARY_OUTPUT));
}

/* The archive, written or extracted, once the input is open. */
static int archive(struct cli *c, struct pd_reader *r, const char *input,
		   const char *output)
{
	int err;

	c->ao.input = strcmp(input, "-") ? input : "<stdin>";
	c->ao.output = output;
	c->ao.level = c->co.compress_level;
	err = c->to_archive ? archive_make(r, &c->ao) :
	      archive_extract(r, c->ao.input, output, &c->co);
	pd_reader__close(r);
	return err;
}

static int run(struct pd_cli_main *m)
{
	struct cli *c = m->tool;
	const char *input = m->input, *output = m->output;
	struct pd_unwind_rewriter *rw = NULL;
	const char *kernel_copy;
	struct pd_convert_report rep;
	struct pd_reader *r;
	char errmsg[512];
	int err;

	/* one input: the argument, or the default */
	if (!input && m->nr_args == 1)
		input = m->input = m->args[0];
	if (!input && !m->nr_args)
		input = m->input = "perf.data";
	if (m->nr_args > 1 &&
	    (!c->xo.format || strcmp(c->xo.format->name, "pprof")))
		pd_usage_error("one input only (several with --to=pprof: one profile of them all)");
	if (m->nr_args > 1) {
		c->xo.inputs = m->args;
		c->xo.nr_inputs = m->nr_args;
		input = m->args[0];
	}
	if (c->xo.format) {
		if (c->rewrite_opts || c->from_archive)
			pd_usage_error("--to=%s takes no perf.data rewriting options (--target-perf, --shim, --pipe, ...)",
				       c->xo.format->name);
		c->xo.input = input;
		c->xo.output = output;
		return export_cli__run(&c->xo);
	}
	err = check_options(m);
	if (err)
		return err;
	c->co.dry_run = c->do_explain;
	/* a target gets what its perf opens: see target_cli__mode() */
	if (c->co.target && c->co.mode < 0 && !c->from_archive)
		c->co.mode = output ? target_cli__mode(output) : PD_MODE_FILE;
	cli_write__stdout_mode(&c->co, output);

	if (c->uo.stitch && !((c->co.shims_add & ~c->co.shims_remove) &
			      (1ULL << PD_SHIM_UNWIND)))
		pd_usage_error("--stitch goes with --to or --shim=unwind");
	/* unwinding follows the session in time order, as perf does */
	if ((c->co.shims_add & ~c->co.shims_remove) &
	    (1ULL << PD_SHIM_UNWIND)) {
		c->ro.order = PD_ORDER_TIME;
		c->ro.load_aux = false;
		c->uo.path = strcmp(input, "-") ? input : NULL;
	}
	r = pd_cli_open(input, &c->ro);
	if (!r)
		return PD_EXIT_DATA;
	if (c->to_archive || c->from_archive)
		return archive(c, r, input, output);
	if (c->ro.order == PD_ORDER_TIME) {
		rw = pd_unwind_rewriter__new(r, &c->uo);
		if (!rw) {
			pd_err("%s: %s", input, strerror(errno));
			pd_reader__close(r);
			return PD_EXIT_DATA;
		}
		c->co.unwind = rw;
	}
	/*
	 * With a CPU to spare, the input is read on it (the kernel's copy
	 * out of the page cache) while this thread writes (its copy into
	 * it). The output is the same.
	 */
	c->co.read_ahead = !c->do_explain &&
			   pd_cli_cpu_to_spare("PD_CONVERT_THREADS");
	/*
	 * The kernel copies unchanged records on one thread, not with
	 * read-ahead (pd_convert_opts.kernel_copy); PD_CONVERT_KERNEL_COPY=1
	 * or 0 decides instead, for tests and measurements (the output is
	 * the same)
	 */
	kernel_copy = getenv("PD_CONVERT_KERNEL_COPY");
	if (kernel_copy && *kernel_copy) {
		c->co.kernel_copy = strcmp(kernel_copy, "0") != 0;
		c->co.copy_in_memory = !c->co.kernel_copy;
	}
	err = pd_convert(r, output, &c->co, &rep, errmsg, sizeof(errmsg));
	if (!err && rw && !pd_quiet)
		unwind_summary__print(stderr, strcmp(input, "-") ? input : "<stdin>",
				      pd_unwind_rewriter__summary(rw));
	pd_unwind_rewriter__free(rw);
	pd_reader__close(r);
	if (err) {
		pd_err("%s", errmsg[0] ? errmsg : pd_strerror(err));
		return PD_EXIT_DATA;
	}
	if (c->do_explain) {
		explain(input, c->co.target, &rep);
		target_cli__explain(stdout, c->co.target ? &c->target : NULL,
				    &rep);
		return pd_cli_close_output(stdout, "<stdout>");
	}
	if (pd_verbose)
		fprintf(stderr, "%s: %llu records in, %llu out (%llu copied from the input as they are)\n",
			pd_prog, (unsigned long long)rep.records_in,
			(unsigned long long)rep.records_out,
			(unsigned long long)rep.records_copied);
	return PD_EXIT_OK;
}

int main(int argc, char **argv)
{
	struct cli c = {
		.xo = { .weight = EXPORT_WEIGHT_DEFAULT },
		.co = { .sz = sizeof(c.co), .mode = -1 },
		.ro = { .sz = sizeof(c.ro), .load_aux = true },
		.uo = { .sz = sizeof(c.uo) },
	};
	struct pd_cli_main m = {
		.init = pd_cli_init, .usage = usage, .run = run, .tool = &c,
		.longopts = longopts, .option = option,
		.flags = PD_CLI_INPUT | PD_CLI_OUTPUT | PD_CLI_VERBOSE,
		.takes = PD_CLI_INPUTS,
		.default_input = "perf.data",
		.extra_arg = "the input as an argument or -i IN, not both",
	};

	return pd_cli_main(argc, argv, &m);
}
