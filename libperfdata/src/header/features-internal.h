/* SPDX-License-Identifier: MIT */
/*
 * How the reader hands feature payloads to the feature parsers.
 */
#ifndef PD_FEATURES_INTERNAL_H
#define PD_FEATURES_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/internal.h"

struct pd_features;

struct pd_features *pd_features__new(void);
void pd_features__free(struct pd_features *f);

/*
 * Parse one feature payload (file order bytes, swap = file from the other
 * byte order) into f. Called once per file-mode feature section and once
 * per pipe-mode HEADER_FEATURE record. For PD_FEAT_BUILD_ID it may be
 * called several times (pipe HEADER_BUILD_ID records, one entry each): the
 * entries are appended. A malformed payload is reported through log
 * (warning naming the feature) and returns -PD_ERR_BAD_FEATURE; the reader
 * goes on without that feature. Unknown ids are kept as opaque blobs.
 * The raw payload is always kept (copied) for round-tripping.
 */
int pd_features__add(struct pd_features *f, unsigned int id,
		     const void *data, size_t size, bool swap,
		     struct pd_logger *log);

/*
 * The pipe-mode end-of-features marker is a HEADER_FEATURE whose id is the
 * writer's last feature (HEADER_LAST_FEATURE of that perf), perf writes it
 * empty. A perf with more features takes that id for a feature and parses
 * it: perf 6.1 fails on an empty 21 (SAMPLE_TIME), 23 (CLOCKID), 28
 * (CPU_PMU_CAPS) or 30 (HYBRID_TOPOLOGY), the markers of upstream 4.15,
 * 4.18, 5.4 and 5.10, and "failed to process type: 80" ends its reading
 * (header.c v6.1, perf_event__process_feature(): the feature's process()
 * returns -1). For those ids the writer gives the marker zero bytes that
 * the newer perfs read as an empty feature (two u64 times 0, a u64
 * resolution 0, or a u32 count 0) and the marker's own perf ignores
 * (builtin-report.c, builtin-script.c: only the id of the marker is looked
 * at). Returns the body's size for a marker id: 16, 8 or 0.
 */
#define PD_PIPE_MARKER_BODY_MAX	16

static inline size_t pd__pipe_marker_body(uint64_t id)
{
	if (id == 21)
		return 16;
	return id == 23 || id == 28 || id == 30 ? 8 : 0;
}

#endif /* PD_FEATURES_INTERNAL_H */
