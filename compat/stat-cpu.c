// SPDX-License-Identifier: MIT
/*
 * The stat-cpu shim: STAT records' cpu field between the two forms perf
 * has used (compat/stat-cpu.h). A file of perf 5.17 or later read by an
 * older perf otherwise puts every count of a per-task `perf stat record`
 * at position -1 of its map: `perf stat report` of perf 4.18 shows
 * "<not counted>" and its `perf script` zeros. An older file read by
 * perf 5.19 or later fails: "Invalid CPU 0 for event task-clock".
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stat-cpu.h"

static int32_t *copy_map(const struct pd_cpu_map *m)
{
	int32_t *cpus = malloc((m->nr ? m->nr : 1) * sizeof(*cpus));

	if (cpus && m->nr)
		memcpy(cpus, m->cpus, m->nr * sizeof(*cpus));
	return cpus;
}

int stat_cpus__note(struct stat_cpus *s, const struct pd_event *ev)
{
	const struct pd_cpu_map *m;
	struct stat_own_map *own;
	int32_t *cpus;

	if (ev->type == PD_RECORD_CPU_MAP)
		m = &ev->u.cpu_map;
	else if (ev->type == PD_RECORD_EVENT_UPDATE &&
		 ev->u.event_update.type == 3)
		m = &ev->u.event_update.cpus;
	else
		return 0;
	if (!m->cpus)
		return 0;	/* an encoding the reader left undecoded */
	cpus = copy_map(m);
	if (!cpus)
		return -ENOMEM;
	if (ev->type == PD_RECORD_CPU_MAP) {
		free(s->cpus);
		s->cpus = cpus;
		s->nr = m->nr;
		return 0;
	}
	own = realloc(s->own, (s->nr_own + 1) * sizeof(*own));
	if (!own) {
		free(cpus);
		return -ENOMEM;
	}
	s->own = own;
	own[s->nr_own++] = (struct stat_own_map){
		.id = ev->u.event_update.id, .cpus = cpus, .nr = m->nr,
	};
	return 0;
}

/* perf reads an event's counts against its own CPUs if it has them. */
static const struct stat_own_map *map_of(const struct stat_cpus *s,
					 uint64_t id, struct stat_own_map *all)
{
	size_t i;

	for (i = s->nr_own; i > 0; i--)
		if (s->own[i - 1].id == id)
			return &s->own[i - 1];
	*all = (struct stat_own_map){ .id = id, .cpus = s->cpus, .nr = s->nr };
	return all;
}

static int position_of(const struct stat_own_map *m, int32_t cpu)
{
	uint32_t i;

	for (i = 0; i < m->nr; i++)
		if (m->cpus[i] == cpu)
			return (int)i;
	return -1;
}

bool stat_cpus__convert(const struct stat_cpus *s, uint64_t id,
			int writer_numbers, bool to_number, uint32_t *cpu)
{
	struct stat_own_map all;
	const struct stat_own_map *m = map_of(s, id, &all);
	int32_t v = (int32_t)*cpu;
	bool can_be_position = v >= 0 && (uint32_t)v < m->nr;
	int pos;
	bool is_number;

	if (!m->cpus)
		return false;
	pos = position_of(m, v);
	/*
	 * The value tells its form when it can be only one of them (0 in
	 * { -1 } is a position, -1 a number), whoever wrote it: a file
	 * converted before keeps the VERSION of the perf that recorded it.
	 */
	if (can_be_position && pos >= 0) {
		if (writer_numbers < 0)
			return false;	/* either, and no VERSION to tell */
		is_number = writer_numbers == 1;
	} else if (can_be_position || pos >= 0) {
		is_number = pos >= 0;
	} else {
		return false;		/* neither: left as it is */
	}
	if (is_number == to_number)
		return false;
	*cpu = to_number ? (uint32_t)m->cpus[v] : (uint32_t)pos;
	return *cpu != (uint32_t)v;
}

void stat_cpus__free(struct stat_cpus *s)
{
	size_t i;

	for (i = 0; i < s->nr_own; i++)
		free(s->own[i].cpus);
	free(s->own);
	free(s->cpus);
	memset(s, 0, sizeof(*s));
}
