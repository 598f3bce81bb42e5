/* SPDX-License-Identifier: MIT */
/*
 * Tracepoint samples as text: the fields of a RAW sample formatted by
 * the event's "print fmt" from the tracing data (libtraceevent's
 * tep_print_event() with TEP_PRINT_INFO), which is what `perf script`
 * prints after a tracepoint sample's event name.
 *
 * The formats come from the file, so they are checked before
 * libtraceevent sees them, and a sample's bytes are read from a padded
 * copy: a format whose print expression could divide, print a buffer of
 * a length read from the sample, use a conversion other than
 * d i o u x X c s p, or place fields beyond 64 KiB is printed as
 * libtraceevent prints a format it could not parse:
 * "[FAILED TO PARSE] field=value ...". Kernels write none of those in the
 * common events (sched, syscalls, irq, timer, block, kmem...).
 *
 * The printer holds its own libtraceevent handle; it follows the tracing
 * data of the features it was made from (a pipe-mode stream may bring
 * its tracing data late or twice). Not thread-safe.
 */
#ifndef PERFDATA_TRACE_H
#define PERFDATA_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include <perfdata/features.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pd_trace_printer;

/* NULL with errno set (ENOMEM). f must outlive the printer. */
struct pd_trace_printer *pd_trace_printer__new(const struct pd_features *f);
void pd_trace_printer__free(struct pd_trace_printer *p);

/*
 * The text of a sample of tracepoint id (its attr.config) taken on cpu,
 * raw its PERF_SAMPLE_RAW bytes, into buf (always NUL-terminated, cut at
 * size). Returns the text's full length, or -ENOENT when the tracing
 * data has no format of that id (or no tracing data was read), -ENOMEM,
 * or -ENOTSUP when libperfdata was built without libtraceevent (the
 * first such sample logs a warning saying so).
 */
int pd_trace_printer__print(struct pd_trace_printer *p, uint64_t id, int cpu,
			    const void *raw, size_t raw_size, char *buf,
			    size_t size);

#ifdef __cplusplus
}
#endif

#endif /* PERFDATA_TRACE_H */
