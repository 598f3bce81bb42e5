// SPDX-License-Identifier: MIT
/* A growing byte buffer (bytes.h). */
#include <stdlib.h>
#include <string.h>

#include "bytes.h"

void bytes__put(struct bytes *b, const void *data, size_t len)
{
	if (b->oom)
		return;
	if (b->len + len > b->cap) {
		size_t cap = (b->len + len) * 2 + 256;
		uint8_t *v = realloc(b->p, cap);

		if (!v) {
			b->oom = true;
			return;
		}
		b->p = v;
		b->cap = cap;
	}
	memcpy(b->p + b->len, data, len);
	b->len += len;
}
