// SPDX-License-Identifier: MIT
/*
 * Shared command-line plumbing for the pd-* tools (see cli.h): the parts
 * that need nothing of libperfdata, so pd-flame links without it.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cli.h"

const char *pd_prog = "pd";
int pd_verbose;
bool pd_quiet;

void pd_cli_init_prog(const char *argv0)
{
	const char *slash = strrchr(argv0, '/');

	pd_prog = slash ? slash + 1 : argv0;
	/* a closed output pipe ends the tool quietly, like other filters */
	signal(SIGPIPE, SIG_DFL);
}

static void (*msg_begin_hook)(void), (*msg_end_hook)(void);

void pd_cli_msg_hooks(void (*begin)(void), void (*end)(void))
{
	msg_begin_hook = begin;
	msg_end_hook = end;
}

void pd_cli_msg_begin(void)
{
	if (msg_begin_hook)
		msg_begin_hook();
}

void pd_cli_msg_end(void)
{
	if (msg_end_hook)
		msg_end_hook();
}

__attribute__((format(printf, 2, 0)))
static void vmsg(const char *kind, const char *fmt, va_list ap)
{
	pd_cli_msg_begin();
	fprintf(stderr, "%s: %s", pd_prog, kind);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	pd_cli_msg_end();
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

__attribute__((format(printf, 1, 0), noreturn))
static void vusage_error(const char *fmt, va_list ap)
{
	vmsg("", fmt, ap);
	fprintf(stderr, "Try '%s --help' for more information.\n", pd_prog);
	exit(PD_EXIT_USAGE);
}

void pd_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vusage_error(fmt, ap);
}

int pd_cli_choose(const char *const *names, const char *arg,
		  const char *fmt, ...)
{
	va_list ap;
	int i;

	for (i = 0; names[i]; i++)
		if (!strcmp(arg, names[i]))
			return i;
	va_start(ap, fmt);
	vusage_error(fmt, ap);
}

/* the --root list: one per run, kept to its end, freed at exit */
static const char **roots_kept;

static void free_roots(void)
{
	free(roots_kept);
	roots_kept = NULL;
}

void pd_cli_add_root(const char *const **roots, const char *dir)
{
	const char **v;
	struct stat st;
	size_t n = 0;

	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		pd_usage_error("--root=%s: not a directory", dir);
	while (roots_kept && roots_kept[n])
		n++;
	v = realloc(roots_kept, (n + 2) * sizeof(*v));
	if (!v)
		pd_usage_error("out of memory");
	if (!roots_kept)
		atexit(free_roots);
	v[n] = dir;
	v[n + 1] = NULL;
	roots_kept = v;
	*roots = v;
}

bool pd_cli_output_in_place(const char *path)
{
	struct stat st;

	return !stat(path, &st) && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
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

bool pd_cli_cpu_to_spare(const char *env)
{
	const char *e = getenv(env);
	long cpus;
	double load;

	if (e && *e)
		return atoi(e) > 1;
	/*
	 * A second thread pays only with a CPU of its own: on a busy
	 * machine the two wait for each other and take longer than one
	 */
	cpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (cpus < 2)
		return false;
	if (getloadavg(&load, 1) != 1)
		return true;
	return load < (double)cpus - 0.5;
}
