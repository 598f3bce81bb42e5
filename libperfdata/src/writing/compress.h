/* SPDX-License-Identifier: MIT */
#ifndef PD_COMPRESS_H
#define PD_COMPRESS_H

#include <stddef.h>

struct pd_comp;

struct pd_comp *pd__comp_new(int level);
void pd__comp_free(struct pd_comp *c);
/* Largest output pd__comp_flush() can make from in_size bytes. */
size_t pd__comp_bound(size_t in_size);
/* Compress in and flush the stream: out receives whole zstd blocks. */
int pd__comp_flush(struct pd_comp *c, const void *in, size_t in_size,
		   void *out, size_t out_cap, size_t *out_size);

#endif
