// SPDX-License-Identifier: MIT
/*
 * The reader object: opening (format detection, profile archives, the
 * file header, attrs and feature sections), closing, and what it tells of
 * its input. What its parts share (errors, scratch, evsels and ids) is in
 * reader-state.c; the records are read by stream.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfdata/archive.h>
#include <perfdata/features.h>

#include "archives/archive-internal.h"
#include "archives/archive-zio.h"
#include "header/features-internal.h"
#include "reader-state.h"

static __thread char open_errmsg[320];

/* ---- file header --------------------------------------------------------- */

static bool legacy_attr_size(uint64_t attr_size)
{
	static const uint64_t sizes[] = { 64, 72, 80, 96, 104 };
	size_t i;

	for (i = 0; i < PD_ARRAY_SIZE(sizes); i++)
		if (attr_size == sizes[i] + 16)
			return true;
	return false;
}

static void read_section(struct pd_section *s, const uint8_t *p, bool swap)
{
	s->offset = pd_get64(p, swap);
	s->size = pd_get64(p + 8, swap);
}

static bool section_fits(const struct pd_section *s, uint64_t file_size)
{
	uint64_t end;

	return !pd_add_overflows(s->offset, s->size, &end) && end <= file_size;
}

/*
 * Foreign-endian feature bitmap: written as u64 words by 64-bit hosts, as
 * u32 words by 32-bit ones. HOSTNAME is set in every file that has
 * features, which tells the two apart.
 */
static void swap_feature_bitmap(uint64_t *bits, const uint8_t *p)
{
	int i;

	for (i = 0; i < 4; i++)
		bits[i] = pd_get64(p + 8 * i, true);
	if (bits[0] & (1ULL << PD_FEAT_HOSTNAME))
		return;
	for (i = 0; i < 4; i++) {
		uint32_t lo = pd_get32(p + 8 * i, true);
		uint32_t hi = pd_get32(p + 8 * i + 4, true);

		bits[i] = ((uint64_t)hi << 32) | lo;
	}
	if (bits[0] & (1ULL << PD_FEAT_HOSTNAME))
		return;
	memset(bits, 0, 4 * sizeof(*bits));
	bits[0] = 1ULL << PD_FEAT_BUILD_ID;
}

static int read_attrs(struct pd_reader *r)
{
	const struct pd_header_info *h = &r->hdr;
	uint64_t nr, i, stride = h->attr_size;
	uint8_t *entry = NULL;
	uint64_t *ids = NULL;
	int err = 0;

	if (stride < PD_ATTR_SIZE_VER0 + 16 || stride > PD_MAX_RECORD)
		return pd__set_error(r, -PD_ERR_BAD_HEADER, 16,
				     "attr entry size %llu out of range",
				     (unsigned long long)stride);
	if (h->attrs.size % stride)
		pd__warn(&r->log, "attrs section size %llu is not a multiple of %llu",
			 (unsigned long long)h->attrs.size,
			 (unsigned long long)stride);
	nr = h->attrs.size / stride;
	entry = malloc(stride);
	if (!entry)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		uint64_t off = h->attrs.offset + i * stride;
		struct pd_section ids_sec;
		uint32_t asize;

		err = pd_input_pread(&r->in, entry, stride, off);
		if (err) {
			err = pd__set_error(r, err, off, "attr %llu: %s",
					    (unsigned long long)i,
					    pd_strerror(err));
			goto out;
		}
		asize = pd_get32(entry + 4, r->swap);
		if (asize == 0)
			asize = PD_ATTR_SIZE_VER0;
		if (asize < PD_ATTR_SIZE_VER0) {
			err = pd__set_error(r, -PD_ERR_BAD_ATTR, off + 4,
					    "attr %llu: size %u below the minimum 64",
					    (unsigned long long)i, asize);
			goto out;
		}
		if (asize > stride - 16)
			asize = stride - 16;
		read_section(&ids_sec, entry + stride - 16, r->swap);
		if (!section_fits(&ids_sec, h->file_size) || ids_sec.size % 8) {
			err = pd__set_error(r, -PD_ERR_BAD_HEADER,
					    off + stride - 16,
					    "attr %llu: ids section [0x%llx, +%llu] outside the file",
					    (unsigned long long)i,
					    (unsigned long long)ids_sec.offset,
					    (unsigned long long)ids_sec.size);
			goto out;
		}
		free(ids);
		ids = malloc(ids_sec.size ? ids_sec.size : 1);
		if (!ids) {
			err = -ENOMEM;
			goto out;
		}
		err = pd_input_pread(&r->in, ids, ids_sec.size, ids_sec.offset);
		if (err) {
			err = pd__set_error(r, err, ids_sec.offset,
					    "attr %llu ids: %s",
					    (unsigned long long)i, pd_strerror(err));
			goto out;
		}
		err = pd__add_evsel(r, entry, asize, off, ids, ids_sec.size / 8,
				    r->swap);
		if (err < 0)
			goto out;
		err = 0;
	}
