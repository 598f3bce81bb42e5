// SPDX-License-Identifier: MIT
/*
 * burn: a CPU-bound program with a known call graph, for callchain,
 * symbol and unwinding tests.
 *
 *   main -> run -> outer -> middle -> inner_hot (-> mix, always inlined)
 *   main -> run -> other_work -> leaf_cold
 *
 * inner_hot gets about three quarters of the time. The argument is the
 * run time in milliseconds (default 300).
 */
#include <stdlib.h>
#include <time.h>

#define NOINLINE __attribute__((noinline))
/*
 * Code after a call stops gcc from turning it into a tail jump, which
 * would drop the caller's frame from the stack.
 */
#define NO_TAIL_CALL() __asm__ __volatile__("" ::: "memory")

static volatile unsigned long sink;

static inline __attribute__((always_inline)) unsigned long mix(unsigned long x)
{
	x ^= x >> 13;
	x *= 0x9e3779b97f4a7c15UL;
	return x ^ (x >> 29);
}

/*
 * The accumulators live on the stack (volatile): the optimizer keeps the
 * work, and gcc gives these leaf functions a frame, so that a
 * frame-pointer walk from them does not skip their caller.
 */
NOINLINE void inner_hot(unsigned long n)
{
	volatile unsigned long acc = sink;
	unsigned long i;

	for (i = 0; i < n; i++)
		acc = mix(acc + i);
	sink = acc;
}

NOINLINE void middle(unsigned long n)
{
	inner_hot(n);
	NO_TAIL_CALL();
}

NOINLINE void outer(unsigned long n)
{
	middle(n);
	NO_TAIL_CALL();
}

NOINLINE void leaf_cold(unsigned long n)
{
	volatile unsigned long acc = sink;
	unsigned long i;

	for (i = 0; i < n; i++)
		acc += i * 3;
	sink = acc;
}

NOINLINE void other_work(unsigned long n)
{
	leaf_cold(n);
	NO_TAIL_CALL();
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

NOINLINE void run(double ms)
{
	double end = now_ms() + ms;

	while (now_ms() < end) {
		outer(300000);
		other_work(100000);
	}
}

int main(int argc, char **argv)
{
	run(argc > 1 ? atof(argv[1]) : 300);
	return 0;
}
