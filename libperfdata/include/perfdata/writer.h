/* SPDX-License-Identifier: MIT */
/*
 * Writing perf.data: file mode or pipe mode, either byte order, with the
 * record stream optionally zstd-compressed into COMPRESSED or COMPRESSED2
 * records.
 *
 * Everything handed to the writer is in host byte order; the writer
 * converts to the output order. A file is written to a temporary file next
 * to the output and renamed over it by pd_writer__finish(): a failure, or
 * freeing an unfinished writer, never leaves a half-written output. Pipe mode to
 * a stream writes as it goes.
 *
 *	struct pd_writer *w = pd_writer__open("out.data", NULL);
 *	pd_writer__add_evsel(w, &attr, 128, ids, nr_ids);
 *	pd_writer__set_feature(w, PD_FEAT_HOSTNAME, sec, sec_size);
 *	pd_writer__write(w, rec, &attr);	(for each record)
 *	err = pd_writer__finish(w);		(0: the output is complete)
 *	pd_writer__free(w);
 *
 * Ownership: the writer copies what it is given; pd_writer__free() frees
 * it, and removes the temporary file if pd_writer__finish() did not
 * succeed.
 */
#ifndef PERFDATA_WRITER_H
#define PERFDATA_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <perfdata/errors.h>
#include <perfdata/format.h>
#include <perfdata/reader.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pd_writer;

enum pd_endian {
	PD_ENDIAN_NATIVE = 0,
	PD_ENDIAN_LITTLE,
	PD_ENDIAN_BIG,
};

struct pd_writer_opts {
	size_t sz;			/* sizeof(struct pd_writer_opts) */
	enum pd_mode mode;		/* PD_MODE_FILE (default) or PIPE */
	enum pd_endian endian;
	/*
	 * 0, PD_RECORD_COMPRESSED or PD_RECORD_COMPRESSED2: compress the
	 * record stream with zstd into records of that type. The COMPRESSED
	 * feature is then written by the writer.
	 */
	uint32_t compress;
	int compress_level;		/* zstd level; 0 means 1, as perf -z */
	/*
	 * Pipe mode: after the HEADER_FEATURE records, write the end marker
	 * perf writes (a HEADER_FEATURE whose id is the reader's last
	 * feature). 0 writes no marker (what perf before 4.14 wrote).
	 */
	uint32_t pipe_last_feature;
	/* pipe mode: size of the TRACING_DATA record (12, or 16 as perf
	 * 6.17 writes it); 0 means 12 */
	uint32_t tracing_data_record_size;
	/* Log callback for this writer; NULL uses pd_set_log()'s. */
	pd_log_fn log;
	void *log_ctx;
	/* Name used in messages (default: the path, or "<stdout>"). */
	const char *name;
	/*
	 * COMPRESSED: records may be split across compressed records, as
	 * perf 5.10+ reads them (5.2-5.9 cannot join the pieces, so the
	 * default keeps records whole and leaves records larger than a
	 * batch uncompressed). COMPRESSED2 records are always split: every
	 * reader of them joins.
	 */
	bool compress_split;
	/*
	 * Pipe mode: zero bytes written between each HEADER_ATTR record's
	 * attr and its ids, for streams read by perfs that disagree on where
	 * the ids start (see pd-convert's 3.10 target).
	 */
	uint32_t pipe_attr_pad;
};

/*
 * path "-" writes stdout: pipe mode as a stream; file mode needs stdout
 * to be a regular file (it is seeked). Returns NULL and sets errno.
 */
struct pd_writer *pd_writer__open(const char *path,
				  const struct pd_writer_opts *opts);

/*
 * An event selector. attr_size is the perf_event_attr size written
 * (64..); in file mode every attr is written with the largest size given.
 * File mode: before the first record only. Pipe mode: writes a
 * HEADER_ATTR record. Returns 0 or a negative error.
 */
int pd_writer__add_evsel(struct pd_writer *w, const struct pd_attr *attr,
			 uint32_t attr_size, const uint64_t *ids,
			 size_t nr_ids);

/*
 * A header feature section, in host byte order (the layout perf gives it
 * in a file). Replaces an earlier one. File mode: written by finish. Pipe
 * mode: sent before the first record, as HEADER_FEATURE records, except
 * TRACING_DATA (a TRACING_DATA record and its blob) and BUILD_ID (one
 * HEADER_BUILD_ID record per entry), which may also be set once records
 * are flowing and are then sent at once.
 */
int pd_writer__set_feature(struct pd_writer *w, unsigned int feat,
			   const void *data, size_t size);
/* Forget a feature set earlier. */
void pd_writer__clear_feature(struct pd_writer *w, unsigned int feat);

/*
 * An AUXTRACE record (host order) and the size bytes of AUX data that
 * follow it, written uncompressed as perf writes them; in file mode the
 * AUXTRACE feature is rebuilt to index them (an index set by
 * pd_writer__set_feature() is replaced, or dropped when none is written).
 */
int pd_writer__write_aux(struct pd_writer *w, const void *rec,
			 const void *data, uint64_t size);

/*
 * A record, in host byte order (header.size bytes at rec). attr gives the
 * layout of a SAMPLE and of the sample_id trailer of other kernel records
 * (needed to convert the byte order; may be NULL for records that have
 * neither). Returns 0 or a negative error.
 */
int pd_writer__write(struct pd_writer *w, const void *rec,
		     const struct pd_attr *attr);

/*
 * Whether pd_writer__copy() can take records of a file of the given byte
 * order: the output is a regular file, uncompressed, of that byte order.
 */
bool pd_writer__can_copy(const struct pd_writer *w, bool big_endian);

/*
 * A record as it is in the file fd, size bytes at offset off, in the
 * output's byte order, written next without passing through this
 * process where the kernel can copy it (copy_file_range()): records next
 * to each other in fd are copied in one go, when the next record written
 * another way (or pd_writer__finish()) comes. Not an AUXTRACE record
 * (pd_writer__write_aux() indexes those). fd stays the caller's, and
 * open until then. Returns 0 or a negative error (-EINVAL where
 * pd_writer__can_copy() says no).
 */
int pd_writer__copy(struct pd_writer *w, int fd, uint64_t off, uint32_t size);

/* Records and bytes written so far (before compression). */
uint64_t pd_writer__nr_records(const struct pd_writer *w);

/*
 * Finish: flushes compression; file mode writes the features and the
 * header and renames the temporary file over the output. Returns 0, or a
 * negative error (then the output was not created or changed).
 */
int pd_writer__finish(struct pd_writer *w);
/* Frees w; without a successful finish, removes the temporary file.
 * Accepts NULL. */
void pd_writer__free(struct pd_writer *w);

/* Message for the last error of this writer (names the output). */
const char *pd_writer__errmsg(const struct pd_writer *w);
/* Message for a failed pd_writer__open(). */
const char *pd_writer__open_errmsg(void);

#ifdef __cplusplus
}
#endif
#endif /* PERFDATA_WRITER_H */
