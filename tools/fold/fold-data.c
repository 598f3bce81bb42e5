// SPDX-License-Identifier: MIT
/*
 * pd-fold's perf.data input. Records are read in time order (as perf
 * script reads them), threads and maps rebuilt by the library's session,
 * and each sample with a callchain turned into the lines perf script would
 * print for it; those lines go through the same parser as real perf
 * script text. So folding a file and folding its perf script output agree
 * by construction, quirks of stackcollapse-perf.pl's parsing included,
 * and `--script` shows exactly what was folded.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <perfdata/format.h>
#include <perfdata/reader.h>
#include <perfdata/session.h>
#include <perfdata/symbols.h>
#include <perfdata/unwind.h>

#include "common/cli.h"
#include "fold.h"
#include "fold-ahead.h"
#include "fold-data.h"
#include "fold-offcpu.h"
#include "fold-raw.h"
#include "fold-script.h"
#include "common/sample-select.h"
#include "script-text.h"

/* perf script's default --max-stack (PERF_MAX_STACK_DEPTH) */
#define MAX_STACK	127
/*
 * Frame lines of one sample: kernel entries and unwound user entries
 * (MAX_STACK each) and the inlined frames DWARF callchains add; deeper
 * inline nesting than this average is cut.
 */
#define MAX_FRAMES	(MAX_STACK * 16)
#define LINE_MAX_LEN	8192

struct fold_run {
	const char *path;
	const struct fold_data_opts *o;
	struct folder *f;
	struct fold_script_parser *parser;
	/* folds on a second thread; NULL: here (fold-ahead.h) */
	struct fold_ahead *ahead;
	struct pd_reader *r;
	struct pd_symbolizer *sym;
	struct pd_session *session;
	struct pd_unwinder *unwinder;
	struct script_text *st;
	struct fold_offcpu *offcpu;
	struct pd_read_periods *reads;
	struct sample_filter *filter;	/* --to=script's selections */
	/* per event: how sample headers reach the folder (header_direct) */
	uint8_t *hdr_route;
	size_t nr_hdr_route;
	char *chain;		/* --off-cpu: a stack's frame lines */
	size_t chain_cap;
	struct pd_frame frames[MAX_FRAMES];
	char line[LINE_MAX_LEN];
	/* --raw: the sample's user frames were unwound from its stack copy */
	bool raw_dwarf;
	struct fold_raw raw;
	/* --raw-kernel: the recorded kernel build id, once known */
	uint8_t kernel_bid[FOLD_RAW_BUILD_ID_MAX];
	size_t kernel_bid_size;
	uint64_t nr_samples, nr_no_callchain, nr_offcpu, nr_switch_out;
};

static void emit(struct fold_run *run, size_t len)
{
	if (run->o->script_out) {
		fwrite(run->line, 1, len, run->o->script_out);
		fputc('\n', run->o->script_out);
	} else {
		fold_script_parser__line(run->parser, run->line, len);
	}
}

/* "/tmp/perf-PID.map": this machine's JIT symbols, named here */
static bool is_perf_map(const char *name)
{
	size_t n = strlen(name);

	return !strncmp(name, "/tmp/perf-", 10) && n > 14 &&
	       !strcmp(name + n - 4, ".map");
}

/*
 * --raw: a user frame in a mapped file (a path, or the vdso, which perf
 * keeps in the build-id cache) becomes a raw frame; anonymous memory,
 * perf maps and JIT code, and every kernel frame, are named here, where
 * their symbols are.
 */
