// SPDX-License-Identifier: MIT
/*
 * pd-convert --to=json: the whole file as JSON Lines, streamed (memory
 * does not grow with the file): the header, the attrs and their ids,
 * every record in file order (and the records inside compressed ones),
 * then the feature sections. Each line has the main fields decoded and
 * the exact bytes of what it covers ("raw", hex), at their offset in the
 * input, so the input can be rebuilt from the lines byte for byte.
 * docs/json-schema.md is the schema.
 *
 * The bytes are read again from the input file (pread) as they are
 * stored, whatever its byte order; from standard input, where that is
 * not possible, "raw" holds the reader's host-order copy of records and
 * the header line says so.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <perfdata/evsel.h>
#include <perfdata/format.h>
#include <perfdata/reader.h>

#include "common/cli.h"
#include "export-format.h"
#include "export-out.h"
#include "json-decode.h"
#include "common/json-out.h"

/* a chunk of bytes read back at a time */
#define CHUNK	(1 << 16)

struct jrun {
	const struct export_opts *o;
	struct pd_reader *r;
	const struct pd_header_info *h;
	FILE *f;
	int fd;			/* the input again, -1 for a stream */
	uint64_t file_size;
	unsigned char *buf;
	int err;		/* a pread error (errno) */
	/* file mode: the byte ranges the lines cover, for the gaps */
	struct region { uint64_t off, size; } *regions;
	size_t nr_regions, alloc_regions;
};

static void claim(struct jrun *j, uint64_t off, uint64_t size)
{
	if (!size || j->err)
		return;
	if (j->nr_regions == j->alloc_regions) {
		size_t n = j->alloc_regions ? j->alloc_regions * 2 : 64;
		struct region *v = realloc(j->regions, n * sizeof(*v));

		if (!v) {
			j->err = ENOMEM;
			return;
		}
		j->regions = v;
		j->alloc_regions = n;
	}
	j->regions[j->nr_regions].off = off;
	j->regions[j->nr_regions++].size = size;
}

/* u64 as a JSON number when exact in a double, else as a decimal string */
static void num(FILE *f, const char *key, uint64_t v)
{
	if (v < (1ULL << 53))
		fprintf(f, ",\"%s\":%" PRIu64, key, v);
	else
		fprintf(f, ",\"%s\":\"%" PRIu64 "\"", key, v);
}

static void hex64(FILE *f, const char *key, uint64_t v)
{
	fprintf(f, ",\"%s\":\"%#" PRIx64 "\"", key, v);
}

static void str(FILE *f, const char *key, const char *s)
{
	fprintf(f, ",\"%s\":", key);
	json_cstr(f, s);
}

/* ,"key":"hex of [off, off + size) of the input" */
static void raw_at(struct jrun *j, const char *key, uint64_t off, uint64_t size)
{
	static const char digits[] = "0123456789abcdef";

	fprintf(j->f, ",\"%s\":\"", key);
	claim(j, off, size);
	while (size && j->fd >= 0 && !j->err) {
		size_t k = size > CHUNK ? CHUNK : size, i;
		ssize_t n = pread(j->fd, j->buf, k, (off_t)off);

		if (n <= 0) {
			j->err = n < 0 ? errno : EIO;
			break;
		}
		for (i = 0; i < (size_t)n; i++) {
			fputc(digits[j->buf[i] >> 4], j->f);
			fputc(digits[j->buf[i] & 15], j->f);
		}
		off += n;
		size -= n;
	}
	fputc('"', j->f);
}

