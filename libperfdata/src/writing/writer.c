// SPDX-License-Identifier: MIT
/*
 * The perf.data writer.
 *
 * File mode lays the file out as perf does: header, the ids of each attr,
 * the attr section, the record stream, the feature index and the feature
 * sections. The header is written last, at offset 0, once the sizes are
 * known; until the rename nothing is visible under the output's name.
 *
 * Pipe mode writes the 16-byte header, then one HEADER_ATTR record per
 * attr as it is added, the features as records before the first record
 * (perf 6.1's order), then the records.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <perfdata/writer.h>

#include "header/attr.h"
#include "compress.h"
#include "copy-range.h"
#include "header/feat-swap.h"
#include "header/features-internal.h"
#include "reading/reader-state.h"

#define OBUF_SIZE	(256 * 1024)
/* records this large are written from where they are (emit()) */
#define EMIT_DIRECT	(32 * 1024)
/*
 * Input bytes per compressed record: small enough that the compressed
 * bytes of a batch always fit one record (header.size is 16 bits).
 */
#define COMP_BATCH	60000
/*
 * What perf's readers size their decompression buffer from: room for a
 * batch, in whole 4 KiB pages (perf 7.x refuses the feature otherwise:
 * "Invalid HEADER_COMPRESSED: comp_mmap_len (N) must be a 4K-aligned
 * value >= 4096", and then reads no compressed record).
 */
#define COMP_MMAP_LEN	((COMP_BATCH + 4096 + 4095) / 4096 * 4096)

struct wr_evsel {
	struct pd_attr attr;
	uint32_t attr_size;
	uint64_t *ids;
	size_t nr_ids;
};

struct pd_writer {
	struct pd_logger log;
	char *name;
	char *path;		/* final name (file mode, not stdout) */
	char *tmp_path;		/* temporary file, renamed at finish */
	int fd;
	bool is_stdout;
	enum pd_mode mode;
	bool swap;		/* output in the other byte order */
	bool big_endian;	/* byte order of the output */
	uint32_t pipe_last_feature;
	uint32_t pipe_attr_pad;
	uint32_t tracing_rec_size;

	/* output buffer; pos is the file offset of obuf[0] */
	uint8_t *obuf;
	size_t olen;
	uint64_t pos;
	/*
	 * Records to copy from a file (pd_writer__copy()), at pos, after
	 * the buffer's bytes were written: copy_len bytes of copy_fd at
	 * copy_off; 0: none. copy_kernel: copy_file_range() not refused yet.
	 */
	int copy_fd;
	uint64_t copy_off, copy_len;
	bool copy_kernel;
	bool out_regular;	/* the output is a regular file */

	/* compression */
	uint32_t compress;
	bool compress_split;
	int level;
	struct pd_comp *comp;
	uint8_t *batch;
	size_t batch_len;
	uint8_t *cbuf;
	size_t cbuf_cap;
	uint64_t comp_in, comp_out;

	struct wr_evsel *evsels;
	size_t nr_evsels;
	uint32_t file_attr_size;

	struct {
		uint8_t *data;		/* NULL: not set; never NULL when set */
		size_t size;
	} feat[PD_FEAT_BITS];

	bool started;		/* first record (or finish) reached */
	bool finished;
	bool failed;
	uint64_t attrs_offset;
	uint64_t data_offset;
	uint64_t nr_records;
	/* AUXTRACE records written (file offset, header.size): the
	 * AUXTRACE feature perf seeks by */
	uint64_t *aux_index;
	size_t nr_aux, aux_cap;

	uint8_t *scratch;
	size_t scratch_cap;
	char errmsg[320];
};

static __thread char open_errmsg[320];

PD_EXPORT const char *pd_writer__open_errmsg(void)
{
	return open_errmsg;
}

PD_EXPORT const char *pd_writer__errmsg(const struct pd_writer *w)
{
	return w ? w->errmsg : open_errmsg;
}

static int wr_error(struct pd_writer *w, int err, const char *fmt, ...)
	PD_PRINTF(3, 4);

static int wr_error(struct pd_writer *w, int err, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (!w->failed)
		snprintf(w->errmsg, sizeof(w->errmsg), "%s: %s", w->name, what);
	w->failed = true;
	return err;
}

static void *scratch(struct pd_writer *w, size_t size)
{
	if (size > w->scratch_cap) {
		void *p = realloc(w->scratch, size);

		if (!p)
			return NULL;
		w->scratch = p;
		w->scratch_cap = size;
	}
	return w->scratch;
}

/* ---- output bytes ---- */

/* iov[0..n) written whole (iov is changed) */
static int writev_all(struct pd_writer *w, struct iovec *iov, int n)
{
	while (n) {
		ssize_t got = writev(w->fd, iov, n);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return wr_error(w, -errno, "write: %s", strerror(errno));
		while (n && (size_t)got >= iov->iov_len) {
			got -= iov->iov_len;
			iov++;
			n--;
		}
		if (n) {
			iov->iov_base = (uint8_t *)iov->iov_base + got;
			iov->iov_len -= got;
		}
	}
	return 0;
}