static bool emit_raw(struct fold_run *run, const struct pd_frame *fr)
{
	const char *name = fr->dso_name;
	struct fold_raw *r = &run->raw;
	size_t len;

	if (!fr->has_map || fr->kernel || fr->sym || !fr->dso || !name ||
	    (name[0] != '/' && strcmp(name, "[vdso]")) || name[1] == '/' ||
	    !strncmp(name, "/memfd:", 7) || is_perf_map(name) ||
	    strlen(name) >= sizeof(r->path))
		return false;
	r->build_id_size = 0;
	if (fr->build_id && fr->build_id_size &&
	    fr->build_id_size <= sizeof(r->build_id)) {
		memcpy(r->build_id, fr->build_id, fr->build_id_size);
		r->build_id_size = fr->build_id_size;
	}
	strcpy(r->path, name);
	r->addr = fr->addr;
	r->dwarf = run->raw_dwarf;
	r->kernel = false;
	len = fold_raw__format(run->line, sizeof(run->line), r);
	if (!len)
		return false;
	folder__folded_frame(run->f, run->line, len, FOLD_FRAME_USER);
	return true;
}

/*
 * --raw-kernel: a frame of the kernel proper becomes a raw kernel frame
 * (fold-raw.h), its offset from the relocation reference symbol the
 * kernel map names, when the recording names the kernel's build id too
 * (else nothing would say which kernel's symbols name it). Its frames
 * are those of the kernel map and, since this host may lack the kernel's
 * symbols (which move that map to them here: init text lies past the
 * recorded map), kernel addresses in no map at or above the reference;
 * --symbolize keeps to the range of the symbols it finds, as the
 * session does with them. Modules, BPF programs and guests' kernels are
 * named here.
 */
static bool emit_raw_kernel(struct fold_run *run, const struct pd_frame *fr)
{
	struct fold_raw *r = &run->raw;
	const char *ref;
	uint64_t ref_addr;
	size_t len;

	if (fr->cpumode != PD_MISC_KERNEL ||
	    (fr->has_map && strncmp(fr->dso_name, FOLD_RAW_KERNEL,
				    FOLD_RAW_KERNEL_LEN)) ||
	    pd_session__kernel_ref(run->session, &ref, &ref_addr) ||
	    (!fr->has_map && fr->ip < ref_addr) ||
	    strlen(ref) + FOLD_RAW_KERNEL_LEN >= sizeof(r->path))
		return false;
	if (!run->kernel_bid_size) {
		int n = pd_session__kernel_build_id(run->session,
						    run->kernel_bid,
						    sizeof(run->kernel_bid));

		if (n <= 0)
			return false;
		run->kernel_bid_size = (size_t)n;
	}
	memcpy(r->build_id, run->kernel_bid, run->kernel_bid_size);
	r->build_id_size = run->kernel_bid_size;
	strcpy(r->path, FOLD_RAW_KERNEL);
	strcpy(r->path + FOLD_RAW_KERNEL_LEN, ref);
	r->addr = fr->ip - ref_addr;
	r->dwarf = false;
	r->kernel = true;
	len = fold_raw__format(run->line, sizeof(run->line), r);
	if (!len)
		return false;
	folder__folded_frame(run->f, run->line, len, FOLD_FRAME_KERNEL);
	return true;
}

/*
 * A frame's line folds the same wherever the frame shows the same symbol
 * and module (the text holds nothing else the folding reads but the
 * address, and the folder knows when that matters): fold its text once,
 * then replay the result.
 */
static void emit_frame(struct fold_run *run, const struct pd_frame *fr)
{
	size_t len;

	if (run->o->script_out) {
		emit(run, script_text__frame(fr, run->line, sizeof(run->line)));
		return;
	}
	if (run->o->raw_kernel && emit_raw_kernel(run, fr))
		return;
	if (run->o->raw && emit_raw(run, fr))
		return;
	if (folder__replay(run->f, fr->sym, fr->dso_name, fr->inline_name))
		return;
	len = script_text__frame(fr, run->line, sizeof(run->line));
	folder__record_begin(run->f, fr->sym, fr->dso_name, fr->inline_name);
	fold_script_parser__line(run->parser, run->line, len);
	folder__record_end(run->f);
}

enum { HDR_UNCHECKED, HDR_FIELDS, HDR_TEXT };