static void header_line(struct jrun *j)
{
	const struct pd_header_info *h = j->h;
	FILE *f = j->f;
	bool first;
	int i;

	fprintf(f, "{\"type\":\"header\",\"mode\":\"%s\"",
		h->mode == PD_MODE_PIPE ? "pipe" : "file");
	num(f, "version", h->version);
	fprintf(f, ",\"needs_swap\":%s,\"big_endian\":%s",
		h->needs_swap ? "true" : "false", h->big_endian ? "true" : "false");
	num(f, "offset", 0);
	num(f, "size", h->size);
	if (h->mode == PD_MODE_FILE) {
		num(f, "attr_size", h->attr_size);
		fprintf(f, ",\"attrs\":{\"offset\":%" PRIu64 ",\"size\":%" PRIu64 "}",
			h->attrs.offset, h->attrs.size);
		fprintf(f, ",\"data\":{\"offset\":%" PRIu64 ",\"size\":%" PRIu64 "}",
			h->data.offset, h->data.size);
		fprintf(f, ",\"event_types\":{\"offset\":%" PRIu64 ",\"size\":%" PRIu64 "}",
			h->event_types.offset, h->event_types.size);
		fputs(",\"features\":[", f);
		for (i = 0, first = true; i < 256; i++) {
			if (!(h->features[i / 64] & (1ULL << (i % 64))))
				continue;
			fprintf(f, "%s{\"id\":%d,\"name\":\"%s\"}", first ? "" : ",",
				i, pd_feature_name(i) ? pd_feature_name(i) : "unknown");
			first = false;
		}
		fputc(']', f);
		num(f, "feat_offset", h->feat_offset);
		fprintf(f, ",\"data_size_was_zero\":%s",
			h->data_size_was_zero ? "true" : "false");
	}
	if (j->file_size)
		num(f, "file_size", j->file_size);
	fprintf(f, ",\"raw_source\":\"%s\"", j->fd >= 0 ? "file" : "host-order");
	if (j->fd >= 0)
		raw_at(j, "raw", 0, h->size);
	fputs("}\n", f);
}

static uint64_t get64(const unsigned char *p, bool swap)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return swap ? __builtin_bswap64(v) : v;
}

/* file mode: the attrs section, each attr and its ids section */
static void attr_lines(struct jrun *j)
{
	const struct pd_header_info *h = j->h;
	size_t n = pd_reader__nr_evsels(j->r), i, k;
	unsigned char ids[16];
	char name[256];
	FILE *f = j->f;

	if (h->mode == PD_MODE_FILE && h->attrs.size) {
		fputs("{\"type\":\"attrs\"", f);
		num(f, "offset", h->attrs.offset);
		num(f, "size", h->attrs.size);
		raw_at(j, "raw", h->attrs.offset, h->attrs.size);
		fputs("}\n", f);
	}
	for (i = 0; i < n; i++) {
		const struct pd_evsel *e = pd_reader__evsel(j->r, i);
		const struct pd_attr *a = &e->attr;

		fputs("{\"type\":\"attr\"", f);
		num(f, "idx", i);
		str(f, "name", pd_evsel__name(e, j->r, name, sizeof(name)));
		num(f, "attr_type", a->type);
		num(f, "attr_size", e->attr_size_on_disk);
		hex64(f, "config", a->config);
		num(f, "sample_period", a->sample_period);
		hex64(f, "sample_type", a->sample_type);
		hex64(f, "read_format", a->read_format);
		hex64(f, "flags", a->flags);
		hex64(f, "branch_sample_type", a->branch_sample_type);
		hex64(f, "sample_regs_user", a->sample_regs_user);
		num(f, "sample_stack_user", a->sample_stack_user);
		fprintf(f, ",\"clockid\":%d", a->clockid);
		fputs(",\"ids\":[", f);
		for (k = 0; k < e->nr_ids; k++)
			fprintf(f, k ? ",\"%" PRIu64 "\"" : "\"%" PRIu64 "\"", e->ids[k]);
		fputc(']', f);
		/* the attr as stored (host order) */
		fputs(",\"attr_raw\":", f);
		json_hex(f, e->attr_raw, e->attr_raw_size);
		fputs("}\n", f);
		/* its ids section: the entry's last 16 bytes say where */
		if (h->mode != PD_MODE_FILE || j->fd < 0 || h->attr_size < 16 ||
		    (i + 1) * h->attr_size > h->attrs.size ||
		    pread(j->fd, ids, 16, (off_t)(h->attrs.offset +
					 (i + 1) * h->attr_size - 16)) != 16)
			continue;
		fputs("{\"type\":\"ids\"", f);
		num(f, "attr", i);
		num(f, "offset", get64(ids, h->needs_swap));
		num(f, "size", get64(ids + 8, h->needs_swap));
		if (get64(ids, h->needs_swap) + get64(ids + 8, h->needs_swap) <= j->file_size)
			raw_at(j, "raw", get64(ids, h->needs_swap),
			       get64(ids + 8, h->needs_swap));
		fputs("}\n", f);
	}
	if (h->mode == PD_MODE_FILE && h->event_types.size &&
	    h->event_types.offset + h->event_types.size <= j->file_size) {
		fputs("{\"type\":\"event_types\"", f);
		num(f, "offset", h->event_types.offset);
		num(f, "size", h->event_types.size);
		raw_at(j, "raw", h->event_types.offset, h->event_types.size);
		fputs("}\n", f);
	}
}

