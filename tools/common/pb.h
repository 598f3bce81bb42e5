/* SPDX-License-Identifier: MIT */
/*
 * A protocol buffers writer, as much of the wire format as pprof's
 * profile.proto needs: varints (wire type 0) and length-delimited
 * fields (wire type 2: strings, bytes, nested messages and packed
 * repeated varints). A nested message is written into a buffer of its
 * own, then added to its parent as bytes.
 *
 * Errors (out of memory) stick: every call after one is a no-op and
 * pb.oom stays set, to be checked once at the end.
 */
#ifndef PD_TOOLS_PB_H
#define PD_TOOLS_PB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pb {
	uint8_t *p;
	size_t n, cap;
	bool oom;
};

void pb__varint(struct pb *b, uint64_t v);
/* field = v as a varint; 0 is left out (proto3's default). */
void pb__u64(struct pb *b, unsigned int field, uint64_t v);
/* field = len bytes (always written, even when empty). */
void pb__bytes(struct pb *b, unsigned int field, const void *p, size_t len);
/* field = a nested message, another buffer's bytes. */
void pb__msg(struct pb *b, unsigned int field, const struct pb *m);
/* field = v[0..n) packed; nothing when n is 0. */
void pb__packed(struct pb *b, unsigned int field, const uint64_t *v, size_t n);
/* Empties the buffer, keeping its memory (and the error). */
static inline void pb__reset(struct pb *b)
{
	b->n = 0;
}
void pb__free(struct pb *b);

#endif /* PD_TOOLS_PB_H */
