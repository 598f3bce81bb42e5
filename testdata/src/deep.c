// SPDX-License-Identifier: MIT
/*
 * deep: stacks deeper than perf's default 8 KiB stack copy. main > run >
 * level > level > ... from 24 to 60 frames (a new depth for each descent),
 * each level's frame about 430 bytes, with work at every level on the way
 * down and on the way back, so that samples fall at every depth. With
 * `perf record --call-graph dwarf` (8 KiB copies) the deeper samples'
 * chains end where the copy ends; with `dwarf,65528` they reach main.
 * Argument: milliseconds to run (default 400).
 */
#include <stdlib.h>
#include <time.h>

#define PAD		400	/* with saved registers: ~430 bytes a frame */
#define WORK		20000	/* a few tens of microseconds a level */

static volatile unsigned long sink;

static unsigned long work(unsigned long x)
{
	volatile unsigned long acc = x;
	int i;

	for (i = 0; i < WORK; i++)
		acc = acc * 6364136223846793005UL + 1442695040888963407UL;
	return acc;
}

__attribute__((noinline)) static unsigned long level(int depth, int bottom,
						     unsigned long seed)
{
	volatile unsigned char pad[PAD];
	unsigned long acc;

	pad[seed % PAD] = (unsigned char)seed;
	acc = work(seed + (unsigned long)depth);
	if (depth < bottom)
		acc += level(depth + 1, bottom, acc);
	acc ^= work(acc);
	return acc + pad[acc % PAD];
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

__attribute__((noinline)) static void run(double ms)
{
	double end = now_ms() + ms;
	unsigned int r = 1;

	while (now_ms() < end) {
		r = r * 1103515245u + 12345u;
		/* main and run are two frames: 22 to 58 levels */
		sink += level(1, 22 + (int)((r >> 16) % 37), r);
	}
}

int main(int argc, char **argv)
{
	run(argc > 1 ? atof(argv[1]) : 400);
	return 0;
}
