/* SPDX-License-Identifier: MIT */
/*
 * Samples as `perf script` (6.1, default fields) prints them: the header
 * line and one line per callchain frame. pd-fold folds this text with the
 * same parser that folds real `perf script` output, so both inputs give
 * the same stacks by construction; `pd-fold --script` prints it, which
 * makes it testable line for line against perf.
 *
 * Tracepoint fields after the event name are printed by the event's
 * format (pd_trace_printer), as perf prints them; other fields perf
 * would print there (addresses of raw events, bpf-output dumps) are
 * summarized as "...", since the folding does not read them but must
 * know they are there.
 */
#ifndef PD_TOOLS_SCRIPT_TEXT_H
#define PD_TOOLS_SCRIPT_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include <perfdata/reader.h>
#include <perfdata/session.h>

struct script_text;

struct script_text *script_text__new(struct pd_reader *r);
void script_text__free(struct script_text *st);

/*
 * How perf prints this sample: true when with a callchain (header line,
 * frame lines, blank line), false for the one-line form.
 */
bool script_text__has_callchain(struct script_text *st,
				const struct pd_event *ev);

/* Whether perf prints the sample's address (and symbol, DSO). */
bool script_text__shows_ip(struct script_text *st, const struct pd_event *ev);

/* A sample of perf's offcpu-time event (perf record --off-cpu). */
bool script_text__is_offcpu_time(struct script_text *st,
				 const struct pd_event *ev);

/* The header line, without newline, into buf (always terminated). */
size_t script_text__header(struct script_text *st, const struct pd_event *ev,
			   const struct pd_thread *t, char *buf, size_t size);

struct fold_sample;

/*
 * The sample the header line shows, as the folder's text parser would
 * read it, without the text: false for headers whose parse depends on
 * more than the fields (blanks in the comm, for instance).
 */
bool script_text__header_fields(struct script_text *st,
				const struct pd_event *ev,
				const struct pd_thread *t,
				struct fold_sample *smp);

/*
 * The address part of a sample printed on one line (no callchain):
 * " %16lx sym+off (dso)", the address as sampled (a frame line shows the
 * map-relative one).
 */
size_t script_text__sample_ip(const struct pd_frame *f, char *buf, size_t size);

/* One frame line, without newline. */
size_t script_text__frame(const struct pd_frame *f, char *buf, size_t size);

#endif /* PD_TOOLS_SCRIPT_TEXT_H */
