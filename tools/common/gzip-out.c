// SPDX-License-Identifier: MIT
/* See gzip-out.h. */
#include <stdlib.h>
#include <zlib.h>

#include "gzip-out.h"

#define CHUNK	(64 * 1024)

struct gzip_out {
	FILE *f;
	z_stream z;
	int failed;
	unsigned char buf[CHUNK];
};

struct gzip_out *gzip_out__new(FILE *f)
{
	struct gzip_out *g = calloc(1, sizeof(*g));

	if (!g)
		return NULL;
	g->f = f;
	/* 15 + 16: a gzip header and trailer around the deflate data */
	if (deflateInit2(&g->z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK) {
		free(g);
		return NULL;
	}
	return g;
}

static int pump(struct gzip_out *g, int flush)
{
	int zr;

	do {
		size_t have;

		g->z.next_out = g->buf;
		g->z.avail_out = sizeof(g->buf);
		zr = deflate(&g->z, flush);
		if (zr == Z_STREAM_ERROR)
			return -1;
		have = sizeof(g->buf) - g->z.avail_out;
		if (have && fwrite(g->buf, 1, have, g->f) != have)
			return -1;
	} while (g->z.avail_out == 0);
	return flush == Z_FINISH && zr != Z_STREAM_END ? -1 : 0;
}

int gzip_out__write(struct gzip_out *g, const void *p, size_t len)
{
	const unsigned char *c = p;

	while (!g->failed && len) {
		uInt k = len > CHUNK ? CHUNK : (uInt)len;

		g->z.next_in = (unsigned char *)c;
		g->z.avail_in = k;
		if (pump(g, Z_NO_FLUSH))
			g->failed = 1;
		c += k;
		len -= k;
	}
	return g->failed ? -1 : 0;
}

int gzip_out__finish(struct gzip_out *g)
{
	int ret = g->failed;

	if (!ret) {
		g->z.next_in = NULL;
		g->z.avail_in = 0;
		ret = pump(g, Z_FINISH);
	}
	gzip_out__free(g);
	return ret ? -1 : 0;
}

void gzip_out__free(struct gzip_out *g)
{
	if (!g)
		return;
	deflateEnd(&g->z);
	free(g);
}
