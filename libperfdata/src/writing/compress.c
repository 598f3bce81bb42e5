// SPDX-License-Identifier: MIT
/*
 * zstd compression of the record stream for COMPRESSED and COMPRESSED2
 * records. Like perf, one zstd stream per output, flushed at the end of
 * each batch of records, so that each compressed record decompresses, in
 * order, to whole records: readers that cannot join a record split
 * across two compressed records (perf before 5.10) read it too.
 */
#include <errno.h>
#include <stdlib.h>
#include <zstd.h>

#include "compress.h"
#include "base/internal.h"

struct pd_comp {
	ZSTD_CStream *zcs;
};

struct pd_comp *pd__comp_new(int level)
{
	struct pd_comp *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->zcs = ZSTD_createCStream();
	if (!c->zcs ||
	    ZSTD_isError(ZSTD_CCtx_setParameter(c->zcs, ZSTD_c_compressionLevel,
						level ? level : 1))) {
		pd__comp_free(c);
		errno = ENOMEM;
		return NULL;
	}
	return c;
}

void pd__comp_free(struct pd_comp *c)
{
	if (!c)
		return;
	ZSTD_freeCStream(c->zcs);
	free(c);
}

size_t pd__comp_bound(size_t in_size)
{
	/* a flush adds at most a frame header and an empty block */
	return ZSTD_compressBound(in_size) + 32;
}

int pd__comp_flush(struct pd_comp *c, const void *in, size_t in_size,
		   void *out, size_t out_cap, size_t *out_size)
{
	ZSTD_inBuffer ib = { in, in_size, 0 };
	ZSTD_outBuffer ob = { out, out_cap, 0 };
	size_t left;

	do {
		left = ZSTD_compressStream2(c->zcs, &ob, &ib, ZSTD_e_flush);
		if (ZSTD_isError(left))
			return -PD_ERR_BAD_COMPRESSED;
		if (left && ob.pos == ob.size)
			return -ENOSPC;	/* the caller's bound was wrong */
	} while (left || ib.pos < ib.size);
	*out_size = ob.pos;
	return 0;
}
