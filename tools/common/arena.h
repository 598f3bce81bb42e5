/* SPDX-License-Identifier: MIT */
/*
 * The tools' arena and byte hash: tables that copy their keys once (the
 * folder's stacks, pd-diff's stacks and functions, the frame memo) put
 * them in large blocks freed all at once, so memory grows with the
 * number of distinct keys and no key costs a malloc.
 */
#ifndef PD_TOOLS_COMMON_ARENA_H
#define PD_TOOLS_COMMON_ARENA_H

#include <stddef.h>
#include <stdint.h>

struct tool_arena {
	struct tool_arena_block *blocks;
};

/* size bytes, 16-byte aligned; NULL when out of memory. */
void *tool_arena__alloc(struct tool_arena *a, size_t size);
/* A copy of len bytes (no NUL added); NULL when out of memory. */
void *tool_arena__copy(struct tool_arena *a, const void *p, size_t len);
void tool_arena__free(struct tool_arena *a);

/*
 * A 64-bit hash of len bytes, never 0 (tables use 0 for an empty slot).
 * Eight bytes per step: stacks are hundreds of bytes and hashed once per
 * sample, so a byte-at-a-time hash would show in profiles.
 */
uint64_t tool_hash_bytes(const void *p, size_t len);

#endif /* PD_TOOLS_COMMON_ARENA_H */
