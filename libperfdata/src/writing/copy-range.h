/* SPDX-License-Identifier: MIT */
/*
 * Bytes of one file appended to another without passing through this
 * process where the kernel can (copy_file_range()).
 */
#ifndef PD_COPY_RANGE_H
#define PD_COPY_RANGE_H

#include <stdbool.h>
#include <stdint.h>

/*
 * len bytes of in at offset off, written to out at its file position
 * (which moves past them). *kernel: try copy_file_range() first; it is
 * cleared when the kernel, the file systems or the files refuse it, and
 * the bytes go through buf (buf_len bytes) instead. 0, or a negative
 * errno with *where telling which side failed ("read", "write"); -EIO
 * (where "read") when in ends before off + len.
 */
int pd__copy_range(int in, uint64_t off, int out, uint64_t len, bool *kernel,
		   uint8_t *buf, size_t buf_len, const char **where);

#endif /* PD_COPY_RANGE_H */
