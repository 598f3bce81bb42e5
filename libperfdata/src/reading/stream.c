// SPDX-License-Identifier: MIT
/*
 * The record stream, undecoded: framing of records in the data section or
 * pipe, payloads that live outside header.size (tracing data, AUX data),
 * records inside compressed records, header records of pipe mode, and
 * delivery in file or time order (pd__next_raw()), to pd_reader__next()
 * (reader-next.c) or to the read-ahead thread (stream-ahead.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <perfdata/features.h>

#include "header/features-internal.h"
#include "reader-state.h"

static int stop_truncated(struct pd_reader *r, uint64_t off, const char *what)
{
	r->stats.truncated = true;
	if (r->opts.strict)
		return pd__set_error(r, -PD_ERR_TRUNCATED, off,
				     "%s: input truncated", what);
	r->done = true;
	pd__warn(&r->log, "offset 0x%llx: %s; input truncated, stopping here",
		 (unsigned long long)off, what);
	return 0;
}

/* Unknown record types are skipped by size; say so once per type. */
static void warn_unknown_type(struct pd_reader *r, uint32_t type, uint64_t off)
{
	size_t i;

	for (i = 0; i < r->nr_unknown_types; i++)
		if (r->unknown_types[i] == type)
			return;
	if (r->nr_unknown_types < PD_ARRAY_SIZE(r->unknown_types))
		r->unknown_types[r->nr_unknown_types++] = type;
	pd__warn(&r->log, "offset 0x%llx: unknown record type %u skipped (further ones counted, not reported)",
		 (unsigned long long)off, type);
}

static int add_owned_name(struct pd_reader *r, struct pd_evsel *e,
			  const char *name, size_t len)
{
	char **v, *s;

	s = strndup(name, len);
	if (!s)
		return -ENOMEM;
	v = realloc(r->owned_names, (r->nr_owned_names + 1) * sizeof(*v));
	if (!v) {
		free(s);
		return -ENOMEM;
	}
	r->owned_names = v;
	v[r->nr_owned_names++] = s;
	e->name = s;
	return 0;
}

/*
 * Records that change the reader's state (pipe-mode attrs and features,
 * names), seen in file byte order before they are converted.
 */