static void sample_fields(FILE *f, const struct pd_event *ev)
{
	const struct pd_sample *s = &ev->u.sample;
	uint64_t st = s->sample_type, i;

	hex64(f, "sample_type", st);
	if (st & PD_SAMPLE_IDENTIFIER || st & PD_SAMPLE_ID)
		num(f, "id", s->id);
	if (st & PD_SAMPLE_IP)
		hex64(f, "ip", s->ip);
	if (st & PD_SAMPLE_TID) {
		num(f, "pid", s->pid);
		num(f, "tid", s->tid);
	}
	if (st & PD_SAMPLE_TIME)
		num(f, "time", s->time);
	if (st & PD_SAMPLE_ADDR)
		hex64(f, "addr", s->addr);
	if (st & PD_SAMPLE_STREAM_ID)
		num(f, "stream_id", s->stream_id);
	if (st & PD_SAMPLE_CPU)
		num(f, "cpu", s->cpu);
	if (st & PD_SAMPLE_PERIOD)
		num(f, "period", s->period);
	if (st & PD_SAMPLE_READ) {
		fputs(",\"read\":[", f);
		for (i = 0; i < s->read.nr; i++)
			fprintf(f, "%s{\"value\":%" PRIu64 ",\"id\":%" PRIu64 "}",
				i ? "," : "", s->read.values[i].value,
				s->read.values[i].id);
		fputc(']', f);
	}
	if (st & PD_SAMPLE_CALLCHAIN) {
		fputs(",\"callchain\":[", f);
		for (i = 0; i < s->callchain.nr; i++)
			fprintf(f, i ? ",\"%#" PRIx64 "\"" : "\"%#" PRIx64 "\"",
				s->callchain.ips[i]);
		fputc(']', f);
	}
	if (st & PD_SAMPLE_RAW)
		num(f, "raw_size", s->raw.size);
	if (st & PD_SAMPLE_BRANCH_STACK)
		num(f, "branches", s->branch_stack.nr);
	if (st & PD_SAMPLE_REGS_USER)
		num(f, "user_regs_abi", s->user_regs.abi);
	if (st & PD_SAMPLE_STACK_USER) {
		num(f, "user_stack_size", s->user_stack.size);
		num(f, "user_stack_dyn_size", s->user_stack.dyn_size);
	}
	if (st & PD_SAMPLE_WEIGHT_TYPE)
		num(f, "weight", s->weight);
	if (st & PD_SAMPLE_DATA_SRC)
		hex64(f, "data_src", s->data_src);
	if (st & PD_SAMPLE_PHYS_ADDR)
		hex64(f, "phys_addr", s->phys_addr);
	if (st & PD_SAMPLE_CGROUP)
		num(f, "cgroup", s->cgroup);
}

static void sid_fields(FILE *f, const struct pd_sample_id *sid)
{
	if (!sid->present)
		return;
	fputs(",\"sample_id\":{", f);
	fprintf(f, "\"present\":\"%#" PRIx64 "\"", sid->present);
	if (sid->present & PD_SAMPLE_TID)
		fprintf(f, ",\"pid\":%u,\"tid\":%u", sid->pid, sid->tid);
	if (sid->present & PD_SAMPLE_TIME)
		num(f, "time", sid->time);
	if (sid->present & (PD_SAMPLE_ID | PD_SAMPLE_IDENTIFIER))
		num(f, "id", sid->id);
	if (sid->present & PD_SAMPLE_CPU)
		num(f, "cpu", sid->cpu);
	fputc('}', f);
}