out:
	free(entry);
	free(ids);
	return err;
}

static int read_features(struct pd_reader *r)
{
	const struct pd_header_info *h = &r->hdr;
	unsigned int nr = 0, bit, k = 0;
	uint8_t *table = NULL, *payload = NULL;
	int err = 0;

	for (bit = 0; bit < PD_FEAT_BITS; bit++)
		if (h->features[bit / 64] & (1ULL << (bit % 64)))
			nr++;
	if (!nr)
		return 0;
	if (h->feat_offset + (uint64_t)nr * 16 > h->file_size && r->opts.strict)
		return pd__set_error(r, -PD_ERR_TRUNCATED, h->feat_offset,
				     "feature table of %u entries runs past the end of the file: input truncated",
				     nr);
	if (h->feat_offset + (uint64_t)nr * 16 > h->file_size) {
		pd__warn(&r->log, "offset 0x%llx: feature table of %u entries runs past the end of file; features ignored",
			 (unsigned long long)h->feat_offset, nr);
		return 0;
	}
	table = malloc(nr * 16);
	if (!table)
		return -ENOMEM;
	err = pd_input_pread(&r->in, table, nr * 16, h->feat_offset);
	if (err)
		goto out;
	for (bit = 0; bit < PD_FEAT_BITS; bit++) {
		struct pd_section s;
		const char *fname = pd_feature_name(bit);
		char unk[32];

		if (!(h->features[bit / 64] & (1ULL << (bit % 64))))
			continue;
		read_section(&s, table + 16 * k, r->swap);
		k++;
		if (!fname) {
			snprintf(unk, sizeof(unk), "unknown feature %u", bit);
			fname = unk;
		}
		if (!section_fits(&s, h->file_size) && r->opts.strict) {
			err = pd__set_error(r, -PD_ERR_TRUNCATED,
					    h->feat_offset + 16 * (k - 1),
					    "%s section [0x%llx, +%llu] outside the file: input truncated",
					    fname, (unsigned long long)s.offset,
					    (unsigned long long)s.size);
			goto out;
		}
		if (!section_fits(&s, h->file_size)) {
			pd__warn(&r->log, "offset 0x%llx: %s section [0x%llx, +%llu] outside the file; skipped",
				 (unsigned long long)(h->feat_offset + 16 * (k - 1)),
				 fname, (unsigned long long)s.offset,
				 (unsigned long long)s.size);
			continue;
		}
		if (bit >= PD_FEAT_KNOWN_MAX)
			pd__warn(&r->log, "%s (%llu bytes) kept unparsed",
				 fname, (unsigned long long)s.size);
		free(payload);
		payload = malloc(s.size ? s.size : 1);
		if (!payload) {
			err = -ENOMEM;
			goto out;
		}
		err = pd_input_pread(&r->in, payload, s.size, s.offset);
		if (err)
			goto out;
		/* a bad feature is reported and dropped; the rest goes on */
		pd_features__add(r->feat, bit, payload, s.size, r->swap, &r->log);
	}
out:
	if (err)
		err = pd__set_error(r, err, h->feat_offset, "feature sections: %s",
				    pd_strerror(err));
	free(table);
	free(payload);
	return err;
}

