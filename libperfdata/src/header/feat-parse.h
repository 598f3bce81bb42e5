/* SPDX-License-Identifier: MIT */
/*
 * The per-feature section parsers behind pd_features__add() (feat-parse.c;
 * the tracing data's is in feat-tracing.c).
 */
#ifndef PD_FEAT_PARSE_H
#define PD_FEAT_PARSE_H

#include <perfdata/features.h>

#include "feat-ctx.h"

/* The parser for a feature id, NULL for ids without a layout. */
pd_feat_parse_fn pd__feat_parser(unsigned int id);

/* BUILD_ID entries are appended across calls; see features.c. */
int pd__feat_parse_build_ids(struct pd_feat_ctx *x, struct pd_build_id **ids,
			     uint32_t *nr, size_t *cap);

/* perf_header_string: u32 length, then that many bytes, NUL padded. */
const char *pd__feat_string(struct pd_feat_ctx *x);

#endif /* PD_FEAT_PARSE_H */
