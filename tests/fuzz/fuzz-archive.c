// SPDX-License-Identifier: MIT
/*
 * Fuzz target: profile archives (docs/archive.md). The input is a mode
 * byte and a tar stream; the target compresses the stream (or not) and
 * reads the result from a memfd as fuzz-file reads a perf.data: the
 * reader recognizes the archive, extracts it to a private directory
 * (tar headers, names, sizes, manifest), then reads its perf.data, and
 * the session resolves frames from the extracted ELF files and kallsyms
 * (no --kallsyms given: an archive without one reads the machine's).
 *
 * mode bits 0-1: 0 zstd-compress the stream, 1 gzip it, 2 and 3 use the
 * stream as the compressed bytes themselves (the decompressors' error
 * paths); bit 2: rewrite each tar header's checksum first, so that
 * mutations of the other header fields get past the checksum test.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "read.h"
#include "util.h"

#define BLOCK		512
#define MAX_TAR		(4 * 1024 * 1024)

/* Each header's checksum made right, walking members by their sizes. */
static void fix_checksums(uint8_t *p, size_t len)
{
	size_t off = 0;

	while (len - off >= BLOCK) {
		uint8_t *h = p + off;
		unsigned long long size = 0;
		unsigned int sum = 0;
		char field[8];
		int i;

		for (i = 0; i < BLOCK; i++)
			sum += (i >= 148 && i < 156) ? ' ' : h[i];
		if (sum == 8 * ' ') {	/* a zero block */
			off += BLOCK;
			continue;
		}
		snprintf(field, sizeof(field), "%06o", sum & 0777777);
		memcpy(h + 148, field, 7);
		h[155] = ' ';
		for (i = 124; i < 136 && h[i] >= '0' && h[i] <= '7'; i++)
			size = size * 8 + (h[i] - '0');
		if (size > len)
			return;
		off += BLOCK + (size + BLOCK - 1) / BLOCK * BLOCK;
		if (off > len)
			return;
	}
}

static uint8_t *gzip(const uint8_t *in, size_t n, size_t *out_len)
{
	z_stream zs = { 0 };
	uint8_t *out;
	size_t cap;

	if (deflateInit2(&zs, 1, Z_DEFLATED, 15 + 16, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK)
		return NULL;
	cap = deflateBound(&zs, n) + 32;
	out = malloc(cap);
	if (!out) {
		deflateEnd(&zs);
		return NULL;
	}
	zs.next_in = (Bytef *)in;
	zs.avail_in = n;
	zs.next_out = out;
	zs.avail_out = cap;
	if (deflate(&zs, Z_FINISH) != Z_STREAM_END) {
		deflateEnd(&zs);
		free(out);
		return NULL;
	}
	*out_len = zs.total_out;
	deflateEnd(&zs);
	return out;
}

static uint8_t *zstd(const uint8_t *in, size_t n, size_t *out_len)
{
	size_t cap = ZSTD_compressBound(n);
	uint8_t *out = malloc(cap);
	size_t r;

	if (!out)
		return NULL;
	r = ZSTD_compress(out, cap, in, n, 1);
	if (ZSTD_isError(r)) {
		free(out);
		return NULL;
	}
	*out_len = r;
	return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct fuzz_source src = {
		.open_fd = fuzz_memfd,
		.archive_kallsyms = true,
	};
	uint8_t *tar, *packed = NULL;
	size_t len, packed_len = 0;
	unsigned int mode;

	if (size < 1 || size - 1 > MAX_TAR)
		return 0;
	mode = data[0];
	len = size - 1;
	tar = malloc(len ? len : 1);
	if (!tar)
		return 0;
	memcpy(tar, data + 1, len);
	if (mode & 4)
		fix_checksums(tar, len);
	switch (mode & 3) {
	case 0:
		packed = zstd(tar, len, &packed_len);
		break;
	case 1:
		packed = gzip(tar, len, &packed_len);
		break;
	default:
		fuzz_read_all(&src, tar, len);
		break;
	}
	if (packed)
		fuzz_read_all(&src, packed, packed_len);
	free(packed);
	free(tar);
	return 0;
}
