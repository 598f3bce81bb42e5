/* SPDX-License-Identifier: MIT */
/*
 * --inline: the inline chain at an address, as stackcollapse-perf.pl
 * builds it from `addr2line -a PC -e MOD -i -f -s -C` (outermost first,
 * joined with ';', " (discriminator N)" removed, ":FILE:LINE" appended to
 * each function with --context), including its retry through the
 * symbol's address (nm) when addr2line finds nothing. Resolved through
 * libperfdata's symbolizer (libdw), each DSO loaded once.
 */
#ifndef PD_TOOLS_FOLD_INLINE_H
#define PD_TOOLS_FOLD_INLINE_H

#include <stdbool.h>
#include <stddef.h>

struct fold_inline;

/* symbol_memory: the symbolizer trimmed to it after each lookup (0:
 * never), as the results are copies */
struct fold_inline *fold_inline__new(const char *symfs, bool no_debuginfod,
				     size_t symbol_memory);
void fold_inline__free(struct fold_inline *fi);

/*
 * pc: hex as printed by perf script (no 0x); sym: the printed symbol
 * ("name+0x1f"); mod: the DSO path. Returns the joined chain (owned by
 * fi, valid until fold_inline__free) or NULL when nothing resolves; the
 * folder then falls back to the symbol as without --inline.
 */
const char *fold_inline__lookup(struct fold_inline *fi, const char *pc,
				const char *sym, const char *mod, bool context);

#endif /* PD_TOOLS_FOLD_INLINE_H */
