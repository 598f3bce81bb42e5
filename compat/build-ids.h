/* SPDX-License-Identifier: MIT */
/*
 * BUILD_ID entries for a target (compat/build-ids.c).
 */
#ifndef PD_COMPAT_BUILD_IDS_H
#define PD_COMPAT_BUILD_IDS_H

#include <stddef.h>
#include <stdint.h>

#include <perfdata/compat.h>

/*
 * The machine pid t reads a BUILD_ID entry of cpumode misc under: -1
 * (the host) for a host DSO unless t reads per-process pids; a guest
 * entry keeps its machine's. t NULL: as every perf up to 6.17 reads.
 */
int32_t pd__build_id_pid(const struct pd_perf_target *t, uint16_t misc,
			 int32_t pid);

/*
 * One entry in host order (a BUILD_ID section's, or a HEADER_BUILD_ID
 * record): its pid and misc made what t reads. Returns true if changed.
 */
bool pd__build_id_entry_fit(const struct pd_perf_target *t, uint8_t *entry,
			    size_t size);

/*
 * A whole BUILD_ID section in host order, in place: every entry fitted,
 * then the entries that became the same as an earlier one dropped.
 * Returns the new size; *changed and *dropped count entries (added to).
 * A malformed tail is kept as it is.
 */
size_t pd__build_ids_fit(const struct pd_perf_target *t, uint8_t *sec,
			 size_t size, uint64_t *changed, uint64_t *dropped);

#endif
