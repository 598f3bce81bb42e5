/* SPDX-License-Identifier: MIT */
/*
 * The session's side of jitdumps: what `perf inject --jit` (perf 6.1,
 * util/jitdump.c jit_process(), builtin-inject.c) does to the recording,
 * so that a session fed the recording ends up with the maps a session fed
 * perf inject's output has. Not installed.
 */
#ifndef PD_SESSION_JIT_H
#define PD_SESSION_JIT_H

#include <stdint.h>

#include <perfdata/reader.h>
#include <perfdata/symbols.h>

#include "base/internal.h"

struct session_jit;

/* r (may be NULL): whose events must all use CLOCK_MONOTONIC. */
struct session_jit *session_jit__new(const struct pd_reader *r,
				     struct pd_symbolizer *sym,
				     struct pd_logger *log);
void session_jit__free(struct session_jit *j);

/*
 * A user-space MMAP or MMAP2 of pid naming filename, in time order:
 * 1 when perf inject drops it (the dump itself once read, or an //anon
 * map of a process whose dump was read; the dump's maps are then
 * pending), 0 to process it as usual, or -ENOMEM.
 */
int session_jit__mmap(struct session_jit *j, uint32_t pid,
		      const char *filename);

/* The next pending map due at time (its time <= time), or NULL. */
const struct pd_jit_map *session_jit__next(struct session_jit *j,
					   uint64_t time);

#endif /* PD_SESSION_JIT_H */
