// SPDX-License-Identifier: MIT
/*
 * The converter: reader -> shims -> writer.
 *
 * The shims a target needs are decided once, from the target and the
 * input's attrs and features; each is then applied record by record. The
 * counts of what each shim changed or dropped go to the report, which
 * is all a dry run (pd-convert --explain) produces.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <perfdata/compat.h>
#include <perfdata/features.h>
#include <perfdata/reader.h>
#include <perfdata/unwind.h>
#include <perfdata/writer.h>

#include "attr-bits.h"
#include "header/attr.h"
#include "build-ids.h"
#include "header/feat-swap.h"
#include "base/internal.h"
#include "writing/sample-encode.h"
#include "reading/reader-state.h"
#include "stat-cpu.h"

#define ID_BITS (PD_SAMPLE_TID | PD_SAMPLE_TIME | PD_SAMPLE_ID | \
		 PD_SAMPLE_STREAM_ID | PD_SAMPLE_CPU | PD_SAMPLE_IDENTIFIER)

struct out_evsel {
	struct pd_attr attr;		/* as written */
	uint32_t attr_size;
	bool rewrite_samples;
	bool rewrite_trailer;
	bool rewrite_read;		/* READ records: read_format changed */
	bool attr_changed;		/* bits cleared by the attr-bits shim */
	bool added;			/* given to the writer */
};

struct build_id_entry {
	int32_t pid;
	uint16_t cpumode;
	uint8_t size;
	uint8_t id[20];
	char *filename;
};

struct conv {
	struct pd_reader *r;
	struct pd_writer *w;
	const struct pd_perf_target *t;
	const struct pd_convert_opts *o;
	struct pd_convert_report *rep;
	uint64_t shims;
	enum pd_mode in_mode, out_mode;
	uint32_t compress;
	struct out_evsel *ev;
	size_t nr_ev;
	bool started;
	uint8_t buf[2 * 65536];
	uint8_t stack[65536];		/* a stack copy cut_to_filled() */
	struct build_id_entry *bids;
	size_t nr_bids, cap_bids;
	char *errmsg;
	size_t errlen;
	struct pd_unwind_rewriter *uw;	/* the unwind shim's */
	bool own_uw;
	struct stat_cpus stat_cpus;	/* the stat-cpu shim's maps */
	int stat_cpu_numbers;		/* the input's form: stat-cpu.h */
	bool warned_sample_types;	/* one_sample_type()'s, on a pipe */
	/* the input's fd, when unchanged records are copied from it by
	 * the kernel (copy_records()); else -1 */
	int copy_fd;
};

static int fail(struct conv *c, int err, const char *fmt, ...) PD_PRINTF(3, 4);

static int fail(struct conv *c, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->errmsg, c->errlen, fmt, ap);
	va_end(ap);
	return err ? err : -EINVAL;
}

static bool on(const struct conv *c, enum pd_shim s)
{
	return c->shims & (1ULL << s);
}

static bool knows_record(const struct conv *c, uint32_t type)
{
	return !c->t || pd_perf_target__knows_record(c->t, type);
}

/* ---- deciding the shims ---- */

static uint64_t evsel_removed_bits(const struct pd_perf_target *t,
				   const struct pd_attr *a, uint64_t *rf,
				   uint64_t *bst)
{
	*rf = a->read_format & ~t->read_format;
	*bst = a->branch_sample_type & (PD_BRANCH_HW_INDEX | PD_BRANCH_COUNTERS) &
	       ~t->branch_sample_type;
	if (!(a->sample_type & PD_SAMPLE_READ))
		*rf = 0;
	if (!(a->sample_type & PD_SAMPLE_BRANCH_STACK))
		*bst = 0;
	return a->sample_type & ~t->sample_type;
}

/* The version of the input's perf (VERSION feature), or 0 unknown. */
static unsigned int input_version(const struct pd_features *f)
{
	unsigned int maj = 0, min = 0;

	if (!f || !pd_features__has(f, PD_FEAT_VERSION) || !f->version ||
	    sscanf(f->version, "%u.%u", &maj, &min) != 2)
		return 0;
	return PD_PERF_VERSION(maj, min);
}

/* Does an input's perf (VERSION feature) write COMPRESSED2 with -z? */
static bool input_uses_compressed2(const struct pd_features *f)
{
	return input_version(f) >= PD_PERF_VERSION(6, 15);
}

/*
 * Does the input's perf write STAT records' cpu as the CPU's number?
 * From 5.17 (builtin-stat.c, evsel__write_stat_event():
 * perf_cpu_map__cpu() of the position, "perf evsel: Pass cpu not cpu
 * map index to synthesize"); before, the position. -1: no VERSION.
 */
static int input_stat_cpu_numbers(const struct pd_features *f)
{
	unsigned int v = input_version(f);

	return v ? v >= PD_PERF_VERSION(5, 17) : -1;
}

static uint32_t max_attr_size(const struct conv *c)
{
	uint32_t m = 0;
	size_t i;

	for (i = 0; i < pd_reader__nr_evsels(c->r); i++) {
		uint32_t s = pd_reader__evsel(c->r, i)->attr_size_on_disk;

		if (s > m)
			m = s;
	}
	return m ? m : PD_ATTR_SIZE_VER7;
}

/*
 * Output compression. For a target, records are compressed only when
 * asked (--compress) and only if its perf decodes them: it knows the
 * record type and is built with zstd, or its build is not known (a bare
 * version: the user asking knows). Debian 11's perf 5.10, built without
 * zstd, shows 0 samples and no error for a compressed file, and perf
 * 6.1, 6.12 and 7.x fail on compressed pipes, their own included
 * ("Couldn't decompress data"): uncompressed records are what every
 * target reads. Without a target the input's compression is kept.
 */
static void choose_compression(struct conv *c, bool compressed_in)
{
	const struct pd_perf_target *t = c->t;
	const struct pd_features *f = pd_reader__features(c->r);
	const char *why = NULL;

	c->compress = 0;
	if (t && c->o->compress > 0) {
		if (!pd_perf_target__knows_record(t, PD_RECORD_COMPRESSED))
			why = "the target knows no compressed records (COMPRESSED, 81, came with perf 5.2)";
		else if (t->flags & PD_TGT_NO_ZSTD)
			why = "the target's perf is built without zstd: it would show no samples";
		else if (c->out_mode == PD_MODE_PIPE)
			why = "perf does not decompress records from a pipe (6.1, 6.12 and 7.x fail on their own perf record -z -o - streams)";
		else
			c->compress = pd_perf_target__knows_record(t, PD_RECORD_COMPRESSED2) ?
				      PD_RECORD_COMPRESSED2 : PD_RECORD_COMPRESSED;
	} else if (t && compressed_in) {
		why = "records are written uncompressed for a target unless --compress asks";
	} else if (!t && (c->o->compress > 0 ||
			  (c->o->compress == 0 && compressed_in))) {
		c->compress = input_uses_compressed2(f) ?
			      PD_RECORD_COMPRESSED2 : PD_RECORD_COMPRESSED;
	}
	if (c->compress && on(c, PD_SHIM_COMPRESSED2))
		c->compress = PD_RECORD_COMPRESSED;
	if (c->compress && on(c, PD_SHIM_DECOMPRESS)) {
		c->compress = 0;
		why = "the decompress shim is on";
	}
	if (compressed_in && !c->compress)
		c->rep->changed[PD_SHIM_DECOMPRESS]++;
	c->rep->compress_out = c->compress;
	c->rep->compress_why = why;
}