static int process_header_record(struct pd_reader *r, const uint8_t *p,
				 uint32_t type, uint32_t size, uint64_t off)
{
	bool sw = r->swap;

	switch (type) {
	case PD_RECORD_HEADER_ATTR: {
		uint32_t asize;
		uint64_t nr_ids;
		int err;

		if (size < 8 + PD_ATTR_SIZE_VER0)
			return pd__set_error(r, -PD_ERR_BAD_RECORD, off,
					     "ATTR record of %u bytes is too small",
					     size);
		asize = pd_get32(p + 12, sw);
		if (asize == 0)
			asize = PD_ATTR_SIZE_VER0;
		if (asize < PD_ATTR_SIZE_VER0 || asize > size - 8)
			return pd__set_error(r, -PD_ERR_BAD_ATTR, off + 12,
					     "ATTR record: attr size %u does not fit a record of %u bytes",
					     asize, size);
		nr_ids = (size - 8 - asize) / 8;
		err = pd__add_evsel(r, p + 8, asize, off + 8,
				    (const uint64_t *)(p + 8 + asize), nr_ids,
				    sw);
		return err < 0 ? err : 0;
	}
	case PD_RECORD_HEADER_FEATURE: {
		uint64_t feat;

		if (size < 16)
			return pd__set_error(r, -PD_ERR_BAD_RECORD, off,
					     "FEATURE record of %u bytes is too small",
					     size);
		feat = pd_get64(p + 8, sw);
		if ((size == 16 && feat != PD_FEAT_BRANCH_STACK &&
		     feat != PD_FEAT_STAT) ||
		    (size == 24 && pd__pipe_marker_body(feat) == 8 &&
		     !pd_get64(p + 16, sw))) {
			/*
			 * The writer's end-of-features marker: its last
			 * feature id (24 from perf 4.x, 32 from 6.1), empty.
			 * No other feature is empty. Ours for 4.18, 5.4 and
			 * 5.10 carry 8 zero bytes (features-internal.h):
			 * perf writes those features 4 bytes long when
			 * empty, and CLOCKID never 0.
			 */
			r->hdr.pipe_feature_marker = feat;
			r->header_done = true;
			return 0;
		}
		/*
		 * Ours for 4.15 is a SAMPLE_TIME of two zero times, which is
		 * also what perf writes for that feature in a pipe (before
		 * any sample): kept as the feature, and taken for the end
		 * of the features unless another feature follows.
		 */
		r->marker_candidate = 0;
		if (size == 16 + 16 && pd__pipe_marker_body(feat) == 16 &&
		    !pd_get64(p + 16, sw) && !pd_get64(p + 24, sw))
			r->marker_candidate = feat;
		if (feat >= PD_FEAT_BITS) {
			pd__warn(&r->log, "offset 0x%llx: FEATURE record with id %llu skipped",
				 (unsigned long long)off,
				 (unsigned long long)feat);
			return 0;
		}
		if (feat >= PD_FEAT_KNOWN_MAX)
			pd__warn(&r->log, "offset 0x%llx: unknown feature %llu (%u bytes) kept unparsed",
				 (unsigned long long)off,
				 (unsigned long long)feat, size - 16);
		pd_features__add(r->feat, (unsigned int)feat, p + 16, size - 16,
				 sw, &r->log);
		if (feat == PD_FEAT_EVENT_DESC) {
			/* names for the evsels made by ATTR records */
			const struct pd_features *f = r->feat;
			uint32_t i;

			for (i = 0; pd_features__has(f, PD_FEAT_EVENT_DESC) &&
				    i < f->event_desc.nr; i++) {
				const struct pd_event_desc *d = &f->event_desc.events[i];
				const struct pd_evsel *e = NULL;

				if (d->nr_ids)
					e = pd_reader__evsel_by_id(r, d->ids[0]);
				if (!e && i < r->nr_evsels)
					e = r->evsels[i];
				/* EVENT_UPDATE names, if any, stay */
				if (e && d->name && !e->name)
					r->evsels[e->idx]->name = d->name;
			}
		}
		return 0;
	}
	case PD_RECORD_HEADER_BUILD_ID:
		pd_features__add(r->feat, PD_FEAT_BUILD_ID, p, size, sw, &r->log);
		return 0;
	case PD_RECORD_EVENT_UPDATE: {
		const struct pd_evsel *e;
		size_t len;

		if (size < 24 || pd_get64(p + 8, sw) != 2)	/* NAME */
			return 0;
		e = pd_reader__evsel_by_id(r, pd_get64(p + 16, sw));
		if (!e)
			return 0;
		len = strnlen((const char *)p + 24, size - 24);
		return add_owned_name(r, r->evsels[e->idx],
				      (const char *)p + 24, len);
	}
	default:
		return 0;
	}
}

static int load_blob(struct pd_reader *r, uint64_t off, uint64_t bsize)
{
	ssize_t n;

	if (r->in.pos + bsize > r->data_end)
		return stop_truncated(r, off, "tracing data runs past the end of data");
	if (r->hdr.file_size && r->in.pos + bsize > r->hdr.file_size)
		return stop_truncated(r, off, "tracing data runs past the end of file");
	if (bsize > PD_INPUT_MAX_OBJECT)
		return pd__set_error(r, -PD_ERR_TOO_BIG, off,
				     "tracing data of %llu bytes is too large",
				     (unsigned long long)bsize);
	n = pd_input_fill(&r->in, bsize);
	if (n < 0)
		return pd__set_error(r, (int)n, off, "%s", pd_strerror((int)n));
	if ((uint64_t)n < bsize)
		return stop_truncated(r, off, "tracing data cut short");
	if (bsize > r->blob_cap || !r->blob) {
		/* a 0-byte blob too gets a buffer: memcpy takes no NULL */
		void *b = realloc(r->blob, bsize ? bsize : 1);

		if (!b)
			return -ENOMEM;
		r->blob = b;
		r->blob_cap = bsize ? bsize : 1;
	}
	memcpy(r->blob, pd_input_ptr(&r->in), bsize);
	pd_input_consume(&r->in, bsize);
	r->stats.bytes_read += bsize;
	pd_features__add(r->feat, PD_FEAT_TRACING_DATA, r->blob, bsize, r->swap,
			 &r->log);
	return 1;
}

/*
 * The caller's progress callback, once per PD_PROGRESS_STEP of input: a
 * comparison per record, and no clock read here (the caller decides when
 * to draw).
 */
#define PD_PROGRESS_STEP	(1ULL << 20)

