// SPDX-License-Identifier: MIT
/*
 * pd-record: sample a command, processes or the whole system with
 * perf_event_open() and write a perf.data that perf (any version, with
 * --target-perf) and the pd-* tools read.
 *
 *   pd-record -g -F 999 -o burn.data -- ./burn 300
 *   pd-record --off-cpu -o wait.data -- ./server
 *   pd-record -a -o - sleep 5 | pd-fold - > folded.txt
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfdata/compat.h>

#include "common/cli.h"
#include "common/cli-main.h"
#include "record.h"

#define MAX_EVENTS	64

static void usage(FILE *f)
{
	fprintf(f,
"Usage: %s [OPTIONS] [--] COMMAND [ARGS...]\n"
"       %s [OPTIONS] -p PID | -t TID | -a\n"
"Sample with perf_event_open() and write perf.data (perf's format, or the\n"
"one an older perf reads with --target-perf).\n"
"\n"
"  -e, --event=EV[,EV...]   events: cpu-clock (default), task-clock,\n"
"                           cycles, instructions (cpu-clock instead when\n"
"                           the machine has no PMU for them, as perf),\n"
"                           context-switches, page-faults, ...,\n"
"                           SYSTEM:TRACEPOINT; suffix :u or :k\n"
"      --filter=EXPR        tracepoint filter for the last -e\n"
"  -F, --freq=HZ            samples per second (default 4000)\n"
"  -c, --count=N            a sample every N events (tracepoints: 1)\n"
"  -g                       frame-pointer callchains\n"
"      --call-graph=MODE    fp, or dwarf[,SIZE]: registers and SIZE bytes of\n"
"                           user stack per sample (default 8192), for\n"
"                           pd-unwind or perf's unwinding\n"
"      --off-cpu            where tasks wait: sched:sched_switch with\n"
"                           callchains and --switch-events (for\n"
"                           pd-fold --off-cpu)\n"
"      --switch-events      context switch records\n"
"  -p, --pid=PID            record an existing process (all its threads)\n"
"  -t, --tid=TID            record one thread\n"
"  -a, --all-cpus           system-wide\n"
"  -C, --cpu=LIST           these CPUs only (system-wide), e.g. 0,2-3\n"
"  -i, --no-inherit         children and new threads are not recorded\n"
"  -o, --output=FILE        output (default perf.data); '-' writes pipe mode\n"
"                           to standard output (the command's output then\n"
"                           goes to standard error)\n"
"      --target-perf=PERF   a file that perf reads: a version (5.15), what\n"
"                           perf --version prints, a distribution\n"
"                           (debian11), or a perf binary (auto, a path:\n"
"                           probed); see pd-convert --list-targets\n"
"  -z, --compression-level[=N]  zstd-compress the records (level 1..22,\n"
"                           default 1)\n"
"  -m, --mmap-pages=N       ring buffer pages per CPU, a power of 2\n"
"                           (default 128)\n"
"  -k, --clockid=CLOCK      stamp records with CLOCK: monotonic,\n"
"                           monotonic_raw, realtime, boottime, tai or a\n"
"                           number (default: perf_clock, the kernel's)\n"
"  -B, --no-buildid         no BUILD_ID feature (nor build-id cache)\n"
"  -N, --no-buildid-cache   do not copy the sampled files into the build-id\n"
"                           cache ($PERF_BUILDID_DIR, buildid.dir, ~/.debug),\n"
"                           nor a container's perf maps and jitdumps\n"
"  -q, --quiet              no summary, no warnings\n"
"  -v, --verbose            more messages\n"
"  -h, --help               this help\n"
"\n"
"Recording stops when the command exits, the process ends, or on SIGINT or\n"
"SIGTERM; the output is complete in each case. Exit status: 0 when the\n"
"profile was written (the command's own status is reported on stderr),\n"
"1 when recording or writing failed, 2 bad usage.\n",
		pd_prog, pd_prog);
}

static uint64_t parse_u64(const char *s, const char *what, uint64_t max)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end || v == 0 || v > max)
		pd_usage_error("%s must be a number from 1 to %llu, not '%s'",
			       what, (unsigned long long)max, s);
	return v;
}

static void parse_call_graph(struct rec_opts *o, const char *arg)
{
	if (!strcmp(arg, "fp")) {
		o->callgraph = REC_CG_FP;
	} else if (!strncmp(arg, "dwarf", 5) && (!arg[5] || arg[5] == ',')) {
		o->callgraph = REC_CG_DWARF;
		o->stack_size = 8192;
		if (arg[5]) {
			uint64_t v = parse_u64(arg + 6, "the dwarf stack size",
					       65528);

			o->stack_size = (v + 7) & ~7ULL;
		}
	} else {
		pd_usage_error("--call-graph takes fp or dwarf[,SIZE], not '%s' (lbr needs a PMU pd-record does not drive)",
			       arg);
	}
}

static void add_events(struct rec_event *evs, size_t *nr, const char *list)
{
	char *copy = strdup(list), *tok, *save = NULL;
	char err[512];

	if (!copy)
		pd_usage_error("out of memory");
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (*nr == MAX_EVENTS)
			pd_usage_error("more than %d events", MAX_EVENTS);
		if (rec_event__parse(&evs[*nr], tok, err, sizeof(err)))
			pd_usage_error("%s", err);
		(*nr)++;
	}
	free(copy);
}

/*
 * --off-cpu: the switch-outs with their stacks, and the switch-ins that
 * end each wait. sched:sched_switch where tracepoints may be sampled;
 * else the context-switches software event, which needs only kernel
 * samples (perf_event_paranoid 1). Returns the event's index.
 */