static void choose_shims(struct conv *c)
{
	const struct pd_perf_target *t = c->t;
	const struct pd_features *f = pd_reader__features(c->r);
	/* perf stat record writes the feature with type 0: not compressed */
	bool compressed_in = f && pd_features__has(f, PD_FEAT_COMPRESSED) &&
			     f->compressed.type != 0;
	uint64_t s = 1ULL << PD_SHIM_PIPE_MARKER;
	size_t i;

	if (t) {
		s |= 1ULL << PD_SHIM_DROP_RECORDS | 1ULL << PD_SHIM_FEATURES |
		     1ULL << PD_SHIM_ATTR_BITS;
		if (!(t->flags & PD_TGT_BUILD_ID_PROC_PID))
			s |= 1ULL << PD_SHIM_BUILD_ID_PID;
		if (!pd_perf_target__knows_record(t, PD_RECORD_FINISHED_INIT))
			s |= 1ULL << PD_SHIM_FINISHED_INIT;
		if (!(t->flags & PD_TGT_MMAP2_BUILD_ID))
			s |= 1ULL << PD_SHIM_MMAP2_BUILD_ID;
		if (!pd_perf_target__knows_record(t, PD_RECORD_MMAP2))
			s |= 1ULL << PD_SHIM_MMAP2_TO_MMAP;
		if (!(t->flags & PD_TGT_KERNEL_MMAP2))
			s |= 1ULL << PD_SHIM_KERNEL_MMAP2;
		if (!(t->flags & PD_TGT_CPU_MAP_RANGE))
			s |= 1ULL << PD_SHIM_CPU_MAP_RANGE;
		if (t->version < PD_PERF_VERSION(6, 0))
			s |= 1ULL << PD_SHIM_FEATURE_LAYOUT;
		/* perf stat record's files (the STAT feature) */
		c->stat_cpu_numbers = input_stat_cpu_numbers(f);
		if (f && pd_features__has(f, PD_FEAT_STAT))
			s |= 1ULL << PD_SHIM_STAT_CPU;
		/*
		 * evsel.c of 4.18 gives clock events no unit or scale and
		 * builtin-stat.c nsec_printout() divides their count by
		 * NSEC_PER_MSEC: a scale of 1e-6 read from EVENT_UPDATE is
		 * applied on top (perf 4.18 showed 0.000101 msec for 100.96;
		 * RHEL 8's and RHEL 7's perf, with the unit in evsel.c, read
		 * it right).
		 */
		if (f && pd_features__has(f, PD_FEAT_STAT) &&
		    t->version < PD_PERF_VERSION(4, 19))
			s |= 1ULL << PD_SHIM_CLOCK_UNIT;
		/* a perf without zstd drops compressed records silently */
		if (!pd_perf_target__knows_record(t, PD_RECORD_COMPRESSED) ||
		    (t->flags & PD_TGT_NO_ZSTD))
			s |= 1ULL << PD_SHIM_DECOMPRESS;
		else if (!pd_perf_target__knows_record(t, PD_RECORD_COMPRESSED2))
			s |= 1ULL << PD_SHIM_COMPRESSED2;
		if (max_attr_size(c) > t->attr_size_max ||
		    (c->out_mode == PD_MODE_PIPE &&
		     !(t->flags & PD_TGT_PIPE_ATTR_BY_SIZE)))
			s |= 1ULL << PD_SHIM_ATTR_SIZE;
		for (i = 0; i < pd_reader__nr_evsels(c->r); i++) {
			uint64_t rf, bst;
			const struct pd_attr *a = &pd_reader__evsel(c->r, i)->attr;

			if (evsel_removed_bits(t, a, &rf, &bst) || rf || bst)
				s |= 1ULL << PD_SHIM_SAMPLE_TYPE;
		}
	}
	s |= c->o->shims_add;
	s &= ~c->o->shims_remove;
	c->shims = s;

	choose_compression(c, compressed_in);
}

/* ---- attrs ---- */

struct attr_field {
	uint32_t off, len;
	const char *name;
	uint64_t needs_sample_bit;	/* matters when this bit is sampled */
};

/* Fields past the 64-byte base, for the attr-size shim's checks. */
static const struct attr_field attr_fields[] = {
	{ 64, 8, "config2 (bp_len)", 0 },
	{ 72, 8, "branch_sample_type", PD_SAMPLE_BRANCH_STACK },
	{ 80, 8, "sample_regs_user", PD_SAMPLE_REGS_USER },
	{ 88, 4, "sample_stack_user", 0 },
	{ 92, 4, "clockid", 0 },
	{ 96, 8, "sample_regs_intr", PD_SAMPLE_REGS_INTR },
	{ 104, 4, "aux_watermark", 0 },
	{ 108, 2, "sample_max_stack", 0 },
	{ 110, 2, "reserved", 0 },
	{ 112, 4, "aux_sample_size", 0 },
	{ 116, 4, "aux_action", 0 },
	{ 120, 8, "sig_data", 0 },
	{ 128, 8, "config3", 0 },
	{ 136, 8, "config4", 0 },
};

static bool nonzero(const uint8_t *p, size_t n)
{
	while (n--)
		if (*p++)
			return true;
	return false;
}

/* Attr bytes past new_size must be zero, or not matter for reading. */
static int check_attr_tail(struct conv *c, const struct pd_evsel *e,
			   const struct pd_attr *out, uint32_t new_size)
{
	const uint8_t *raw = e->attr_raw;
	size_t i;

	for (i = 0; i < PD_ARRAY_SIZE(attr_fields); i++) {
		const struct attr_field *fl = &attr_fields[i];

		if (fl->off + fl->len <= new_size ||
		    fl->off + fl->len > e->attr_raw_size ||
		    !nonzero(raw + fl->off, fl->len))
			continue;
		if (fl->needs_sample_bit & out->sample_type)
			return fail(c, -PD_ERR_UNSUPPORTED,
				    "%s: attr %d (%s): %s is set and decides the sample layout, but a %u-byte attr cannot carry it",
				    pd_reader__name(c->r), e->idx,
				    e->name ? e->name : "?", fl->name, new_size);
		pd__warn(&(struct pd_logger){ .name = pd_reader__name(c->r) },
			 "attr %d: %s dropped (not needed to read the file)",
			 e->idx, fl->name);
		c->rep->dropped[PD_SHIM_ATTR_SIZE]++;
	}
	return 0;
}

static int plan_evsel(struct conv *c, const struct pd_evsel *e,
		      struct out_evsel *oe)
{
	struct pd_attr *a = &oe->attr;
	uint64_t st, rf = 0, bst = 0;

	*a = e->attr;
	oe->attr_size = e->attr_size_on_disk ? e->attr_size_on_disk
					     : PD_ATTR_SIZE_VER0;
	if (c->uw && pd_unwind_rewriter__attr(c->uw, &e->attr, a)) {
		oe->rewrite_samples = true;
		c->rep->changed[PD_SHIM_UNWIND]++;
	}
	/* user stack copies cut (opts.stack_size), as a smaller dwarf,N,
	 * or each to what was filled (the attr's size stays: the kernel
	 * copies less than it where the record has no room) */
	if (c->o->stack_size == PD_STACK_SIZE_FILLED &&
	    (a->sample_type & PD_SAMPLE_STACK_USER)) {
		oe->rewrite_samples = true;
	} else if (c->o->stack_size && (a->sample_type & PD_SAMPLE_STACK_USER) &&
		   a->sample_stack_user > c->o->stack_size) {
		a->sample_stack_user = (uint32_t)c->o->stack_size;
		oe->rewrite_samples = true;
	}
	if (on(c, PD_SHIM_SAMPLE_TYPE) && c->t) {
		st = evsel_removed_bits(c->t, a, &rf, &bst);
		if (st || rf || bst) {
			uint64_t nst = a->sample_type & ~st;
			uint64_t old_st = a->sample_type;

			/* keep a way to tell evsels apart */
			if ((st & PD_SAMPLE_IDENTIFIER) &&
			    (c->t->sample_type & PD_SAMPLE_ID))
				nst |= PD_SAMPLE_ID;
			if ((st & PD_SAMPLE_WEIGHT_STRUCT) &&
			    (c->t->sample_type & PD_SAMPLE_WEIGHT))
				nst |= PD_SAMPLE_WEIGHT;
			c->rep->sample_bits_removed |= a->sample_type & ~nst;
			c->rep->read_format_removed |= rf;
			c->rep->branch_bits_removed |= bst;
			oe->rewrite_samples = true;
			oe->rewrite_trailer = (a->flags & PD_ATTR_SAMPLE_ID_ALL) &&
					      (nst & ID_BITS) != (old_st & ID_BITS);
			a->sample_type = nst;
			a->read_format &= ~rf;
			a->branch_sample_type &= ~bst;
			c->rep->changed[PD_SHIM_SAMPLE_TYPE]++;
		}
	}
	if (on(c, PD_SHIM_ATTR_BITS) && c->t) {
		struct pd_attr_bits rm = { 0 };

		if (pd__attr_bits_fit(c->t, a, &rm)) {
			oe->attr_changed = true;
			c->rep->changed[PD_SHIM_ATTR_BITS]++;
			c->rep->attr_flags_removed |= rm.flags;
			c->rep->read_format_removed |= rm.read_format;
			c->rep->branch_filter_removed |= rm.branch;
			c->rep->aux_action_removed |= rm.aux_action;
			c->rep->reserved_cleared |= rm.reserved_2 != 0;
		}
	}
	/* READ records are laid out by read_format */
	oe->rewrite_read = a->read_format != e->attr.read_format;
	if (on(c, PD_SHIM_ATTR_SIZE) && c->t) {
		uint32_t size = oe->attr_size;

		if (c->out_mode == PD_MODE_PIPE &&
		    !(c->t->flags & PD_TGT_PIPE_ATTR_BY_SIZE))
			size = c->t->attr_size;
		else if (size > c->t->attr_size_max)
			size = c->t->attr_size_max;
		if (size < oe->attr_size) {
			int err = check_attr_tail(c, e, a, size);

			if (err)
				return err;
		}
		if (size != oe->attr_size)
			c->rep->changed[PD_SHIM_ATTR_SIZE]++;
		oe->attr_size = size;
	}
	/* fields beyond the written size are gone: clear them */
	if (oe->attr_size < sizeof(*a))
		memset((uint8_t *)a + oe->attr_size, 0, sizeof(*a) - oe->attr_size);
	a->size = oe->attr_size;
	return 0;
}

