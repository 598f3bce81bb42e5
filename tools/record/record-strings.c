// SPDX-License-Identifier: MIT
/*
 * The string of perf's header sections: a u32 length, then the text and
 * NULs up to a multiple of 64 bytes (the length counts them all). Every
 * feature pd-record writes uses it: the machine's strings
 * (record-feat.c), the cache levels and nodes (record-topo.c) and the PMU
 * capabilities (record-pmucaps.c); a file of its own so that each of
 * them uses it from below.
 */
#include <stdlib.h>
#include <string.h>

#include "record.h"
#include "common/bytes.h"

size_t rec_string_size(const char *s)
{
	return 4 + ((strlen(s) + 1 + 63) & ~(size_t)63);
}

size_t rec_put_string(uint8_t *dst, const char *s)
{
	uint32_t len = rec_string_size(s) - 4;

	memcpy(dst, &len, 4);
	memset(dst + 4, 0, len);
	memcpy(dst + 4, s, strlen(s));
	return 4 + len;
}

void rec_bytes_string(struct bytes *b, const char *s)
{
	size_t n = rec_string_size(s);
	uint8_t *tmp = malloc(n);

	if (!tmp) {
		b->oom = true;
		return;
	}
	rec_put_string(tmp, s);
	bytes__put(b, tmp, n);
	free(tmp);
}
