/* SPDX-License-Identifier: MIT */
/*
 * A growing byte buffer for sections built piece by piece. An allocation
 * failure is remembered (oom) and later puts do nothing, so a builder
 * checks once at the end. The caller frees p.
 */
#ifndef PD_TOOLS_BYTES_H
#define PD_TOOLS_BYTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct bytes {
	uint8_t *p;
	size_t len, cap;
	bool oom;
};

void bytes__put(struct bytes *b, const void *data, size_t len);

static inline void bytes__u32(struct bytes *b, uint32_t v)
{
	bytes__put(b, &v, 4);
}

static inline void bytes__u64(struct bytes *b, uint64_t v)
{
	bytes__put(b, &v, 8);
}

#endif /* PD_TOOLS_BYTES_H */
