/* SPDX-License-Identifier: MIT */
/*
 * The tracing data parser (feat-tracing.c), and its filters of the lines
 * libtraceevent is given, which the tracepoint printer applies too.
 */
#ifndef PD_FEAT_TRACING_H
#define PD_FEAT_TRACING_H

#include <stdbool.h>
#include <stddef.h>

struct pd_feat_ctx;

int pd__feat_parse_tracing(struct pd_feat_ctx *x);

/*
 * Lines of the tracing data libtraceevent can be given safely (see
 * feat-tracing.c): a format's lines before its "print fmt:", and
 * printk_formats lines.
 */
bool pd__trace_format_line_ok(const char *line, size_t len);
bool pd__trace_printk_line_ok(const char *line, size_t len);
/*
 * The printk_formats lines pd__trace_printk_line_ok() accepts, as a C
 * string in out, which has room for size + 2 bytes (a last line without
 * its newline gains one, then the NUL). Returns out.
 */
char *pd__trace_printk_filter(char *out, const char *text, size_t size);

#endif /* PD_FEAT_TRACING_H */
