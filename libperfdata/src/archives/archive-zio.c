// SPDX-License-Identifier: MIT
/*
 * zstd and gzip streams for profile archives (see archive-zio.h). Both
 * accept concatenated frames/members, as zstd(1) and gzip(1) do.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "archive-zio.h"
#include "base/internal.h"

#define ZIN_CHUNK	(64 * 1024)
#define ZOUT_CHUNK	(128 * 1024)

enum pd_zkind pd__z_detect(const uint8_t *p, size_t n)
{
	if (n >= 4 && p[0] == 0x28 && p[1] == 0xb5 && p[2] == 0x2f &&
	    p[3] == 0xfd)
		return PD_Z_ZSTD;
	if (n >= 2 && p[0] == 0x1f && p[1] == 0x8b)
		return PD_Z_GZIP;
	return PD_Z_NONE;
}

struct pd_zin {
	struct pd_input *in;
	enum pd_zkind kind;
	ZSTD_DStream *zds;
	z_stream zs;
	bool zs_init;
	bool in_frame;		/* inside a frame/member not yet ended */
	bool eof;
};

struct pd_zin *pd__zin_new(struct pd_input *in, enum pd_zkind kind)
{
	struct pd_zin *z = calloc(1, sizeof(*z));

	if (!z)
		return NULL;
	z->in = in;
	z->kind = kind;
	if (kind == PD_Z_ZSTD) {
		z->zds = ZSTD_createDStream();
		if (!z->zds)
			goto fail;
		ZSTD_initDStream(z->zds);
	} else {
		if (inflateInit2(&z->zs, 16 + MAX_WBITS) != Z_OK)
			goto fail;
		z->zs_init = true;
	}
	return z;
fail:
	pd__zin_free(z);
	errno = ENOMEM;
	return NULL;
}

void pd__zin_free(struct pd_zin *z)
{
	if (!z)
		return;
	ZSTD_freeDStream(z->zds);
	if (z->zs_init)
		inflateEnd(&z->zs);
	free(z);
}

uint64_t pd__zin_offset(const struct pd_zin *z)
{
	return z->in->pos;
}

/* One step: decompress what is buffered into out; *done bytes made. */
static int zin_step(struct pd_zin *z, uint8_t *out, size_t n, size_t *done)
{
	const uint8_t *src = pd_input_ptr(z->in);
	size_t avail = z->in->end - z->in->start;

	/* between frames without input: nothing to do (zstd would report
	 * the next frame's header as wanted, as if one had begun) */
	if (!avail && !z->in_frame) {
		*done = 0;
		return 0;
	}
	if (z->kind == PD_Z_ZSTD) {
		ZSTD_inBuffer ib = { src, avail, 0 };
		ZSTD_outBuffer ob = { out, n, 0 };
		size_t ret = ZSTD_decompressStream(z->zds, &ob, &ib);

		if (ZSTD_isError(ret))
			return -PD_ERR_BAD_COMPRESSED;
		pd_input_consume(z->in, ib.pos);
		*done = ob.pos;
		/* 0: a frame ended and everything was flushed */
		z->in_frame = ret != 0;
		return 0;
	}
	if (!z->in_frame && avail) {
		/* a new gzip member (the first, or concatenated) */
		if (inflateReset(&z->zs) != Z_OK)
			return -PD_ERR_BAD_COMPRESSED;
		z->in_frame = true;
	}
	z->zs.next_in = (Bytef *)src;
	z->zs.avail_in = avail > UINT32_MAX ? UINT32_MAX : (uInt)avail;
	z->zs.next_out = out;
	z->zs.avail_out = n > UINT32_MAX ? UINT32_MAX : (uInt)n;
	{
		uInt in_before = z->zs.avail_in, out_before = z->zs.avail_out;
		int ret = inflate(&z->zs, Z_NO_FLUSH);

		if (ret != Z_OK && ret != Z_STREAM_END && ret != Z_BUF_ERROR)
			return -PD_ERR_BAD_COMPRESSED;
		pd_input_consume(z->in, in_before - z->zs.avail_in);
		*done = out_before - z->zs.avail_out;
		if (ret == Z_STREAM_END)
			z->in_frame = false;
	}
	return 0;
}

