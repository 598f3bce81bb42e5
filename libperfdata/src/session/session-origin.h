/* SPDX-License-Identifier: MIT */
/*
 * Whether a recording was made on this machine (session-origin.c): where
 * it was, the device and inode of a mapped file say which file at its
 * path it was, and a build id perf read in its own mount namespace may
 * be another file's. Not installed.
 */
#ifndef PD_SESSION_ORIGIN_H
#define PD_SESSION_ORIGIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <perfdata/reader.h>
#include <perfdata/symbols.h>

struct session_origin;

/* From r's header (may be NULL: not here); NULL on ENOMEM. */
struct session_origin *session_origin__new(const struct pd_reader *r);
void session_origin__free(struct session_origin *o);

/* A HEADER_FEATURE record's feature (pipe mode): its host name and os
 * release. */
void session_origin__feature(struct session_origin *o, uint64_t feat,
			     const void *data, uint64_t size);
/* The recording kernel's build id, from a record (pipe mode, MMAP2),
 * before its first sample. */
void session_origin__kernel(struct session_origin *o, const uint8_t *bid,
			    size_t size);
/*
 * A record's time (perf clock), before its first sample: the latest one
 * tells when the recording ended, when its header does not. The first
 * sample (sample set) ends what the decision is made from.
 */
void session_origin__time(struct session_origin *o, uint64_t time,
			  bool sample);
/*
 * An MMAP2 of path with the device and inode the kernel saw, path living
 * as long as the decision may be asked (interned).
 */
void session_origin__mmap(struct session_origin *o, const char *path,
			  uint32_t maj, uint32_t min, uint64_t ino);
/*
 * The decision, made at the first call from what was given so far and
 * the same after; files are looked at under sym's --symfs.
 */
bool session_origin__here(struct session_origin *o,
			  const struct pd_symbolizer *sym);

#endif /* PD_SESSION_ORIGIN_H */
