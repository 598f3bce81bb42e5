/* SPDX-License-Identifier: MIT */
/*
 * Progress of a long read on stderr, as perf report's "Processing events"
 * and git's "Receiving objects" show it: only when stderr is a terminal,
 * -q was not given and the read has lasted a second (PD_PROGRESS_DELAY
 * seconds, as git's GIT_PROGRESS_DELAY); then one line, redrawn in place
 * a few times a second:
 *
 *	pd-fold: perf.data: 1.2 GB of 3.1 GB (38%), 4.1 s
 *	pd-fold: <stdin>: 2048576 records, 310 MB, 4.1 s
 *
 * The line goes when the input ends, before any message the tool prints
 * (pd_cli_msg_begin() in cli.h), and at exit.
 */
#ifndef PD_TOOLS_PROGRESS_H
#define PD_TOOLS_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct pd_reader_opts;

/*
 * perf.data: sets o->progress for the input named name when progress is
 * to be shown; o is left as it is otherwise (cli-reader.c).
 */
void pd_progress_reader_opts(struct pd_reader_opts *o, const char *name);

/*
 * Text read from in (perf script's, folded lines): NULL when no progress
 * is to be shown, which the two calls below take.
 */
struct pd_text_progress *pd_progress_text(FILE *in, const char *name);

/* n more bytes read (a line), as cheap as an addition most of the time */
void pd_progress_text__read(struct pd_text_progress *t, size_t n);
/* the input's end: the line goes */
void pd_progress_text__done(struct pd_text_progress *t);

#endif /* PD_TOOLS_PROGRESS_H */
