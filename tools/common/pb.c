// SPDX-License-Identifier: MIT
/* See pb.h. */
#include <stdlib.h>
#include <string.h>

#include "pb.h"

enum { WIRE_VARINT = 0, WIRE_LEN = 2 };

static bool reserve(struct pb *b, size_t more)
{
	size_t cap;
	uint8_t *p;

	if (b->oom)
		return false;
	if (b->cap - b->n >= more)
		return true;
	cap = b->cap ? b->cap : 256;
	while (cap - b->n < more) {
		if (cap > SIZE_MAX / 2)
			goto oom;
		cap *= 2;
	}
	p = realloc(b->p, cap);
	if (!p)
		goto oom;
	b->p = p;
	b->cap = cap;
	return true;
oom:
	b->oom = true;
	return false;
}

void pb__varint(struct pb *b, uint64_t v)
{
	if (!reserve(b, 10))
		return;
	while (v >= 0x80) {
		b->p[b->n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	b->p[b->n++] = (uint8_t)v;
}

static void tag(struct pb *b, unsigned int field, unsigned int wire)
{
	pb__varint(b, (uint64_t)field << 3 | wire);
}

void pb__u64(struct pb *b, unsigned int field, uint64_t v)
{
	if (!v)
		return;
	tag(b, field, WIRE_VARINT);
	pb__varint(b, v);
}

void pb__bytes(struct pb *b, unsigned int field, const void *p, size_t len)
{
	tag(b, field, WIRE_LEN);
	pb__varint(b, len);
	if (!reserve(b, len))
		return;
	if (len)
		memcpy(b->p + b->n, p, len);
	b->n += len;
}

void pb__msg(struct pb *b, unsigned int field, const struct pb *m)
{
	if (m->oom) {
		b->oom = true;
		return;
	}
	pb__bytes(b, field, m->p, m->n);
}

static size_t varint_len(uint64_t v)
{
	size_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

void pb__packed(struct pb *b, unsigned int field, const uint64_t *v, size_t n)
{
	size_t len = 0, i;

	if (!n)
		return;
	for (i = 0; i < n; i++)
		len += varint_len(v[i]);
	tag(b, field, WIRE_LEN);
	pb__varint(b, len);
	for (i = 0; i < n; i++)
		pb__varint(b, v[i]);
}

void pb__free(struct pb *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}
