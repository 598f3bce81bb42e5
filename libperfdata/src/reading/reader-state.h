/* SPDX-License-Identifier: MIT */
/*
 * The reader's state, shared by the files that implement it, each of which
 * uses only those listed before it: reader-state.c (errors, scratch,
 * evsels and ids), sample.c, swap.c (byte order) and record.c (decoding),
 * decompress.c (zstd), in-file.c (large samples read back from the file),
 * order.c (time ordering), stream.c (the record
 * stream, undecoded), stream-ahead.c (reading it ahead on a thread),
 * reader-next.c (pd_reader__next()), reader.c (open, file header, close).
 */
#ifndef PD_READER_STATE_H
#define PD_READER_STATE_H

#include <perfdata/event.h>
#include <perfdata/reader.h>

#include "base/input.h"
#include "base/internal.h"

/* Largest record: header.size is a u16. */
#define PD_MAX_RECORD	65536

struct pd_id_map {
	uint64_t *ids;
	int *idx;
	size_t nr, cap;		/* open addressing, cap a power of two */
};

struct pd_decomp;
struct pd_order_queue;

struct pd_reader {
	struct pd_logger log;
	char *name;
	struct pd_reader_opts opts;
	struct pd_input in;
	int own_fd;			/* fd to close, or -1 */
	struct pd_header_info hdr;
	bool swap;
	uint64_t data_end;		/* UINT64_MAX: until end of input */

	/* evsels are handed out by pointer: each is its own allocation */
	struct pd_evsel **evsels;
	size_t nr_evsels, cap_evsels;
	struct pd_id_map id_map;
	bool any_identifier_mismatch;

	struct pd_features *feat;
	/* evsel names from EVENT_UPDATE records, owned here */
	char **owned_names;
	size_t nr_owned_names;
	bool header_done;		/* pipe: end of header records seen */
	/* pipe: a feature that may be the end marker, if none follows */
	uint64_t marker_candidate;

	/* Current record: host-order copy and its decoded form. */
	uint8_t *rec;			/* PD_MAX_RECORD + 8 bytes */
	/*
	 * The record read_raw() took: rec, or a sample in host order where
	 * the input holds it, until the input moves (stream.c: the time
	 * order copies samples once, into its queue, not twice)
	 */
	const uint8_t *cur;
	struct pd_event ev;
	void *blob;			/* tracing data blob */
	size_t blob_cap;

	/* Scratch arrays handed out through events. */
	struct pd_read_value *read_vals;
	size_t read_vals_cap;
	void *scratch;
	size_t scratch_cap;

	uint64_t aux_data_offset;	/* of the last AUXTRACE record */
	void *aux;			/* its data, with opts.load_aux */
	size_t aux_cap;
	bool aux_loaded;
	/* input position of the next call of opts.progress (stream.c) */
	uint64_t progress_next;
	uint64_t nr_attr_records;	/* ATTR records decoded so far */

	struct pd_decomp *decomp;
	struct pd_order_queue *order;
	struct pd_archive *archive;	/* the archive read, or NULL */

	/* pd_reader__read_header(): records read ahead, replayed by next() */
	struct pd_queued *queue_head, *queue_tail;

	struct pd_reader_stats stats;
	uint32_t unknown_types[16];	/* already warned about */
	size_t nr_unknown_types;
	char errmsg[320];
	bool failed;
	bool done;

	/*
	 * pd_reader__read_ahead(): the thread that reads, frames and
	 * orders the records (stream-ahead.c), or NULL. ahead_stop: it
	 * runs, and stops before a record that changes the reader's state
	 * for its caller (pd__ahead_stops_at()); held: such a record out of
	 * compressed data, for the caller's thread to read; ahead_failed:
	 * its read failed (r->failed, set by the caller's thread);
	 * ahead_wanted: to start again once the caller's thread has read
	 * the record it stopped before (ahead_passed), a few times at most.
	 */
	struct pd_ahead *ahead;
	bool ahead_stop, ahead_failed, ahead_wanted, ahead_passed;
	unsigned int nr_ahead_starts;
	struct pd_queued *held;
	/*
	 * The sample last read back in part (in-file.c), into read_back:
	 * its bytes [0, read_head) and [read_tail, size) are the file's,
	 * the rest (the stack copy past what was filled) is not read. The
	 * read-ahead thread copies only those.
	 */
	const uint8_t *read_back;
	uint32_t read_head, read_tail;
};

/* Where a record to deliver came from. */
struct pd_raw_src {
	uint64_t offset;
	uint64_t inner_offset;
	uint32_t flags;
};