static void tell_progress(struct pd_reader *r, bool done)
{
	struct pd_progress p = {
		.pos = r->in.pos,
		.size = r->in.size,
		.records = r->stats.nr_total,
		.done = done,
	};

	r->progress_next = r->opts.progress && !done ?
			   r->in.pos + PD_PROGRESS_STEP : UINT64_MAX;
	if (r->opts.progress)
		r->opts.progress(&p, r->opts.progress_ctx);
}

/* The AUX data after an AUXTRACE record, for readers that copy it. */
static int load_aux(struct pd_reader *r, uint64_t off, uint64_t asize)
{
	ssize_t n;

	if (asize > PD_INPUT_MAX_OBJECT)
		return pd__set_error(r, -PD_ERR_TOO_BIG, off,
				     "AUX data of %llu bytes is too large to copy",
				     (unsigned long long)asize);
	n = pd_input_fill(&r->in, asize);
	if (n < 0)
		return pd__set_error(r, (int)n, off, "%s", pd_strerror((int)n));
	if ((uint64_t)n < asize)
		return stop_truncated(r, off, "AUX data cut short");
	if (asize > r->aux_cap) {
		void *b = realloc(r->aux, asize);

		if (!b)
			return -ENOMEM;
		r->aux = b;
		r->aux_cap = asize;
	}
	if (asize)
		memcpy(r->aux, pd_input_ptr(&r->in), asize);
	pd_input_consume(&r->in, asize);
	r->stats.bytes_read += asize;
	r->aux_loaded = true;
	return 1;
}

/*
 * Take the record at p (file order, size bytes, complete) into r->rec in
 * host order, and act on it; r->cur is the record taken, which for a
 * sample read from the file in host order is p itself (hold_record()).
 * Returns 1 if it is to be delivered, 0 if it was consumed (compressed),
 * <0 on error.
 */
static int take_record(struct pd_reader *r, const uint8_t *p, uint32_t type,
		       uint32_t size, const struct pd_raw_src *src)
{
	uint64_t off = src->offset;
	int err;

	/* read here, the record the read-ahead thread stopped before */
	if (r->ahead_wanted && pd__ahead_stops_at(type))
		r->ahead_passed = true;
	err = process_header_record(r, p, type, size, off);
	if (err < 0)
		return err;
	if (r->hdr.mode == PD_MODE_PIPE && !r->header_done &&
	    type != PD_RECORD_HEADER_ATTR && type != PD_RECORD_HEADER_FEATURE &&
	    type != PD_RECORD_HEADER_TRACING_DATA &&
	    type != PD_RECORD_HEADER_BUILD_ID &&
	    type != PD_RECORD_HEADER_EVENT_TYPE &&
	    type != PD_RECORD_EVENT_UPDATE) {
		r->header_done = true;
		if (!r->hdr.pipe_feature_marker)
			r->hdr.pipe_feature_marker = r->marker_candidate;
	}
	r->cur = r->rec;
	if (type == PD_RECORD_SAMPLE && !r->swap &&
	    !(src->flags & PD_EVENT_DECOMPRESSED))
		r->cur = p;
	else
		memcpy(r->rec, p, size);
	if (r->swap) {
		pd__swap_header(r->rec);
		err = pd__swap_record(r, r->rec, size);
		if (err < 0)
			return err;
	}
	if (type < PD_RECORD_USER_MAX && pd_record_type_name(type)) {
		r->stats.nr_events[type]++;
	} else {
		r->stats.nr_unknown++;
		warn_unknown_type(r, type, off);
	}
	r->stats.nr_total++;
	if (src->flags & PD_EVENT_DECOMPRESSED)
		r->stats.nr_decompressed++;
	if (type == PD_RECORD_COMPRESSED || type == PD_RECORD_COMPRESSED2) {
		const uint8_t *data = r->rec + 8;
		uint64_t dsize = size - 8;

		if (src->flags & PD_EVENT_DECOMPRESSED)
			return pd__set_error(r, -PD_ERR_BAD_COMPRESSED, off,
					     "compressed record inside compressed data");
		if (type == PD_RECORD_COMPRESSED2) {
			if (size < 16)
				return pd__set_error(r, -PD_ERR_BAD_RECORD, off,
						     "COMPRESSED2 record of %u bytes is too small",
						     size);
			/* sized by data_size; the rest is padding */
			dsize = pd_get64(r->rec + 8, false);
			data = r->rec + 16;
			if (dsize > (uint64_t)size - 16)
				return pd__set_error(r, -PD_ERR_BAD_COMPRESSED, off,
						     "COMPRESSED2 data size %llu exceeds the record (%u bytes)",
						     (unsigned long long)dsize, size);
		}
		err = pd__decomp_feed(r, data, dsize, off);
		if (err < 0)
			return err;
		return r->opts.show_compressed ? 1 : 0;
	}
	return 1;
}

