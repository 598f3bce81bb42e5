// SPDX-License-Identifier: MIT
/*
 * Fuzz target: pd-fold's `perf script` text input (fold-script.c) and the
 * folder behind it. Input: an options byte (bit 0 --pid, 1 --tid,
 * 2 --kernel, 3 --jit, 4 --addrs, 5-6 the weight, 7 --event-filter=cycles),
 * then the text. The folded stacks are written to /dev/null.
 */
#include <stdio.h>

#include "common/cli.h"
#include "fold/fold-script.h"
#include "fold/fold.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	struct fold_opts fo = { 0 };
	struct folder *f;
	FILE *in;

	if (size < 1)
		return 0;
	pd_quiet = true;
	if (!null)
		null = fopen("/dev/null", "w");
	if (!null)
		return 0;
	fo.pid = data[0] & 1;
	fo.tid = data[0] & 2;
	fo.annotate_kernel = data[0] & 4;
	fo.annotate_jit = data[0] & 8;
	fo.addrs = data[0] & 16;
	fo.weight = (data[0] >> 5) & 3;
	if (fo.weight > FOLD_WEIGHT_PERIOD)
		fo.weight = FOLD_WEIGHT_DEFAULT;
	fo.sel.event_filter = data[0] & 128 ? "cycles" : NULL;
	f = folder__new(&fo);
	if (!f)
		return 0;
	/* fmemopen() of an empty buffer fails: give it one byte it stops at */
	in = size > 1 ? fmemopen((void *)(data + 1), size - 1, "r") :
			fmemopen("", 1, "r");
	if (in) {
		fold_script(in, "fuzz", f);
		fclose(in);
		folder__write(f, null);
	}
	folder__free(f);
	return 0;
}
