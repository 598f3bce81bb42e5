// SPDX-License-Identifier: MIT
/*
 * pd-convert: a perf.data rewritten for another perf version, another
 * byte order or another mode (file/pipe), compressed or not.
 *
 *   pd-convert --target-perf=4.18 perf.data -o old.data
 *   pd-convert --explain --target-perf=rhel8 perf.data
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

#include "archive-make.h"
#include "common/cli.h"
#include "export.h"
#include "unwind/unwind-summary.h"

static void usage(FILE *f)
{
	fprintf(f,
"Usage: %s [OPTIONS] [IN|-] -o OUT|-\n"
"       %s --to=FORMAT [OPTIONS] [IN|-] [-o OUT|-]\n"
"Rewrite a perf.data file so that a given perf version reads it, or in\n"
"another byte order, mode or compression. IN defaults to perf.data;\n"
"'-' reads standard input or writes standard output.\n"
"\n"
"  -i, --input=IN          input file (same as the IN argument)\n"
"  -o, --output=OUT        output file; replaced only when complete\n"
"      --target-perf=VER   make OUT readable by perf VER (see --list-targets);\n"
"                          default: the newest format, records unchanged\n"
"      --shim=A[,B...]     switch shims on (see --list-shims)\n"
"      --no-shim=A[,B...]  switch shims off\n"
"      --pipe | --file     output mode (default: the input's)\n"
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
"      --from-archive      IN is an archive: write OUT/perf.data (records\n"
"                          decompressed unless --compress), OUT/.build-id/\n"
"                          (perf's build-id cache layout: buildid.dir = OUT),\n"
"                          OUT/kallsyms and OUT/manifest\n"
"      --explain           write nothing; tell which shims apply to IN for\n"
"                          the target and what each changes, with counts\n"
"      --list-targets      the perf versions --target-perf knows\n"
"      --list-shims        the shims and what each does\n"
"  -q, --quiet             no warnings\n"
"  -v, --verbose           more messages\n"
"  -h, --help              this help\n"
"\n", pd_prog, pd_prog);
	export_cli__usage(f);
	fprintf(f, "\n"
"Exit status: 0 success, 1 unreadable input or failed write, 2 bad usage.\n");
}

static void list_targets(void)
{
	const struct pd_perf_target *const *t;

	printf("%-8s %-9s %-6s %-5s %s\n", "target", "attr-max", "hmax",
	       "feats", "description");
	for (t = pd_perf_targets(); *t; t++)
		printf("%-8s %-9u %-6u %-5u %s\n", (*t)->name,
		       (*t)->attr_size_max, (*t)->user_record_max,
		       (*t)->last_feature, (*t)->description);
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

static void print_bits(const char *what, uint64_t bits)
{
	int b;

	if (!bits)
		return;
	printf("    %s bits removed:", what);
	for (b = 0; b < 64; b++)
		if (bits & (1ULL << b))
			printf(" %d", b);
	printf("\n");
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
	OPT_TARGET = 256, OPT_SHIM, OPT_NO_SHIM, OPT_PIPE, OPT_FILE,
	OPT_COMPRESS, OPT_DECOMPRESS, OPT_ENDIAN, OPT_EXPLAIN,
	OPT_LIST_TARGETS, OPT_LIST_SHIMS, OPT_TO, OPT_FROM_ARCHIVE,
	OPT_KALLSYMS, OPT_SYMFS, OPT_VMLINUX,
};

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "output", required_argument, NULL, 'o' },
		{ "target-perf", required_argument, NULL, OPT_TARGET },
		{ "shim", required_argument, NULL, OPT_SHIM },
		{ "no-shim", required_argument, NULL, OPT_NO_SHIM },
		{ "pipe", no_argument, NULL, OPT_PIPE },
		{ "file", no_argument, NULL, OPT_FILE },
		{ "compress", optional_argument, NULL, OPT_COMPRESS },
		{ "decompress", no_argument, NULL, OPT_DECOMPRESS },
		{ "endian", required_argument, NULL, OPT_ENDIAN },
		{ "explain", no_argument, NULL, OPT_EXPLAIN },
		{ "list-targets", no_argument, NULL, OPT_LIST_TARGETS },
		{ "list-shims", no_argument, NULL, OPT_LIST_SHIMS },
		{ "to", required_argument, NULL, OPT_TO },
		{ "from-archive", no_argument, NULL, OPT_FROM_ARCHIVE },
		{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },
		{ "symfs", required_argument, NULL, OPT_SYMFS },
		{ "vmlinux", required_argument, NULL, OPT_VMLINUX },
		{ "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		EXPORT_CLI_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct export_opts xo = { .weight = EXPORT_WEIGHT_DEFAULT };
	bool rewrite_opts = false;
	struct pd_convert_opts co = { .sz = sizeof(co), .mode = -1 };
	struct pd_reader_opts ro = { .sz = sizeof(ro), .load_aux = true };
	struct pd_convert_report rep;
	struct pd_unwind_rewrite_opts uo = { .sz = sizeof(uo) };
	struct pd_unwind_rewriter *rw = NULL;
	const char *input = NULL, *output = NULL;
	bool do_explain = false, to_archive = false, from_archive = false;
	struct archive_make_opts ao = { 0 };
	struct pd_reader *r;
	char errmsg[512];
	int c, err;

	pd_cli_init(argv[0]);
	while ((c = getopt_long(argc, argv, "i:o:qvh", longopts, NULL)) != -1) {
		if (export_cli__option(c, optarg, &xo))
			continue;
		/* options of the perf.data rewrite, not of --to */
		rewrite_opts |= c >= 256 && c != OPT_LIST_TARGETS &&
				c != OPT_LIST_SHIMS && c != OPT_TO &&
				c != OPT_KALLSYMS && c != OPT_SYMFS &&
				c != OPT_VMLINUX;
		switch (c) {
		case 'i':
			input = optarg;
			break;
		case 'o':
			output = optarg;
			break;
		case OPT_TARGET:
			co.target = pd_perf_target__find(optarg);
			if (!co.target)
				pd_usage_error("unknown perf version '%s' (see --list-targets)",
					       optarg);
			break;
		case OPT_SHIM:
			co.shims_add |= parse_shims(optarg);
			break;
		case OPT_NO_SHIM:
			co.shims_remove |= parse_shims(optarg);
			break;
		case OPT_PIPE:
			co.mode = PD_MODE_PIPE;
			break;
		case OPT_FILE:
			co.mode = PD_MODE_FILE;
			break;
		case OPT_COMPRESS:
			co.compress = 1;
			if (optarg) {
				char *end;
				long l = strtol(optarg, &end, 10);

				if (*end || l < 1 || l > 22)
					pd_usage_error("compression level must be 1..22");
				co.compress_level = l;
			}
			break;
		case OPT_DECOMPRESS:
			co.compress = -1;
			break;
		case OPT_ENDIAN:
			if (!strcmp(optarg, "little"))
				co.endian = PD_ENDIAN_LITTLE;
			else if (!strcmp(optarg, "big"))
				co.endian = PD_ENDIAN_BIG;
			else if (!strcmp(optarg, "native"))
				co.endian = PD_ENDIAN_NATIVE;
			else
				pd_usage_error("--endian takes little, big or native");
			break;
		case OPT_EXPLAIN:
			do_explain = true;
			break;
		case OPT_TO:
			/* the other formats: export.c's table */
			if (strcmp(optarg, "archive"))
				export_cli__option(EXPORT_OPT_TO, optarg, &xo);
			else
				to_archive = true;
			break;
		case OPT_FROM_ARCHIVE:
			from_archive = true;
			break;
		case OPT_KALLSYMS:
			ao.kallsyms = xo.data.kallsyms = optarg;
			break;
		case OPT_SYMFS:
			ao.symfs = xo.data.symfs = optarg;
			break;
		case OPT_VMLINUX:
			ao.vmlinux = xo.data.vmlinux = optarg;
			break;
		case OPT_LIST_TARGETS:
			list_targets();
			return pd_cli_close_output(stdout, "<stdout>");
		case OPT_LIST_SHIMS:
			list_shims();
			return pd_cli_close_output(stdout, "<stdout>");
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
	if (xo.format) {
		if (rewrite_opts || from_archive)
			pd_usage_error("--to=%s takes no perf.data rewriting options (--target-perf, --shim, --pipe, ...)",
				       xo.format->name);
		xo.input = input;
		xo.output = output;
		return export_cli__run(&xo);
	}
	if (xo.others)
		pd_usage_error("--no-inline, --weight, --per-process, --event-filter, --comm, --cpu and --time go with --to");
	if (!output && !do_explain)
		pd_usage_error("no output given (-o FILE, or -o - for standard output)");
	if ((to_archive || from_archive) && (do_explain || !output))
		pd_usage_error("--to=archive and --from-archive need -o and no --explain");
	if (to_archive && from_archive)
		pd_usage_error("--to=archive and --from-archive exclude each other");
	if (to_archive && !archive_name_ok(output))
		pd_usage_error("an archive's name ends in .tar.zst or .tar.gz (or is - for tar.zst)");
	if (from_archive && !strcmp(output, "-"))
		pd_usage_error("--from-archive writes a directory: -o DIR");
	if ((ao.kallsyms || ao.symfs || ao.vmlinux) && !to_archive)
		pd_usage_error("--kallsyms, --vmlinux and --symfs go with --to=archive");
	if (output && !strcmp(output, "-") && !do_explain &&
	    pd_cli_refuse_tty(stdout))
		return PD_EXIT_USAGE;
	if (output && pd_cli_same_file(input, output))
		pd_usage_error("the output would overwrite the input '%s'", input);
	co.dry_run = do_explain;
	if (output && !strcmp(output, "-") && co.mode < 0)
		co.mode = -2;	/* decided below, once the input is open */

	/* unwinding follows the session in time order, as perf does */
	if ((co.shims_add & ~co.shims_remove) & (1ULL << PD_SHIM_UNWIND)) {
		ro.order = PD_ORDER_TIME;
		ro.load_aux = false;
		uo.path = strcmp(input, "-") ? input : NULL;
	}
	r = pd_cli_open(input, &ro);
	if (!r)
		return PD_EXIT_DATA;
	if (to_archive || from_archive) {
		ao.input = strcmp(input, "-") ? input : "<stdin>";
		ao.output = output;
		ao.level = co.compress_level;
		err = to_archive ? archive_make(r, &ao) :
		      archive_extract(r, ao.input, output, co.compress == 1);
		pd_reader__close(r);
		return err;
	}
	if (ro.order == PD_ORDER_TIME) {
		rw = pd_unwind_rewriter__new(r, &uo);
		if (!rw) {
			pd_err("%s: %s", input, strerror(errno));
			pd_reader__close(r);
			return PD_EXIT_DATA;
		}
		co.unwind = rw;
	}
	if (co.mode == -2) {
		struct stat st;

		/* a stream can only take pipe mode */
		co.mode = fstat(STDOUT_FILENO, &st) || !S_ISREG(st.st_mode) ?
			  PD_MODE_PIPE : -1;
	}
	err = pd_convert(r, output, &co, &rep, errmsg, sizeof(errmsg));
	if (!err && rw && !pd_quiet)
		unwind_summary__print(stderr, strcmp(input, "-") ? input : "<stdin>",
				      pd_unwind_rewriter__summary(rw));
	pd_unwind_rewriter__free(rw);
	pd_reader__close(r);
	if (err) {
		pd_err("%s", errmsg[0] ? errmsg : pd_strerror(err));
		return PD_EXIT_DATA;
	}
	if (do_explain) {
		explain(input, co.target, &rep);
		return pd_cli_close_output(stdout, "<stdout>");
	}
	if (pd_verbose)
		fprintf(stderr, "%s: %llu records in, %llu out\n", pd_prog,
			(unsigned long long)rep.records_in,
			(unsigned long long)rep.records_out);
	return PD_EXIT_OK;
}