static void record_fields(struct jrun *j, const struct pd_event *ev)
{
	FILE *f = j->f;

	switch (ev->type) {
	case PD_RECORD_SAMPLE:
		sample_fields(f, ev);
		return;
	case PD_RECORD_MMAP:
	case PD_RECORD_MMAP2:
		num(f, "pid", ev->u.mmap.pid);
		num(f, "tid", ev->u.mmap.tid);
		hex64(f, "start", ev->u.mmap.start);
		hex64(f, "len", ev->u.mmap.len);
		hex64(f, "pgoff", ev->u.mmap.pgoff);
		if (ev->u.mmap.has_build_id) {
			fputs(",\"build_id\":", f);
			json_hex(f, ev->u.mmap.build_id, ev->u.mmap.build_id_size);
		}
		str(f, "filename", ev->u.mmap.filename);
		break;
	case PD_RECORD_COMM:
		num(f, "pid", ev->u.comm.pid);
		num(f, "tid", ev->u.comm.tid);
		str(f, "comm", ev->u.comm.comm);
		break;
	case PD_RECORD_FORK:
	case PD_RECORD_EXIT:
		num(f, "pid", ev->u.fork.pid);
		num(f, "ppid", ev->u.fork.ppid);
		num(f, "tid", ev->u.fork.tid);
		num(f, "ptid", ev->u.fork.ptid);
		num(f, "time", ev->u.fork.time);
		break;
	case PD_RECORD_LOST:
		num(f, "id", ev->u.lost.id);
		num(f, "lost", ev->u.lost.lost);
		break;
	case PD_RECORD_HEADER_FEATURE:
		num(f, "feature", ev->u.feature.feat_id);
		str(f, "feature_name", pd_feature_name(ev->u.feature.feat_id));
		/* the reader decoded it before handing the record over */
		if (ev->u.feature.feat_id < 256)
			json_decode_feature(f, pd_reader__features(j->r),
					    (unsigned int)ev->u.feature.feat_id);
		break;
	case PD_RECORD_HEADER_BUILD_ID:
		fputs(",\"build_id\":", f);
		json_hex(f, ev->u.build_id.build_id, ev->u.build_id.size);
		str(f, "filename", ev->u.build_id.filename);
		break;
	case PD_RECORD_COMPRESSED:
	case PD_RECORD_COMPRESSED2:
		num(f, "data_size", ev->u.compressed.data_size);
		break;
	default:
		json_decode_record(f, ev);
		break;
	}
	sid_fields(f, &ev->sid);
}

static void record_line(struct jrun *j, const struct pd_event *ev)
{
	bool inner = ev->flags & PD_EVENT_DECOMPRESSED;
	const char *name = pd_record_type_name(ev->type);
	FILE *f = j->f;
	char ename[256];

	fputs("{\"type\":\"record\"", f);
	num(f, "offset", ev->offset);
	if (inner) {
		fputs(",\"decompressed\":true", f);
		num(f, "inner_offset", ev->inner_offset);
	}
	num(f, "size", ev->size);
	num(f, "record_type", ev->type);
	str(f, "name", name ? name : "unknown");
	fprintf(f, ",\"misc\":\"%#x\"", ev->misc);
	if (ev->evsel)
		str(f, "event", pd_evsel__name(ev->evsel, j->r, ename, sizeof(ename)));
	record_fields(j, ev);
	/* the record's bytes: as stored, or the decompressed stream's */
	if (!inner && j->fd >= 0) {
		raw_at(j, "raw", ev->offset, ev->size);
	} else {
		fputs(",\"raw\":", f);
		json_hex(f, ev->raw, ev->size);
	}
	/* bytes that follow the record and belong to it */
	if (!inner && ev->type == PD_RECORD_AUXTRACE && j->fd >= 0 &&
	    ev->u.auxtrace.data_offset) {
		num(f, "aux_offset", ev->u.auxtrace.data_offset);
		raw_at(j, "aux", ev->u.auxtrace.data_offset, ev->u.auxtrace.size);
	}
	if (!inner && ev->type == PD_RECORD_HEADER_TRACING_DATA) {
		num(f, "blob_offset", ev->offset + ev->size);
		if (j->fd >= 0) {
			raw_at(j, "blob", ev->offset + ev->size,
			       ev->u.tracing_data.size);
		} else {
			fputs(",\"blob\":", f);
			json_hex(f, ev->u.tracing_data.data, ev->u.tracing_data.size);
		}
	}
	fputs("}\n", f);
}

