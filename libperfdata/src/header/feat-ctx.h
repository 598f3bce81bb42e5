/* SPDX-License-Identifier: MIT */
/*
 * What a feature section parser works with: the parsers of feat-parse.c
 * and the tracing data parser of feat-tracing.c, called by features.c.
 */
#ifndef PD_FEAT_CTX_H
#define PD_FEAT_CTX_H

#include <perfdata/features.h>

#include "base/arena.h"
#include "base/internal.h"

struct tep_handle;

/*
 * What a parser works with. A parser reads its section through c, builds
 * its result in locals allocated from arena and stores it into f only
 * once the whole section was read, so a malformed section leaves f as it
 * was. It fails by returning -1 with c.overrun set (the section ended
 * early) or with why set.
 */
struct pd_feat_ctx {
	struct pd_cursor c;
	struct pd_arena *arena;
	struct pd_features *f;
	struct tep_handle **tep;
	struct pd_logger *log;
	const char *why;
};

typedef int (*pd_feat_parse_fn)(struct pd_feat_ctx *x);

#endif /* PD_FEAT_CTX_H */
