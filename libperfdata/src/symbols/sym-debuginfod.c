// SPDX-License-Identifier: MIT
/*
 * The symbolizer's debuginfod client (debuginfod.c), the last place a
 * DSO's files are looked for: made when a loader first misses a file,
 * quiet in pd-unwind's helper threads, and asked for a DSO's file by its
 * build id. Below the loaders that fetch (sym-elf.c, sym-inline.c); the
 * symbolizer frees the client with itself.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "debuginfod-internal.h"
#include "sym-internal.h"

struct pd_debuginfod *sym_debuginfod(struct pd_symbolizer *s)
{
	struct pd_debuginfod_opts o = {
		.sz = sizeof(o),
		.log = s->opts.log,
		.log_ctx = s->opts.log_ctx,
	};

	if (s->debuginfod_tried)
		return s->debuginfod;
	s->debuginfod_tried = true;
	if (s->opts.no_debuginfod)
		return NULL;
	s->debuginfod = pd_debuginfod__new(&o);
	if (!s->debuginfod && errno == ENOSYS && !s->debuginfod_quiet)
		pd__warn(&s->log,
			 "DEBUGINFOD_URLS is set, but this build has no debuginfod support (make static, or built without libdebuginfod): files missing here are not fetched");
	if (s->debuginfod && s->debuginfod_quiet)
		pd__debuginfod_quiet(s->debuginfod);
	return s->debuginfod;
}

void pd__sym_debuginfod_quiet(struct pd_symbolizer *s)
{
	s->debuginfod_quiet = true;
	pd__debuginfod_quiet(s->debuginfod);
}

int sym_debuginfod_fetch(struct pd_dso *d, int kind, char *buf, size_t size)
{
	struct pd_debuginfod *c;
	char *path;
	int n;

	if (!d->has_build_id || !d->build_id_size)
		return -1;
	c = sym_debuginfod(d->s);
	if (!c || pd_debuginfod__find(c, d->build_id, d->build_id_size, kind,
				      d->path, &path))
		return -1;
	n = snprintf(buf, size, "%s", path);
	free(path);
	return n > 0 && (size_t)n < size ? 0 : -1;
}
