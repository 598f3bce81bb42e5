/* SPDX-License-Identifier: MIT */
/*
 * Where the version names (pd_perf_target__find() and the name resolver,
 * in resolve.c) meet the probing of a binary (probe.c): a spec
 * pd_perf_target__is_binary() accepts goes here.
 */
#ifndef PD_COMPAT_PROBE_H
#define PD_COMPAT_PROBE_H

#include <perfdata/compat.h>

/* The probed target for "auto" or a path, probed once per process and
 * kept for its life; NULL and errno when it cannot be probed. */
const struct pd_perf_target *pd__perf_target_binary(const char *spec);

#endif