static bool same_sample(const struct fold_sample *a, const struct fold_sample *b)
{
	char tid[16];

	snprintf(tid, sizeof(tid), "%d", a->tid);
	return !strcmp(a->comm, b->comm) && a->pid == b->pid &&
	       !b->pid_text && a->tid == b->tid && b->tid_text &&
	       b->tid_text_len == strlen(tid) &&
	       !memcmp(b->tid_text, tid, b->tid_text_len) &&
	       a->cpu == b->cpu && a->has_time == b->has_time &&
	       (!a->has_time || a->time_ns == b->time_ns) &&
	       a->has_period == b->has_period &&
	       (!a->has_period || a->period == b->period) &&
	       !a->event == !b->event &&
	       (!a->event || !strcmp(a->event, b->event));
}

/*
 * A sample's header goes to the folder as its fields rather than as text
 * to format and parse again (which costs more than all its frames, once
 * they are memoized), when script_text__header_fields() says the fields
 * are what the text would give; that is checked against the text route
 * on each event's first such sample, and an event where they differ
 * keeps the text. True: smp holds them, false: the text it is.
 */
static bool header_fields(struct fold_run *run, const struct pd_event *ev,
			  const struct pd_thread *t, struct fold_sample *smp)
{
	struct fold_sample parsed;
	size_t idx, len;

	if (run->o->script_out || !ev->evsel ||
	    !script_text__header_fields(run->st, ev, t, smp))
		return false;
	idx = (size_t)ev->evsel->idx;
	if (idx >= run->nr_hdr_route) {
		size_t n = idx + 16;
		uint8_t *v = realloc(run->hdr_route, n);

		if (!v)
			return false;
		memset(v + run->nr_hdr_route, HDR_UNCHECKED, n - run->nr_hdr_route);
		run->hdr_route = v;
		run->nr_hdr_route = n;
	}
	if (run->hdr_route[idx] == HDR_UNCHECKED) {
		len = script_text__header(run->st, ev, t, run->line,
					  sizeof(run->line));
		run->hdr_route[idx] =
			fold_script_header(run->line, len, &parsed) &&
			same_sample(smp, &parsed) ? HDR_FIELDS : HDR_TEXT;
	}
	return run->hdr_route[idx] == HDR_FIELDS;
}

static int fold_one(void *ctx, const struct pd_event *ev);

/* whether some event samples user stacks: callchains to unwind (DWARF) */
static bool samples_user_stacks(const struct pd_reader *r)
{
	size_t i;

	for (i = 0; i < pd_reader__nr_evsels(r); i++) {
		const struct pd_evsel *e = pd_reader__evsel(r, i);

		if (e && (e->attr.sample_type & PD_SAMPLE_STACK_USER))
			return true;
	}
	return false;
}

/*
 * A sample with counter values is delivered once per value that grew,
 * as perf does (pd_read_periods): each a copy of the sample under the
 * value's event, with its growth as the period.
 */
static int fold_sample(struct fold_run *run, const struct pd_event *ev)
{
	return pd_read_periods__for_each(run->reads, ev, fold_one, run);
}

/*
 * A sample without a callchain, as perf script prints it: the header,
 * then, when perf shows the address, " %16lx sym+off (dso)" on the same
 * line.
 */
static int print_oneline(struct fold_run *run, const struct pd_event *ev)
{
	const struct pd_sample *s = &ev->u.sample;
	struct pd_thread *t;
	size_t len;

	t = pd_session__sample_thread(run->session, s);
	if (!t)
		return -ENOMEM;
	len = script_text__header(run->st, ev, t, run->line, sizeof(run->line));
	if (script_text__shows_ip(run->st, ev) && len + 1 < sizeof(run->line)) {
		pd_session__resolve(run->session, t,
				    ev->misc & PD_MISC_CPUMODE_MASK, s->ip,
				    &run->frames[0]);
		len += script_text__sample_ip(&run->frames[0], run->line + len,
					      sizeof(run->line) - len);
	}
	emit(run, len);
	return 0;
}

