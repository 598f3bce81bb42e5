// SPDX-License-Identifier: MIT
/*
 * Fuzz target: pd-flame's reader, sort, layout and SVG writer
 * (tools/flame/flame-*.c) on folded or differential text. Input: an options
 * byte (bit 0 --reverse, 1 --inverted, 2 --flamechart, 3 --negate,
 * 4 --minwidth=0.5%, 5 --hash, 6-7 the palette: hot, java, mem, wakeup),
 * then the text. The SVG is written to /dev/null.
 */
#include <stdio.h>

#include "common/cli.h"
#include "flame/flame.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const palettes[] = { "hot", "java", "mem", "wakeup" };
	static FILE *null;
	struct flame_opts o;
	struct flame *fl;
	FILE *in;

	if (size < 1)
		return 0;
	pd_quiet = true;
	if (!null)
		null = fopen("/dev/null", "w");
	if (!null)
		return 0;
	flame_opts__init(&o);
	o.reverse = data[0] & 1;
	o.inverted = data[0] & 2;
	o.flamechart = data[0] & 4;
	o.negate = data[0] & 8;
	if (data[0] & 16) {
		o.minwidth = 0.5;
		o.minwidth_pct = true;
	}
	o.hash = data[0] & 32;
	o.colors = palettes[data[0] >> 6];
	fl = flame__new(&o);
	if (!fl)
		return 0;
	/* fmemopen() of an empty buffer fails: give it one byte it stops at */
	in = size > 1 ? fmemopen((void *)(data + 1), size - 1, "r") :
			fmemopen("", 1, "r");
	if (in) {
		/* errors are printed: to stderr, which the runs discard */
		if (!flame__read(fl, in, "fuzz"))
			flame__write_svg(fl, null);
		fclose(in);
	}
	flame__free(fl);
	return 0;
}
