// SPDX-License-Identifier: MIT
/*
 * Shared command-line plumbing for the pd-* tools (see cli.h).
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <perfdata/archive.h>

#include "common/cli.h"

const char *pd_prog = "pd";
int pd_verbose;
bool pd_quiet;

static void log_to_stderr(enum pd_log_level level, const char *msg, void *ctx)
{
	(void)ctx;
	if (level == PD_LOG_WARN && !pd_quiet)
		fprintf(stderr, "%s: warning: %s\n", pd_prog, msg);
	else if (level == PD_LOG_INFO && pd_verbose >= 1)
		fprintf(stderr, "%s: %s\n", pd_prog, msg);
	else if (level == PD_LOG_DEBUG && pd_verbose >= 2)
		fprintf(stderr, "%s: debug: %s\n", pd_prog, msg);
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
	const char *slash = strrchr(argv0, '/');

	pd_prog = slash ? slash + 1 : argv0;
	pd_set_log(log_to_stderr, NULL);
	/* a closed output pipe ends the tool quietly, like other filters */
	signal(SIGPIPE, SIG_DFL);
	signal(SIGINT, die_of_signal);
	signal(SIGTERM, die_of_signal);
	signal(SIGHUP, die_of_signal);
}

static void vmsg(const char *kind, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: %s", pd_prog, kind);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void pd_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("error: ", fmt, ap);
	va_end(ap);
}

void pd_warn(const char *fmt, ...)
{
	va_list ap;

	if (pd_quiet)
		return;
	va_start(ap, fmt);
	vmsg("warning: ", fmt, ap);
	va_end(ap);
}

void pd_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
	fprintf(stderr, "Try '%s --help' for more information.\n", pd_prog);
	exit(PD_EXIT_USAGE);
}

struct pd_reader *pd_cli_open(const char *path, const struct pd_reader_opts *opts)
{
	struct pd_reader *r = pd_reader__open(path, opts);

	if (!r)
		pd_err("%s", pd_reader__open_errmsg());
	return r;
}

int pd_cli_close_output(FILE *f, const char *name)
{
	int err = 0;

	if (fflush(f) != 0 || ferror(f))
		err = errno ? errno : EIO;
	if (fclose(f) != 0 && !err)
		err = errno;
	if (err && err != EPIPE) {
		pd_err("%s: write error: %s", name, strerror(err));
		return PD_EXIT_DATA;
	}
	return 0;
}

bool pd_cli_refuse_tty(FILE *f)
{
	if (isatty(fileno(f))) {
		pd_err("refusing to write binary data to a terminal (use -o FILE or a redirection)");
		return true;
	}
	return false;
}

bool pd_cli_same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	if (!strcmp(a, "-") || !strcmp(b, "-"))
		return false;
	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}