static int write_all(struct pd_writer *w, const void *buf, size_t len)
{
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };

	return writev_all(w, &iov, 1);
}

/* The records to copy, copied. */
static int flush_copy(struct pd_writer *w)
{
	const char *where = "copy";
	uint64_t len = w->copy_len;
	int err;

	if (!len)
		return 0;
	w->copy_len = 0;
	err = pd__copy_range(w->copy_fd, w->copy_off, w->fd, len,
			     &w->copy_kernel, w->obuf, OBUF_SIZE, &where);
	w->pos += len;
	if (err == -EIO && !strcmp(where, "read"))
		return wr_error(w, err, "copying %llu bytes of the input at 0x%llx: the input ends before them (changed while it was read?)",
				(unsigned long long)len,
				(unsigned long long)w->copy_off);
	if (err)
		return wr_error(w, err, "copying %llu bytes of the input at 0x%llx: %s: %s",
				(unsigned long long)len,
				(unsigned long long)w->copy_off, where,
				strerror(-err));
	return 0;
}

static int flush_obuf(struct pd_writer *w)
{
	int err;

	if (w->copy_len)
		return flush_copy(w);	/* (the buffer is empty) */
	if (!w->olen)
		return 0;
	err = write_all(w, w->obuf, w->olen);
	w->pos += w->olen;
	w->olen = 0;
	return err;
}

/* Offset the next emitted byte will have. */
static uint64_t out_pos(const struct pd_writer *w)
{
	return w->pos + w->olen + w->copy_len;
}

static int emit(struct pd_writer *w, const void *data, size_t len)
{
	int err;

	if (w->failed)
		return -EIO;
	if (w->copy_len) {
		err = flush_copy(w);
		if (err)
			return err;
	}
	/*
	 * A large record (a DWARF sample) goes out from where it is, with
	 * what the buffer holds before it: not copied into the buffer first
	 */
	if (len >= EMIT_DIRECT) {
		struct iovec iov[2] = {
			{ .iov_base = w->obuf, .iov_len = w->olen },
			{ .iov_base = (void *)data, .iov_len = len },
		};

		err = w->olen ? writev_all(w, iov, 2) :
				writev_all(w, iov + 1, 1);
		w->pos += w->olen + len;
		w->olen = 0;
		return err;
	}
	if (w->olen + len > OBUF_SIZE) {
		err = flush_obuf(w);
		if (err)
			return err;
		if (len > OBUF_SIZE) {
			err = write_all(w, data, len);
			w->pos += len;
			return err;
		}
	}
	memcpy(w->obuf + w->olen, data, len);
	w->olen += len;
	return 0;
}

static int emit_zeros(struct pd_writer *w, size_t len)
{
	static const uint8_t zeros[64];
	int err = 0;

	while (len && !err) {
		size_t n = len < sizeof(zeros) ? len : sizeof(zeros);

		err = emit(w, zeros, n);
		len -= n;
	}
	return err;
}

static void put16(struct pd_writer *w, void *p, uint16_t v)
{
	if (w->swap)
		v = pd_bswap16(v);
	memcpy(p, &v, 2);
}

static void put32(struct pd_writer *w, void *p, uint32_t v)
{
	if (w->swap)
		v = pd_bswap32(v);
	memcpy(p, &v, 4);
}

static void put64(struct pd_writer *w, void *p, uint64_t v)
{
	if (w->swap)
		v = pd_bswap64(v);
	memcpy(p, &v, 8);
}

static void put_header(struct pd_writer *w, uint8_t *p, uint32_t type,
		       uint16_t misc, uint16_t size)
{
	put32(w, p, type);
	put16(w, p + 4, misc);
	put16(w, p + 6, size);
}

/* ---- open ---- */