/*
 * Fields a sample can be given that it did not have, as the kernel gives
 * them to an event that asks: an empty RAW (what a cpu-clock gets), no
 * callchain, and the attr's period where a -c event samples none.
 */
#define FILLABLE (PD_SAMPLE_RAW | PD_SAMPLE_CALLCHAIN | PD_SAMPLE_PERIOD)

/*
 * A perf without PERF_SAMPLE_IDENTIFIER finds a record's event by an ID
 * whose place depends on the sample_type, and upstream 3.10 refuses a
 * file whose events differ in it ("non matching sample_type",
 * perf_evlist__valid_sample_type()): perf 3.10 itself recorded a
 * tracepoint (RAW, CPU) next to cpu-clock only with -R, every event then
 * sampling the same. So every event gets the same sample_type: what
 * all of them have, and what any has of the fields a sample can be given
 * (FILLABLE); the other fields (a tracepoint's CPU beside a cpu-clock)
 * are taken out of the events that had them. File-mode input only: a
 * pipe's attrs are written as they come (a warning says so).
 */
static void one_sample_type(struct conv *c)
{
	uint64_t any = 0, all = ~0ULL, st;
	size_t i;

	for (i = 0; i < c->nr_ev; i++) {
		any |= c->ev[i].attr.sample_type;
		all &= c->ev[i].attr.sample_type;
	}
	if (any == all)
		return;
	if (c->in_mode == PD_MODE_PIPE) {
		if (!c->warned_sample_types)
			pd__warn(&(struct pd_logger){ .name = pd_reader__name(c->r) },
				 "%s refuses a file whose events sample different fields (non matching sample_type); a pipe's events are converted as they come: convert to a file (--file) to give them one",
				 c->t->name);
		c->warned_sample_types = true;
		return;
	}
	st = all | (any & FILLABLE);
	for (i = 0; i < c->nr_ev; i++) {
		struct out_evsel *oe = &c->ev[i];
		uint64_t old_st = oe->attr.sample_type;

		if (old_st == st)
			continue;
		c->rep->sample_bits_removed |= old_st & ~st;
		c->rep->sample_bits_added |= st & ~old_st;
		oe->rewrite_samples = true;
		oe->rewrite_trailer = oe->rewrite_trailer ||
				      ((oe->attr.flags & PD_ATTR_SAMPLE_ID_ALL) &&
				       (st & ID_BITS) != (old_st & ID_BITS));
		oe->attr.sample_type = st;
		c->rep->changed[PD_SHIM_SAMPLE_TYPE]++;
	}
}

static int plan_evsels(struct conv *c)
{
	size_t i, n = pd_reader__nr_evsels(c->r);
	int err;

	if (n > c->nr_ev) {
		struct out_evsel *p = realloc(c->ev, n * sizeof(*p));

		if (!p)
			return -ENOMEM;
		memset(p + c->nr_ev, 0, (n - c->nr_ev) * sizeof(*p));
		for (i = c->nr_ev; i < n; i++) {
			err = plan_evsel(c, pd_reader__evsel(c->r, i), &p[i]);
			if (err) {
				c->ev = p;
				c->nr_ev = i;
				return err;
			}
		}
		c->ev = p;
		c->nr_ev = n;
	}
	if (c->rep->attr_size_in == 0 && n) {
		c->rep->attr_size_in = pd_reader__evsel(c->r, 0)->attr_size_on_disk;
		c->rep->attr_size_out = c->ev[0].attr_size;
	}
	if (on(c, PD_SHIM_SAMPLE_TYPE) && c->t &&
	    !(c->t->sample_type & PD_SAMPLE_IDENTIFIER))
		one_sample_type(c);
	return 0;
}

static int add_evsels(struct conv *c)
{
	size_t i;
	int err;

	for (i = 0; i < c->nr_ev; i++) {
		const struct pd_evsel *e = pd_reader__evsel(c->r, i);

		if (c->ev[i].added)
			continue;
		c->ev[i].added = true;
		if (!c->w)
			continue;
		err = pd_writer__add_evsel(c->w, &c->ev[i].attr,
					   c->ev[i].attr_size, e->ids,
					   e->nr_ids);
		if (err)
			return fail(c, err, "%s", pd_writer__errmsg(c->w));
	}
	return 0;
}

static const struct out_evsel *out_evsel(const struct conv *c,
					 const struct pd_evsel *e)
{
	if (!e || e->idx < 0 || (size_t)e->idx >= c->nr_ev)
		return NULL;
	return &c->ev[e->idx];
}

/* ---- features ---- */

/* Features that are empty by design; any other empty one is a marker. */
static bool may_be_empty(unsigned int feat)
{
	return feat == PD_FEAT_BRANCH_STACK || feat == PD_FEAT_STAT;
}

static void put_string(uint8_t **p, const char *s)
{
	uint32_t len = strlen(s) + 1, padded = PD_ALIGN(len, 64);

	memcpy(*p, &padded, 4);
	memset(*p + 4, 0, padded);
	memcpy(*p + 4, s, len);
	*p += 4 + padded;
}

/* EVENT_DESC again, from the attrs as written. */
static int write_event_desc(struct conv *c)
{
	size_t i, size = 8;
	uint32_t attr_size = 0;
	uint8_t *sec, *p;
	int err;

	for (i = 0; i < c->nr_ev; i++) {
		const struct pd_evsel *e = pd_reader__evsel(c->r, i);
		const char *name = e->name ? e->name : "";

		if (c->ev[i].attr_size > attr_size)
			attr_size = c->ev[i].attr_size;
		size += 4 + 4 + PD_ALIGN(strlen(name) + 1, 64) + 8 * e->nr_ids;
	}
	size += (size_t)attr_size * c->nr_ev;
	sec = calloc(1, size);
	if (!sec)
		return -ENOMEM;
	p = sec;
	memcpy(p, &(uint32_t){ (uint32_t)c->nr_ev }, 4);
	memcpy(p + 4, &attr_size, 4);
	p += 8;
	for (i = 0; i < c->nr_ev; i++) {
		const struct pd_evsel *e = pd_reader__evsel(c->r, i);
		struct pd_attr a = c->ev[i].attr;
		uint32_t nr = e->nr_ids;

		a.size = attr_size;
		memcpy(p, &a, attr_size < sizeof(a) ? attr_size : sizeof(a));
		p += attr_size;
		memcpy(p, &nr, 4);
		p += 4;
		put_string(&p, e->name ? e->name : "");
		memcpy(p, e->ids, 8 * (size_t)nr);
		p += 8 * (size_t)nr;
	}
	err = pd_writer__set_feature(c->w, PD_FEAT_EVENT_DESC, sec, size);
	free(sec);
	return err;
}