static int fold_one(void *ctx, const struct pd_event *ev)
{
	struct fold_run *run = ctx;
	const struct pd_sample *s = &ev->u.sample;
	struct pd_thread *t = NULL;
	struct fold_sample smp;
	bool direct;
	int n, i;

	if (run->filter) {
		t = pd_session__sample_thread(run->session, s);
		if (!t)
			return -ENOMEM;
		if (!sample_filter__keep(run->filter, ev, t))
			return 0;
	}
	run->nr_samples++;
	if (!script_text__has_callchain(run->st, ev)) {
		run->nr_no_callchain++;
		if (run->o->script_out && run->o->script_all)
			return print_oneline(run, ev);
		return 0;
	}
	/* looked up once: the filter may have done it */
	if (!t)
		t = pd_session__sample_thread(run->session, s);
	if (!t)
		return -ENOMEM;
	n = pd_unwinder__sample_frames(run->unwinder, t, ev, run->frames,
				       MAX_FRAMES);
	/* perf script prints the sample alone: nothing to fold */
	if (n == -ENODATA)
		return 0;
	if (n < 0)
		return n;
	/* perf adds inlined frames to unwound user frames only */
	run->raw_dwarf = run->o->raw && !run->o->no_inline &&
			 pd_unwinder__wants(ev);
	direct = header_fields(run, ev, t, &smp);
	if (run->ahead) {
		if (!direct &&
		    fold_ahead__header_text(run->ahead, run->line,
					    script_text__header(run->st, ev, t,
								run->line,
								sizeof(run->line))))
			return -ENOMEM;
		return fold_ahead__sample(run->ahead, direct ? &smp : NULL,
					  run->frames, n);
	}
	if (direct)
		folder__begin(run->f, &smp);
	else
		emit(run, script_text__header(run->st, ev, t, run->line,
					      sizeof(run->line)));
	for (i = 0; i < n; i++)
		emit_frame(run, &run->frames[i]);
	run->line[0] = '\0';
	emit(run, 0);
	return 0;
}

/* --off-cpu: the frame lines of a sample, kept until its task runs again */
static int keep_stack(struct fold_run *run, const struct pd_event *ev,
		      struct pd_thread *t)
{
	size_t len = 0;
	int n, i;

	n = pd_unwinder__sample_frames(run->unwinder, t, ev, run->frames,
				       MAX_FRAMES);
	if (n < 0)
		n = 0;
	for (i = 0; i < n; i++) {
		size_t k = script_text__frame(&run->frames[i], run->line,
					      sizeof(run->line));

		if (len + k + 1 > run->chain_cap) {
			size_t cap = (len + k + 1) * 2;
			char *c = realloc(run->chain, cap);

			if (!c)
				return -ENOMEM;
			run->chain = c;
			run->chain_cap = cap;
		}
		memcpy(run->chain + len, run->line, k);
		len += k;
		run->chain[len++] = '\n';
	}
	return fold_offcpu__out(run->offcpu, pd_thread__tid(t),
				ev->u.sample.time, run->chain ? run->chain : "",
				len);
}

/* tid runs again: fold its pending stack, weighted by the wait */
static int resume(struct fold_run *run, int32_t pid, int32_t tid,
		  uint64_t time)
{
	struct pd_thread *t;
	const char *text, *nl;
	uint64_t wait;
	size_t len;

	text = fold_offcpu__in(run->offcpu, tid, time, &wait, &len);
	if (!text)
		return 0;
	run->nr_offcpu++;
	t = pd_session__thread(run->session, pid, tid);
	if (!t)
		return -ENOMEM;
	emit(run, snprintf(run->line, sizeof(run->line),
			   "%s %5d %5" PRIu64 ".%06" PRIu64 ": %10" PRIu64 " off-cpu: ",
			   pd_thread__comm(t), tid, time / 1000000000,
			   time % 1000000000 / 1000, wait ? wait : 1));
	for (; len; text = nl + 1) {
		size_t k;

		nl = memchr(text, '\n', len);
		k = nl - text;
		memcpy(run->line, text, k);
		run->line[k] = '\0';
		emit(run, k);
		len -= k + 1;
	}
	run->line[0] = '\0';
	emit(run, 0);
	return 0;
}

/* attr.config of the context-switches software event */
#define SW_CONTEXT_SWITCHES	3

