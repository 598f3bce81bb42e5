// SPDX-License-Identifier: MIT
/*
 * What `perf inject --jit` (perf 6.1) does to a recording, replayed as
 * the session reads it. perf inject reads the recording in time order
 * and, for each MMAP or MMAP2 (jit_process()):
 * - a file named ".../jit-PID.dump" (the name's PID that of the map, or
 *   the map's pid 0) is a jitdump marker: perf inject reads the dump and
 *   writes its code loads and moves as MMAP2 records, each with its own
 *   timestamp, in place of the marker's MMAP, which it drops. perf script
 *   then sorts them among the other records by time (perf inject drops
 *   the FINISHED_ROUND records: nothing is delivered before the end), so
 *   each takes effect at its time. A dump perf inject cannot use (missing,
 *   refused header, events not on CLOCK_MONOTONIC, i.e. recorded without
 *   -k 1) makes perf inject fail: then the recording is what perf script
 *   reads, marker and all;
 * - once a process's dump was read, its later "//anon" maps are dropped,
 *   so that JIT code the dump does not describe shows as [unknown], not
 *   as /tmp/perf-PID.map.
 * One difference: perf places a load timestamped before the marker's MMAP
 * before the records of that span; here it takes effect at the marker.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <perfdata/format.h>

#include "session-jit.h"

#define CLOCK_MONOTONIC_ID	1

struct pending {
	const struct pd_jit_map *m;
	uint64_t seq;
};

struct session_jit {
	const struct pd_reader *r;
	struct pd_symbolizer *sym;
	struct pd_logger *log;
	bool clock_warned;
	struct pending *v;		/* v[next..nr) are pending, in order */
	size_t nr, next, cap;
	uint64_t seq;
	int32_t *pids;			/* processes whose dump was read */
	size_t nr_pids, cap_pids;
};

struct session_jit *session_jit__new(const struct pd_reader *r,
				     struct pd_symbolizer *sym,
				     struct pd_logger *log)
{
	struct session_jit *j = calloc(1, sizeof(*j));

	if (j) {
		j->r = r;
		j->sym = sym;
		j->log = log;
	}
	return j;
}

void session_jit__free(struct session_jit *j)
{
	if (!j)
		return;
	free(j->v);
	free(j->pids);
	free(j);
}

/* perf's jit_detect(): ".../jit-<digits>.dump", the digits the pid */
static bool is_marker(const char *name, uint32_t pid)
{
	const char *p = strrchr(name, '/');
	char *end;
	long pid2;

	if (!p || strncmp(p, "/jit-", 5) || !isdigit((unsigned char)p[5]))
		return false;
	pid2 = strtol(p + 5, &end, 10);
	if (pid && (int)pid2 != (int)pid)
		return false;
	return !strcmp(end, ".dump");
}

static bool has_pid(const struct session_jit *j, uint32_t pid)
{
	size_t i;

	for (i = 0; i < j->nr_pids; i++)
		if (j->pids[i] == (int32_t)pid)
			return true;
	return false;
}

static int add_pid(struct session_jit *j, uint32_t pid)
{
	if (has_pid(j, pid))
		return 0;
	if (j->nr_pids == j->cap_pids) {
		size_t cap = j->cap_pids ? j->cap_pids * 2 : 8;
		int32_t *v = realloc(j->pids, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		j->pids = v;
		j->cap_pids = cap;
	}
	j->pids[j->nr_pids++] = (int32_t)pid;
	return 0;
}

/* perf's jit_validate_events(): every event on CLOCK_MONOTONIC */
static bool clock_ok(const struct session_jit *j)
{
	size_t i, n;

	if (!j->r)
		return true;
	n = pd_reader__nr_evsels(j->r);
	for (i = 0; i < n; i++) {
		const struct pd_evsel *e = pd_reader__evsel(j->r, i);

		if (!(e->attr.flags & PD_ATTR_USE_CLOCKID) ||
		    e->attr.clockid != CLOCK_MONOTONIC_ID)
			return false;
	}
	return true;
}

static int pending_cmp(const void *a, const void *b)
{
	const struct pending *x = a, *y = b;

	if (x->m->time != y->m->time)
		return x->m->time < y->m->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The dump's maps join the pending ones, all in time order. */
static int schedule(struct session_jit *j, const struct pd_jitdump *d)
{
	size_t n = pd_jitdump__nr_maps(d), i;

	if (!n)
		return 0;
	/* consumed entries make room first */
	if (j->next)
		memmove(j->v, j->v + j->next,
			(j->nr - j->next) * sizeof(*j->v));
	j->nr -= j->next;
	j->next = 0;
	if (j->nr + n > j->cap) {
		size_t cap = (j->nr + n) * 2;
		struct pending *v = realloc(j->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		j->v = v;
		j->cap = cap;
	}
	for (i = 0; i < n; i++) {
		j->v[j->nr].m = pd_jitdump__map(d, i);
		j->v[j->nr++].seq = j->seq++;
	}
	qsort(j->v, j->nr, sizeof(*j->v), pending_cmp);
	return 0;
}

int session_jit__mmap(struct session_jit *j, uint32_t pid,
		      const char *filename)
{
	const struct pd_jitdump *d;

	if (!is_marker(filename, pid))
		return has_pid(j, pid) && !strncmp(filename, "//anon", 6);
	if (!clock_ok(j)) {
		if (!j->clock_warned)
			pd__warn(j->log,
				 "%s: not used: the recording's events are not on CLOCK_MONOTONIC (perf record -k 1), so perf inject --jit would refuse it",
				 filename);
		j->clock_warned = true;
		return 0;
	}
	d = pd_symbolizer__jitdump(j->sym, filename);
	if (!d)
		return -ENOMEM;
	if (!pd_jitdump__valid(d))
		return 0;
	if (add_pid(j, pid) || schedule(j, d))
		return -ENOMEM;
	return 1;
}

const struct pd_jit_map *session_jit__next(struct session_jit *j,
					   uint64_t time)
{
	if (j->next >= j->nr || j->v[j->next].m->time > time)
		return NULL;
	return j->v[j->next++].m;
}
