/* SPDX-License-Identifier: MIT */
/*
 * Reading perf.data: file mode (PERFILE2, either byte order, and the old
 * PERFFILE v1), pipe mode (from a path or a stream), zstd-compressed record
 * streams, records in file order or in time order.
 *
 * Ownership: the reader owns every object it returns (evsels, features,
 * events); they live until pd_reader__close(), except events, which live
 * until the next pd_reader__next().
 *
 *	struct pd_reader *r = pd_reader__open("perf.data", NULL);
 *	const struct pd_event *ev;
 *	int err;
 *
 *	if (!r)
 *		die(pd_strerror(errno));
 *	while ((err = pd_reader__next(r, &ev)) > 0)
 *		use(ev);
 *	if (err < 0)
 *		die(pd_reader__errmsg(r));
 *	pd_reader__close(r);
 */
#ifndef PERFDATA_READER_H
#define PERFDATA_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <perfdata/errors.h>
#include <perfdata/event.h>
#include <perfdata/format.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pd_reader;
struct pd_features;

enum pd_order {
	PD_ORDER_FILE = 0,	/* records as stored */
	PD_ORDER_TIME,		/* FINISHED_ROUND semantics, bounded memory */
};

/*
 * How far a reader has read its input, for a progress display: given to
 * pd_reader_opts.progress about once per MiB of input.
 */
struct pd_progress {
	uint64_t pos;		/* bytes of the input read so far */
	uint64_t size;		/* the input's size; 0 when unknown (a pipe) */
	uint64_t records;	/* records read so far */
	bool done;		/* the input's end: the last call */
};

typedef void (*pd_progress_fn)(const struct pd_progress *p, void *ctx);

struct pd_reader_opts {
	size_t sz;		/* sizeof(struct pd_reader_opts) */
	enum pd_order order;
	/*
	 * Deliver COMPRESSED/COMPRESSED2 records themselves as well as the
	 * records they hold (which are always delivered).
	 */
	bool show_compressed;
	/*
	 * Load the AUX data following each AUXTRACE record into memory
	 * (pd_auxtrace_event.data), for copying it (PD_ORDER_FILE only; a
	 * chunk of at most 512 MiB at a time). Off: it is skipped.
	 */
	bool load_aux;
	/* Log callback for this reader; NULL uses pd_set_log()'s. */
	pd_log_fn log;
	void *log_ctx;
	/*
	 * Name used in messages (default: the path, or "<stdin>" for "-").
	 */
	const char *name;
	/*
	 * A truncated input (a data section or record cut short, a feature
	 * section past the end of the file) is an error, -PD_ERR_TRUNCATED
	 * with the offset in the message, instead of a warning after which
	 * what is there is read (perf's way, the default).
	 */
	bool strict;
	/*
	 * Called as the input is read, about once per MiB, from the thread
	 * that reads it (pd_reader__read_ahead()'s own, once started): it
	 * may not call the reader. NULL: none.
	 */
	pd_progress_fn progress;
	void *progress_ctx;
	/*
	 * The caller reads user stack copies only as far as the kernel
	 * filled them (pd_user_stack.dyn_size) and never writes samples
	 * out as they are: the reader may leave the rest of each copy
	 * unread, its bytes undefined (most of a DWARF profile's bytes).
	 */
	bool stack_used_only;
	/*
	 * The caller never reads user stack copies (it counts records):
	 * their bytes are left unread and undefined, dyn_size still told.
	 */
	bool stack_unread;
};

enum pd_mode {
	PD_MODE_FILE,
	PD_MODE_PIPE,
};

struct pd_section {
	uint64_t offset;
	uint64_t size;
};

