/* SPDX-License-Identifier: MIT */
/*
 * A gzip stream (RFC 1952, through zlib) written to a FILE as it goes:
 * pprof's profile.proto files are gzipped.
 */
#ifndef PD_TOOLS_GZIP_OUT_H
#define PD_TOOLS_GZIP_OUT_H

#include <stddef.h>
#include <stdio.h>

struct gzip_out;

/* NULL when out of memory. */
struct gzip_out *gzip_out__new(FILE *f);
/* 0, or -1 (out of memory or a write error, which ferror() tells). */
int gzip_out__write(struct gzip_out *g, const void *p, size_t len);
/* Ends the stream: 0 or -1. Frees g either way. */
int gzip_out__finish(struct gzip_out *g);
/* Frees g without ending the stream (after an error). */
void gzip_out__free(struct gzip_out *g);

#endif /* PD_TOOLS_GZIP_OUT_H */