static void drop_feature(struct conv *c, unsigned int feat, enum pd_shim s)
{
	c->rep->features_dropped[feat / 64] |= 1ULL << (feat % 64);
	c->rep->dropped[s]++;
}

/*
 * sizeof(struct bpf_prog_info) in the tools uapi copy of linux/bpf.h a
 * perf was built with: header.c's process_bpf_prog_info() refuses an
 * entry whose info_len is larger ("detected invalid bpf_prog_info") and
 * with it the whole header. run_cnt was the last field from 5.1,
 * recursion_misses came with 5.12, verified_insns with 5.16, then
 * attach_btf_obj_id and attach_btf_id (6.0 and later: 232, no shim).
 */
static uint32_t bpf_prog_info_size(const struct pd_perf_target *t)
{
	if (t->version < PD_PERF_VERSION(5, 12))
		return 208;
	if (t->version < PD_PERF_VERSION(5, 16))
		return 216;
	return 224;
}

/*
 * BPF_PROG_INFO for an older target: each entry (u32 info_len, u32
 * data_len, u64 arrays, info, data) keeps the part of the info its perf
 * knows; what follows it in the struct are counters and ids that name
 * nothing. Returns the new size, or 0 if the section is malformed.
 */
static size_t shrink_bpf_prog_info(uint8_t *p, size_t size, uint32_t max)
{
	size_t in = 4, out = 4;
	uint32_t nr, i;

	if (size < 4)
		return 0;
	memcpy(&nr, p, 4);
	for (i = 0; i < nr; i++) {
		uint32_t info_len, data_len, keep;

		if (size - in < 16)
			return 0;
		memcpy(&info_len, p + in, 4);
		memcpy(&data_len, p + in + 4, 4);
		if (size - in - 16 < (uint64_t)info_len + data_len)
			return 0;
		keep = info_len < max ? info_len : max;
		memcpy(p + out, &keep, 4);
		memmove(p + out + 4, p + in + 4, 12);
		memmove(p + out + 16, p + in + 16, keep);
		memmove(p + out + 16 + keep, p + in + 16 + info_len, data_len);
		in += 16 + (size_t)info_len + data_len;
		out += 16 + (size_t)keep + data_len;
	}
	return out;
}

/* A BUILD_ID section (host order) for the target: see build-ids.c. */
static size_t fit_build_ids(struct conv *c, uint8_t *sec, size_t size)
{
	if (!c->t || !on(c, PD_SHIM_BUILD_ID_PID))
		return size;
	return pd__build_ids_fit(c->t, sec, size,
				 &c->rep->changed[PD_SHIM_BUILD_ID_PID],
				 &c->rep->dropped[PD_SHIM_BUILD_ID_PID]);
}

static int copy_features(struct conv *c)
{
	const struct pd_features *f = pd_reader__features(c->r);
	bool rebuild_desc = false;
	unsigned int feat;
	size_t i;
	int err;

	if (!f)
		return 0;
	for (i = 0; i < c->nr_ev; i++) {
		const struct pd_evsel *e = pd_reader__evsel(c->r, i);

		if (c->ev[i].attr_size != e->attr_size_on_disk ||
		    c->ev[i].rewrite_samples || c->ev[i].attr_changed ||
		    c->ev[i].rewrite_read)
			rebuild_desc = true;
	}
	for (feat = 1; feat < PD_FEAT_BITS; feat++) {
		const void *data = f->raw[feat].data;
		size_t size = f->raw[feat].size;
		uint8_t *copy;

		if (!data || !pd_features__seen(f, feat))
			continue;
		if (!size && !may_be_empty(feat))
			continue;	/* malformed: the reader warned */
		if (feat == PD_FEAT_COMPRESSED)
			continue;	/* the writer says how it compressed */
		if (c->t && on(c, PD_SHIM_FEATURES) &&
		    !pd_perf_target__knows_feature(c->t, feat)) {
			drop_feature(c, feat, PD_SHIM_FEATURES);
			continue;
		}
		if (on(c, PD_SHIM_FEATURE_LAYOUT) && feat == PD_FEAT_PMU_CAPS) {
			drop_feature(c, feat, PD_SHIM_FEATURE_LAYOUT);
			continue;
		}
		if (feat == PD_FEAT_EVENT_DESC && rebuild_desc) {
			c->rep->changed[PD_SHIM_ATTR_SIZE]++;
			if (c->w && (err = write_event_desc(c)))
				return err;
			continue;
		}
		/* a dry run counts what build-id-pid changes all the same */
		if (!c->w && feat != PD_FEAT_BUILD_ID)
			continue;
		copy = malloc(size ? size : 1);
		if (!copy)
			return -ENOMEM;
		memcpy(copy, data, size);
		if (feat == PD_FEAT_BPF_PROG_INFO && c->t && !f->swapped &&
		    on(c, PD_SHIM_FEATURE_LAYOUT)) {
			size_t was = size;

			size = shrink_bpf_prog_info(copy, size,
						    bpf_prog_info_size(c->t));
			if (!size) {
				free(copy);
				drop_feature(c, feat, PD_SHIM_FEATURE_LAYOUT);
				continue;
			}
			if (size != was)
				c->rep->changed[PD_SHIM_FEATURE_LAYOUT]++;
		}
		if (f->swapped && pd__feat_swap(feat, copy, size, false)) {
			pd__warn(&(struct pd_logger){ .name = pd_reader__name(c->r) },
				 "feature %u cannot be converted from the other byte order: dropped",
				 feat);
			free(copy);
			continue;
		}
		if (feat == PD_FEAT_BUILD_ID)
			size = fit_build_ids(c, copy, size);
		err = c->w ? pd_writer__set_feature(c->w, feat, copy, size) : 0;
		free(copy);
		if (err)
			return fail(c, err, "%s", pd_writer__errmsg(c->w));
	}
	return 0;
}

/* ---- build ids from MMAP2 ---- */

/*
 * A new entry of the converter's own BUILD_ID entries: the machine's pid,
 * as perf writes it (build-ids.c). NULL when out of memory.
 */
static struct build_id_entry *new_build_id(struct conv *c, const char *filename,
					   uint16_t cpumode, int32_t pid,
					   const uint8_t *id, uint8_t size)
{
	struct build_id_entry *b;

	if (c->nr_bids == c->cap_bids) {
		size_t n = c->cap_bids ? 2 * c->cap_bids : 64;

		b = realloc(c->bids, n * sizeof(*b));
		if (!b)
			return NULL;
		c->bids = b;
		c->cap_bids = n;
	}
	b = &c->bids[c->nr_bids];
	b->filename = strdup(filename);
	if (!b->filename)
		return NULL;
	b->cpumode = cpumode & PD_MISC_CPUMODE_MASK;
	b->pid = pd__build_id_pid(c->t, b->cpumode, pid);
	b->size = size > 20 ? 20 : size;
	memset(b->id, 0, sizeof(b->id));
	memcpy(b->id, id, b->size);
	c->nr_bids++;
	return b;
}

/*
 * The name a BUILD_ID entry gives the DSO an MMAP2 maps: the kernel map
 * is named after the machine's kernel DSO and the symbol its pgoff is
 * the address of ("[kernel.kallsyms]_text"), while perf's BUILD_ID
 * table, and the build-id cache perf looks the kallsyms up in, name the
 * DSO alone ("[kernel.kallsyms]", "[guest.kernel.kallsyms.PID]"). The
 * name is cut after its ']' into buf.
 */
static const char *build_id_name(const struct pd_event *ev, char *buf,
				 size_t len)
{
	const char *name = ev->u.mmap.filename, *end;
	uint16_t cpumode = ev->misc & PD_MISC_CPUMODE_MASK;

	if ((cpumode != PD_MISC_KERNEL && cpumode != PD_MISC_GUEST_KERNEL) ||
	    (strncmp(name, "[kernel.kallsyms]", 17) &&
	     strncmp(name, "[guest.kernel.kallsyms", 22)))
		return name;
	end = strchr(name, ']');
	if (!end || (size_t)(end - name) + 2 > len)
		return name;
	memcpy(buf, name, end - name + 1);
	buf[end - name + 1] = '\0';
	return buf;
}