/* Names from EVENT_DESC: matched by id, else by position. */
static void name_evsels(struct pd_reader *r)
{
	const struct pd_features *f = r->feat;
	uint32_t i;

	if (!pd_features__has(f, PD_FEAT_EVENT_DESC))
		return;
	for (i = 0; i < f->event_desc.nr; i++) {
		const struct pd_event_desc *d = &f->event_desc.events[i];
		const struct pd_evsel *e = NULL;

		if (d->nr_ids)
			e = pd_reader__evsel_by_id(r, d->ids[0]);
		if (!e && i < r->nr_evsels)
			e = r->evsels[i];
		if (e && !e->name && d->name)
			r->evsels[e->idx]->name = d->name;
	}
}

/*
 * data.size 0 with a feature table right at data.offset: a complete file
 * without records (a writer wrote its features), not a killed recording.
 * Records there cannot pass for the table: a record's first u64, read as
 * a section offset, holds its size in bits 48-63, far past any file.
 */
static bool no_records_but_features(struct pd_reader *r)
{
	const struct pd_header_info *h = &r->hdr;
	uint64_t nr = 0, i, table_end;
	uint8_t entry[16];
	unsigned int bit;

	for (bit = 0; bit < PD_FEAT_BITS; bit++)
		if (h->features[bit / 64] & (1ULL << (bit % 64)))
			nr++;
	table_end = h->data.offset + nr * 16;
	if (!nr || table_end > h->file_size)
		return false;
	for (i = 0; i < nr; i++) {
		struct pd_section s;

		if (pd_input_pread(&r->in, entry, 16, h->data.offset + 16 * i))
			return false;
		read_section(&s, entry, r->swap);
		if (!section_fits(&s, h->file_size) || s.offset < table_end)
			return false;
	}
	return true;
}