static int open_output(struct pd_writer *w, const char *path)
{
	struct stat st;
	char *slash;
	size_t n;

	if (!strcmp(path, "-")) {
		w->fd = STDOUT_FILENO;
		w->is_stdout = true;
		w->out_regular = !fstat(w->fd, &st) && S_ISREG(st.st_mode);
		if (w->mode == PD_MODE_FILE &&
		    (!w->out_regular || lseek(w->fd, 0, SEEK_CUR) == (off_t)-1))
			return wr_error(w, -ESPIPE,
					"file mode needs a regular file as output (use pipe mode for a stream)");
		if (w->mode == PD_MODE_FILE && ftruncate(w->fd, 0))
			return wr_error(w, -errno, "truncate: %s", strerror(errno));
		if (w->mode == PD_MODE_FILE && lseek(w->fd, 0, SEEK_SET))
			return wr_error(w, -errno, "seek: %s", strerror(errno));
		return 0;
	}
	/*
	 * A device or FIFO is written where it is: a file renamed over it
	 * would take its place (-o /dev/null made /dev/null a file)
	 */
	if (!stat(path, &st) && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
		w->fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
		if (w->fd < 0)
			return wr_error(w, -errno, "%s", strerror(errno));
		if (w->mode == PD_MODE_FILE &&
		    lseek(w->fd, 0, SEEK_CUR) == (off_t)-1)
			return wr_error(w, -ESPIPE,
					"file mode needs a regular file or a seekable device as output (use pipe mode for a stream)");
		return 0;
	}
	w->path = strdup(path);
	n = strlen(path);
	w->tmp_path = malloc(n + 16);
	if (!w->path || !w->tmp_path)
		return -ENOMEM;
	/* same directory, so that rename() is atomic */
	slash = strrchr(path, '/');
	if (slash)
		snprintf(w->tmp_path, n + 16, "%.*s.%s.XXXXXX",
			 (int)(slash - path + 1), path, slash + 1);
	else
		snprintf(w->tmp_path, n + 16, ".%s.XXXXXX", path);
	w->fd = mkstemp(w->tmp_path);
	w->out_regular = w->fd >= 0;
	if (w->fd < 0) {
		int err = -errno;

		free(w->tmp_path);
		w->tmp_path = NULL;
		return wr_error(w, err, "cannot create a file next to it: %s",
				strerror(-err));
	}
	return 0;
}

static int write_pipe_header(struct pd_writer *w)
{
	uint8_t h[16];

	put64(w, h, PD_MAGIC_PERFILE2);
	put64(w, h + 8, PD_PIPE_HEADER_SIZE);
	return emit(w, h, sizeof(h));
}

PD_EXPORT struct pd_writer *pd_writer__open(const char *path,
					    const struct pd_writer_opts *opts)
{
	struct pd_writer_opts o = { 0 };
	struct pd_writer *w;
	int err;

	if (opts)
		memcpy(&o, opts, opts->sz < sizeof(o) ? opts->sz : sizeof(o));
	if (!path || (o.compress && o.compress != PD_RECORD_COMPRESSED &&
		      o.compress != PD_RECORD_COMPRESSED2)) {
		snprintf(open_errmsg, sizeof(open_errmsg), "invalid argument");
		errno = EINVAL;
		return NULL;
	}
	w = calloc(1, sizeof(*w));
	if (!w)
		goto nomem;
	w->fd = -1;
	w->copy_fd = -1;
	w->copy_kernel = true;
	w->mode = o.mode;
	w->big_endian = o.endian == PD_ENDIAN_NATIVE ? pd_host_is_be()
						     : o.endian == PD_ENDIAN_BIG;
	w->swap = w->big_endian != pd_host_is_be();
	w->compress = o.compress;
	w->level = o.compress_level;
	/* every perf that reads COMPRESSED2 (6.15+) joins split records */
	w->compress_split = o.compress_split || o.compress == PD_RECORD_COMPRESSED2;
	w->pipe_last_feature = o.pipe_last_feature;
	w->pipe_attr_pad = PD_ALIGN(o.pipe_attr_pad, 8);
	w->tracing_rec_size = o.tracing_data_record_size == 16 ? 16 : 12;
	w->log.fn = o.log;
	w->log.ctx = o.log_ctx;
	w->name = strdup(o.name ? o.name : !strcmp(path, "-") ? "<stdout>" : path);
	w->obuf = malloc(OBUF_SIZE);
	if (!w->name || !w->obuf)
		goto nomem;
	w->log.name = w->name;
	if (w->compress) {
		w->comp = pd__comp_new(w->level);
		w->batch = malloc(COMP_BATCH);
		w->cbuf_cap = pd__comp_bound(COMP_BATCH);
		w->cbuf = malloc(w->cbuf_cap + 16);
		if (!w->comp || !w->batch || !w->cbuf)
			goto nomem;
	}
	err = open_output(w, path);
	if (!err && w->mode == PD_MODE_PIPE)
		err = write_pipe_header(w);
	if (err) {
		snprintf(open_errmsg, sizeof(open_errmsg), "%s", w->errmsg);
		pd_writer__free(w);
		errno = -err;
		return NULL;
	}
	return w;
nomem:
	snprintf(open_errmsg, sizeof(open_errmsg), "%s: out of memory", path);
	pd_writer__free(w);
	errno = ENOMEM;
	return NULL;
}

/* ---- attrs ---- */

static void attr_bytes(struct pd_writer *w, void *dst, const struct pd_attr *a,
		       uint32_t size)
{
	struct pd_attr copy = *a;
	size_t n = size < sizeof(copy) ? size : sizeof(copy);

	memset(dst, 0, size);
	copy.size = size;
	if (w->swap)
		pd__attr_to_disk(dst, &copy, n, true);
	else
		memcpy(dst, &copy, n);
}

