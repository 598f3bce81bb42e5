/* SPDX-License-Identifier: MIT */
/*
 * How the reader hands feature payloads to the feature parsers.
 */
#ifndef PD_FEATURES_INTERNAL_H
#define PD_FEATURES_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "internal.h"

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

#endif /* PD_FEATURES_INTERNAL_H */
