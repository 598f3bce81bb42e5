// SPDX-License-Identifier: MIT
/*
 * Progress of a long read on stderr (see progress.h). The library's reader
 * calls back about once per MiB, from the thread that reads (the
 * read-ahead thread in pd-fold), while the tool's own thread may print a
 * message at any time: a spin lock keeps the two from writing into each
 * other's line (no pthread: pd-flame links libc alone).
 */
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <perfdata/reader.h>

#include "common/cli.h"
#include "common/progress.h"

#define TEXT_STEP	(1u << 20)	/* bytes of text between clock reads */

struct progress {
	struct progress *next;	/* every one made, freed at exit */
	char *name;
	double start;		/* seconds, CLOCK_MONOTONIC */
	double delay;		/* before the first line */
	double last;		/* when the line was last drawn */
};

struct pd_text_progress {
	struct progress p;
	uint64_t size, pos, records;
	uint64_t next;		/* pos of the next look at the clock */
};

static bool busy;		/* the lock */
static bool drawn;		/* a line stands on stderr */
static struct progress *all;

static void lock(void)
{
	while (__atomic_test_and_set(&busy, __ATOMIC_ACQUIRE))
		sched_yield();
}

static void unlock(void)
{
	__atomic_clear(&busy, __ATOMIC_RELEASE);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* with the lock held */
static void clear_line(void)
{
	if (drawn) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		drawn = false;
	}
}

static void msg_begin(void)
{
	lock();
	clear_line();
}

static void at_exit(void)
{
	lock();
	clear_line();
	while (all) {
		struct progress *pr = all;

		all = pr->next;
		free(pr->name);
		free(pr);
	}
	unlock();
}

/* "1.2 GB": bytes as a person reads them, in powers of 1000 as du -h --si */
static void human(char *buf, size_t size, uint64_t n)
{
	static const char *const unit[] = { "B", "kB", "MB", "GB", "TB", "PB" };
	double v = n;
	int i = 0;

	while (v >= 1000 && i < 5) {
		v /= 1000;
		i++;
	}
	snprintf(buf, size, i ? "%.1f %s" : "%.0f %s", v, unit[i]);
}

static void draw(struct progress *pr, uint64_t pos, uint64_t size,
		 uint64_t records, const char *unit, bool done)
{
	char a[32], b[32];
	double t = now();

	if (!done && (t - pr->start < pr->delay || t - pr->last < 0.1))
		return;
	lock();
	if (done) {
		clear_line();
		unlock();
		return;
	}
	pr->last = t;
	human(a, sizeof(a), pos);
	if (size) {
		human(b, sizeof(b), size);
		fprintf(stderr, "\r%s: %s: %s of %s (%.0f%%), %.1f s\033[K",
			pd_prog, pr->name, a, b,
			100.0 * (pos < size ? pos : size) / size, t - pr->start);
	} else {
		fprintf(stderr, "\r%s: %s: %llu %s%s, %s, %.1f s\033[K",
			pd_prog, pr->name, (unsigned long long)records, unit,
			records == 1 ? "" : "s", a, t - pr->start);
	}
	fflush(stderr);
	drawn = true;
	unlock();
}

/* the progress of an input named name, or NULL when none is shown */
static struct progress *progress_new(size_t size, const char *name)
{
	struct progress *pr;
	const char *d;

	if (pd_quiet || !isatty(STDERR_FILENO))
		return NULL;
	pr = calloc(1, size);
	if (!pr || !(pr->name = strdup(name))) {
		free(pr);
		return NULL;	/* no progress, no harm */
	}
	d = getenv("PD_PROGRESS_DELAY");
	pr->delay = d && *d ? atof(d) : 1.0;
	pr->start = now();
	lock();
	if (!all) {
		pd_cli_msg_hooks(msg_begin, unlock);
		atexit(at_exit);
	}
	/* kept to the end of the run: a reader calls back until closed */
	pr->next = all;
	all = pr;
	unlock();
	return pr;
}

static void on_reader(const struct pd_progress *p, void *ctx)
{
	draw(ctx, p->pos, p->size, p->records, "record", p->done);
}

void pd_progress_reader_opts(struct pd_reader_opts *o, const char *name)
{
	struct progress *pr = progress_new(sizeof(*pr), name);

	if (pr) {
		o->progress = on_reader;
		o->progress_ctx = pr;
	}
}

struct pd_text_progress *pd_progress_text(FILE *in, const char *name)
{
	struct pd_text_progress *t;
	struct stat st;

	t = (struct pd_text_progress *)progress_new(sizeof(*t), name);
	if (t && !fstat(fileno(in), &st) && S_ISREG(st.st_mode))
		t->size = st.st_size;
	return t;
}

void pd_progress_text__read(struct pd_text_progress *t, size_t n)
{
	if (!t)
		return;
	t->pos += n;
	t->records++;
	if (t->pos >= t->next) {
		t->next = t->pos + TEXT_STEP;
		draw(&t->p, t->pos, t->size, t->records, "line", false);
	}
}

void pd_progress_text__done(struct pd_text_progress *t)
{
	if (t)
		draw(&t->p, t->pos, t->size, t->records, "line", true);
}
