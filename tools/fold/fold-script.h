/* SPDX-License-Identifier: MIT */
/*
 * pd-fold's text input: `perf script` output, read line by line as
 * stackcollapse-perf.pl's main loop reads it (a header line starts a
 * sample, indented "PC SYM (MOD)" lines are its frames, a blank line ends
 * it; '#' lines are skipped; anything else is warned about).
 */
#ifndef PD_TOOLS_FOLD_SCRIPT_H
#define PD_TOOLS_FOLD_SCRIPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct folder;
struct fold_sample;
struct fold_script_parser;

/* name: for messages ("NAME:LINE: unrecognized line"); kept, not copied. */
struct fold_script_parser *fold_script_parser__new(struct folder *f,
						   const char *name);
void fold_script_parser__free(struct fold_script_parser *p);

/*
 * One line without its newline (len 0: the blank line that ends a
 * sample). The line is modified (fields are cut out in place). 0, or
 * -ENOMEM.
 */
int fold_script_parser__line(struct fold_script_parser *p, char *line,
			     size_t len);

/*
 * The sample a header line describes, as the parser would begin it
 * (false: not a header line). Modifies line; smp's strings point into it.
 */
bool fold_script_header(char *line, size_t len, struct fold_sample *smp);

/* A whole stream, line by line. Returns a PD_EXIT_* code (errors printed). */
int fold_script(FILE *in, const char *name, struct folder *f);

#endif /* PD_TOOLS_FOLD_SCRIPT_H */