static ssize_t add_off_cpu(struct rec_event *evs, size_t *nr,
			   struct rec_opts *o)
{
	char err[512];

	if (*nr == MAX_EVENTS)
		pd_usage_error("more than %d events", MAX_EVENTS);
	if (!rec_tracepoints_allowed() ||
	    rec_event__parse(&evs[*nr], "sched:sched_switch", err,
			     sizeof(err))) {
		if (!rec_kernel_allowed()) {
			pd_err("--off-cpu needs kernel samples (the stack where a task leaves the CPU): /proc/sys/kernel/perf_event_paranoid is %d; lower it to 1 (sysctl kernel.perf_event_paranoid=1) or give pd-record CAP_PERFMON",
			       rec_paranoid());
			exit(PD_EXIT_DATA);
		}
		if (rec_event__parse(&evs[*nr], "context-switches", err,
				     sizeof(err)))
			pd_usage_error("%s", err);
	}
	o->switch_events = true;
	if (o->callgraph == REC_CG_NONE)
		o->callgraph = REC_CG_FP;
	return (*nr)++;
}

enum {
	OPT_FILTER = 256, OPT_CALL_GRAPH, OPT_OFF_CPU, OPT_SWITCH,
	OPT_TARGET,
};

static const struct option longopts[] = {
	{ "event", required_argument, NULL, 'e' },
	{ "filter", required_argument, NULL, OPT_FILTER },
	{ "freq", required_argument, NULL, 'F' },
	{ "count", required_argument, NULL, 'c' },
	{ "call-graph", required_argument, NULL, OPT_CALL_GRAPH },
	{ "off-cpu", no_argument, NULL, OPT_OFF_CPU },
	{ "switch-events", no_argument, NULL, OPT_SWITCH },
	{ "pid", required_argument, NULL, 'p' },
	{ "tid", required_argument, NULL, 't' },
	{ "all-cpus", no_argument, NULL, 'a' },
	{ "cpu", required_argument, NULL, 'C' },
	{ "no-inherit", no_argument, NULL, 'i' },
	/* the common -o, in its place after --off-cpu (see cli-main.h) */
	{ "output", required_argument, NULL, 'o' },
	{ "target-perf", required_argument, NULL, OPT_TARGET },
	{ "compression-level", optional_argument, NULL, 'z' },
	{ "mmap-pages", required_argument, NULL, 'm' },
	{ "clockid", required_argument, NULL, 'k' },
	{ "no-buildid", no_argument, NULL, 'B' },
	{ "no-buildid-cache", no_argument, NULL, 'N' },
	{ NULL, 0, NULL, 0 },
};

struct cli {
	struct rec_event evs[MAX_EVENTS];
	size_t nr;
	struct rec_opts o;
	bool off_cpu;
};

