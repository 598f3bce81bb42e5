// SPDX-License-Identifier: MIT
/*
 * Fuzz target: COMPRESSED and COMPRESSED2 records. The input is a flags
 * byte, a perf_event_attr (128 bytes, host order) and a record stream; the
 * target makes a pipe-mode stream of one HEADER_ATTR record with that attr
 * and compressed records holding the record stream, then reads it as
 * fuzz-file reads a file (decompression, records split across compressed
 * records, decoding, session).
 *
 * flags bit 0: COMPRESSED (set) or COMPRESSED2; bit 1: the stream is used
 * as the compressed payload itself (zstd's own error paths) instead of
 * being compressed; bits 2-7: bytes of stream per compressed record,
 * (n + 1) * 256, flushed as perf flushes its zstd stream per record.
 */
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include <perfdata/format.h>

#include "read.h"
#include "util.h"

#define ATTR_SIZE	128
#define MAX_OUT		(8 * 1024 * 1024)

struct out {
	uint8_t *p;
	size_t len, cap;
};

static int put(struct out *o, const void *p, size_t n)
{
	if (o->len + n > o->cap)
		return -1;
	memcpy(o->p + o->len, p, n);
	o->len += n;
	return 0;
}

static int put_header(struct out *o, uint32_t type, size_t size)
{
	uint8_t h[8];
	uint32_t t = type;
	uint16_t misc = 0, sz = size;

	if (size > 0xffff)
		return -1;
	memcpy(h, &t, 4);
	memcpy(h + 4, &misc, 2);
	memcpy(h + 6, &sz, 2);
	return put(o, h, 8);
}

static int put_compressed(struct out *o, bool v1, const void *p, size_t n)
{
	static const uint8_t pad[8];
	uint64_t data_size = n;
	size_t size = v1 ? 8 + n : (16 + n + 7) / 8 * 8;

	if (put_header(o, v1 ? PD_RECORD_COMPRESSED : PD_RECORD_COMPRESSED2,
		       size))
		return -1;
	if (!v1 && put(o, &data_size, 8))
		return -1;
	if (put(o, p, n))
		return -1;
	return v1 ? 0 : put(o, pad, size - 16 - n);
}

static int compress_stream(struct out *o, bool v1, const uint8_t *s,
			   size_t n, size_t chunk)
{
	static uint8_t buf[65536];
	ZSTD_CCtx *cc = ZSTD_createCCtx();
	int err = -1;

	if (!cc)
		return -1;
	ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, 1);
	while (n) {
		size_t take = n < chunk ? n : chunk, left;
		ZSTD_inBuffer ib = { s, take, 0 };
		ZSTD_outBuffer ob = { buf, sizeof(buf) - 16, 0 };

		do {
			left = ZSTD_compressStream2(cc, &ob, &ib, ZSTD_e_flush);
			if (ZSTD_isError(left))
				goto out;
		} while (left && ob.pos < ob.size);
		if (left || put_compressed(o, v1, buf, ob.pos))
			goto out;
		s += take;
		n -= take;
	}
	err = 0;
out:
	ZSTD_freeCCtx(cc);
	return err;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct fuzz_source src = { .open_fd = fuzz_memfd };
	uint64_t hdr[2] = { PD_MAGIC_PERFILE2, PD_PIPE_HEADER_SIZE };
	struct out o = { 0 };
	uint8_t attr[ATTR_SIZE];
	uint32_t attr_size = ATTR_SIZE;
	size_t chunk;
	bool v1, raw;

	if (size < 1 + ATTR_SIZE)
		return 0;
	v1 = data[0] & 1;
	raw = data[0] & 2;
	chunk = ((data[0] >> 2) + 1) * 256;
	memcpy(attr, data + 1, ATTR_SIZE);
	memcpy(attr + 4, &attr_size, 4);
	data += 1 + ATTR_SIZE;
	size -= 1 + ATTR_SIZE;

	o.cap = size * 2 + 65536 < MAX_OUT ? size * 2 + 65536 : MAX_OUT;
	o.p = malloc(o.cap);
	if (!o.p)
		return 0;
	if (put(&o, hdr, sizeof(hdr)) ||
	    put_header(&o, PD_RECORD_HEADER_ATTR, 8 + ATTR_SIZE) ||
	    put(&o, attr, ATTR_SIZE))
		goto out;
	if (raw) {
		while (size) {
			size_t take = size < chunk ? size : chunk;

			if (put_compressed(&o, v1, data, take))
				goto out;
			data += take;
			size -= take;
		}
	} else if (compress_stream(&o, v1, data, size, chunk)) {
		goto out;
	}
	fuzz_read_all(&src, o.p, o.len);
out:
	free(o.p);
	return 0;
}