/* stream.c: the read-ahead thread stopped before a record (not an error) */
#define PD__AHEAD_STOP	2

int pd__next_raw(struct pd_reader *r, const uint8_t **rec,
		 struct pd_raw_src *src);

/*
 * Records whose reading changes what the reader tells its caller: evsels
 * and their names, features, tracing data, AUX data. The read-ahead
 * thread leaves them, and what follows, to the caller's thread.
 */
static inline bool pd__ahead_stops_at(uint32_t type)
{
	return type == PD_RECORD_HEADER_ATTR ||
	       type == PD_RECORD_HEADER_EVENT_TYPE ||
	       type == PD_RECORD_HEADER_TRACING_DATA ||
	       type == PD_RECORD_HEADER_BUILD_ID ||
	       type == PD_RECORD_EVENT_UPDATE ||
	       type == PD_RECORD_HEADER_FEATURE ||
	       type == PD_RECORD_AUXTRACE ||
	       type == PD_RECORD_AUXTRACE_INFO;
}

/*
 * stream-ahead.c: the next record the thread read (1), its end (0 or
 * <0, the thread ended) or PD__AHEAD_STOP (it ended before a record:
 * the caller reads on).
 */
int pd__ahead_next(struct pd_reader *r, const uint8_t **rec,
		   struct pd_raw_src *src);
int pd__ahead_start(struct pd_reader *r);
void pd__ahead_free(struct pd_reader *r);

/* A raw record waiting to be delivered (read-ahead or time ordering). */
struct pd_queued {
	struct pd_queued *next;
	void *chunk;		/* order.c: the chunk that holds it */
	uint64_t offset, inner_offset;
	uint64_t time;
	uint64_t seq;
	uint32_t flags;
	uint32_t size;
	bool in_file;		/* order.c: data left at offset, read back */
	/* its user stack copy, read back only as far as it was filled
	 * (stack_used_only; 0: read whole) */
	uint16_t stack_at, stack_size;
	/* host order; 8-byte aligned, as records are decoded in place */
	_Alignas(8) uint8_t data[];
};

/* reader-state.c */
int pd__set_error(struct pd_reader *r, int err, uint64_t offset,
		  const char *fmt, ...) PD_PRINTF(4, 5);
/*
 * Set on a thread whose errors another thread sets in their turn (the
 * read-ahead thread's, stream-ahead.c): fn takes the message of an error
 * on r and returns true when it kept it; r does not fail then. As
 * pd__log_divert does for messages.
 */
struct pd_error_divert {
	bool (*fn)(void *ctx, struct pd_reader *r, const char *msg);
	void *ctx;
};
extern __thread struct pd_error_divert *pd__error_divert;

void *pd__scratch(struct pd_reader *r, size_t size);

int pd__add_evsel(struct pd_reader *r, const void *attr, size_t attr_size,
		  uint64_t off, const uint64_t *ids, uint64_t nr_ids,
		  bool swap_ids);
/*
 * For a caller that copies records from the input by their offset
 * (pd_convert()): the input's fd where it is a regular file in file mode
 * of the host's byte order, so that a record not from compressed data is
 * ev->size bytes at ev->offset in it as ev->raw has them; else -1.
 */
int pd__reader_file_fd(const struct pd_reader *r);
/*
 * From now on, leave samples' user stack copies unread: past what was
 * filled (stack_used_only) with read_filled, else all of them
 * (stack_unread), for a caller that copies them from the file as they
 * are. false, and nothing changed, once the read-ahead thread runs.
 */
bool pd__reader_leave_stacks(struct pd_reader *r, bool read_filled);
int pd__sample_id_word(uint64_t sample_type);
int pd__trailer_id_word(uint64_t sample_type);
uint16_t pd__id_hdr_size(uint64_t sample_type);

/* sample.c: the evsel of a sample, of a kernel record's trailer */
const struct pd_evsel *pd__evsel_for_sample(struct pd_reader *r,
					    const uint8_t *rec, size_t size);
const struct pd_evsel *pd__evsel_for_trailer(struct pd_reader *r,
					     const uint8_t *rec, size_t size);

/* swap.c: converts a record (file order, header already host order) */
/* Direction of an in-place byte-order conversion. */
enum pd_swap_dir {
	PD_SWAP_NONE = 0,
	PD_SWAP_IN,	/* foreign order -> host order (reading) */
	PD_SWAP_OUT,	/* host order -> foreign order (writing) */
};

