/* SPDX-License-Identifier: MIT */
/*
 * The sample selections pd-fold and pd-convert --to share, with the same
 * names and meaning: --event-filter=EV, --comm=LIST, --cpu=LIST and
 * --time=START,END (perf script's --comms, --cpu and --time). Parse
 * errors print one message and fail, so the caller can exit with a
 * usage error.
 *
 * pd-fold applies them to the sample headers it folds (fold.c, whatever
 * the input); pd-convert --to applies them to perf.data samples
 * (sample_filter below).
 */
#ifndef PD_TOOLS_SAMPLE_SELECT_H
#define PD_TOOLS_SAMPLE_SELECT_H

#include <stdbool.h>
#include <stdint.h>

#include <perfdata/reader.h>
#include <perfdata/session.h>

/* The options as given; NULL/false = no selection. */
struct sample_select_opts {
	const char *event_filter;	/* --event-filter=EV */
	const char *comm_list;		/* --comm=a,b */
	const char *cpu_list;		/* --cpu=0-3,7 */
	bool has_time;			/* --time=START,END (seconds.fraction) */
	uint64_t time_start_ns, time_end_ns;	/* 0 = open end */
};

enum sample_select_opt {
	SELECT_OPT_EVENT, SELECT_OPT_COMM, SELECT_OPT_CPU, SELECT_OPT_TIME,
};

/* Applies one option; a bad argument is a usage error (exit 2). */
void sample_select_opts__set(struct sample_select_opts *o,
			     enum sample_select_opt which, const char *arg);

struct sample_select;

/* Either list may be NULL (no selection). NULL with errno on failure. */
struct sample_select *sample_select__new(const char *comm_list,
				     const char *cpu_list);
void sample_select__free(struct sample_select *s);

bool sample_select__has_cpu(const struct sample_select *s);
bool sample_select__comm(const struct sample_select *s, const char *comm);
bool sample_select__cpu(const struct sample_select *s, int cpu);

/*
 * "START,END" in seconds with an optional fraction of up to 9 digits, as
 * perf's --time takes it; either end may be empty (0 = open). 0 or -EINVAL.
 */
int sample_parse_time_range(const char *arg, uint64_t *start_ns,
			  uint64_t *end_ns);

/*
 * perf.data samples against the whole selection: the event by the name
 * perf prints, the comm of the sample's thread, the sample's CPU and its
 * time in ns (as perf script compares them). A selection on a field the
 * samples lack keeps them, with one warning, as pd-fold does.
 */
struct sample_filter;

/* NULL (errno set) on failure; the lists are checked by then. */
struct sample_filter *sample_filter__new(const struct sample_select_opts *o,
					 struct pd_reader *r);
void sample_filter__free(struct sample_filter *f);
bool sample_filter__keep(struct sample_filter *f, const struct pd_event *ev,
			 const struct pd_thread *t);

#endif /* PD_TOOLS_SAMPLE_SELECT_H */
