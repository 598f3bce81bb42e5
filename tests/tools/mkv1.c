// SPDX-License-Identifier: MIT
/*
 * mkv1 IN OUT: rewrite a PERFILE2 file (either byte order) in the old
 * PERFFILE v1 form: magic "PERFFILE", header size 72 (it ends where
 * PERFILE2's adds_features bitmap begins), no feature sections.
 *
 * perf reads this form still (check_magic_endian() and
 * perf_file_header__read() in tools/perf/util/header.c): "PERFFILE" says
 * nothing of the byte order, so it is taken from attr_size, which must be
 * one of the ATTR_SIZE_VER0..VER4 sizes plus 16 (80, 88, 96, 112, 120) in
 * either order; a 72-byte header means no features at all. So IN's attrs
 * should be at most 104 bytes (pd-convert --target-perf=3.10 writes 96).
 *
 * Nothing moves: the attrs, their ids and the data keep their offsets, the
 * 32 bytes that held the bitmap are zeroed, and the file ends with the
 * data (the feature index and sections after it are left out).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define V2_HEADER_SIZE	104
#define V1_HEADER_SIZE	72

static uint64_t get64(const uint8_t *p, int swap)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return swap ? __builtin_bswap64(v) : v;
}

static void put64(uint8_t *p, uint64_t v, int swap)
{
	if (swap)
		v = __builtin_bswap64(v);
	memcpy(p, &v, 8);
}

static int fail(const char *path, const char *what)
{
	fprintf(stderr, "mkv1: %s: %s\n", path, what);
	return 1;
}

int main(int argc, char **argv)
{
	uint8_t h[V2_HEADER_SIZE], buf[65536];
	uint64_t data_off, data_size, end, pos;
	FILE *in, *out;
	int swap;

	if (argc != 3) {
		fprintf(stderr, "usage: mkv1 IN OUT\n");
		return 2;
	}
	in = fopen(argv[1], "rb");
	if (!in)
		return fail(argv[1], strerror(errno));
	if (fread(h, 1, sizeof(h), in) != sizeof(h))
		return fail(argv[1], "shorter than a PERFILE2 header");
	if (!memcmp(h, "PERFILE2", 8))
		swap = 0;	/* little-endian on disk: host order here */
	else if (!memcmp(h, "2ELIFREP", 8))
		swap = 1;
	else
		return fail(argv[1], "not a PERFILE2 file");
	if (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)
		swap = !swap;
	if (get64(h + 8, swap) != V2_HEADER_SIZE)
		return fail(argv[1], "header size is not 104 (a pipe stream?)");
	data_off = get64(h + 40, swap);
	data_size = get64(h + 48, swap);
	if (data_off < V2_HEADER_SIZE || data_off + data_size < data_off)
		return fail(argv[1], "bad data section");
	end = data_off + data_size;

	/* the byte order stays in attr_size and every other field */
	memcpy(h, "PERFFILE", 8);
	put64(h + 8, V1_HEADER_SIZE, swap);
	memset(h + V1_HEADER_SIZE, 0, V2_HEADER_SIZE - V1_HEADER_SIZE);

	out = fopen(argv[2], "wb");
	if (!out)
		return fail(argv[2], strerror(errno));
	if (fwrite(h, 1, sizeof(h), out) != sizeof(h))
		return fail(argv[2], "write failed");
	for (pos = V2_HEADER_SIZE; pos < end;) {
		size_t want = end - pos < sizeof(buf) ? end - pos : sizeof(buf);
		size_t n = fread(buf, 1, want, in);

		if (n == 0)
			return fail(argv[1], "data section past the end of the file");
		if (fwrite(buf, 1, n, out) != n)
			return fail(argv[2], "write failed");
		pos += n;
	}
	fclose(in);
	if (fclose(out))
		return fail(argv[2], strerror(errno));
	return 0;
}