static bool add_build_id(struct conv *c, const struct pd_event *ev)
{
	const struct pd_mmap_event *m = &ev->u.mmap;
	char buf[64];
	const char *name = build_id_name(ev, buf, sizeof(buf));
	size_t i;

	for (i = 0; i < c->nr_bids; i++)
		if (c->bids[i].size == m->build_id_size &&
		    !memcmp(c->bids[i].id, m->build_id, m->build_id_size) &&
		    !strcmp(c->bids[i].filename, name))
			return false;
	return new_build_id(c, name, ev->misc, m->pid, m->build_id,
			    m->build_id_size) != NULL;
}

/*
 * One BUILD_ID entry (file section or HEADER_BUILD_ID record body), with
 * the misc bits the target knows.
 */
static size_t build_id_entry(const struct conv *c,
			     const struct build_id_entry *b, uint32_t type,
			     uint8_t *p)
{
	uint16_t misc = b->cpumode;
	size_t len = PD_ALIGN(strlen(b->filename) + 1, 64);
	size_t size = 8 + 4 + 24 + len;

	memset(p, 0, size);
	memcpy(p, &type, 4);
	misc |= PD_MISC_BUILD_ID_SIZE;
	memcpy(p + 4, &misc, 2);
	memcpy(p + 6, &(uint16_t){ (uint16_t)size }, 2);
	memcpy(p + 8, &b->pid, 4);
	memcpy(p + 12, b->id, b->size);
	p[12 + 20] = b->size;
	memcpy(p + 36, b->filename, strlen(b->filename));
	if (c->t)
		pd__build_id_entry_fit(c->t, p, size);
	return size;
}

/* A file the input names a build id for: its BUILD_ID table, MMAP2s. */
static bool has_build_id(const struct conv *c, const char *filename)
{
	const struct pd_features *f = pd_reader__features(c->r);
	size_t i;

	for (i = 0; f && i < f->build_ids.nr; i++)
		if (f->build_ids.ids[i].filename &&
		    !strcmp(f->build_ids.ids[i].filename, filename))
			return true;
	for (i = 0; i < c->nr_bids; i++)
		if (!strcmp(c->bids[i].filename, filename))
			return true;
	return false;
}

/* The caller's build ids (pd_convert_opts.build_ids) the input lacks. */
static int add_given_build_ids(struct conv *c)
{
	size_t i;

	for (i = 0; i < c->o->nr_build_ids; i++) {
		const struct pd_build_id *g = &c->o->build_ids[i];

		if (!g->filename || has_build_id(c, g->filename))
			continue;
		if (!new_build_id(c, g->filename, g->misc, g->pid, g->id, g->size))
			return -ENOMEM;
	}
	return 0;
}

static int finish_build_ids(struct conv *c)
{
	const struct pd_features *f = pd_reader__features(c->r);
	size_t old = 0, size, i;
	uint8_t *sec;
	int err;

	/*
	 * A pipe's build ids arrive as records, often after the samples:
	 * the feature copied when the output started did not have them yet.
	 */
	bool late = c->in_mode == PD_MODE_PIPE && f &&
		    f->raw[PD_FEAT_BUILD_ID].data &&
		    !(c->t && on(c, PD_SHIM_FEATURES) &&
		      !pd_perf_target__knows_feature(c->t, PD_FEAT_BUILD_ID));

	if (!c->w || c->out_mode != PD_MODE_FILE)
		return 0;
	err = add_given_build_ids(c);
	if (err)
		return err;
	if (!c->nr_bids && !late)
		return 0;
	if (f && f->raw[PD_FEAT_BUILD_ID].data)
		old = f->raw[PD_FEAT_BUILD_ID].size;
	size = old;
	for (i = 0; i < c->nr_bids; i++)
		size += 36 + PD_ALIGN(strlen(c->bids[i].filename) + 1, 64);
	sec = malloc(size ? size : 1);
	if (!sec)
		return -ENOMEM;
	if (old) {
		memcpy(sec, f->raw[PD_FEAT_BUILD_ID].data, old);
		if (f->swapped && pd__feat_swap(PD_FEAT_BUILD_ID, sec, old, false))
			old = 0;	/* copy_features() warned */
		/* counted again from the start: all of it is here now */
		c->rep->changed[PD_SHIM_BUILD_ID_PID] = 0;
		c->rep->dropped[PD_SHIM_BUILD_ID_PID] = 0;
		old = fit_build_ids(c, sec, old);
	}
	size = old;
	for (i = 0; i < c->nr_bids; i++)
		size += build_id_entry(c, &c->bids[i], 0, sec + size);
	err = pd_writer__set_feature(c->w, PD_FEAT_BUILD_ID, sec, size);
	free(sec);
	return err;
}

/* ---- records ---- */

/*
 * rec out, for ev (or NULL): where it is ev's record as it is in the
 * input file, the kernel copies it from there (copy_records()); the
 * bytes of a sample's stack copy were not even read.
 */
static int write_rec(struct conv *c, const struct pd_event *ev,
		     const void *rec, const struct pd_attr *a)
{
	uint16_t size = pd_get16((const uint8_t *)rec + 6, false);
	int err;

	c->rep->records_out++;
	if (pd_get32(rec, false) == PD_RECORD_SAMPLE)
		c->rep->samples_out++;
	if (!c->w)
		return 0;
	if (ev && c->copy_fd >= 0 && !(ev->flags & PD_EVENT_DECOMPRESSED) &&
	    size == ev->size && (rec == ev->raw || !memcmp(rec, ev->raw, size))) {
		c->rep->records_copied++;
		err = pd_writer__copy(c->w, c->copy_fd, ev->offset, size);
	} else {
		err = pd_writer__write(c->w, rec, a);
	}
	if (err)
		return fail(c, err, "%s", pd_writer__errmsg(c->w));
	return 0;
}

/*
 * Whether records that go out unchanged are copied from the input file
 * by the kernel (copy_file_range(): page cache to page cache, one copy
 * of each byte and none in this process, where a read and a write make
 * two), the reader leaving the stack copies of samples unread: a DWARF
 * profile's bytes are nearly all stack copies that no target changes.
 * On one thread that is faster than reading and writing (7% on a 1 GB
 * recording); with read-ahead the read on one CPU overlaps the write on
 * the other and beats the kernel's copy, one thread's (1.3x), so not
 * then unless asked. Never where a sample's stack copy may be needed:
 * unwinding, a stack cut, samples rewritten for an event that copies
 * stacks.
 */
static void copy_records(struct conv *c)
{
	const struct pd_evsel *e;
	size_t i;
	int fd;

	c->copy_fd = -1;
	if (c->o->copy_in_memory || (c->o->read_ahead && !c->o->kernel_copy) ||
	    !c->w || c->uw || c->o->stack_size)
		return;
	fd = pd__reader_file_fd(c->r);
	if (fd < 0 || !pd_writer__can_copy(c->w, pd_host_is_be()))
		return;
	for (i = 0; i < c->nr_ev; i++) {
		e = pd_reader__evsel(c->r, i);
		if (c->ev[i].rewrite_samples &&
		    (!e || (e->attr.sample_type & PD_SAMPLE_STACK_USER)))
			return;
	}
	if (pd__reader_leave_stacks(c->r, false))
		c->copy_fd = fd;
}

static int write_aux(struct conv *c, const struct pd_event *ev)
{
	int err;

	if (!ev->u.auxtrace.data && ev->u.auxtrace.size)
		return fail(c, -PD_ERR_UNSUPPORTED,
			    "%s: offset 0x%llx: the AUX data was not loaded (open the reader with load_aux, in file order)",
			    pd_reader__name(c->r), (unsigned long long)ev->offset);
	c->rep->records_out++;
	if (!c->w)
		return 0;
	err = pd_writer__write_aux(c->w, ev->raw, ev->u.auxtrace.data,
				   ev->u.auxtrace.size);
	if (err)
		return fail(c, err, "%s", pd_writer__errmsg(c->w));
	return 0;
}

static void drop(struct conv *c, const struct pd_event *ev, enum pd_shim s)
{
	c->rep->dropped[s]++;
	c->rep->dropped_type[ev->type < 128 ? ev->type : 127]++;
}