static int offcpu_sample(struct fold_run *run, const struct pd_event *ev)
{
	const struct pd_sample *s = &ev->u.sample;
	int32_t prev, next;
	struct pd_thread *t;
	int err;

	if (fold_offcpu__is_switch(run->offcpu, ev, &prev, &next)) {
		t = pd_session__thread(run->session, s->pid, s->tid);
		if (!t)
			return -ENOMEM;
		if (script_text__has_callchain(run->st, ev)) {
			run->nr_switch_out++;
			err = keep_stack(run, ev, t);
			if (err)
				return err;
		}
		return resume(run, -1, next, s->time);
	}
	/*
	 * The context-switches software event (perf record -e cs -c 1 -g,
	 * pd-record --off-cpu without tracepoint rights): taken in the task
	 * leaving the CPU, with its stack; its switch-in comes as a SWITCH
	 * record (--switch-events) or as its next sample.
	 */
	if (ev->evsel && ev->evsel->attr.type == PD_TYPE_SOFTWARE &&
	    ev->evsel->attr.config == SW_CONTEXT_SWITCHES) {
		err = resume(run, s->pid, s->tid, s->time);
		if (err || !script_text__has_callchain(run->st, ev))
			return err;
		t = pd_session__thread(run->session, s->pid, s->tid);
		if (!t)
			return -ENOMEM;
		run->nr_switch_out++;
		return keep_stack(run, ev, t);
	}
	/* perf record --off-cpu: the wait is the period */
	if (script_text__is_offcpu_time(run->st, ev)) {
		run->nr_offcpu++;
		return fold_sample(run, ev);
	}
	return resume(run, s->pid, s->tid, s->time);
}

/* A record that is not a sample: the session's, and the stitcher's. */
static int session_event(struct fold_run *run, const struct pd_event *ev)
{
	pd_unwinder__event(run->unwinder, ev);
	return pd_session__event(run->session, ev);
}

int fold_perf_data(const char *path, const struct fold_data_opts *o,
		   struct folder *f)
{
	struct pd_reader_opts ropts = {
		.sz = sizeof(ropts),
		.order = PD_ORDER_TIME,
		.stack_used_only = true,
	};
	struct pd_symbolizer_opts sopts = {
		.sz = sizeof(sopts),
		.symfs = o->symfs,
		.roots = o->roots,
		.kallsyms = o->kallsyms,
		.vmlinux = o->vmlinux,
		/* --raw: no symbol work at all, nothing fetched */
		.no_debuginfod = o->no_debuginfod || o->raw,
		.elf_files_only = o->raw,
	};
	struct pd_session_opts xopts = { .sz = sizeof(xopts) };
	struct pd_unwind_opts uopts = {
		.sz = sizeof(uopts),
		.max_stack = MAX_STACK,
		.no_inline = o->no_inline,
		.jobs = o->jobs,
		.path = path,
		.stitch = o->stitch,
	};
	const struct pd_event *ev;
	struct fold_run *run;
	int ret = PD_EXIT_DATA, err;

