/* SPDX-License-Identifier: MIT */
/* What the symbolizer uses of debuginfod.c beyond perfdata/debuginfod.h. */
#ifndef PD_DEBUGINFOD_INTERNAL_H
#define PD_DEBUGINFOD_INTERNAL_H

#include <stdbool.h>

#include <perfdata/debuginfod.h>

/*
 * d reports no warnings: it leaves them to the other clients of the
 * process (pd-unwind's helper threads, whose messages the main thread
 * gives), which report them when they next ask or are freed.
 */
void pd__debuginfod_quiet(struct pd_debuginfod *d);

/* Whether the ELF file at path has a symbol table and DWARF. */
bool pd__debuginfod_complete(const char *path);

#endif
