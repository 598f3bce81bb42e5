// SPDX-License-Identifier: MIT
/*
 * slowdown: the same work before and after a deliberate slowdown of one
 * function, for pd-diff's tests.
 *
 *   main -> run -> parse_input
 *               -> checksum      (the function the knob slows down)
 *               -> render_output
 *
 * Each round calls the three with the same amount of work, so each gets
 * about a third of the time; "slowdown MS FACTOR" makes checksum do
 * FACTOR times its work (default 1), so with 4 it gets about two thirds.
 * MS is the run time in milliseconds (default 300).
 */
#include <stdlib.h>
#include <time.h>

#define NOINLINE __attribute__((noinline))
/* code after a call keeps gcc from making it a tail jump (a lost frame) */
#define NO_TAIL_CALL() __asm__ __volatile__("" ::: "memory")

static volatile unsigned long sink;

/* volatile accumulators: the work stays, and the leaves get a frame */
NOINLINE void parse_input(unsigned long n)
{
	volatile unsigned long acc = sink;
	unsigned long i;

	for (i = 0; i < n; i++)
		acc = acc * 31 + i;
	sink = acc;
}

NOINLINE void checksum(unsigned long n)
{
	volatile unsigned long acc = sink;
	unsigned long i;

	for (i = 0; i < n; i++)
		acc ^= (acc << 5) + i;
	sink = acc;
}

NOINLINE void render_output(unsigned long n)
{
	volatile unsigned long acc = sink;
	unsigned long i;

	for (i = 0; i < n; i++)
		acc += i ^ (acc >> 3);
	sink = acc;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

NOINLINE void run(double ms, unsigned long factor)
{
	double end = now_ms() + ms;

	while (now_ms() < end) {
		parse_input(100000);
		checksum(100000 * factor);
		render_output(100000);
	}
	NO_TAIL_CALL();
}

int main(int argc, char **argv)
{
	run(argc > 1 ? atof(argv[1]) : 300,
	    argc > 2 ? strtoul(argv[2], NULL, 10) : 1);
	return 0;
}
