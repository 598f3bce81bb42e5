// SPDX-License-Identifier: MIT
/*
 * sigframe: most of its time in a signal handler, for unwinding through
 * the kernel's signal frame on arm64 (tests/arm64/t-guest-signal.sh).
 *
 *   main -> run -> raise (C library) -> [signal frame: the vDSO's
 *   __kernel_rt_sigreturn] -> on_usr1 -> in_handler
 *   main -> run -> outside
 *
 * The argument is the run time in milliseconds (default 1000).
 */
#include <signal.h>
#include <stdlib.h>
#include <time.h>

#define NOINLINE __attribute__((noinline))
/* code after a call keeps gcc from making it a tail jump */
#define NO_TAIL_CALL() __asm__ __volatile__("" ::: "memory")

static volatile unsigned long sink;

NOINLINE void in_handler(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		sink = sink * 31 + i;
}

static void on_usr1(int sig)
{
	in_handler(300000 + (unsigned long)sig);
	NO_TAIL_CALL();
}

NOINLINE void outside(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		sink = sink * 17 + i;
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
		raise(SIGUSR1);
		outside(100000);
	}
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_usr1 };

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, NULL))
		return 1;
	run(argc > 1 ? atof(argv[1]) : 1000);
	return 0;
}