static int open_file_mode(struct pd_reader *r, const uint8_t *magic16)
{
	struct pd_header_info *h = &r->hdr;
	uint8_t buf[PD_FILE_HEADER_SIZE];
	uint64_t hsize;
	int err;

	if (!r->in.seekable) {
		err = pd_input_spool(&r->in);
		if (err < 0)
			return pd__set_error(r, err, 0,
					     "cannot buffer file-mode data from a stream: %s",
					     pd_strerror(err));
		r->own_fd = err;
	}
	h->file_size = r->in.size;
	(void)magic16;
	if (h->file_size < PD_FILE_HEADER_SIZE_V0)
		return pd__set_error(r, -PD_ERR_TRUNCATED, 0,
				     "file header truncated (%llu bytes)",
				     (unsigned long long)h->file_size);
	memset(buf, 0, sizeof(buf));
	err = pd_input_pread(&r->in, buf,
			     h->file_size < sizeof(buf) ? PD_FILE_HEADER_SIZE_V0 :
							  sizeof(buf), 0);
	if (err)
		return pd__set_error(r, err, 0, "reading header: %s",
				     pd_strerror(err));
	if (h->version == 1) {
		/* PERFFILE does not encode the byte order; attr_size does */
		uint64_t as = pd_get64(buf + 16, false);

		if (legacy_attr_size(as) || as == PD_ATTR_SIZE_VER5 + 16)
			r->swap = false;
		else if (legacy_attr_size(pd_bswap64(as)))
			r->swap = true;
		else
			return pd__set_error(r, -PD_ERR_BAD_HEADER, 16,
					     "PERFFILE v1 with unknown attr size %llu",
					     (unsigned long long)as);
	}
	h->needs_swap = r->swap;
	h->big_endian = pd_host_is_be() != r->swap;
	hsize = pd_get64(buf + 8, r->swap);
	if (hsize != PD_FILE_HEADER_SIZE && hsize != PD_FILE_HEADER_SIZE_V0)
		return pd__set_error(r, -PD_ERR_BAD_HEADER, 8,
				     "header size %llu (expected 104 or 72)",
				     (unsigned long long)hsize);
	if (hsize > h->file_size)
		return pd__set_error(r, -PD_ERR_TRUNCATED, 0,
				     "file header truncated (%llu of %llu bytes)",
				     (unsigned long long)h->file_size,
				     (unsigned long long)hsize);
	h->size = hsize;
	h->attr_size = pd_get64(buf + 16, r->swap);
	read_section(&h->attrs, buf + 24, r->swap);
	read_section(&h->data, buf + 40, r->swap);
	read_section(&h->event_types, buf + 56, r->swap);
	if (hsize == PD_FILE_HEADER_SIZE) {
		if (r->swap) {
			swap_feature_bitmap(h->features, buf + 72);
		} else {
			memcpy(h->features, buf + 72, sizeof(h->features));
		}
	}
	if (h->attr_size == 0)
		return pd__set_error(r, -PD_ERR_BAD_HEADER, 16,
				     "attr entry size is 0");
	if (!section_fits(&h->attrs, h->file_size))
		return pd__set_error(r, -PD_ERR_BAD_HEADER, 24,
				     "attrs section [0x%llx, +%llu] outside the file (%llu bytes)",
				     (unsigned long long)h->attrs.offset,
				     (unsigned long long)h->attrs.size,
				     (unsigned long long)h->file_size);
	if (h->data.offset < hsize || h->data.offset > h->file_size)
		return pd__set_error(r, -PD_ERR_BAD_HEADER, 40,
				     "data offset 0x%llx outside the file (%llu bytes)",
				     (unsigned long long)h->data.offset,
				     (unsigned long long)h->file_size);
	if (h->data.size == 0 && no_records_but_features(r)) {
		r->data_end = h->data.offset;
	} else if (h->data.size == 0) {
		/* the recorder was killed before writing the final header */
		h->data_size_was_zero = true;
		memset(h->features, 0, sizeof(h->features));
		r->data_end = h->file_size;
		pd__warn(&r->log, "data size is 0 (was perf record killed?): reading records up to the end of file, without header features");
	} else if (!section_fits(&h->data, h->file_size)) {
		if (r->opts.strict)
			return pd__set_error(r, -PD_ERR_TRUNCATED, 40,
					     "data section [0x%llx, +%llu] runs past the end of the file (%llu bytes): input truncated",
					     (unsigned long long)h->data.offset,
					     (unsigned long long)h->data.size,
					     (unsigned long long)h->file_size);
		pd__warn(&r->log, "data section [0x%llx, +%llu] runs past the end of file (%llu bytes): file truncated, reading what is there",
			 (unsigned long long)h->data.offset,
			 (unsigned long long)h->data.size,
			 (unsigned long long)h->file_size);
		memset(h->features, 0, sizeof(h->features));
		r->data_end = h->file_size;
	} else {
		r->data_end = h->data.offset + h->data.size;
	}
	h->feat_offset = h->data.offset + h->data.size;
	if (h->attrs.offset < hsize && h->attrs.size)
		return pd__set_error(r, -PD_ERR_BAD_HEADER, 24,
				     "attrs section overlaps the file header");
	err = read_attrs(r);
	if (err)
		return err;
	err = read_features(r);
	if (err)
		return err;
	name_evsels(r);
	r->header_done = true;
	err = pd_input_seek(&r->in, h->data.offset);
	if (err)
		return pd__set_error(r, err, h->data.offset, "seek to data: %s",
				     pd_strerror(err));
	return 0;
}

