// SPDX-License-Identifier: MIT
/*
 * The stat-cpu shim's rewrite of STAT records' cpu field
 * (compat/stat-cpu.c): CPU number <-> position in the event's CPU map,
 * the value's own form where the map allows only one, the input perf's
 * VERSION where it allows both, and an event's own map from EVENT_UPDATE.
 */
#include <stdint.h>
#include <string.h>

#include <perfdata/compat.h>
#include <perfdata/event.h>
#include <perfdata/format.h>

#include "../../compat/stat-cpu.h"
#include "tap.h"

static void note_map(struct stat_cpus *s, const int32_t *cpus, uint32_t nr)
{
	struct pd_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = PD_RECORD_CPU_MAP;
	ev.u.cpu_map.nr = nr;
	ev.u.cpu_map.cpus = cpus;
	CHECK(stat_cpus__note(s, &ev) == 0, "CPU_MAP of %u CPUs kept", nr);
}

static void note_own(struct stat_cpus *s, uint64_t id, const int32_t *cpus,
		     uint32_t nr)
{
	struct pd_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = PD_RECORD_EVENT_UPDATE;
	ev.u.event_update.type = 3;	/* CPUS */
	ev.u.event_update.id = id;
	ev.u.event_update.cpus.nr = nr;
	ev.u.event_update.cpus.cpus = cpus;
	CHECK(stat_cpus__note(s, &ev) == 0, "event %llu's own map kept",
	      (unsigned long long)id);
}

/* cpu after the rewrite (the input unchanged if none) */
static uint32_t conv(const struct stat_cpus *s, uint64_t id, int writer,
		     bool to_number, uint32_t cpu)
{
	stat_cpus__convert(s, id, writer, to_number, &cpu);
	return cpu;
}

int main(void)
{
	static const int32_t any[] = { -1 }, sparse[] = { 2, 3 },
			     ident[] = { 0, 1 }, shifted[] = { 1, 2 },
			     socket1[] = { 4 };
	struct stat_cpus s;

	/* per-task perf stat record: the map { -1 } */
	memset(&s, 0, sizeof(s));
	CHECK(conv(&s, 1, 1, false, -1U) == -1U, "no map yet: left as it is");
	note_map(&s, any, 1);
	CHECK(conv(&s, 1, 1, false, -1U) == 0,
	      "{ -1 }: number -1 is position 0 for perf before 5.19");
	CHECK(conv(&s, 1, 0, true, 0) == -1U,
	      "{ -1 }: position 0 is number -1 for perf 5.19+");
	CHECK(conv(&s, 1, 1, true, 0) == -1U && conv(&s, 1, -1, true, 0) == -1U,
	      "{ -1 }: 0 is a position whatever VERSION says (a file converted before)");
	CHECK(conv(&s, 1, 0, false, -1U) == 0 && conv(&s, 1, -1, false, -1U) == 0,
	      "{ -1 }: -1 is a number whatever VERSION says");
	CHECK(conv(&s, 1, 1, true, -1U) == -1U && conv(&s, 1, 0, false, 0) == 0,
	      "already in the target's form: unchanged");
	CHECK(conv(&s, 1, 1, false, 7) == 7, "neither a CPU nor a position: unchanged");

	/* perf stat record -C 2,3 */
	note_map(&s, sparse, 2);
	CHECK(conv(&s, 1, 1, false, 3) == 1 && conv(&s, 1, 1, false, 2) == 0,
	      "{ 2, 3 }: numbers 2, 3 are positions 0, 1");
	CHECK(conv(&s, 1, 0, true, 1) == 3, "{ 2, 3 }: position 1 is number 3");

	/* a map where a value can be both: VERSION decides */
	note_map(&s, shifted, 2);
	CHECK(conv(&s, 1, 1, false, 1) == 0, "{ 1, 2 }: 1 written by 5.17+ is position 0");
	CHECK(conv(&s, 1, 0, true, 1) == 2, "{ 1, 2 }: 1 written before 5.17 is number 2");
	CHECK(conv(&s, 1, -1, false, 1) == 1 && conv(&s, 1, -1, true, 1) == 1,
	      "{ 1, 2 }: 1 with no VERSION: left as it is");
	note_map(&s, ident, 2);
	CHECK(conv(&s, 1, 1, false, 1) == 1 && conv(&s, 1, 0, true, 1) == 1,
	      "{ 0, 1 }: number and position are the same");

	/* an uncore event with its own CPUs (EVENT_UPDATE CPUS) */
	note_own(&s, 9, socket1, 1);
	CHECK(conv(&s, 9, 1, false, 4) == 0, "own map { 4 }: number 4 is position 0");
	CHECK(conv(&s, 9, 0, true, 0) == 4, "own map { 4 }: position 0 is number 4");
	CHECK(conv(&s, 1, 0, true, 1) == 1, "other events keep the CPU_MAP's");

	stat_cpus__free(&s);
	CHECK(!s.cpus && !s.own && !s.nr_own, "freed");
	return tap_done();
}
