/* SPDX-License-Identifier: MIT */
/*
 * The compression layer of profile archives: a tar stream compressed with
 * zstd (.tar.zst) or gzip (.tar.gz), read from a pd_input or written to a
 * file descriptor. The only archive code that includes zstd and zlib.
 */
#ifndef PD_ARCHIVE_ZIO_H
#define PD_ARCHIVE_ZIO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/input.h"

enum pd_zkind {
	PD_Z_NONE = 0,
	PD_Z_ZSTD,
	PD_Z_GZIP,
};

/* The compression of data starting with these bytes (n >= 4). */
enum pd_zkind pd__z_detect(const uint8_t *p, size_t n);

struct pd_zin;

struct pd_zin *pd__zin_new(struct pd_input *in, enum pd_zkind kind);
void pd__zin_free(struct pd_zin *z);
/*
 * Up to n decompressed bytes into buf: fewer only at the end of the
 * compressed stream. Returns the count, or -PD_ERR_BAD_COMPRESSED /
 * -PD_ERR_TRUNCATED (the compressed stream ends inside a frame) / -errno;
 * pd__zin_offset() then tells the compressed offset.
 */
ssize_t pd__zin_read(struct pd_zin *z, void *buf, size_t n);
uint64_t pd__zin_offset(const struct pd_zin *z);

struct pd_zout;

struct pd_zout *pd__zout_new(int fd, enum pd_zkind kind, int level);
/* 0 or -errno. */
int pd__zout_write(struct pd_zout *z, const void *data, size_t n);
/* End the compressed stream. 0 or -errno. */
int pd__zout_finish(struct pd_zout *z);
void pd__zout_free(struct pd_zout *z);

#endif /* PD_ARCHIVE_ZIO_H */