static int open_common(struct pd_reader *r)
{
	const uint8_t *p;
	uint64_t magic, size;
	ssize_t n;

	n = pd_input_fill(&r->in, 16);
	if (n < 0)
		return pd__set_error(r, (int)n, 0, "read: %s", pd_strerror((int)n));
	if (n < 8)
		return pd__set_error(r, -PD_ERR_NOT_PERF_DATA, 0,
				     "not a perf.data file (%zd bytes)", n);
	p = pd_input_ptr(&r->in);
	magic = pd_get64(p, false);
	if (magic == PD_MAGIC_PERFILE2) {
		r->hdr.version = 2;
	} else if (magic == PD_MAGIC_PERFILE2_SW) {
		r->hdr.version = 2;
		r->swap = true;
	} else if (magic == PD_MAGIC_PERFFILE) {
		r->hdr.version = 1;
	} else {
		return pd__set_error(r, -PD_ERR_NOT_PERF_DATA, 0,
				     "not a perf.data file (bad magic %016llx)",
				     (unsigned long long)pd_get64(p, true));
	}
	if (n < 16)
		return pd__set_error(r, -PD_ERR_TRUNCATED, 8,
				     "file header truncated (%zd bytes)", n);
	size = pd_get64(p + 8, r->swap);
	if (r->hdr.version == 1 && pd_bswap64(size) == PD_PIPE_HEADER_SIZE) {
		r->swap = true;
		size = PD_PIPE_HEADER_SIZE;
	}
	if (size == PD_PIPE_HEADER_SIZE) {
		r->hdr.mode = PD_MODE_PIPE;
		r->hdr.size = PD_PIPE_HEADER_SIZE;
		r->hdr.needs_swap = r->swap;
		r->hdr.big_endian = pd_host_is_be() != r->swap;
		r->hdr.file_size = r->in.size;
		r->data_end = UINT64_MAX;
		pd_input_consume(&r->in, 16);
		return 0;
	}
	r->hdr.mode = PD_MODE_FILE;
	return open_file_mode(r, p);
}

static struct pd_reader *reader_new(const struct pd_reader_opts *opts,
				    const char *name)
{
	struct pd_reader *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	if (opts) {
		size_t n = opts->sz < sizeof(r->opts) ? opts->sz : sizeof(r->opts);

		memcpy(&r->opts, opts, n);
	}
	r->opts.sz = sizeof(r->opts);
	/* none read is as far as filled, at most */
	if (r->opts.stack_unread)
		r->opts.stack_used_only = true;
	r->own_fd = -1;
	if (r->opts.name)
		name = r->opts.name;
	r->name = strdup(name);
	r->rec = malloc(PD_MAX_RECORD + 8);
	r->feat = pd_features__new();
	if (!r->name || !r->rec || !r->feat) {
		pd_reader__close(r);
		return NULL;
	}
	r->opts.name = NULL;
	r->log.fn = r->opts.log;
	r->log.ctx = r->opts.log_ctx;
	r->log.name = r->name;
	return r;
}

/*
 * A compressed input is a profile archive: extracted, and its perf.data
 * read instead (see archive-read.c). Others are left as they are.
 */