int pd__swap_record(struct pd_reader *r, uint8_t *rec, size_t size);
/*
 * Writing: a host-order record to the other byte order, header included.
 * attr gives the layout of a SAMPLE or of the sample_id trailer of a
 * kernel record (NULL: no trailer); big_endian is the target order.
 */
int pd__swap_record_out(uint8_t *rec, size_t size, const struct pd_attr *attr,
			bool big_endian);
int pd__swap_sample_out(uint8_t *rec, size_t size, const struct pd_attr *a,
			bool big_endian);
void pd__swap_trailer_out(uint8_t *rec, size_t size, const struct pd_attr *a);
void pd__swap_header(uint8_t *rec);
int pd__swap_sample(struct pd_reader *r, uint8_t *rec, size_t size);
void pd__swap_trailer(struct pd_reader *r, uint8_t *rec, size_t size);
size_t pd__trailer_size(struct pd_reader *r, const uint8_t *rec, size_t size,
			bool swap, const struct pd_evsel **out);
bool pd__record_time(struct pd_reader *r, const uint8_t *rec, size_t size,
		     uint64_t *time);
/*
 * Where the user stack copy of a sample (host order) lies, from its first
 * len bytes: *at its offset in the record, *size its bytes. False when
 * it has none, or the fields before it run past len.
 */
bool pd__sample_stack_span(struct pd_reader *r, const uint8_t *rec,
			   size_t len, uint32_t *at, uint32_t *size);

/* record.c / sample.c: decode a host-order record into r->ev */
int pd__decode_record(struct pd_reader *r, struct pd_event *ev);
int pd__decode_sample(struct pd_reader *r, struct pd_event *ev,
		      const struct pd_evsel *evsel);
void pd__decode_trailer(struct pd_event *ev, const struct pd_evsel *evsel);
int pd__decode_read(struct pd_reader *r, const uint64_t *p, size_t words,
		    uint64_t read_format, struct pd_read *out, size_t *used);

/* decompress.c */
int pd__decomp_feed(struct pd_reader *r, const void *data, size_t size,
		    uint64_t offset);
/*
 * Next whole record of the decompressed stream, in file order, consumed:
 * *p stays valid until the next call. 1 got one, 0 none left, <0 error.
 */
int pd__decomp_next(struct pd_reader *r, const uint8_t **p,
		    uint64_t *inner_off, uint64_t *outer_off);
void pd__decomp_free(struct pd_decomp *d);
size_t pd__decomp_leftover(const struct pd_reader *r);

/*
 * in-file.c: a sample of size bytes at off of the file into data (size +
 * 8 bytes), as far as its user stack copy was filled when stack_size is
 * not 0 (its copy's bytes at stack_at in the record); its first have_len
 * bytes, at have, are in memory already. 0, or <0 and the reader's error
 * set.
 */
int pd__sample_read_back(struct pd_reader *r, uint64_t off, uint32_t size,
			 uint32_t stack_at, uint32_t stack_size, uint8_t *data,
			 const uint8_t *have, size_t have_len);

/*
 * The same for the sample at the input's position (in file order), as
 * far as its copy was filled (stack_size not 0): its tail (the copy's
 * dyn_size and the fields after it) read through the input's buffer,
 * which brings the records after it in the same read; the input is left
 * past the sample. 0, or <0 and the reader's error set.
 */
int pd__sample_take_here(struct pd_reader *r, uint64_t off, uint32_t size,
			 uint32_t stack_at, uint32_t stack_size, uint8_t *data,
			 const uint8_t *have, size_t have_len);

/* order.c */
/*
 * Samples this large (4096 bytes) are left in the file until delivered
 * (stream.c); a variable so that tests can send every sample, or none,
 * that way.
 */
extern uint32_t pd__order_in_file_min;
int pd__order_push(struct pd_reader *r, const uint8_t *rec, uint32_t size,
		   uint64_t time, uint64_t offset, uint64_t inner_offset,
		   uint32_t flags);
void pd__order_round(struct pd_reader *r);
void pd__order_flush_all(struct pd_reader *r);
/* a sample of size bytes left in the file at offset, read back later */
int pd__order_push_in_file(struct pd_reader *r, uint32_t size, uint64_t time,
			   uint64_t offset, uint32_t stack_at,
			   uint32_t stack_size);
const struct pd_queued *pd__order_pop(struct pd_reader *r, int *err);
bool pd__order_pending(struct pd_reader *r);
void pd__order_free(struct pd_order_queue *o);

#endif /* PD_READER_STATE_H */