static int set_size(uint8_t *rec, size_t size)
{
	if (size > PD_MAX_RECORD)
		return -PD_ERR_TOO_BIG;
	memcpy(rec + 6, &(uint16_t){ (uint16_t)size }, 2);
	return 0;
}

/* Body of a kernel record without its trailer, and the trailer's size. */
static size_t body_size(const struct pd_event *ev)
{
	const struct pd_evsel *e = ev->evsel;

	if (ev->type >= PD_RECORD_USER_MIN || !e ||
	    !(e->attr.flags & PD_ATTR_SAMPLE_ID_ALL) ||
	    e->id_hdr_size > ev->size - 8u)
		return ev->size;
	return ev->size - e->id_hdr_size;
}

static size_t append_trailer(const struct conv *c, const struct pd_event *ev,
			     const struct out_evsel *oe, uint8_t *rec,
			     size_t body)
{
	if (!oe || !(oe->attr.flags & PD_ATTR_SAMPLE_ID_ALL) ||
	    ev->type >= PD_RECORD_USER_MIN)
		return body;
	if (!oe->rewrite_trailer) {
		size_t t = ev->size - body_size(ev);

		memcpy(rec + body, (const uint8_t *)ev->raw + body_size(ev), t);
		return body + t;
	}
	return body + pd__encode_trailer(&ev->sid, oe->attr.sample_type,
					 rec + body);
}

/* MMAP2 with a build id: dev/inode form, the build id kept aside. */
static int shim_mmap2_build_id(struct conv *c, const struct pd_event *ev,
			       uint8_t *rec)
{
	if (c->w && c->out_mode == PD_MODE_PIPE && add_build_id(c, ev)) {
		uint8_t b[512];
		const struct build_id_entry *e = &c->bids[c->nr_bids - 1];

		if (strlen(e->filename) < sizeof(b) - 128) {
			build_id_entry(c, e, PD_RECORD_HEADER_BUILD_ID, b);
			if (write_rec(c, NULL, b, NULL))
				return -EIO;
		}
	} else if (c->out_mode == PD_MODE_FILE) {
		add_build_id(c, ev);
	}
	/* maj, min, ino, ino_generation replace the build id: all zero */
	memset(rec + 40, 0, 24);
	memcpy(rec + 4, &(uint16_t){ ev->misc & ~PD_MISC_MMAP_BUILD_ID }, 2);
	c->rep->changed[PD_SHIM_MMAP2_BUILD_ID]++;
	return 0;
}

/*
 * The kernel's or a module's MMAP2: the cpumodes for which perf's
 * machine__process_mmap2_event() takes the kernel path.
 */
static bool kernel_mmap2(const struct pd_event *ev)
{
	uint16_t cpumode = ev->misc & PD_MISC_CPUMODE_MASK;

	return ev->type == PD_RECORD_MMAP2 &&
	       (cpumode == PD_MISC_KERNEL || cpumode == PD_MISC_GUEST_KERNEL);
}

/* MMAP2 to MMAP: pid, tid, start, len, pgoff, filename, trailer. */
static size_t shim_mmap2_to_mmap(struct conv *c, const struct pd_event *ev,
				 uint8_t *rec, enum pd_shim shim)
{
	size_t name_len = strlen(ev->u.mmap.filename) + 1;
	size_t body = 8 + 32 + PD_ALIGN(name_len, 8);

	memcpy(rec, &(uint32_t){ PD_RECORD_MMAP }, 4);
	memcpy(rec + 4, &(uint16_t){ ev->misc & ~PD_MISC_MMAP_BUILD_ID }, 2);
	memmove(rec + 40, ev->u.mmap.filename, name_len);
	memset(rec + 40 + name_len, 0, body - 40 - name_len);
	c->rep->changed[shim]++;
	return body;
}

/* A CPU map at off in RANGE encoding rewritten as a CPU list. */
static size_t shim_cpu_map(struct conv *c, const struct pd_cpu_map *m,
			   uint8_t *rec, size_t off)
{
	uint16_t nr = m->nr + m->any_cpu, i, k = 0;
	size_t end;

	memcpy(rec + off, &(uint16_t){ 0 }, 2);
	memcpy(rec + off + 2, &nr, 2);
	if (m->any_cpu)
		memcpy(rec + off + 4 + 2 * k++, &(uint16_t){ 0xffff }, 2);
	for (i = 0; i < m->nr; i++)
		memcpy(rec + off + 4 + 2 * k++, &(uint16_t){ (uint16_t)m->cpus[i] }, 2);
	end = PD_ALIGN(off + 4 + 2 * (size_t)nr, 8);
	memset(rec + off + 4 + 2 * (size_t)nr, 0, end - (off + 4 + 2 * (size_t)nr));
	c->rep->changed[PD_SHIM_CPU_MAP_RANGE]++;
	return end;
}

/* An EVENT_UPDATE giving a cpu-clock or task-clock its unit or scale? */
static bool clock_unit(const struct conv *c, const struct pd_event *ev)
{
	const struct pd_evsel *e;

	if (ev->type != PD_RECORD_EVENT_UPDATE ||
	    (ev->u.event_update.type != 0 && ev->u.event_update.type != 1))
		return false;
	e = pd_reader__evsel_by_id(c->r, ev->u.event_update.id);
	return e && e->attr.type == PD_TYPE_SOFTWARE &&
	       (e->attr.config == PD_SW_CPU_CLOCK ||
		e->attr.config == PD_SW_TASK_CLOCK);
}

/* A STAT record's cpu (offset 16) in the form the target reads. */
static int shim_stat_cpu(struct conv *c, const struct pd_event *ev,
			 uint8_t *rec)
{
	uint32_t cpu;

	if (ev->type != PD_RECORD_STAT) {
		if (stat_cpus__note(&c->stat_cpus, ev))
			return fail(c, -ENOMEM, "%s: out of memory",
				    pd_reader__name(c->r));
		return 0;
	}
	cpu = ev->u.stat.cpu;
	if (stat_cpus__convert(&c->stat_cpus, ev->u.stat.id,
			       c->stat_cpu_numbers,
			       c->t->flags & PD_TGT_STAT_CPU_NUMBER, &cpu)) {
		memcpy(rec + 16, &cpu, 4);
		c->rep->changed[PD_SHIM_STAT_CPU]++;
	}
	return 0;
}

/*
 * A stack copy cut to what the kernel filled, dyn_size, rounded up to 8
 * bytes with zeros (the reader may have left the bytes past dyn_size
 * unread): as the kernel writes a copy for which the record had less room.
 */
static void cut_to_filled(struct conv *c, struct pd_sample *s)
{
	uint64_t dyn = s->user_stack.dyn_size, size = PD_ALIGN(dyn, 8);

	if (dyn > s->user_stack.size || !s->user_stack.data)
		return;		/* (the encoder writes it as it is) */
	if (size > s->user_stack.size)
		size = s->user_stack.size;
	memcpy(c->stack, s->user_stack.data, dyn);
	memset(c->stack + dyn, 0, size - dyn);
	s->user_stack.data = c->stack;
	s->user_stack.size = size;
}