	run = calloc(1, sizeof(*run));
	if (!run) {
		pd_err("%s: %s", path, strerror(ENOMEM));
		return PD_EXIT_DATA;
	}
	run->path = path;
	run->o = o;
	run->f = f;
	run->r = pd_cli_open(path, &ropts);
	if (!run->r)
		goto out;
	run->sym = pd_symbolizer__new(&sopts);
	xopts.symbolizer = run->sym;
	if (run->sym)
		run->session = pd_session__new(run->r, &xopts);
	if (run->session)
		run->unwinder = pd_unwinder__new(run->session, run->r, &uopts);
	run->st = script_text__new(run->r);
	run->reads = pd_read_periods__new(run->r);
	if (o->script_out && o->select) {
		run->filter = sample_filter__new(o->select, run->r);
		if (!run->filter) {
			pd_err("%s: %s", path, strerror(errno));
			goto out;
		}
	}
	if (o->off_cpu) {
		run->offcpu = fold_offcpu__new(run->r);
		if (!run->offcpu) {
			pd_err("%s: %s", path, strerror(ENOMEM));
			goto out;
		}
	}
	if (!o->script_out)
		run->parser = fold_script_parser__new(f, path);
	if (!run->sym || !run->session || !run->unwinder || !run->st ||
	    !run->reads ||
	    (!o->script_out && !run->parser)) {
		pd_err("%s: %s", path, strerror(ENOMEM));
		goto out;
	}
	/*
	 * plain folding: the folder's work can go to a second thread; not
	 * with --jobs=1, nor where callchains are unwound, whose unwinding
	 * leaves the folding a small part (--jobs=2 gives the second CPU
	 * to an unwinding helper there)
	 */
	if (!o->script_out && !o->off_cpu && !run->filter && !o->raw &&
	    folder__may_run_apart(f) &&
	    fold_ahead__wanted(o->jobs != 1 && !samples_user_stacks(run->r)))
		run->ahead = fold_ahead__new(f, run->parser);
	/*
	 * with a CPU to spare, the symbols too are loaded on it, while the
	 * first samples are read (the folding thread has little to do yet);
	 * without, as the samples need them. Same output either way.
	 */
	if (run->ahead) {
		pd_session__preload_symbols(run->session);
		pd_reader__read_ahead(run->r);
	} else if (o->jobs == 0 && samples_user_stacks(run->r) &&
		   fold_ahead__wanted(true)) {
		/*
		 * DWARF callchains: the input is read (about half the time:
		 * the stack copies come from the page cache) and put in time
		 * order on the second CPU, while this thread unwinds
		 */
		pd_reader__read_ahead(run->r);
	}
	while ((err = pd_reader__next(run->r, &ev)) > 0) {
		if (ev->type == PD_RECORD_SAMPLE && run->offcpu)
			err = offcpu_sample(run, ev);
		else if (ev->type == PD_RECORD_SAMPLE)
			err = fold_sample(run, ev);
		else
			err = session_event(run, ev);
		/* a context switch in: the task runs again */
		if (!err && run->offcpu &&
		    (ev->type == PD_RECORD_SWITCH ||
		     ev->type == PD_RECORD_SWITCH_CPU_WIDE) &&
		    !(ev->misc & PD_MISC_SWITCH_OUT) &&
		    (ev->sid.present & PD_SAMPLE_TID))
			err = resume(run, ev->sid.pid, ev->sid.tid, ev->sid.time);
		if (err < 0) {
			pd_err("%s: offset %#" PRIx64 ": %s", path, ev->offset,
			       pd_strerror(err));
			goto out;
		}
	}
	if (err < 0) {
		pd_err("%s", pd_reader__errmsg(run->r));
		goto out;
	}
	fold_ahead__finish(run->ahead);
	run->ahead = NULL;
	if (run->offcpu && !run->nr_offcpu && run->nr_switch_out)
		pd_warn("%s: --off-cpu: tasks leave the CPU but none is seen coming back (a recording of one command's sched_switch events has only its switch-outs): record with -a or --switch-events",
			path);
	else if (run->offcpu && !run->nr_offcpu &&
		 !fold_offcpu__unreadable(run->offcpu))
		pd_warn("%s: --off-cpu found no sched:sched_switch or context-switches samples with callchains (perf record -e sched:sched_switch -g, pd-record --off-cpu) and no offcpu-time samples (perf record --off-cpu)",
			path);
	else if (run->nr_samples && run->nr_samples == run->nr_no_callchain)
		pd_warn("%s: no callchains (record with -g or --call-graph): nothing to fold",
			path);
	ret = PD_EXIT_OK;
out:
	fold_ahead__finish(run->ahead);
	fold_offcpu__free(run->offcpu);
	sample_filter__free(run->filter);
	pd_read_periods__free(run->reads);
	free(run->chain);
	free(run->hdr_route);
	fold_script_parser__free(run->parser);
	script_text__free(run->st);
	pd_unwinder__free(run->unwinder);
	pd_session__free(run->session);
	pd_symbolizer__free(run->sym);
	pd_reader__close(run->r);
	free(run);
	return ret;
}