static int open_archive(struct pd_reader *r)
{
	ssize_t n = pd_input_fill(&r->in, 4);
	char why[400];
	uint64_t off;
	int err, fd;

	if (n < 4 || pd__z_detect(pd_input_ptr(&r->in), n) == PD_Z_NONE)
		return 0;
	r->archive = pd__archive_extract(&r->in, &r->log, &err, &off, why,
					 sizeof(why));
	if (!r->archive)
		return pd__set_error(r, err, off, "%s", why);
	fd = open(r->archive->profile, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return pd__set_error(r, -errno, 0, "%s: %s",
				     r->archive->profile, strerror(errno));
	pd_input_release(&r->in);
	if (r->own_fd >= 0)
		close(r->own_fd);
	r->own_fd = fd;
	err = pd_input_init(&r->in, fd);
	if (err)
		return pd__set_error(r, err, 0, "%s", pd_strerror(err));
	return 0;
}

struct pd_archive *pd__reader_archive(const struct pd_reader *r)
{
	return r ? r->archive : NULL;
}

PD_EXPORT const char *pd_reader__archive_dir(const struct pd_reader *r)
{
	return r && r->archive ? r->archive->dir : NULL;
}

static struct pd_reader *open_reader(struct pd_reader *r, int fd)
{
	int err = pd_input_init(&r->in, fd);

	if (err)
		pd__set_error(r, err, 0, "%s", pd_strerror(err));
	else
		err = open_archive(r);
	if (!err)
		err = open_common(r);
	if (err) {
		snprintf(open_errmsg, sizeof(open_errmsg), "%s", r->errmsg);
		pd_reader__close(r);
		errno = -err;
		return NULL;
	}
	return r;
}

PD_EXPORT struct pd_reader *pd_reader__open_fd(int fd,
					       const struct pd_reader_opts *opts)
{
	struct pd_reader *r = reader_new(opts, "<stdin>");

	if (!r) {
		snprintf(open_errmsg, sizeof(open_errmsg), "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	return open_reader(r, fd);
}

PD_EXPORT struct pd_reader *pd_reader__open(const char *path,
					    const struct pd_reader_opts *opts)
{
	struct pd_reader *r;
	int fd, err;

	if (!path || !strcmp(path, "-"))
		return pd_reader__open_fd(STDIN_FILENO, opts);
	r = reader_new(opts, path);
	if (!r) {
		snprintf(open_errmsg, sizeof(open_errmsg), "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		snprintf(open_errmsg, sizeof(open_errmsg), "%s: %s", r->name,
			 strerror(err));
		pd_reader__close(r);
		errno = err;
		return NULL;
	}
	r->own_fd = fd;
	return open_reader(r, fd);
}

PD_EXPORT const char *pd_reader__open_errmsg(void)
{
	return open_errmsg;
}

PD_EXPORT void pd_reader__close(struct pd_reader *r)
{
	size_t i;

	if (!r)
		return;
	/* the read-ahead thread ended first: it reads the input */
	pd__ahead_free(r);
	/* a spooled stream owns its temporary fd, held in the input */
	if (r->in.fd >= 0 && r->in.fd == r->own_fd)
		close(r->own_fd);
	else if (r->own_fd >= 0)
		close(r->own_fd);
	if (r->in.buf && r->own_fd >= 0 && r->in.fd != r->own_fd)
		close(r->in.fd);
	pd_input_release(&r->in);
	for (i = 0; i < r->nr_evsels; i++) {
		free((void *)r->evsels[i]->attr_raw);
		free((void *)r->evsels[i]->ids);
		free(r->evsels[i]);
	}
	for (i = 0; i < r->nr_owned_names; i++)
		free(r->owned_names[i]);
	free(r->owned_names);
	free(r->evsels);
	free(r->id_map.ids);
	free(r->id_map.idx);
	free(r->held);
	pd_features__free(r->feat);
	while (r->queue_head) {
		struct pd_queued *q = r->queue_head;

		r->queue_head = q->next;
		free(q);
	}
	pd__decomp_free(r->decomp);
	pd__order_free(r->order);
	pd__archive_put(r->archive);
	free(r->rec);
	free(r->blob);
	free(r->aux);
	free(r->read_vals);
	free(r->scratch);
	free(r->name);
	free(r);
}

PD_EXPORT const char *pd_reader__errmsg(const struct pd_reader *r)
{
	return r->errmsg;
}

PD_EXPORT const struct pd_header_info *pd_reader__header(const struct pd_reader *r)
{
	return &r->hdr;
}

PD_EXPORT const char *pd_reader__name(const struct pd_reader *r)
{
	return r->name;
}

PD_EXPORT size_t pd_reader__nr_evsels(const struct pd_reader *r)
{
	return r->nr_evsels;
}

PD_EXPORT const struct pd_evsel *pd_reader__evsel(const struct pd_reader *r,
						  size_t idx)
{
	return idx < r->nr_evsels ? r->evsels[idx] : NULL;
}

PD_EXPORT const struct pd_features *pd_reader__features(const struct pd_reader *r)
{
	return r->feat;
}

PD_EXPORT const struct pd_reader_stats *pd_reader__stats(const struct pd_reader *r)
{
	((struct pd_reader *)r)->stats.nr_warnings = r->log.nr_warnings;
	return &r->stats;
}

int pd__reader_file_fd(const struct pd_reader *r)
{
	if (r->hdr.mode != PD_MODE_FILE || r->swap || !r->in.seekable ||
	    r->failed)
		return -1;
	return r->in.fd;
}

bool pd__reader_leave_stacks(struct pd_reader *r, bool read_filled)
{
	if (r->ahead)
		return false;
	if (!read_filled)
		r->opts.stack_unread = true;
	r->opts.stack_used_only = true;
	return true;
}
