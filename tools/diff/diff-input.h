/* SPDX-License-Identifier: MIT */
/*
 * pd-diff's inputs: a perf.data file (told by its magic, file or pipe
 * mode), folded through pd-fold's own code with pd-fold's options, or a
 * folded file; either is added to the stack table as difffolded.pl reads
 * folded text (diff-line.h), on one side of the comparison.
 */
#ifndef PD_TOOLS_DIFF_INPUT_H
#define PD_TOOLS_DIFF_INPUT_H

#include <stdbool.h>
#include <stdint.h>

#include "diff-num.h"

struct diff_table;
struct fold_opts;
struct fold_data_opts;

struct diff_read_opts {
	bool strip_hex;				/* -s */
	const struct fold_opts *fo;		/* perf.data inputs */
	const struct fold_data_opts *data;
};

struct diff_buildid {
	char *file;
	char hex[41];
};

struct diff_input {
	const char *path;	/* as given; "-" is standard input */
	const char *name;	/* in messages */
	bool is_data;		/* a perf.data file */
	bool empty;		/* 0 bytes: an empty folded file */
	/* perf.data: the event folded (NULL: no samples) and the samples of
	 * other events that were left out */
	char *event;
	uint64_t nr_other_event;
	/* perf.data read from a file: its one event with callchains, if it
	 * has one (for the events the folder cannot name) */
	char *header_event;
	/* perf.data read from a file: its BUILD_ID feature */
	struct diff_buildid *ids;
	size_t nr_ids;
	struct pnum total;	/* sum of the counts, as the script sums */
	uint64_t nr_malformed;	/* lines without a count */
};

/* Reads in into side (0 or 1) of t. A PD_EXIT_* code (errors printed). */
int diff_input__read(struct diff_input *in, int side, struct diff_table *t,
		     const struct diff_read_opts *o);
void diff_input__release(struct diff_input *in);

#endif /* PD_TOOLS_DIFF_INPUT_H */
