// SPDX-License-Identifier: MIT
/*
 * The command-line plumbing of the tools that read perf.data (see cli.h):
 * the library's messages routed to stderr, archives cleaned up on a
 * signal, inputs opened with their errors printed.
 */
#include <signal.h>
#include <string.h>

#include <perfdata/archive.h>

#include "common/cli.h"
#include "common/progress.h"

static void log_to_stderr(enum pd_log_level level, const char *msg, void *ctx)
{
	const char *kind;

	(void)ctx;
	if (level == PD_LOG_WARN && !pd_quiet)
		kind = "warning: ";
	else if (level == PD_LOG_INFO && pd_verbose >= 1)
		kind = "";
	else if (level == PD_LOG_DEBUG && pd_verbose >= 2)
		kind = "debug: ";
	else
		return;
	pd_cli_msg_begin();
	fprintf(stderr, "%s: %s%s\n", pd_prog, kind, msg);
	pd_cli_msg_end();
}

/* An archive input is extracted to a temporary directory: an interrupted
 * tool removes it, then dies of the signal as it would have. */
static void die_of_signal(int sig)
{
	pd_archive_cleanup();
	signal(sig, SIG_DFL);
	raise(sig);
}

void pd_cli_init(const char *argv0)
{
	pd_cli_init_prog(argv0);
	pd_set_log(log_to_stderr, NULL);
	signal(SIGINT, die_of_signal);
	signal(SIGTERM, die_of_signal);
	signal(SIGHUP, die_of_signal);
}

struct pd_reader *pd_cli_open(const char *path, const struct pd_reader_opts *opts)
{
	struct pd_reader_opts o = { .sz = sizeof(o) };
	struct pd_reader *r;

	if (opts)
		memcpy(&o, opts, opts->sz < sizeof(o) ? opts->sz : sizeof(o));
	o.sz = sizeof(o);
	pd_progress_reader_opts(&o, !strcmp(path, "-") ? "<stdin>" : path);
	r = pd_reader__open(path, &o);

	if (!r)
		pd_err("%s", pd_reader__open_errmsg());
	return r;
}
