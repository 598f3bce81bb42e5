// SPDX-License-Identifier: MIT
/*
 * pd-unwind's summary, for example:
 *
 *   pd-unwind: dwarf.data: 40 samples unwound: 38 fully, 2 partly, 0 not at all
 *   pd-unwind:   partly: 2 stack copy too short
 *
 * With --stitch, "; N stitched" after the first line's counts: samples
 * whose chain was completed from the thread's earlier chains, counted
 * fully or partly by how the completed chain ends.
 *   pd-unwind:   missing ELF: /system/lib64/libc.so (8 samples)
 */
#include <inttypes.h>

#include "common/cli.h"
#include "unwind-summary.h"

static void reasons(FILE *f, const char *what, const uint64_t *why)
{
	const char *sep = "";
	int i;

	for (i = 0; i < PD_UNWIND_STOP__NR; i++)
		if (why[i])
			break;
	if (i == PD_UNWIND_STOP__NR)
		return;
	fprintf(f, "%s:   %s:", pd_prog, what);
	for (i = 0; i < PD_UNWIND_STOP__NR; i++) {
		if (!why[i])
			continue;
		fprintf(f, "%s %" PRIu64 " %s", sep, why[i],
			pd_unwind_stop__str(i));
		sep = ",";
	}
	fputc('\n', f);
}

void unwind_summary__print(FILE *f, const char *name,
			   const struct pd_unwind_summary *s)
{
	size_t i;

	fprintf(f, "%s: %s: %" PRIu64 " samples unwound: %" PRIu64
		" fully, %" PRIu64 " partly, %" PRIu64 " not at all",
		pd_prog, name, s->samples, s->full, s->partial, s->none);
	if (s->no_regs)
		fprintf(f, "; %" PRIu64 " without user registers", s->no_regs);
	if (s->stitched)
		fprintf(f, "; %" PRIu64 " stitched", s->stitched);
	if (s->threads > 1)
		fprintf(f, " (%u threads)", s->threads);
	fputc('\n', f);
	reasons(f, "partly", s->partial_why);
	reasons(f, "not at all", s->none_why);
	for (i = 0; i < s->nr_missing; i++)
		fprintf(f, "%s:   missing ELF: %s (%" PRIu64 " sample%s)\n",
			pd_prog, s->missing[i].dso, s->missing[i].samples,
			s->missing[i].samples == 1 ? "" : "s");
}