static int convert_sample(struct conv *c, const struct pd_event *ev)
{
	static const uint8_t empty_raw[4];
	const struct out_evsel *oe = out_evsel(c, ev->evsel);
	const struct pd_sample *smp = &ev->u.sample;
	struct pd_sample unwound;
	uint64_t added;
	size_t size;
	int err;

	if (c->uw) {
		err = pd_unwind_rewriter__event(c->uw, ev, &unwound);
		if (err < 0)
			return fail(c, err, "%s: offset 0x%llx: sample not unwound: %s",
				    pd_reader__name(c->r),
				    (unsigned long long)ev->offset,
				    pd_strerror(err));
		if (err > 0) {
			smp = &unwound;
			c->rep->changed[PD_SHIM_UNWIND]++;
		}
	}
	if (!oe || !oe->rewrite_samples)
		return write_rec(c, ev, ev->raw, oe ? &oe->attr : NULL);
	/* fields given where the event sampled none (one_sample_type()) */
	added = oe->attr.sample_type & ~smp->sample_type & FILLABLE;
	if (added) {
		if (smp != &unwound) {
			unwound = *smp;
			smp = &unwound;
		}
		/* the kernel's empty RAW: a size of 4, 4 zero bytes, so
		 * that the fields after it stay 8-byte aligned */
		if (added & PD_SAMPLE_RAW) {
			unwound.raw.size = sizeof(empty_raw);
			unwound.raw.data = empty_raw;
		}
		if ((added & PD_SAMPLE_PERIOD) && ev->evsel)
			unwound.period = ev->evsel->attr.sample_period;
		/* (a CALLCHAIN given: nr 0, as the sample's is) */
	}
	if (c->o->stack_size == PD_STACK_SIZE_FILLED &&
	    (oe->attr.sample_type & PD_SAMPLE_STACK_USER)) {
		if (smp != &unwound) {
			unwound = *smp;
			smp = &unwound;
		}
		cut_to_filled(c, &unwound);
	} else if (c->o->stack_size &&
		   (oe->attr.sample_type & PD_SAMPLE_STACK_USER) &&
		   smp->user_stack.size > c->o->stack_size) {
		/* the copy's first stack_size bytes, what the kernel would
		 * have copied with that size (it fills a copy from the stack
		 * pointer) */
		if (smp != &unwound) {
			unwound = *smp;
			smp = &unwound;
		}
		unwound.user_stack.size = c->o->stack_size;
		if (unwound.user_stack.dyn_size > c->o->stack_size)
			unwound.user_stack.dyn_size = c->o->stack_size;
	}
	err = pd__encode_sample(smp, &oe->attr, ev->misc, c->buf,
				sizeof(c->buf), &size);
	if (err)
		return fail(c, err, "%s: offset 0x%llx: sample cannot be rewritten: %s",
			    pd_reader__name(c->r), (unsigned long long)ev->offset,
			    pd_strerror(err));
	return write_rec(c, NULL, c->buf, &oe->attr);
}

/* A READ record laid out for the read_format written. */
static int convert_read(struct conv *c, const struct pd_event *ev,
			const struct out_evsel *oe)
{
	size_t size;
	int err;

	err = pd__encode_read_record(&ev->u.read, oe->attr.read_format,
				     ev->misc, c->buf, sizeof(c->buf), &size);
	if (err)
		return fail(c, err, "%s: offset 0x%llx: READ record cannot be rewritten: %s",
			    pd_reader__name(c->r), (unsigned long long)ev->offset,
			    pd_strerror(err));
	size = append_trailer(c, ev, oe, c->buf, size);
	if (set_size(c->buf, size))
		return -PD_ERR_TOO_BIG;
	return write_rec(c, NULL, c->buf, &oe->attr);
}

static int convert_record(struct conv *c, const struct pd_event *ev)
{
	const struct out_evsel *oe = out_evsel(c, ev->evsel);
	const struct pd_attr *a = oe ? &oe->attr : NULL;
	uint8_t *rec = c->buf;
	size_t size = ev->size, body;
	int err;

	c->rep->records_in++;
	/* threads and maps, for unwinding */
	if (c->uw && ev->type != PD_RECORD_SAMPLE) {
		err = pd_unwind_rewriter__event(c->uw, ev, NULL);
		if (err < 0)
			return fail(c, err, "%s: offset 0x%llx: %s",
				    pd_reader__name(c->r),
				    (unsigned long long)ev->offset,
				    pd_strerror(err));
	}
	if (ev->type == PD_RECORD_SAMPLE) {
		c->rep->samples_in++;
		return convert_sample(c, ev);
	}
	if (ev->type == PD_RECORD_HEADER_ATTR) {
		err = plan_evsels(c);
		if (!err && c->out_mode == PD_MODE_PIPE)
			err = add_evsels(c);
		else if (!err && c->started && c->nr_ev &&
			 !c->ev[c->nr_ev - 1].added)
			err = fail(c, -PD_ERR_UNSUPPORTED,
				   "%s: offset 0x%llx: an attr arrives after the first record; convert to pipe mode (--pipe)",
				   pd_reader__name(c->r),
				   (unsigned long long)ev->offset);
		return err;
	}
	if (ev->type == PD_RECORD_HEADER_TRACING_DATA) {
		/* after the features of a pipe: passed on as it comes */
		if (!c->w || !ev->u.tracing_data.data)
			return 0;
		err = pd_writer__set_feature(c->w, PD_FEAT_TRACING_DATA,
					     ev->u.tracing_data.data,
					     ev->u.tracing_data.size);
		return err ? fail(c, err, "%s", pd_writer__errmsg(c->w)) : 0;
	}
	if (ev->type == PD_RECORD_HEADER_EVENT_TYPE ||
	    ev->type == PD_RECORD_HEADER_FEATURE)
		return 0;	/* carried by the features */
	if (ev->type == PD_RECORD_HEADER_BUILD_ID) {
		/* pipe input: in the BUILD_ID feature; a pipe output
		 * started already gets it as a record */
		if (c->out_mode == PD_MODE_PIPE && c->started) {
			memcpy(rec, ev->raw, size);
			if (c->t && on(c, PD_SHIM_BUILD_ID_PID) &&
			    pd__build_id_entry_fit(c->t, rec, size))
				c->rep->changed[PD_SHIM_BUILD_ID_PID]++;
			return write_rec(c, NULL, rec, NULL);
		}
		return 0;
	}
	if (ev->type == PD_RECORD_FINISHED_INIT && on(c, PD_SHIM_FINISHED_INIT)) {
		drop(c, ev, PD_SHIM_FINISHED_INIT);
		return 0;
	}
	/* its AUX data follows it outside the record, copied along unless
	 * the target drops the record */
	if (ev->type == PD_RECORD_AUXTRACE &&
	    !(c->t && on(c, PD_SHIM_DROP_RECORDS) && !knows_record(c, ev->type)))
		return write_aux(c, ev);
	if (ev->type == PD_RECORD_MMAP2 &&
	    (on(c, PD_SHIM_MMAP2_TO_MMAP) ||
	     (on(c, PD_SHIM_KERNEL_MMAP2) && kernel_mmap2(ev)))) {
		memcpy(rec, ev->raw, size);
		/* an MMAP has no room for it: into the BUILD_ID table */
		if (ev->misc & PD_MISC_MMAP_BUILD_ID) {
			err = shim_mmap2_build_id(c, ev, rec);
			if (err)
				return err;
		}
		body = shim_mmap2_to_mmap(c, ev, rec,
					  on(c, PD_SHIM_MMAP2_TO_MMAP) ?
					  PD_SHIM_MMAP2_TO_MMAP :
					  PD_SHIM_KERNEL_MMAP2);
		if (oe) {
			size = append_trailer(c, ev, oe, rec, body);
		} else {
			/*
			 * No event of its own: perf's synthesized kernel
			 * map has a sample_id of zeros (id 0, which perf
			 * gives the first event). Its trailer, the bytes
			 * past MMAP2's name, goes along as it is: the
			 * reader parses it from the record's end.
			 */
			size_t end = 72 + PD_ALIGN(strlen(ev->u.mmap.filename) + 1, 8);

			size = body;
			if (end < ev->size) {
				memcpy(rec + body, (const uint8_t *)ev->raw + end,
				       ev->size - end);
				size += ev->size - end;
			}
		}
		if (set_size(rec, size))
			return -PD_ERR_TOO_BIG;
		return write_rec(c, NULL, rec, a);
	}
	if (c->t && on(c, PD_SHIM_DROP_RECORDS) &&
	    (!knows_record(c, ev->type) || (ev->flags & PD_EVENT_UNKNOWN))) {
		drop(c, ev, PD_SHIM_DROP_RECORDS);
		return 0;
	}
	if (on(c, PD_SHIM_CLOCK_UNIT) && clock_unit(c, ev)) {
		c->rep->dropped[PD_SHIM_CLOCK_UNIT]++;
		return 0;
	}
	if (ev->type == PD_RECORD_READ && oe && oe->rewrite_read)
		return convert_read(c, ev, oe);
	memcpy(rec, ev->raw, size);
	body = body_size(ev);
	if (ev->type == PD_RECORD_MMAP2 && (ev->misc & PD_MISC_MMAP_BUILD_ID) &&
	    on(c, PD_SHIM_MMAP2_BUILD_ID)) {
		err = shim_mmap2_build_id(c, ev, rec);
		if (err)
			return err;
	}
	if (on(c, PD_SHIM_CPU_MAP_RANGE)) {
		if (ev->type == PD_RECORD_CPU_MAP && ev->u.cpu_map.encoding == 2)
			body = size = shim_cpu_map(c, &ev->u.cpu_map, rec, 8);
		else if (ev->type == PD_RECORD_EVENT_UPDATE &&
			 ev->u.event_update.type == 3 &&
			 ev->u.event_update.cpus.encoding == 2)
			body = size = shim_cpu_map(c, &ev->u.event_update.cpus,
						   rec, 24);
	}
	if (on(c, PD_SHIM_STAT_CPU) && c->t) {
		err = shim_stat_cpu(c, ev, rec);
		if (err)
			return err;
	}
	if (oe && oe->rewrite_trailer && ev->type < PD_RECORD_USER_MIN)
		size = append_trailer(c, ev, oe, rec, body);
	if (set_size(rec, size))
		return -PD_ERR_TOO_BIG;
	return write_rec(c, ev, rec, ev->type < PD_RECORD_USER_MIN ? a : NULL);
}