static int emit_header_attr(struct pd_writer *w, const struct wr_evsel *e)
{
	size_t size = 8 + e->attr_size + w->pipe_attr_pad + 8 * e->nr_ids;
	uint8_t *ids;
	uint8_t *rec;
	size_t i;

	if (size > PD_MAX_RECORD)
		return wr_error(w, -PD_ERR_TOO_BIG,
				"attr with %zu ids does not fit a pipe-mode record",
				e->nr_ids);
	rec = scratch(w, size);
	if (!rec)
		return -ENOMEM;
	put_header(w, rec, PD_RECORD_HEADER_ATTR, 0, size);
	attr_bytes(w, rec + 8, &e->attr, e->attr_size);
	ids = rec + 8 + e->attr_size;
	memset(ids, 0, w->pipe_attr_pad);
	ids += w->pipe_attr_pad;
	for (i = 0; i < e->nr_ids; i++)
		put64(w, ids + 8 * i, e->ids[i]);
	return emit(w, rec, size);
}

PD_EXPORT int pd_writer__add_evsel(struct pd_writer *w,
				   const struct pd_attr *attr,
				   uint32_t attr_size, const uint64_t *ids,
				   size_t nr_ids)
{
	struct wr_evsel *e, *n;

	if (w->failed)
		return -EIO;
	if (attr_size < PD_ATTR_SIZE_VER0 || attr_size % 8 || attr_size > 4096)
		return wr_error(w, -EINVAL, "attr size %u is not valid",
				attr_size);
	if (w->mode == PD_MODE_FILE && w->started)
		return wr_error(w, -EBUSY,
				"an attr was added after the first record (file mode lays attrs out before the data)");
	n = realloc(w->evsels, (w->nr_evsels + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	w->evsels = n;
	e = &n[w->nr_evsels];
	memset(e, 0, sizeof(*e));
	e->attr = *attr;
	e->attr_size = attr_size;
	if (nr_ids) {
		e->ids = malloc(nr_ids * sizeof(*ids));
		if (!e->ids)
			return -ENOMEM;
		memcpy(e->ids, ids, nr_ids * sizeof(*ids));
		e->nr_ids = nr_ids;
	}
	w->nr_evsels++;
	if (attr_size > w->file_attr_size)
		w->file_attr_size = attr_size;
	if (w->mode == PD_MODE_PIPE)
		return emit_header_attr(w, e);
	return 0;
}

/* ---- features ---- */

static int emit_tracing_data(struct pd_writer *w);
static int emit_build_ids(struct pd_writer *w);

PD_EXPORT int pd_writer__set_feature(struct pd_writer *w, unsigned int feat,
				     const void *data, size_t size)
{
	uint8_t *copy;

	if (feat == 0 || feat >= PD_FEAT_BITS)
		return -EINVAL;
	if (w->started && w->mode == PD_MODE_PIPE &&
	    feat != PD_FEAT_TRACING_DATA && feat != PD_FEAT_BUILD_ID)
		return wr_error(w, -EBUSY,
				"feature %u set after the first record of a pipe", feat);
	copy = malloc(size ? size : 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, data, size);
	free(w->feat[feat].data);
	w->feat[feat].data = copy;
	w->feat[feat].size = size;
	/* a pipe already under way takes these as records, as perf sends them */
	if (w->started && w->mode == PD_MODE_PIPE) {
		if (feat == PD_FEAT_TRACING_DATA)
			return emit_tracing_data(w);
		return emit_build_ids(w);
	}
	return 0;
}

PD_EXPORT void pd_writer__clear_feature(struct pd_writer *w, unsigned int feat)
{
	if (feat == 0 || feat >= PD_FEAT_BITS)
		return;
	free(w->feat[feat].data);
	w->feat[feat].data = NULL;
	w->feat[feat].size = 0;
}

/*
 * CPU_TOPOLOGY's per-cpu arrays are as long as NRCPUS' first word (cpus
 * available) says: with NRCPUS at hand the layout is known, not guessed.
 */
static int swap_feature(struct pd_writer *w, unsigned int feat, uint8_t *p)
{
	size_t size = w->feat[feat].size;

	if (feat == PD_FEAT_CPU_TOPOLOGY && w->feat[PD_FEAT_NRCPUS].data &&
	    w->feat[PD_FEAT_NRCPUS].size >= 4)
		return pd__feat_swap_cpu_topology(p, size, true,
				pd_get32(w->feat[PD_FEAT_NRCPUS].data, false));
	return pd__feat_swap(feat, p, size, true);
}

/*
 * A feature section in the output's byte order, in a buffer the caller
 * frees; NULL (and a warning) if it cannot be converted.
 */
static uint8_t *feature_out(struct pd_writer *w, unsigned int feat)
{
	uint8_t *p = malloc(w->feat[feat].size ? w->feat[feat].size : 1);

	if (!p)
		return NULL;
	memcpy(p, w->feat[feat].data, w->feat[feat].size);
	if (w->swap && swap_feature(w, feat, p)) {
		pd__warn(&w->log, "feature %u cannot be converted to the other byte order: dropped",
			 feat);
		free(p);
		return NULL;
	}
	return p;
}

static void set_compressed_feature(struct pd_writer *w)
{
	uint32_t v[5];
	uint64_t ratio = w->comp_out ? w->comp_in / w->comp_out : 0;

	v[0] = 0;		/* version */
	v[1] = 1;		/* ZSTD */
	v[2] = w->level ? w->level : 1;
	v[3] = ratio > UINT32_MAX ? UINT32_MAX : ratio;
	v[4] = COMP_MMAP_LEN;
	pd_writer__set_feature(w, PD_FEAT_COMPRESSED, v, sizeof(v));
}

/* Pipe mode: the tracing data blob follows its record, padded to 8. */
static int emit_tracing_data(struct pd_writer *w)
{
	uint8_t rec[16] = { 0 };
	size_t size = w->feat[PD_FEAT_TRACING_DATA].size;
	size_t aligned = PD_ALIGN(size, 8);
	int err;

	if (aligned > UINT32_MAX)
		return wr_error(w, -PD_ERR_TOO_BIG, "tracing data too large");
	put_header(w, rec, PD_RECORD_HEADER_TRACING_DATA, 0, w->tracing_rec_size);
	put32(w, rec + 8, aligned);
	err = emit(w, rec, w->tracing_rec_size);
	if (!err)
		err = emit(w, w->feat[PD_FEAT_TRACING_DATA].data, size);
	if (!err)
		err = emit_zeros(w, aligned - size);
	return err;
}

/* Pipe mode: each BUILD_ID entry becomes a HEADER_BUILD_ID record. */
static int emit_build_ids(struct pd_writer *w)
{
	const uint8_t *p = w->feat[PD_FEAT_BUILD_ID].data;
	size_t left = w->feat[PD_FEAT_BUILD_ID].size;

	while (left >= 8) {
		uint16_t size = pd_get16(p + 6, false);
		uint8_t *rec;
		int err;

		if (size < 8 || size > left) {
			pd__warn(&w->log, "BUILD_ID entry of size %u: the rest dropped",
				 size);
			return 0;
		}
		rec = scratch(w, size);
		if (!rec)
			return -ENOMEM;
		memcpy(rec, p, size);
		memcpy(rec, &(uint32_t){ PD_RECORD_HEADER_BUILD_ID }, 4);
		if (w->swap)
			pd__swap_record_out(rec, size, NULL, w->big_endian);
		err = emit(w, rec, size);
		if (err)
			return err;
		p += size;
		left -= size;
	}
	return 0;
}

static int emit_pipe_features(struct pd_writer *w)
{
	unsigned int feat;
	int err = 0;

	for (feat = 3; feat < PD_FEAT_BITS && !err; feat++) {
		uint8_t hdr[16];
		uint8_t *data;
		size_t size = w->feat[feat].size;

		if (!w->feat[feat].data)
			continue;
		/* file offsets mean nothing in a pipe; perf never sends the
		 * AUX index there and fails on one */
		if (feat == PD_FEAT_AUXTRACE)
			continue;
		if (8 + 8 + size > PD_MAX_RECORD) {
			pd__warn(&w->log, "feature %u (%zu bytes) does not fit a pipe-mode record: dropped",
				 feat, size);
			continue;
		}
		data = feature_out(w, feat);
		if (!data)
			continue;
		put_header(w, hdr, PD_RECORD_HEADER_FEATURE, 0, 16 + size);
		put64(w, hdr + 8, feat);
		err = emit(w, hdr, 16);
		if (!err)
			err = emit(w, data, size);
		free(data);
	}
	if (!err && w->pipe_last_feature) {
		uint8_t hdr[16 + PD_PIPE_MARKER_BODY_MAX] = { 0 };
		size_t body = pd__pipe_marker_body(w->pipe_last_feature);

		put_header(w, hdr, PD_RECORD_HEADER_FEATURE, 0, 16 + body);
		put64(w, hdr + 8, w->pipe_last_feature);
		err = emit(w, hdr, 16 + body);
	}
	if (!err && w->feat[PD_FEAT_TRACING_DATA].data)
		err = emit_tracing_data(w);
	if (!err && w->feat[PD_FEAT_BUILD_ID].data)
		err = emit_build_ids(w);
	return err;
}

/* File mode: header placeholder, ids, attrs; the data starts after. */
static int emit_file_prologue(struct pd_writer *w)
{
	uint64_t *ids_off;
	size_t i, j;
	int err;

	err = emit_zeros(w, PD_FILE_HEADER_SIZE);
	if (err)
		return err;
	if (!w->file_attr_size)
		w->file_attr_size = PD_ATTR_SIZE_VER7;
	ids_off = calloc(w->nr_evsels + 1, sizeof(*ids_off));
	if (!ids_off)
		return -ENOMEM;
	for (i = 0; i < w->nr_evsels && !err; i++) {
		ids_off[i] = out_pos(w);
		for (j = 0; j < w->evsels[i].nr_ids && !err; j++) {
			uint8_t b[8];

			put64(w, b, w->evsels[i].ids[j]);
			err = emit(w, b, 8);
		}
	}
	w->attrs_offset = out_pos(w);
	for (i = 0; i < w->nr_evsels && !err; i++) {
		size_t entry = w->file_attr_size + 16;
		uint8_t *b = scratch(w, entry);

		if (!b) {
			err = -ENOMEM;
			break;
		}
		attr_bytes(w, b, &w->evsels[i].attr, w->file_attr_size);
		put64(w, b + w->file_attr_size, ids_off[i]);
		put64(w, b + w->file_attr_size + 8, 8 * w->evsels[i].nr_ids);
		err = emit(w, b, entry);
	}
	free(ids_off);
	return err;
}

static int start(struct pd_writer *w)
{
	int err;

	if (w->started)
		return 0;
	if (w->mode == PD_MODE_PIPE && w->compress)
		set_compressed_feature(w);
	w->started = true;
	if (w->mode == PD_MODE_PIPE)
		return emit_pipe_features(w);
	err = emit_file_prologue(w);
	w->data_offset = out_pos(w);
	return err;
}

/* ---- records ---- */

static int flush_batch(struct pd_writer *w)
{
	size_t clen, hdr = w->compress == PD_RECORD_COMPRESSED2 ? 16 : 8;
	size_t total, padded;
	int err;

	if (!w->batch_len)
		return 0;
	err = pd__comp_flush(w->comp, w->batch, w->batch_len, w->cbuf + hdr,
			     w->cbuf_cap, &clen);
	if (err)
		return wr_error(w, err, "zstd compression failed");
	total = hdr + clen;
	padded = w->compress == PD_RECORD_COMPRESSED2 ? PD_ALIGN(total, 8) : total;
	if (padded > PD_MAX_RECORD)
		return wr_error(w, -PD_ERR_TOO_BIG,
				"compressed record of %zu bytes", padded);
	put_header(w, w->cbuf, w->compress, 0, padded);
	if (w->compress == PD_RECORD_COMPRESSED2)
		put64(w, w->cbuf + 8, clen);
	memset(w->cbuf + total, 0, padded - total);
	w->comp_in += w->batch_len;
	w->comp_out += padded;
	w->batch_len = 0;
	return emit(w, w->cbuf, padded);
}

static int put_record(struct pd_writer *w, const void *rec, size_t size)
{
	int err;

	if (!w->compress)
		return emit(w, rec, size);
	/*
	 * Readers that join a record split across compressed records get
	 * full batches, and records larger than a batch (DWARF samples with
	 * 64 KiB stacks) compressed too; for the others records stay whole.
	 */
	if (w->compress_split) {
		const uint8_t *p = rec;

		while (size) {
			size_t n = COMP_BATCH - w->batch_len;

			if (n > size)
				n = size;
			memcpy(w->batch + w->batch_len, p, n);
			w->batch_len += n;
			p += n;
			size -= n;
			if (w->batch_len == COMP_BATCH) {
				err = flush_batch(w);
				if (err)
					return err;
			}
		}
		return 0;
	}
	if (w->batch_len + size > COMP_BATCH) {
		err = flush_batch(w);
		if (err)
			return err;
	}
	if (size > COMP_BATCH)	/* would not fit one compressed record */
		return emit(w, rec, size);
	memcpy(w->batch + w->batch_len, rec, size);
	w->batch_len += size;
	return 0;
}

static int write_record(struct pd_writer *w, const void *rec,
			const struct pd_attr *attr, const void *aux,
			uint64_t aux_size);

PD_EXPORT int pd_writer__write(struct pd_writer *w, const void *rec,
			       const struct pd_attr *attr)
{
	if (pd_get32(rec, false) == PD_RECORD_AUXTRACE)
		return wr_error(w, -EINVAL,
				"an AUXTRACE record goes with its data: pd_writer__write_aux()");
	return write_record(w, rec, attr, NULL, 0);
}

/*
 * AUX data lives outside the record stream's compression: perf writes the
 * AUXTRACE record and its data as they are and seeks past the data, and
 * the AUXTRACE feature indexes them by file offset.
 */
PD_EXPORT int pd_writer__write_aux(struct pd_writer *w, const void *rec,
				   const void *data, uint64_t size)
{
	if (pd_get32(rec, false) != PD_RECORD_AUXTRACE ||
	    pd_get16((const uint8_t *)rec + 6, false) < 16 ||
	    pd_get64((const uint8_t *)rec + 8, false) != size)
		return wr_error(w, -EINVAL,
				"not an AUXTRACE record of %llu bytes of data",
				(unsigned long long)size);
	return write_record(w, rec, NULL, data, size);
}

PD_EXPORT bool pd_writer__can_copy(const struct pd_writer *w, bool big_endian)
{
	return w->out_regular && !w->compress && w->big_endian == big_endian &&
	       !w->failed && !w->finished;
}

PD_EXPORT int pd_writer__copy(struct pd_writer *w, int fd, uint64_t off,
			      uint32_t size)
{
	int err;

	if (w->failed)
		return -EIO;
	if (w->finished)
		return -EINVAL;
	/* (the record is in the output's byte order: never swapped) */
	if (!w->out_regular || w->compress || size < 8)
		return wr_error(w, -EINVAL,
				"a record copied as it is, of %u bytes, into an output %s",
				size, w->compress ? "compressed" :
				size < 8 ? "(too small for a record)" :
				"that is not a regular file");
	err = start(w);
	if (err)
		return err;
	w->nr_records++;
	if (w->copy_len && fd == w->copy_fd &&
	    w->copy_off + w->copy_len == off) {
		w->copy_len += size;
		return 0;
	}
	/* what is before it, written: the buffer or another range (never
	 * both: emit() copies a range before it buffers) */
	err = flush_obuf(w);
	if (err)
		return err;
	w->copy_fd = fd;
	w->copy_off = off;
	w->copy_len = size;
	return 0;
}

static int note_aux(struct pd_writer *w, uint64_t off, uint64_t size)
{
	if (w->nr_aux == w->aux_cap) {
		size_t cap = w->aux_cap ? w->aux_cap * 2 : 64;
		uint64_t *v = realloc(w->aux_index, cap * 2 * sizeof(*v));

		if (!v)
			return -ENOMEM;
		w->aux_index = v;
		w->aux_cap = cap;
	}
	w->aux_index[2 * w->nr_aux] = off;
	w->aux_index[2 * w->nr_aux + 1] = size;
	w->nr_aux++;
	return 0;
}

static int write_record(struct pd_writer *w, const void *rec,
			const struct pd_attr *attr, const void *aux,
			uint64_t aux_size)
{
	bool is_aux = pd_get32(rec, false) == PD_RECORD_AUXTRACE;
	uint16_t size;
	int err;

	if (w->failed)
		return -EIO;
	if (w->finished)
		return -EINVAL;
	size = pd_get16((const uint8_t *)rec + 6, false);
	if (size < 8)
		return wr_error(w, -PD_ERR_BAD_RECORD, "record of size %u", size);
	err = start(w);
	if (err)
		return err;
	if (w->swap) {
		uint8_t *copy = scratch(w, size);

		if (!copy)
			return -ENOMEM;
		memcpy(copy, rec, size);
		err = pd__swap_record_out(copy, size, attr, w->big_endian);
		if (err)
			return wr_error(w, err, "record type %u: %s",
					pd_get32(rec, false), pd_strerror(err));
		rec = copy;
	}
	w->nr_records++;
	if (!aux_size && !is_aux)
		return put_record(w, rec, size);
	if (w->compress) {
		err = flush_batch(w);
		if (err)
			return err;
	}
	if (w->mode == PD_MODE_FILE) {
		/* perf indexes the record alone (its header.size) */
		err = note_aux(w, out_pos(w), size);
		if (err)
			return err;
	}
	err = emit(w, rec, size);
	while (!err && aux_size) {
		size_t n = aux_size > (1U << 30) ? 1U << 30 : (size_t)aux_size;

		err = emit(w, aux, n);
		aux = (const uint8_t *)aux + n;
		aux_size -= n;
	}
	return err;
}

PD_EXPORT uint64_t pd_writer__nr_records(const struct pd_writer *w)
{
	return w->nr_records;
}

/* ---- finish ---- */

/*
 * A reader of the other byte order cannot know whether the feature bitmap
 * was written as u64 or u32 words; perf (and our reader) take the word
 * size that shows HOSTNAME set and, finding it in neither, assume BUILD_ID
 * alone, so every section is misread. Files without HOSTNAME (simpleperf
 * writes none) get an empty one when swapped, which keeps the rest readable.
 */
static void add_hostname_for_swap(struct pd_writer *w)
{
	uint8_t empty[4 + 64] = { 0 };	/* len 64, then a zero-padded "" */
	unsigned int feat;

	if (!w->swap || w->feat[PD_FEAT_HOSTNAME].data)
		return;
	for (feat = 1; feat < PD_FEAT_BITS; feat++)
		if (feat != PD_FEAT_BUILD_ID && w->feat[feat].data)
			break;
	if (feat == PD_FEAT_BITS)
		return;
	memcpy(empty, &(uint32_t){ 64 }, 4);
	if (!pd_writer__set_feature(w, PD_FEAT_HOSTNAME, empty, sizeof(empty)))
		pd__warn(&w->log, "no HOSTNAME feature: an empty one is added so that readers of the other byte order find the features");
}

static int write_file_features(struct pd_writer *w, uint64_t bitmap[4])
{
	unsigned int feat, nr = 0;
	uint8_t *index, *data[PD_FEAT_BITS] = { 0 };
	uint64_t off;
	int err = 0;

	add_hostname_for_swap(w);
	for (feat = 1; feat < PD_FEAT_BITS; feat++) {
		if (!w->feat[feat].data)
			continue;
		data[feat] = feature_out(w, feat);
		if (!data[feat])
			continue;
		bitmap[feat / 64] |= 1ULL << (feat % 64);
		nr++;
	}
	index = calloc(nr ? nr : 1, 16);
	if (!index) {
		err = -ENOMEM;
		goto out;
	}
	off = out_pos(w) + 16 * (uint64_t)nr;
	nr = 0;
	for (feat = 1; feat < PD_FEAT_BITS; feat++) {
		if (!data[feat])
			continue;
		put64(w, index + 16 * nr, off);
		put64(w, index + 16 * nr + 8, w->feat[feat].size);
		off += w->feat[feat].size;
		nr++;
	}
	err = emit(w, index, 16 * nr);
	for (feat = 1; feat < PD_FEAT_BITS && !err; feat++)
		if (data[feat])
			err = emit(w, data[feat], w->feat[feat].size);
	free(index);
out:
	for (feat = 1; feat < PD_FEAT_BITS; feat++)
		free(data[feat]);
	return err;
}

static int write_file_header(struct pd_writer *w, uint64_t data_size,
			     const uint64_t bitmap[4])
{
	uint8_t h[PD_FILE_HEADER_SIZE] = { 0 };
	ssize_t n;
	int i;

	put64(w, h, PD_MAGIC_PERFILE2);
	put64(w, h + 8, PD_FILE_HEADER_SIZE);
	put64(w, h + 16, w->file_attr_size + 16);
	put64(w, h + 24, w->attrs_offset);
	put64(w, h + 32, (uint64_t)w->nr_evsels * (w->file_attr_size + 16));
	put64(w, h + 40, w->data_offset);
	put64(w, h + 48, data_size);
	/* event_types: obsolete, left empty as perf does */
	for (i = 0; i < 4; i++)
		put64(w, h + 72 + 8 * i, bitmap[i]);
	do
		n = pwrite(w->fd, h, sizeof(h), 0);
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)sizeof(h))
		return wr_error(w, n < 0 ? -errno : -EIO, "writing the header: %s",
				n < 0 ? strerror(errno) : "short write");
	return 0;
}