/* A copy of the record at p (size bytes) and where it came from, to
 * read again later: NULL when out of memory. */
static struct pd_queued *queued_copy(const uint8_t *p, uint32_t size,
				     const struct pd_raw_src *src)
{
	struct pd_queued *q = malloc(sizeof(*q) + size);

	if (!q)
		return NULL;
	q->next = NULL;
	q->offset = src->offset;
	q->inner_offset = src->inner_offset;
	q->flags = src->flags;
	q->size = size;
	memcpy(q->data, p, size);
	return q;
}

/* where a queued record came from, for its delivery */
static void src_of(struct pd_raw_src *src, const struct pd_queued *q)
{
	src->offset = q->offset;
	src->inner_offset = q->inner_offset;
	src->flags = q->flags;
}

/* r->cur into r->rec, where it stays when the input moves */
static void hold_record(struct pd_reader *r)
{
	if (r->cur != r->rec)
		memcpy(r->rec, r->cur, pd_get16(r->cur + 6, false));
	r->cur = r->rec;
}

/*
 * The read-ahead thread (stream-ahead.c) stops before a record that
 * changes what the reader tells its caller (evsels, features, AUX data):
 * the caller's thread reads it, and the rest. One that came out of
 * compressed data is held here for it.
 */
static int hold(struct pd_reader *r, const uint8_t *p, uint32_t size,
		const struct pd_raw_src *src)
{
	struct pd_queued *q = queued_copy(p, size, src);

	if (!q)
		return -ENOMEM;
	r->held = q;
	return PD__AHEAD_STOP;
}

/*
 * A large sample of a file is not read through the input buffer: in time
 * order it is left where it is until it is delivered (order.c), its time
 * read from its first bytes; in file order, for a caller that reads user
 * stack copies only as far as they were filled (stack_used_only), it is
 * read at once, that far (in-file.c). Either way its body is skipped.
 * 1 queued (time order) or taken into r->rec (file order), 0 neither
 * (it is read whole), <0 error.
 */
static int sample_in_file(struct pd_reader *r, uint32_t size,
			  const struct pd_raw_src *src)
{
	size_t head = size < PD_INPUT_SPARSE_READ ? size : PD_INPUT_SPARSE_READ;
	bool queue = r->opts.order == PD_ORDER_TIME;
	uint32_t stack_at = 0, stack_size = 0;
	uint64_t time, off = src->offset;
	const uint8_t *p;
	ssize_t n;
	int err;

	/* (byte-swapped ones are read whole: delivered from a swapped copy;
	 * one past the file's end is a truncated file's last) */
	if ((!queue && !r->opts.stack_used_only) || r->swap ||
	    !r->in.seekable || !r->header_done ||
	    size < pd__order_in_file_min || off + size > r->in.size)
		return 0;
	/*
	 * What the buffer holds of it already may do (after a sample's
	 * tail, the read that took it brought the start of this one)
	 */
	if (r->in.end - r->in.start >= 64 && r->in.end - r->in.start < head)
		head = r->in.end - r->in.start;
	for (;;) {
		bool timed, spanned = false;

		n = pd_input_fill(&r->in, head);
		if (n < 0)
			return pd__set_error(r, (int)n, off, "read: %s",
					     pd_strerror((int)n));
		p = pd_input_ptr(&r->in);
		if ((size_t)n < head)
			return 0;
		timed = !queue || pd__record_time(r, p, head, &time);
		if (timed && r->opts.stack_used_only)
			spanned = pd__sample_stack_span(r, p, head, &stack_at,
							&stack_size);
		if (timed && (spanned || !r->opts.stack_used_only))
			break;
		/* (a long callchain before the copy: a larger head) */
		if (head < size && head < 4 * PD_INPUT_SPARSE_READ) {
			head = head < PD_INPUT_SPARSE_READ ?
			       PD_INPUT_SPARSE_READ : 4 * PD_INPUT_SPARSE_READ;
			if (head > size)
				head = size;
			continue;
		}
		if (!timed || !queue)
			return 0;
		stack_size = 0;
		break;
	}
	if (!queue) {
		/* (r->rec has the 8 spare bytes read_back() zeroes) */
		err = stack_size ?
		      pd__sample_take_here(r, off, size, stack_at, stack_size,
					   r->rec, p, head) :
		      pd__sample_read_back(r, off, size, 0, 0, r->rec, p, head);
		if (err < 0)
			return err;
	} else {
		err = pd__order_push_in_file(r, size, time, off, stack_at,
					     stack_size);
		if (err < 0)
			return pd__set_error(r, err, off, "%s",
					     pd_strerror(err));
	}
	err = pd_input_skip(&r->in, off + size);
	if (err < 0)
		return pd__set_error(r, err, off, "%s", pd_strerror(err));
	r->stats.bytes_read += size;
	if (r->in.pos >= r->progress_next)
		tell_progress(r, false);
	if (!queue)
		return take_record(r, r->rec, PD_RECORD_SAMPLE, size, src);
	r->stats.nr_events[PD_RECORD_SAMPLE]++;
	r->stats.nr_total++;
	return 1;
}

