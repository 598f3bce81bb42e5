// SPDX-License-Identifier: MIT
/*
 * A whole input read the way the tools read it (see read.h).
 */
#include <unistd.h>

#include <perfdata/reader.h>
#include <perfdata/session.h>
#include <perfdata/symbols.h>

#include "read.h"
#include "touch.h"
#include "util.h"

#define MAX_FRAMES	128
#define MAX_DELIVER	16

static struct pd_reader *open_input(const struct fuzz_source *src,
				    const uint8_t *data, size_t size,
				    enum pd_order order, int *fd)
{
	struct pd_reader_opts ro = {
		.sz = sizeof(ro),
		.order = order,
		.show_compressed = order == PD_ORDER_FILE,
		.load_aux = order == PD_ORDER_FILE,
		.log = fuzz_log,
		.name = "fuzz",
	};
	struct pd_reader *r;

	*fd = src->open_fd(data, size);
	if (*fd < 0)
		return NULL;
	r = pd_reader__open_fd(*fd, &ro);
	if (!r && src->close_fd)
		close(*fd);
	return r;
}

static void close_input(const struct fuzz_source *src, struct pd_reader *r,
			int fd)
{
	pd_reader__close(r);
	if (src->close_fd)
		close(fd);
}

static void file_order(const struct fuzz_source *src, const uint8_t *data,
		       size_t size)
{
	const struct pd_event *ev;
	struct pd_reader *r;
	int fd;

	r = open_input(src, data, size, PD_ORDER_FILE, &fd);
	if (!r)
		return;
	touch_evsels(r);
	if (pd_reader__read_header(r) >= 0)
		touch_features(pd_reader__features(r));
	while (pd_reader__next(r, &ev) > 0)
		touch_event(ev);
	touch_evsels(r);
	touch_features(pd_reader__features(r));
	(void)pd_reader__stats(r);
	close_input(src, r, fd);
}

static void sample(struct pd_session *s, struct pd_read_periods *rp,
		   const struct pd_event *ev)
{
	static struct pd_frame frames[MAX_FRAMES];
	struct pd_read_delivery d[MAX_DELIVER];
	const struct pd_sample *smp = &ev->u.sample;
	struct pd_thread *t;
	int i, n;

	t = pd_session__thread(s, smp->pid, smp->tid);
	if (!t)
		return;
	(void)pd_thread__comm(t);
	n = pd_session__sample_frames(s, t, ev, frames, MAX_FRAMES);
	for (i = 0; i < n; i++)
		touch_frame(&frames[i]);
	if (rp)
		(void)pd_read_periods__deliver(rp, ev, d, MAX_DELIVER);
}

static void time_order(const struct fuzz_source *src, const uint8_t *data,
		       size_t size)
{
	struct pd_symbolizer_opts so = {
		.sz = sizeof(so),
		.symfs = "/nonexistent/fuzz-symfs",
		.buildid_dir = "/nonexistent/fuzz-buildid",
		.kallsyms = "/nonexistent/fuzz-kallsyms",
		.log = fuzz_log,
		/* fuzzed build ids are never asked of a server */
		.no_debuginfod = true,
	};
	struct pd_session_opts xo = { .sz = sizeof(xo), .log = fuzz_log };
	struct pd_read_periods *rp = NULL;
	struct pd_symbolizer *sym = NULL;
	struct pd_session *s = NULL;
	const struct pd_event *ev;
	struct pd_reader *r;
	int fd;

	if (src->archive_kallsyms)
		so.kallsyms = NULL;
	r = open_input(src, data, size, PD_ORDER_TIME, &fd);
	if (!r)
		return;
	if (pd_reader__read_header(r) < 0)
		goto out;
	sym = pd_symbolizer__new(&so);
	if (!sym)
		goto out;
	xo.symbolizer = sym;
	s = pd_session__new(r, &xo);
	rp = pd_read_periods__new(r);
	if (!s)
		goto out;
	while (pd_reader__next(r, &ev) > 0) {
		touch_event(ev);
		if (pd_session__event(s, ev))
			break;
		if (ev->type == PD_RECORD_SAMPLE)
			sample(s, rp, ev);
	}
out:
	pd_read_periods__free(rp);
	pd_session__free(s);
	pd_symbolizer__free(sym);
	close_input(src, r, fd);
}

void fuzz_read_all(const struct fuzz_source *src, const uint8_t *data,
		   size_t size)
{
	file_order(src, data, size);
	time_order(src, data, size);
}
