/* SPDX-License-Identifier: MIT */
/*
 * The version table's own lookup (compat/targets.c), for the compat files
 * that build on the table: a name of its entries, never a binary to
 * probe (pd_perf_target__find() in resolve.c takes both).
 */
#ifndef PD_COMPAT_TARGETS_H
#define PD_COMPAT_TARGETS_H

#include <perfdata/compat.h>

/* A table entry by name ("6.1", "rhel8", "newest"); NULL and errno
 * ENOENT if there is none. */
const struct pd_perf_target *pd__perf_target_named(const char *name);

#endif