/* Next raw record into r->cur: 1 got one, 0 end, <0 error (and
 * PD__AHEAD_STOP, on the read-ahead thread). */
static int read_raw(struct pd_reader *r, struct pd_raw_src *src)
{
	for (;;) {
		const uint8_t *p;
		uint32_t type, size;
		uint64_t off;
		ssize_t n;
		int ret;

		if (r->held) {
			struct pd_queued *q = r->held;

			r->held = NULL;
			src_of(src, q);
			ret = take_record(r, q->data, pd_get32(q->data, r->swap),
					  q->size, src);
			free(q);
			if (ret != 0)
				return ret;
			continue;
		}
		if (r->decomp) {
			ret = pd__decomp_next(r, &p, &src->inner_offset,
					      &src->offset);
			if (ret < 0)
				return ret;
			if (ret > 0) {
				src->flags = PD_EVENT_DECOMPRESSED;
				type = pd_get32(p, r->swap);
				size = pd_get16(p + 6, r->swap);
				if (r->ahead_stop && pd__ahead_stops_at(type))
					return hold(r, p, size, src);
				ret = take_record(r, p, type, size, src);
				if (ret != 0)
					return ret;
				continue;
			}
		}
		if (r->done)
			return 0;
		off = r->in.pos;
		src->offset = off;
		src->inner_offset = 0;
		src->flags = 0;
		if (off >= r->data_end)
			return 0;
		n = pd_input_fill(&r->in, 8);
		if (n < 0)
			return pd__set_error(r, (int)n, off, "read: %s",
					     pd_strerror((int)n));
		if (n == 0) {
			if (r->data_end != UINT64_MAX &&
			    off < r->data_end && !r->hdr.data_size_was_zero)
				return stop_truncated(r, off, "end of file before the end of the data section");
			return 0;
		}
		if (n < 8)
			return stop_truncated(r, off, "partial record header");
		p = pd_input_ptr(&r->in);
		type = pd_get32(p, r->swap);
		size = pd_get16(p + 6, r->swap);
		/* left unread: the caller's thread reads it again */
		if (r->ahead_stop && pd__ahead_stops_at(type))
			return PD__AHEAD_STOP;
		if (size < 8)
			return pd__set_error(r, -PD_ERR_BAD_RECORD, off,
					     "record size %u is too small (type %u)",
					     size, type);
		if (r->data_end != UINT64_MAX && off + size > r->data_end) {
			if (r->hdr.data_size_was_zero || r->data_end == r->hdr.file_size)
				return stop_truncated(r, off, "partial last record");
			return pd__set_error(r, -PD_ERR_BAD_RECORD, off,
					     "record of %u bytes (type %u) runs past the end of the data section",
					     size, type);
		}
		if (type == PD_RECORD_SAMPLE) {
			ret = sample_in_file(r, size, src);
			if (ret < 0)
				return ret;
			if (ret > 0 && r->opts.order == PD_ORDER_TIME)
				continue;	/* queued */
			if (ret > 0)
				return ret;
		}
		n = pd_input_fill(&r->in, size);
		if (n < 0)
			return pd__set_error(r, (int)n, off, "read: %s",
					     pd_strerror((int)n));
		if (n < size)
			return stop_truncated(r, off, "partial last record");
		p = pd_input_ptr(&r->in);
		ret = take_record(r, p, type, size, src);
		pd_input_consume(&r->in, size);
		r->stats.bytes_read += size;
		if (r->in.pos >= r->progress_next)
			tell_progress(r, false);
		if (ret < 0)
			return ret;
		if (type == PD_RECORD_HEADER_TRACING_DATA && size >= 12) {
			int e = load_blob(r, off, pd_get32(r->rec + 8, false));

			if (e < 0)
				return e;
			if (e == 0)
				return 0;
		} else if (type == PD_RECORD_AUXTRACE && size >= 16) {
			uint64_t asize = pd_get64(r->rec + 8, false);
			uint64_t end;
			int e;

			if (pd_add_overflows(r->in.pos, asize, &end) ||
			    end > r->data_end ||
			    (r->hdr.file_size && end > r->hdr.file_size))
				return stop_truncated(r, off, "AUX data runs past the end of data");
			r->aux_data_offset = r->in.pos;
			r->aux_loaded = false;
			if (r->opts.load_aux && r->opts.order == PD_ORDER_FILE) {
				e = load_aux(r, off, asize);
				if (e <= 0)
					return e;
				if (ret > 0)
					return ret;
				continue;
			}
			e = pd_input_seek(&r->in, end);
			if (e == -PD_ERR_TRUNCATED)
				return stop_truncated(r, off, "AUX data cut short");
			if (e < 0)
				return pd__set_error(r, e, off, "%s", pd_strerror(e));
			r->stats.bytes_read += asize;
		}
		if (ret > 0)
			return ret;
	}
}

