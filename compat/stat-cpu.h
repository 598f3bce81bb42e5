/* SPDX-License-Identifier: MIT */
/*
 * The stat-cpu shim (compat/stat-cpu.c): the cpu field of STAT records.
 *
 * perf stat record names a counter's CPU in each STAT record. Up to 5.16
 * it wrote the position of the CPU in the event's CPU map, from 5.17 the
 * CPU's number; perf reads the field as a position up to 5.18 and as a
 * number from 5.19. A per-task count has the map { -1 }: 0 in one form,
 * -1 in the other.
 */
#ifndef PD_COMPAT_STAT_CPU_H
#define PD_COMPAT_STAT_CPU_H

#include <stdbool.h>
#include <stdint.h>

#include <perfdata/event.h>

struct stat_own_map {
	uint64_t id;
	int32_t *cpus;
	uint32_t nr;
};

/* The CPU maps STAT records are read against, as the stream gives them. */
struct stat_cpus {
	int32_t *cpus;			/* the CPU_MAP record's */
	uint32_t nr;
	struct stat_own_map *own;	/* EVENT_UPDATE(CPUS): an event's own */
	size_t nr_own;
};

/* Keep the map of a CPU_MAP or EVENT_UPDATE(CPUS) record; 0 or -ENOMEM. */
int stat_cpus__note(struct stat_cpus *s, const struct pd_event *ev);

/*
 * Rewrite *cpu, a STAT record's field for event id, into the form the
 * target reads: a CPU number (to_number) or a position in the map. The
 * value's form is what the map allows it to be; where it can be either,
 * writer_numbers says: 1 the input's perf wrote numbers, 0 positions,
 * -1 not known (left as it is). Returns true if *cpu changed.
 */
bool stat_cpus__convert(const struct stat_cpus *s, uint64_t id,
			int writer_numbers, bool to_number, uint32_t *cpu);

void stat_cpus__free(struct stat_cpus *s);

#endif