/* What the file header says, in host byte order. */
struct pd_header_info {
	enum pd_mode mode;
	int version;			/* 1 for PERFFILE, 2 for PERFILE2 */
	bool needs_swap;		/* file from the other byte order */
	bool big_endian;		/* byte order of the recording host */
	uint64_t size;			/* header size: 104, 72 or 16 */
	uint64_t attr_size;		/* attr entry stride (file mode) */
	struct pd_section attrs;
	struct pd_section data;
	struct pd_section event_types;
	uint64_t features[4];		/* feature bitmap as read */
	uint64_t feat_offset;		/* data.offset + data.size */
	uint64_t file_size;		/* 0 when unknown (stream) */
	/* data.size was 0 (recorder killed): data runs to the end of file */
	bool data_size_was_zero;
	/* pipe mode: id of the empty HEADER_FEATURE that ended the
	 * features (the writer's last feature), 0 if none was seen */
	uint64_t pipe_feature_marker;
};

/* An event selector: one perf_event_attr and its sample ids. */
struct pd_evsel {
	int idx;
	struct pd_attr attr;		/* host order, zero-extended */
	uint32_t attr_size_on_disk;	/* attr.size as written (0 -> 64) */
	const void *attr_raw;		/* attr bytes as written, host order */
	uint32_t attr_raw_size;
	uint64_t nr_ids;
	const uint64_t *ids;
	const char *name;		/* from EVENT_DESC/EVENT_UPDATE, or NULL */
	uint16_t id_hdr_size;		/* size of its sample_id trailer */
};

/* Counters kept while reading. */
struct pd_reader_stats {
	/* records by type, as perf report --stats counts them */
	uint64_t nr_events[PD_RECORD_USER_MAX];
	uint64_t nr_total;
	uint64_t nr_unknown;		/* records of unknown types */
	uint64_t nr_decompressed;	/* records taken out of COMPRESSED/2 */
	uint64_t bytes_read;		/* input bytes consumed */
	bool truncated;			/* input ended inside a record */
	uint64_t nr_warnings;
};

/* path "-" reads stdin. Returns NULL and sets errno on failure. */
struct pd_reader *pd_reader__open(const char *path,
				  const struct pd_reader_opts *opts);
/* Reads from fd, which the reader does not close. */
struct pd_reader *pd_reader__open_fd(int fd,
				     const struct pd_reader_opts *opts);
void pd_reader__close(struct pd_reader *r);

/*
 * Next record: returns 1 and sets *ev, 0 at the end, or a negative error
 * (pd_reader__errmsg() tells what and where).
 */
int pd_reader__next(struct pd_reader *r, const struct pd_event **ev);

/*
 * From here on, the records are read, taken out of compressed data and
 * put in order on a thread of their own, and decoded as
 * pd_reader__next() returns them: for a caller with a CPU to spare.
 * The records, messages and errors are the same, in the same order. Until
 * pd_reader__next() has returned 0 or an error, the caller calls nothing
 * else on r but pd_reader__close() and the getters of what it returned
 * (evsels, features, header, errmsg). 0, or -errno (reading stays on the
 * caller's thread): -ENOTSUP for a pipe.
 */
int pd_reader__read_ahead(struct pd_reader *r);

/*
 * Message for the last error, naming the input and offset, e.g.
 * "perf.data: offset 0x1a2b: record size 0 (type 9)". Also set when
 * pd_reader__open() fails: use pd_reader__open_errmsg() then.
 */
const char *pd_reader__errmsg(const struct pd_reader *r);
const char *pd_reader__open_errmsg(void);

const struct pd_header_info *pd_reader__header(const struct pd_reader *r);
const char *pd_reader__name(const struct pd_reader *r);

size_t pd_reader__nr_evsels(const struct pd_reader *r);
const struct pd_evsel *pd_reader__evsel(const struct pd_reader *r, size_t idx);

/*
 * Header features. In file mode they are all read at open. In pipe mode
 * they arrive as records; pd_reader__read_header() reads the stream up to
 * the end of its header records (queuing the records it read so that
 * pd_reader__next() still returns them) and is a no-op in file mode.
 */
const struct pd_features *pd_reader__features(const struct pd_reader *r);
int pd_reader__read_header(struct pd_reader *r);

const struct pd_reader_stats *pd_reader__stats(const struct pd_reader *r);

/* Decode helpers usable on any record of this reader. */
const struct pd_evsel *pd_reader__evsel_by_id(const struct pd_reader *r,
					      uint64_t id);

#ifdef __cplusplus
}
#endif
#endif /* PERFDATA_READER_H */
