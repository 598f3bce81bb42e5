/* SPDX-License-Identifier: MIT */
/*
 * What every pd-* tool shares: messages in one format
 * ("pd-info: error: perf.data: offset 0x1a2b: ..."), exit codes, opening
 * inputs with the library's warnings routed to stderr, and output checks.
 *
 * Exit codes: 0 success, 1 bad data or I/O error, 2 bad usage.
 */
#ifndef PD_TOOLS_CLI_H
#define PD_TOOLS_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include <perfdata/reader.h>

#define PD_EXIT_OK	0
#define PD_EXIT_DATA	1
#define PD_EXIT_USAGE	2

extern const char *pd_prog;	/* set by pd_cli_init() */
extern int pd_verbose;		/* -v count: show info/debug messages */
extern bool pd_quiet;		/* -q: no warnings */

/*
 * A tool's start: its name for messages (from argv0), SIGPIPE ending it
 * quietly; pd_cli_init() also routes the library's messages to stderr
 * and removes an extracted archive when a signal ends the tool
 * (cli-reader.c). pd_cli_init_prog() alone serves tools that read no
 * perf.data (pd-flame), which then link without libperfdata.
 */
void pd_cli_init(const char *argv0);
void pd_cli_init_prog(const char *argv0);

/*
 * Around a message written to stderr other than through pd_err() and
 * pd_warn() (which do it themselves): a progress line standing there
 * (progress.h) is cleared first and not redrawn until the message is
 * out. pd_cli_msg_hooks() is progress.c's, which sets what they do.
 */
void pd_cli_msg_begin(void);
void pd_cli_msg_end(void);
void pd_cli_msg_hooks(void (*begin)(void), void (*end)(void));

void pd_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void pd_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Bad usage: message, then "Try 'PROG --help'", exit 2. */
void pd_usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));

/*
 * The index of an option's word among the ones it takes (names, ended by
 * NULL); any other word is bad usage, said by fmt.
 */
int pd_cli_choose(const char *const *names, const char *arg,
		  const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * --root=DIR, which may be given again: dir appended to the run's one
 * NULL-terminated list of roots, grown as the options come, and *roots
 * set to it (freed at exit). DIR must be a directory, else bad usage.
 */
void pd_cli_add_root(const char *const **roots, const char *dir);

/* Opens path ("-" = stdin); prints the error and returns NULL on failure. */
struct pd_reader *pd_cli_open(const char *path, const struct pd_reader_opts *opts);

/*
 * Flush and close an output stream, reporting write errors (a closed pipe
 * is not an error for a filter). Returns 0 or PD_EXIT_DATA.
 */
int pd_cli_close_output(FILE *f, const char *name);
/*
 * Whether path is written where it is, not through a file renamed over
 * it: an existing device or FIFO (-o /dev/null), which a rename would
 * replace with a file.
 */
bool pd_cli_output_in_place(const char *path);

/* Refuse to write binary data to a terminal. */
bool pd_cli_refuse_tty(FILE *f);

/*
 * Whether two paths name one file ("-" names none): writers never touch
 * their input, so a tool refuses an output that is its input.
 */
bool pd_cli_same_file(const char *a, const char *b);

/*
 * Whether a second thread would have a CPU of its own: two CPUs or more
 * and a load average that leaves one free. $env (PD_FOLD_THREADS, ...)
 * set to 1 or 2 decides instead, as tests force one way or the other.
 */
bool pd_cli_cpu_to_spare(const char *env);

#endif /* PD_TOOLS_CLI_H */