static int by_offset(const void *a, const void *b)
{
	const struct region *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/*
 * File mode: the bytes no line covered (padding, sections the header
 * does not describe, what old perf versions left between them), so that
 * every byte of the input is in some line.
 */
static void gap_lines(struct jrun *j)
{
	uint64_t pos = 0, end;
	size_t i, n;

	if (j->fd < 0 || j->err)
		return;
	qsort(j->regions, j->nr_regions, sizeof(*j->regions), by_offset);
	n = j->nr_regions;
	for (i = 0; i <= n && !j->err; i++) {
		end = i < n ? j->regions[i].off : j->file_size;
		if (end > j->file_size)
			end = j->file_size;
		if (end > pos) {
			fputs("{\"type\":\"gap\"", j->f);
			num(j->f, "offset", pos);
			num(j->f, "size", end - pos);
			raw_at(j, "raw", pos, end - pos);
			fputs("}\n", j->f);
		}
		if (i < n && j->regions[i].off + j->regions[i].size > pos)
			pos = j->regions[i].off + j->regions[i].size;
	}
}

/* file mode: the feature table and each section it names */
static void feature_lines(struct jrun *j)
{
	const struct pd_header_info *h = j->h;
	uint64_t off = h->feat_offset;
	unsigned char ent[16];
	unsigned int i, n = 0;

	if (h->mode != PD_MODE_FILE || j->fd < 0)
		return;
	for (i = 0; i < 256; i++)
		n += !!(h->features[i / 64] & (1ULL << (i % 64)));
	if (!n || off + 16ULL * n > j->file_size)
		return;
	fputs("{\"type\":\"feature_table\"", j->f);
	num(j->f, "offset", off);
	num(j->f, "size", 16ULL * n);
	raw_at(j, "raw", off, 16ULL * n);
	fputs("}\n", j->f);
	for (i = 0; i < 256; i++) {
		uint64_t so, ss;

		if (!(h->features[i / 64] & (1ULL << (i % 64))))
			continue;
		if (pread(j->fd, ent, 16, (off_t)off) != 16)
			return;
		off += 16;
		so = get64(ent, h->needs_swap);
		ss = get64(ent + 8, h->needs_swap);
		fputs("{\"type\":\"feature\"", j->f);
		num(j->f, "id", i);
		str(j->f, "name", pd_feature_name(i) ? pd_feature_name(i) : "unknown");
		num(j->f, "offset", so);
		num(j->f, "size", ss);
		/* a section past the end (a cut file) is only named */
		json_decode_feature(j->f, pd_reader__features(j->r), i);
		if (so + ss >= so && so + ss <= j->file_size)
			raw_at(j, "raw", so, ss);
		fputs("}\n", j->f);
	}
}

int export_json(const struct export_opts *o)
{
	struct pd_reader_opts ropts = {
		.sz = sizeof(ropts),
		.order = PD_ORDER_FILE,
		.show_compressed = true,
	};
	struct jrun j = { .o = o, .fd = -1 };
	struct export_out out;
	const struct pd_event *ev = NULL;
	struct stat st;
	int ret = PD_EXIT_DATA, err;

	if (strcmp(o->input, "-")) {
		j.fd = open(o->input, O_RDONLY | O_CLOEXEC);
		if (j.fd >= 0 && (fstat(j.fd, &st) || !S_ISREG(st.st_mode))) {
			close(j.fd);
			j.fd = -1;
		} else if (j.fd >= 0) {
			j.file_size = st.st_size;
		}
	}
	ropts.load_aux = j.fd < 0;
	j.buf = malloc(CHUNK);
	if (!j.buf) {
		pd_err("%s", strerror(ENOMEM));
		goto out;
	}
	j.r = pd_cli_open(o->input, &ropts);
	if (!j.r)
		goto out;
	/* pipe mode: the attrs and features come as records */
	j.h = pd_reader__header(j.r);
	if (export_out__open(&out, o->output))
		goto out;
	j.f = out.f;
	header_line(&j);
	attr_lines(&j);
	while ((err = pd_reader__next(j.r, &ev)) > 0 && !j.err)
		record_line(&j, ev);
	if (err < 0)
		pd_err("%s", pd_reader__errmsg(j.r));
	else if (j.err)
		pd_err("%s: %s", o->input, strerror(j.err));
	else
		feature_lines(&j);
	if (!err)
		gap_lines(&j);
	if (!err && j.err)
		err = -1;
	ret = export_out__close(&out, err == 0 && !j.err);
out:
	pd_reader__close(j.r);
	if (j.fd >= 0)
		close(j.fd);
	free(j.buf);
	free(j.regions);
	return ret;
}
