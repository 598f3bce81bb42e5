/* SPDX-License-Identifier: MIT */
/*
 * The per-feature section parsers behind pd_features__add().
 */
#ifndef PD_FEAT_PARSE_H
#define PD_FEAT_PARSE_H

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

/* The parser for a feature id, NULL for ids without a layout. */
pd_feat_parse_fn pd__feat_parser(unsigned int id);

/* BUILD_ID entries are appended across calls; see features.c. */
int pd__feat_parse_build_ids(struct pd_feat_ctx *x, struct pd_build_id **ids,
			     uint32_t *nr, size_t *cap);

int pd__feat_parse_tracing(struct pd_feat_ctx *x);

/*
 * Lines of the tracing data libtraceevent can be given safely (see
 * feat-tracing.c): a format's lines before its "print fmt:", and
 * printk_formats lines.
 */
bool pd__trace_format_line_ok(const char *line, size_t len);
bool pd__trace_printk_line_ok(const char *line, size_t len);
/*
 * The printk_formats lines pd__trace_printk_line_ok() accepts, as a C
 * string in out, which has room for size + 2 bytes (a last line without
 * its newline gains one, then the NUL). Returns out.
 */
char *pd__trace_printk_filter(char *out, const char *text, size_t size);

/* perf_header_string: u32 length, then that many bytes, NUL padded. */
const char *pd__feat_string(struct pd_feat_ctx *x);

#endif /* PD_FEAT_PARSE_H */
