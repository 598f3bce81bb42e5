/* SPDX-License-Identifier: MIT */
/*
 * Event names. perf stores them in EVENT_DESC (file mode) or EVENT_UPDATE
 * records; files from old perf versions have none, and perf then derives
 * the name from the attr: "cycles", "cpu-clock:pppH", "L1-dcache-load-misses",
 * "sched:sched_switch", "r1a8", "mem:0x1000:rw" ...
 */
#ifndef PERFDATA_EVSEL_H
#define PERFDATA_EVSEL_H

#include <stddef.h>

#include <perfdata/reader.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Writes the evsel's name into buf (always NUL-terminated) and returns
 * buf. r gives the tracepoint formats and PMU mappings of the file; it may
 * be NULL.
 */
const char *pd_evsel__name(const struct pd_evsel *e, const struct pd_reader *r,
			   char *buf, size_t len);

/* The name derived from the attr alone, ignoring any stored name. */
const char *pd_attr__name(const struct pd_attr *a, const struct pd_reader *r,
			  char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif /* PERFDATA_EVSEL_H */