static void option(struct pd_cli_main *m, int opt, const char *arg)
{
	struct cli *c = m->tool;
	struct rec_opts *o = &c->o;

	switch (opt) {
	case 'e':
		add_events(c->evs, &c->nr, arg);
		break;
	case OPT_FILTER:
		if (!c->nr || !c->evs[c->nr - 1].tp_system)
			pd_usage_error("--filter follows a tracepoint -e");
		free(c->evs[c->nr - 1].filter);
		c->evs[c->nr - 1].filter = strdup(arg);
		break;
	case 'F':
		o->freq = parse_u64(arg, "-F", 1000000);
		break;
	case 'c':
		o->period = parse_u64(arg, "-c", UINT64_MAX >> 1);
		break;
	case 'g':
		o->callgraph = REC_CG_FP;
		break;
	case OPT_CALL_GRAPH:
		parse_call_graph(o, arg);
		break;
	case 'p':
		o->pid = parse_u64(arg, "-p", INT32_MAX);
		break;
	case 't':
		o->tid = parse_u64(arg, "-t", INT32_MAX);
		break;
	case 'C':
		o->cpu_list = arg;
		break;
	case OPT_TARGET: {
		/* every form pd-convert --target-perf takes */
		static struct pd_perf_resolved res;

		memset(&res, 0, sizeof(res));
		res.sz = sizeof(res);
		if (pd_perf_target__resolve(arg, &res))
			pd_usage_error("--target-perf=%s: %s (see pd-convert --list-targets)",
				       arg, res.note);
		if (res.how == PD_TARGET_NEWER)
			pd_warn("%s", res.note);
		o->target = arg;
		o->target_perf = &res.target;
		break;
	}
	case 'z':
		o->compress = true;
		if (arg)
			o->compress_level = parse_u64(arg, "the compression level", 22);
		break;
	case 'm':
		o->mmap_pages = parse_u64(arg, "-m", 1U << 20);
		if (o->mmap_pages & (o->mmap_pages - 1))
			pd_usage_error("-m must be a power of 2, not %u",
				       o->mmap_pages);
		break;
	case 'k':
		if (rec_clockid_parse(arg, &o->clockid))
			pd_usage_error("unknown clock '%s' (monotonic, monotonic_raw, realtime, boottime, tai or a number)",
				       arg);
		o->use_clockid = true;
		break;
	}
}

static int run(struct pd_cli_main *m)
{
	struct cli *c = m->tool;
	struct rec_opts *o = &c->o;
	ssize_t off_cpu_idx = -1;
	size_t i;
	int ret;

	o->output = m->output ? m->output : "perf.data";
	o->quiet = pd_quiet;
	o->verbose = pd_verbose;
	if (m->nr_args)
		o->argv = m->args;
	if (!o->argv && !o->pid && !o->tid && !o->all_cpus && !o->cpu_list)
		pd_usage_error("nothing to record: give a command, -p PID, -t TID or -a");
	if ((o->pid != 0) + (o->tid != 0) +
	    (o->argv && !o->all_cpus && !o->cpu_list) > 1 ||
	    ((o->pid || o->tid) && (o->all_cpus || o->cpu_list)))
		pd_usage_error("give one of a command, -p, -t, or -a/-C");
	if (o->freq && o->period)
		pd_usage_error("-F and -c exclude each other");
	if (c->off_cpu)
		off_cpu_idx = add_off_cpu(c->evs, &c->nr, o);
	if (!c->nr)
		add_events(c->evs, &c->nr, "cpu-clock");
	if (o->target && o->compress &&
	    !pd_perf_target__knows_record(o->target_perf, PD_RECORD_COMPRESSED))
		pd_warn("-z: perf %s reads no compressed records: the records are written uncompressed",
			o->target);
	/* after the checks above, which a terminal does not change */
	ret = pd_cli_check_output(m, PD_CLI_BINARY_OUTPUT);
	if (ret)
		return ret;
	rec_events__config(c->evs, c->nr, o, rec_kernel_allowed());
	if (off_cpu_idx >= 0) {
		/* every switch-out, whatever -F or -c say for the others */
		c->evs[off_cpu_idx].attr.flags &= ~PD_ATTR_FREQ;
		c->evs[off_cpu_idx].attr.sample_period = 1;
	}
	ret = rec_session__run(o, c->evs, c->nr);
	for (i = 0; i < c->nr; i++) {
		free(c->evs[i].filter);
		rec_event__free(&c->evs[i]);
	}
	return ret;
}

int main(int argc, char **argv)
{
	/* static: MAX_EVENTS events are large for the stack */
	static struct cli c = { .o.mmap_pages = 128 };
	const struct pd_cli_bool bools[] = {
		{ OPT_OFF_CPU, &c.off_cpu }, { OPT_SWITCH, &c.o.switch_events },
		{ 'a', &c.o.all_cpus }, { 'i', &c.o.no_inherit },
		{ 'B', &c.o.no_buildid }, { 'N', &c.o.no_buildid_cache },
		{ 0 },
	};
	struct pd_cli_main m = {
		.init = pd_cli_init, .usage = usage, .run = run, .tool = &c,
		.longopts = longopts, .shortopts = "e:F:c:gp:t:aC:iz::m:k:BN",
		.bools = bools, .option = option,
		.flags = PD_CLI_OUTPUT | PD_CLI_VERBOSE,
		.takes = PD_CLI_COMMAND,
	};

	c.o.argc_all = argc;
	c.o.argv_all = argv;
	return pd_cli_main(argc, argv, &m);
}