static int queue_current(struct pd_reader *r, const struct pd_raw_src *src)
{
	struct pd_queued *q = queued_copy(r->cur, pd_get16(r->cur + 6, false),
					  src);

	if (!q)
		return -ENOMEM;
	if (r->queue_tail)
		r->queue_tail->next = q;
	else
		r->queue_head = q;
	r->queue_tail = q;
	return 0;
}

PD_EXPORT int pd_reader__read_header(struct pd_reader *r)
{
	struct pd_raw_src src;
	int ret;

	if (r->failed)
		return -EINVAL;
	while (!r->header_done) {
		ret = read_raw(r, &src);
		if (ret <= 0)
			return ret;
		ret = queue_current(r, &src);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* err, the reader failed (the read-ahead thread's caller sets r->failed) */
static int failed(struct pd_reader *r, int err)
{
	if (r->ahead_stop)
		r->ahead_failed = true;
	else
		r->failed = true;
	return err;
}

/*
 * The next record to deliver, not decoded: 1 (*rec, *src), 0 at the end,
 * <0 on error, PD__AHEAD_STOP on the read-ahead thread (stream-ahead.c).
 * *rec stays put until the next call.
 */
int pd__next_raw(struct pd_reader *r, const uint8_t **rec,
		 struct pd_raw_src *src)
{
	int ret;

	for (;;) {
		struct pd_queued *q = r->queue_head;
		uint64_t time;

		if (q) {
			r->queue_head = q->next;
			if (!r->queue_head)
				r->queue_tail = NULL;
			src_of(src, q);
			memcpy(r->rec, q->data, q->size);
			r->cur = r->rec;
			free(q);
			*rec = r->rec;
			return 1;
		}
		if (r->opts.order == PD_ORDER_TIME) {
			const struct pd_queued *oq = pd__order_pop(r, &ret);

			if (ret < 0)
				return failed(r, ret);
			if (oq) {
				src_of(src, oq);
				*rec = oq->data;
				return 1;
			}
		}
		ret = read_raw(r, src);
		if (ret < 0)
			return failed(r, ret);
		if (ret == PD__AHEAD_STOP)
			return ret;
		if (ret == 0) {
			if (r->progress_next != UINT64_MAX)
				tell_progress(r, true);
			if (r->opts.order == PD_ORDER_TIME &&
			    pd__order_pending(r)) {
				pd__order_flush_all(r);
				continue;
			}
			return 0;
		}
		if (r->opts.order == PD_ORDER_TIME) {
			uint32_t type = pd_get32(r->cur, false);
			uint16_t size = pd_get16(r->cur + 6, false);

			if (type == PD_RECORD_FINISHED_ROUND) {
				pd__order_round(r);
			} else if (type < PD_RECORD_USER_MIN &&
				   pd__record_time(r, r->cur, size, &time)) {
				ret = pd__order_push(r, r->cur, size, time,
						     src->offset,
						     src->inner_offset,
						     src->flags);
				if (ret < 0)
					return ret;
				continue;
			}
		}
		/* (where it stays until the next call: the input may move) */
		hold_record(r);
		*rec = r->rec;
		return 1;
	}
}
