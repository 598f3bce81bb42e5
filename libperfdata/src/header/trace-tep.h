/* SPDX-License-Identifier: MIT */
/*
 * The libtraceevent calls of the tracing data parser (feat-tracing.c) and
 * the tracepoint printer (trace-print.c), whatever the library's version,
 * or without the library (HAVE_LIBTRACEEVENT undefined): then there is no
 * handle, pd__tep_new() returns NULL and the callers take the paths they
 * take when libtraceevent refuses the data. Only trace-tep.c and
 * trace-print.c include libtraceevent.
 */
#ifndef PD_TRACE_TEP_H
#define PD_TRACE_TEP_H

#include <stddef.h>
#include <stdint.h>

#include <perfdata/features.h>

struct tep_handle;

/* A handle for data of t's byte order, long and page size, or NULL. */
struct tep_handle *pd__tep_new(const struct pd_tracing *t);
void pd__tep_free(struct tep_handle *tep);

/* header_page's text, to learn the ring buffer's layout */
void pd__tep_parse_header_page(struct tep_handle *tep, char *text, size_t len,
			       int long_size);
/* A format (NUL-terminated text of len bytes) of system sys. */
void pd__tep_parse_event(struct tep_handle *tep, const char *text, size_t len,
			 const char *sys);
/*
 * The same, and the event's id and name (owned by tep) when
 * libtraceevent parsed it: true then.
 */
bool pd__tep_parse_format(struct tep_handle *tep, const char *text,
			  size_t len, const char *sys, uint64_t *id,
			  const char **name);
/*
 * printk_formats lines ("0xADDR : FMT", only lines that
 * pd__trace_printk_line_ok() accepts) and saved_cmdlines lines
 * ("PID COMM"), as C strings.
 */
void pd__tep_parse_printk_formats(struct tep_handle *tep, const char *text);
void pd__tep_parse_saved_cmdlines(struct tep_handle *tep, const char *text);

#endif /* PD_TRACE_TEP_H */