/* ---- the whole conversion ---- */

/*
 * The end-of-features marker of a pipe: the target's last feature; with
 * no target, the input's own marker, or else one no perf takes for a
 * feature: past the input's highest feature and at least the newest
 * perf's (an older perf's marker, 21 for 4.14, is a real feature, with
 * a body, to perf 6.1, which then fails on the stream).
 */
static uint32_t pipe_marker(const struct conv *c)
{
	const struct pd_features *f = pd_reader__features(c->r);
	unsigned int feat, highest = 0;

	uint64_t in = pd_reader__header(c->r)->pipe_feature_marker;

	if (in && !on(c, PD_SHIM_PIPE_MARKER))
		return in;
	if (c->t) {
		/* readers without HEADER_FEATURE get no features at all */
		return pd_perf_target__knows_record(c->t, PD_RECORD_HEADER_FEATURE) ?
		       c->t->last_feature : 0;
	}
	if (in)
		return in;
	const struct pd_perf_target *newest = pd_perf_target__find("newest");

	for (feat = 1; f && feat < PD_FEAT_BITS; feat++)
		if (pd_features__seen(f, feat))
			highest = feat;
	if (newest && newest->last_feature > highest + 1)
		return newest->last_feature;
	return highest + 1;
}

/* For the report: what becomes of the input's end-of-features marker. */
static void count_marker(struct conv *c)
{
	uint64_t in = pd_reader__header(c->r)->pipe_feature_marker;

	if (!in)
		return;
	if (c->out_mode == PD_MODE_FILE)
		c->rep->dropped[PD_SHIM_PIPE_MARKER]++;
	else if (pipe_marker(c) != in)
		c->rep->changed[PD_SHIM_PIPE_MARKER]++;
}

static int open_writer(struct conv *c, const char *out)
{
	struct pd_writer_opts wo = { .sz = sizeof(wo) };

	wo.mode = c->out_mode;
	wo.endian = c->o->endian;
	wo.compress = c->compress;
	wo.compress_level = c->o->compress_level;
	/*
	 * perf 5.10 carries the undecoded tail of one COMPRESSED record into
	 * the next (decomp_last in perf_session__process_compressed_event(),
	 * util/session.c); 5.2-5.9 start each one afresh.
	 */
	wo.compress_split = !c->t || c->t->version >= PD_PERF_VERSION(5, 10);
	wo.pipe_last_feature = pipe_marker(c);
	/*
	 * A 3.10 pipe is read by two perfs: upstream 3.10 finds HEADER_ATTR
	 * ids after its 96-byte attr, RHEL 7's (3.10.0-1160) after 112 bytes
	 * (perf_event__process_attr(), util/header.c, reads them at
	 * event->attr.id, after its own struct perf_event_attr). Sixteen zero
	 * bytes after the 96-byte attr suit both: RHEL 7 reads them as zero
	 * sample_regs_intr, aux_watermark and sample_max_stack, upstream as
	 * two ids 0, which no kernel gives an event (ids count from 1).
	 */
	if (c->t && c->out_mode == PD_MODE_PIPE &&
	    c->t->version == PD_PERF_VERSION(3, 10) &&
	    !(c->t->flags & PD_TGT_PIPE_ATTR_BY_SIZE) && c->t->attr_size == 96)
		wo.pipe_attr_pad = 112 - 96;
	c->w = pd_writer__open(out, &wo);
	if (!c->w)
		return fail(c, -errno, "%s", pd_writer__open_errmsg());
	return 0;
}

static int start_output(struct conv *c)
{
	int err;

	c->started = true;
	err = add_evsels(c);
	if (!err)
		err = copy_features(c);
	if (!err && c->w && c->out_mode == PD_MODE_PIPE && c->t &&
	    !pd_perf_target__knows_record(c->t, PD_RECORD_HEADER_FEATURE)) {
		unsigned int feat;

		/* perf before 4.14 takes no features from a pipe */
		for (feat = 3; feat < PD_FEAT_BITS; feat++)
			pd_writer__clear_feature(c->w, feat);
	}
	return err;
}

PD_EXPORT int pd_convert(struct pd_reader *r, const char *out,
			 const struct pd_convert_opts *opts,
			 struct pd_convert_report *rep, char *errmsg,
			 size_t errlen)
{
	struct pd_convert_opts o = { .mode = -1 };
	struct pd_convert_report dummy;
	const struct pd_event *ev;
	struct conv *c;
	size_t i;
	int err;

	if (opts)
		memcpy(&o, opts, opts->sz < sizeof(o) ? opts->sz : sizeof(o));
	if (!rep)
		rep = &dummy;
	memset(rep, 0, sizeof(*rep));
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->copy_fd = -1;
	c->r = r;
	c->t = o.target;
	c->o = &o;
	c->rep = rep;
	c->errmsg = errmsg;
	c->errlen = errlen;
	if (errlen)
		errmsg[0] = 0;

	err = pd_reader__read_header(r);
	if (err < 0) {
		fail(c, err, "%s", pd_reader__errmsg(r));
		goto out;
	}
	c->in_mode = pd_reader__header(r)->mode;
	c->out_mode = o.mode < 0 ? c->in_mode : (enum pd_mode)o.mode;
	choose_shims(c);
	rep->shims = c->shims;
	if (on(c, PD_SHIM_UNWIND)) {
		c->uw = o.unwind;
		if (!c->uw) {
			c->uw = pd_unwind_rewriter__new(r, NULL);
			c->own_uw = true;
		}
		if (!c->uw) {
			err = fail(c, -errno, "%s: unwinder: %s",
				   pd_reader__name(r), pd_strerror(-errno));
			goto out;
		}
	}
	err = plan_evsels(c);
	if (err)
		goto out;
	count_marker(c);
	if (!o.dry_run) {
		err = open_writer(c, out);
		if (err)
			goto out;
	}
	copy_records(c);
	/* stack copies cut to what was filled: the rest is not read */
	if (o.stack_size == PD_STACK_SIZE_FILLED && !c->uw)
		pd__reader_leave_stacks(r, true);
	/* (once the reader knows which bytes it leaves unread) */
	if (o.read_ahead)
		pd_reader__read_ahead(r);
	err = start_output(c);
	if (err)
		goto out;
	while ((err = pd_reader__next(r, &ev)) > 0) {
		err = convert_record(c, ev);
		if (err)
			goto out;
	}
	if (err < 0) {
		fail(c, err, "%s", pd_reader__errmsg(r));
		goto out;
	}
	err = finish_build_ids(c);
	if (!err && c->w) {
		err = pd_writer__finish(c->w);
		if (err)
			fail(c, err, "%s", pd_writer__errmsg(c->w));
	}
out:
	if (c->own_uw)
		pd_unwind_rewriter__free(c->uw);
	stat_cpus__free(&c->stat_cpus);
	pd_writer__free(c->w);
	for (i = 0; i < c->nr_bids; i++)
		free(c->bids[i].filename);
	free(c->bids);
	free(c->ev);
	free(c);
	return err;
}