/*
 * The AUXTRACE feature: u64 nr, then nr {file offset, header.size} of the
 * AUXTRACE records as written here. An index copied from an input would
 * point into the input's layout, so it is always replaced (or dropped).
 */
static int set_aux_index(struct pd_writer *w)
{
	uint64_t *sec;
	int err;

	if (!w->nr_aux) {
		pd_writer__clear_feature(w, PD_FEAT_AUXTRACE);
		return 0;
	}
	sec = malloc((1 + 2 * w->nr_aux) * sizeof(*sec));
	if (!sec)
		return -ENOMEM;
	sec[0] = w->nr_aux;
	memcpy(sec + 1, w->aux_index, 2 * w->nr_aux * sizeof(*sec));
	err = pd_writer__set_feature(w, PD_FEAT_AUXTRACE, sec,
				     (1 + 2 * w->nr_aux) * sizeof(*sec));
	free(sec);
	return err;
}

PD_EXPORT int pd_writer__finish(struct pd_writer *w)
{
	uint64_t bitmap[4] = { 0 }, data_size;
	int err;

	if (w->failed)
		return -EIO;
	if (w->finished)
		return 0;
	err = start(w);
	if (!err && w->compress)
		err = flush_batch(w);
	if (err)
		return err;
	if (w->mode == PD_MODE_FILE) {
		data_size = out_pos(w) - w->data_offset;
		if (w->compress)
			set_compressed_feature(w);
		err = set_aux_index(w);
		if (!err)
			err = write_file_features(w, bitmap);
		if (!err)
			err = flush_obuf(w);
		if (!err)
			err = write_file_header(w, data_size, bitmap);
	} else {
		err = flush_obuf(w);
	}
	if (err)
		return err;
	if (w->tmp_path) {
		if (close(w->fd)) {
			w->fd = -1;
			return wr_error(w, -errno, "close: %s", strerror(errno));
		}
		w->fd = -1;
		if (rename(w->tmp_path, w->path))
			return wr_error(w, -errno, "rename from %s: %s",
					w->tmp_path, strerror(errno));
		free(w->tmp_path);
		w->tmp_path = NULL;
	}
	w->finished = true;
	return 0;
}

PD_EXPORT void pd_writer__free(struct pd_writer *w)
{
	unsigned int i;

	if (!w)
		return;
	if (w->fd >= 0 && !w->is_stdout)
		close(w->fd);
	if (w->tmp_path)
		unlink(w->tmp_path);
	for (i = 0; i < PD_FEAT_BITS; i++)
		free(w->feat[i].data);
	free(w->aux_index);
	for (i = 0; i < w->nr_evsels; i++)
		free(w->evsels[i].ids);
	free(w->evsels);
	pd__comp_free(w->comp);
	free(w->batch);
	free(w->cbuf);
	free(w->obuf);
	free(w->scratch);
	free(w->tmp_path);
	free(w->path);
	free(w->name);
	free(w);
}
