/* SPDX-License-Identifier: MIT */
/*
 * Building feature sections byte by byte in either byte order, for the
 * unit tests of the feature parser and of its byte-order conversion.
 */
#ifndef PD_TEST_SEC_H
#define PD_TEST_SEC_H

#include <stdint.h>
#include <string.h>

/* A section under construction; be: written big-endian. */
struct sec {
	uint8_t b[8192];
	size_t n;
	int be;
};

static inline void u8(struct sec *s, uint8_t v)
{
	s->b[s->n++] = v;
}

static inline void u16(struct sec *s, uint16_t v)
{
	int i;

	for (i = 0; i < 2; i++)
		s->b[s->n + (s->be ? 1 - i : i)] = (uint8_t)(v >> (8 * i));
	s->n += 2;
}

static inline void u32(struct sec *s, uint32_t v)
{
	int i;

	for (i = 0; i < 4; i++)
		s->b[s->n + (s->be ? 3 - i : i)] = (uint8_t)(v >> (8 * i));
	s->n += 4;
}

static inline void u64(struct sec *s, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		s->b[s->n + (s->be ? 7 - i : i)] = (uint8_t)(v >> (8 * i));
	s->n += 8;
}

static inline void bytes(struct sec *s, const void *p, size_t len)
{
	memcpy(s->b + s->n, p, len);
	s->n += len;
}

/* perf_header_string: length padded to 64 with NULs */
static inline void str(struct sec *s, const char *v)
{
	uint32_t len = (uint32_t)((strlen(v) + 1 + 63) / 64 * 64);

	u32(s, len);
	memset(s->b + s->n, 0, len);
	memcpy(s->b + s->n, v, strlen(v));
	s->n += len;
}

#endif
