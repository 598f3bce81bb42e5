// SPDX-License-Identifier: MIT
/*
 * The tracepoint printer of a library built without libtraceevent
 * (trace-print.c is the one with it): it knows which tracepoints the
 * tracing data has, but prints none of their fields. The first sample it
 * is asked for, of a tracepoint whose format the data has, logs one
 * warning saying why its fields are missing; every call returns
 * -ENOTSUP for such a sample, as pd_trace_printer__print() documents.
 */
#ifndef HAVE_LIBTRACEEVENT
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include <perfdata/trace.h>

#include "base/internal.h"

struct pd_trace_printer {
	const struct pd_features *f;
};

static bool warned;	/* once per process: the reason does not change */

PD_EXPORT struct pd_trace_printer *
pd_trace_printer__new(const struct pd_features *f)
{
	struct pd_trace_printer *p = calloc(1, sizeof(*p));

	if (p)
		p->f = f;
	return p;
}

PD_EXPORT void pd_trace_printer__free(struct pd_trace_printer *p)
{
	free(p);
}

PD_EXPORT int pd_trace_printer__print(struct pd_trace_printer *p, uint64_t id,
				      int cpu, const void *raw,
				      size_t raw_size, char *buf, size_t size)
{
	const struct pd_tracing *t = &p->f->tracing;
	uint32_t i;

	if (size)
		buf[0] = '\0';
	if (!pd_features__has(p->f, PD_FEAT_TRACING_DATA))
		return -ENOENT;
	for (i = 0; i < t->nr_events && t->events[i].id != id; i++)
		;
	if (i == t->nr_events)
		return -ENOENT;
	if (!warned)
		pd__warn(NULL, "tracepoint fields not printed: libperfdata was built without libtraceevent");
	warned = true;
	return -ENOTSUP;
}
#endif /* !HAVE_LIBTRACEEVENT */
