/* SPDX-License-Identifier: MIT */
/*
 * What the session asks of the symbolizer about perf's DWARF unwinder
 * (sym-perf-elf.c): whether perf would read a mapped file as ELF. Not
 * installed.
 */
#ifndef PD_SYM_PERF_ELF_H
#define PD_SYM_PERF_ELF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pd_symbolizer;

/*
 * Whether the file perf 6.1 reads the data of a mapped file from is an
 * ELF file (dso__type() not DSO__TYPE_UNKNOWN): the build-id cache's copy
 * for its build id (bid, NULL for none), else the file at path under the
 * symfs, or under a --root; "[vdso]" without a build id is perf's own
 * vdso, always there. The answer is kept per path and build id.
 */
bool pd__symbolizer_perf_opens_elf(struct pd_symbolizer *s, const char *path,
				   const uint8_t *bid, size_t bid_size);

#endif /* PD_SYM_PERF_ELF_H */