ssize_t pd__zin_read(struct pd_zin *z, void *buf, size_t n)
{
	uint8_t *out = buf;
	size_t got = 0;

	while (got < n) {
		size_t done = 0;
		bool have_input = z->in->end > z->in->start;
		int err;

		if (!have_input && !z->eof) {
			ssize_t r = pd_input_fill(z->in, ZIN_CHUNK);

			if (r < 0)
				return r;
			if (r == 0)
				z->eof = true;
			have_input = r > 0;
		}
		err = zin_step(z, out + got, n - got, &done);
		if (err)
			return err;
		got += done;
		if (!done && !have_input && z->eof) {
			if (z->in_frame)
				return -PD_ERR_TRUNCATED;
			break;
		}
	}
	return got;
}

struct pd_zout {
	int fd;
	enum pd_zkind kind;
	ZSTD_CStream *zcs;
	z_stream zs;
	bool zs_init;
	uint8_t *buf;
};

struct pd_zout *pd__zout_new(int fd, enum pd_zkind kind, int level)
{
	struct pd_zout *z = calloc(1, sizeof(*z));

	if (!z)
		return NULL;
	z->fd = fd;
	z->kind = kind;
	z->buf = malloc(ZOUT_CHUNK);
	if (!z->buf)
		goto fail;
	if (kind == PD_Z_ZSTD) {
		z->zcs = ZSTD_createCStream();
		if (!z->zcs ||
		    ZSTD_isError(ZSTD_CCtx_setParameter(z->zcs, ZSTD_c_compressionLevel,
							level ? level : 3)) ||
		    ZSTD_isError(ZSTD_CCtx_setParameter(z->zcs, ZSTD_c_checksumFlag, 1)))
			goto fail;
	} else {
		if (deflateInit2(&z->zs, level ? level : 6, Z_DEFLATED,
				 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
			goto fail;
		z->zs_init = true;
	}
	return z;
fail:
	pd__zout_free(z);
	errno = ENOMEM;
	return NULL;
}

void pd__zout_free(struct pd_zout *z)
{
	if (!z)
		return;
	ZSTD_freeCStream(z->zcs);
	if (z->zs_init)
		deflateEnd(&z->zs);
	free(z->buf);
	free(z);
}


/* Compress data (end: finish the stream) and write what comes out. */
static int zout_run(struct pd_zout *z, const void *data, size_t n, bool end)
{
	int err;

	if (z->kind == PD_Z_ZSTD) {
		ZSTD_inBuffer ib = { data, n, 0 };

		for (;;) {
			ZSTD_outBuffer ob = { z->buf, ZOUT_CHUNK, 0 };
			size_t ret = ZSTD_compressStream2(z->zcs, &ob, &ib,
							  end ? ZSTD_e_end : ZSTD_e_continue);

			if (ZSTD_isError(ret))
				return -EIO;
			err = pd__write_all(z->fd, z->buf, ob.pos);
			if (err)
				return err;
			if (end ? ret == 0 : ib.pos == ib.size)
				return 0;
		}
	}
	z->zs.next_in = (Bytef *)data;
	z->zs.avail_in = (uInt)n;
	for (;;) {
		int ret;

		z->zs.next_out = z->buf;
		z->zs.avail_out = ZOUT_CHUNK;
		ret = deflate(&z->zs, end ? Z_FINISH : Z_NO_FLUSH);
		if (ret == Z_STREAM_ERROR)
			return -EIO;
		err = pd__write_all(z->fd, z->buf, ZOUT_CHUNK - z->zs.avail_out);
		if (err)
			return err;
		if (end ? ret == Z_STREAM_END :
			  (z->zs.avail_in == 0 && z->zs.avail_out != 0))
			return 0;
	}
}

int pd__zout_write(struct pd_zout *z, const void *data, size_t n)
{
	const uint8_t *p = data;

	/* zlib counts in uInt */
	while (n) {
		size_t k = n > (1U << 30) ? (1U << 30) : n;
		int err = zout_run(z, p, k, false);

		if (err)
			return err;
		p += k;
		n -= k;
	}
	return 0;
}

int pd__zout_finish(struct pd_zout *z)
{
	return zout_run(z, NULL, 0, true);
}
