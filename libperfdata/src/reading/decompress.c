// SPDX-License-Identifier: MIT
/*
 * COMPRESSED and COMPRESSED2 records. perf keeps one zstd stream per
 * output and flushes it at each record, so the payloads of consecutive
 * compressed records are pieces of one stream, and a record may straddle
 * two of them. One decompression context per reader; the decompressed
 * bytes go into a window from which whole records are taken, the tail
 * being kept for the next payload.
 */
#include <errno.h>
#include <stdlib.h>
#include <zstd.h>

#include "reader-state.h"

#define DECOMP_WINDOW	(4 * PD_MAX_RECORD)

struct pd_decomp {
	ZSTD_DStream *zds;
	uint8_t *in;		/* current compressed payload (copied) */
	size_t in_size, in_pos;
	uint8_t *out;		/* decompressed window */
	size_t out_start, out_end;
	uint64_t inner_pos;	/* offset of out[out_start] in the stream */
	uint64_t outer;		/* offset of the compressed record */
};

void pd__decomp_free(struct pd_decomp *d)
{
	if (!d)
		return;
	ZSTD_freeDStream(d->zds);
	free(d->in);
	free(d->out);
	free(d);
}

int pd__decomp_feed(struct pd_reader *r, const void *data, size_t size,
		    uint64_t offset)
{
	struct pd_decomp *d = r->decomp;

	if (!d) {
		d = calloc(1, sizeof(*d));
		if (!d)
			return -ENOMEM;
		d->zds = ZSTD_createDStream();
		d->in = malloc(PD_MAX_RECORD);
		d->out = malloc(DECOMP_WINDOW);
		if (!d->zds || !d->in || !d->out) {
			pd__decomp_free(d);
			return -ENOMEM;
		}
		ZSTD_initDStream(d->zds);
		r->decomp = d;
	}
	if (d->in_pos < d->in_size)
		return pd__set_error(r, -PD_ERR_BAD_COMPRESSED, offset,
				     "compressed data left over from the previous record");
	memcpy(d->in, data, size);
	d->in_size = size;
	d->in_pos = 0;
	d->outer = offset;
	return 0;
}

int pd__decomp_next(struct pd_reader *r, const uint8_t **p,
		    uint64_t *inner_off, uint64_t *outer_off)
{
	struct pd_decomp *d = r->decomp;

	for (;;) {
		size_t have = d->out_end - d->out_start;
		ZSTD_inBuffer ib;
		ZSTD_outBuffer ob;
		size_t ret;

		if (have >= 8) {
			const uint8_t *rec = d->out + d->out_start;
			uint16_t size = pd_get16(rec + 6, r->swap);

			if (size < 8)
				return pd__set_error(r, -PD_ERR_BAD_RECORD,
						     d->outer,
						     "record size %u in compressed data (at 0x%llx of the decompressed stream)",
						     size,
						     (unsigned long long)d->inner_pos);
			if (have >= size) {
				*p = rec;
				*inner_off = d->inner_pos;
				*outer_off = d->outer;
				d->out_start += size;
				d->inner_pos += size;
				return 1;
			}
		}
		if (d->in_pos >= d->in_size)
			return 0;	/* the rest comes with the next record */
		/* make room: keep the partial record at the front */
		if (d->out_start) {
			memmove(d->out, d->out + d->out_start, have);
			d->out_start = 0;
			d->out_end = have;
		}
		ib.src = d->in;
		ib.size = d->in_size;
		ib.pos = d->in_pos;
		ob.dst = d->out;
		ob.size = DECOMP_WINDOW;
		ob.pos = d->out_end;
		ret = ZSTD_decompressStream(d->zds, &ob, &ib);
		if (ZSTD_isError(ret))
			return pd__set_error(r, -PD_ERR_BAD_COMPRESSED, d->outer,
					     "zstd: %s", ZSTD_getErrorName(ret));
		if (ib.pos == d->in_pos && ob.pos == d->out_end) {
			/* no progress although input is left */
			return pd__set_error(r, -PD_ERR_BAD_COMPRESSED, d->outer,
					     "zstd stream makes no progress");
		}
		d->in_pos = ib.pos;
		d->out_end = ob.pos;
	}
}

/* Bytes decompressed but not yet a whole record (for end-of-input checks). */
size_t pd__decomp_leftover(const struct pd_reader *r)
{
	return r->decomp ? r->decomp->out_end - r->decomp->out_start : 0;
}
